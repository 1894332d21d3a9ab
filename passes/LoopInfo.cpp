#include "passes/LoopInfo.h"

#include "passes/AnalysisManager.h"

namespace ocelot::passes {

AnalysisKey LoopAnalysis::Key;

LoopInfo LoopAnalysis::run(ir::Function& function, AnalysisManager& am) {
  return LoopInfo(am.getResult<ControlFlowGraphAnalysis>(function),
                  am.getResult<DominatorTreeAnalysis>(function));
}

namespace detail {

struct LoopMembership {
  std::vector<uint32_t> innermost;    ///< per node: its innermost loop, or kNoLoop
  std::vector<uint32_t> enter, leave; ///< per loop: [enter, leave) in the loop tree's pre-order
  std::vector<uint32_t> preorder;     ///< loops in the loop tree's pre-order
  std::vector<uint32_t> ownStart;     ///< per loop: where its own blocks start in `own`
  std::vector<ControlFlowGraph::Node> own; ///< blocks whose innermost loop is the loop, by loop
};

} // namespace detail

bool Loop::contains(Node node) const {
  if (membership_ == nullptr || node >= membership_->innermost.size())
    return false;
  uint32_t inner = membership_->innermost[node];
  return inner != kNoLoop && membership_->enter[index_] <= membership_->enter[inner] &&
         membership_->enter[inner] < membership_->leave[index_];
}

std::vector<Loop::Node> Loop::nodes() const {
  std::vector<Node> result;
  if (membership_ == nullptr)
    return result;
  const auto& m = *membership_;
  result.reserve(size);
  for (uint32_t k = m.enter[index_]; k < m.leave[index_]; ++k) {
    uint32_t loop = m.preorder[k];
    result.insert(result.end(), m.own.begin() + m.ownStart[loop],
                  m.own.begin() + m.ownStart[loop + 1]);
  }
  std::sort(result.begin(), result.end());
  return result;
}

uint32_t LoopInfo::loopIndexFor(Node node) const {
  return node < membership_->innermost.size() ? membership_->innermost[node] : Loop::kNoLoop;
}

LoopInfo::LoopInfo(const ControlFlowGraph& cfg, const DominatorTree& dom)
    : membership_(std::make_shared<detail::LoopMembership>()) {
  constexpr uint32_t kNone = Loop::kNoLoop;
  const size_t n = cfg.size();
  std::vector<uint32_t> rpoIndex(n, UINT32_MAX);
  const auto& rpo = cfg.reversePostOrder();
  for (uint32_t i = 0; i < rpo.size(); ++i)
    rpoIndex[rpo[i]] = i;

  // Back edges: (rpo index of the header, latch). Loops are first numbered by their header's
  // place in reverse post-order ("found" order).
  std::vector<std::pair<uint32_t, Node>> backEdges;
  for (Node from : rpo)
    for (const auto& edge : cfg.successors(from)) {
      if (cfg.isVirtual(edge.to) || rpoIndex[edge.to] > rpoIndex[from])
        continue; // not a retreating edge
      if (dom.dominates(edge.to, from))
        backEdges.emplace_back(rpoIndex[edge.to], from);
      else
        irreducible_.push_back(edge);
    }
  std::sort(backEdges.begin(), backEdges.end());
  backEdges.erase(std::unique(backEdges.begin(), backEdges.end()), backEdges.end());
  std::vector<Loop> found;
  std::vector<uint32_t> foundOfHeader(n, kNone);
  for (const auto& [headerIndex, latch] : backEdges) {
    Node header = rpo[headerIndex];
    if (foundOfHeader[header] == kNone) {
      foundOfHeader[header] = static_cast<uint32_t>(found.size());
      found.emplace_back().header = header;
    }
    found[foundOfHeader[header]].latches.push_back(latch); // sorted: backEdges is
  }
  const uint32_t loopCount = static_cast<uint32_t>(found.size());

  // Bodies, innermost loops first (an inner header comes later in reverse post-order than the
  // headers of the loops around it). The walk back from the latches stops at the header; when it
  // reaches a block of a loop found before, it continues from the header of the outermost such
  // loop (union-find over blocks), so that every block is walked once per loop that owns it
  // directly, not once per loop around it.
  std::vector<Node> representative(n);
  for (Node x = 0; x < n; ++x)
    representative[x] = x;
  auto find = [&](Node x) {
    Node root = x;
    while (representative[root] != root)
      root = representative[root];
    while (representative[x] != root) {
      Node next = representative[x];
      representative[x] = root;
      x = next;
    }
    return root;
  };
  std::vector<uint32_t> innermostFound(n, kNone), parentFound(loopCount, kNone);
  std::vector<uint32_t> stamp(n, kNone);
  std::vector<std::vector<Node>> ownFound(loopCount);
  std::vector<Node> work, reached;
  for (uint32_t id = loopCount; id-- > 0;) {
    Loop& loop = found[id];
    const Node header = loop.header;
    stamp[header] = id;
    reached.clear();
    auto visit = [&](Node x) {
      Node r = find(x);
      if (r == header || stamp[r] == id)
        return;
      stamp[r] = id;
      work.push_back(r);
      reached.push_back(r);
    };
    for (Node latch : loop.latches)
      visit(latch);
    while (!work.empty()) {
      Node x = work.back();
      work.pop_back();
      if (foundOfHeader[x] != kNone && foundOfHeader[x] != id && innermostFound[x] != kNone)
        parentFound[foundOfHeader[x]] = id; // the outermost loop found so far around x
      else
        innermostFound[x] = id;
      for (const auto& edge : cfg.predecessors(x))
        if (cfg.isReachable(edge.from))
          visit(edge.from);
    }
    innermostFound[header] = id;
    ownFound[id].push_back(header);
    for (Node r : reached) {
      if (innermostFound[r] == id)
        ownFound[id].push_back(r);
      representative[r] = header;
    }
  }

  // Sizes (inner loops first, as found), then the final order: larger loops first, ties in found
  // order, so that each loop's enclosing loops come before it.
  std::vector<uint32_t> sizeFound(loopCount, 0);
  for (uint32_t id = loopCount; id-- > 0;) {
    sizeFound[id] += static_cast<uint32_t>(ownFound[id].size());
    if (parentFound[id] != kNone)
      sizeFound[parentFound[id]] += sizeFound[id];
  }
  std::vector<uint32_t> order(loopCount);
  for (uint32_t i = 0; i < loopCount; ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return sizeFound[a] > sizeFound[b]; });
  std::vector<uint32_t> indexOf(loopCount);
  for (uint32_t i = 0; i < loopCount; ++i)
    indexOf[order[i]] = i;

  detail::LoopMembership& m = *membership_;
  loops_.reserve(loopCount);
  m.ownStart.assign(loopCount + 1, 0);
  for (uint32_t i = 0; i < loopCount; ++i) {
    const uint32_t id = order[i];
    Loop loop = std::move(found[id]);
    loop.size = sizeFound[id];
    loop.index_ = i;
    loop.membership_ = membership_;
    if (parentFound[id] != kNone) {
      loop.parent = indexOf[parentFound[id]];
      loop.depth = loops_[loop.parent].depth + 1; // parents are larger: already placed
      loops_[loop.parent].children.push_back(i);
    }
    m.ownStart[i + 1] = m.ownStart[i] + static_cast<uint32_t>(ownFound[id].size());
    m.own.insert(m.own.end(), ownFound[id].begin(), ownFound[id].end());
    loops_.push_back(std::move(loop));
  }
  m.innermost.assign(n, kNone);
  for (Node x = 0; x < n; ++x)
    if (innermostFound[x] != kNone)
      m.innermost[x] = indexOf[innermostFound[x]];

  // Pre-order intervals of the loop tree: contains() in O(1).
  m.enter.assign(loopCount, 0);
  m.leave.assign(loopCount, 0);
  m.preorder.reserve(loopCount);
  std::vector<std::pair<uint32_t, size_t>> stack;
  for (uint32_t root = 0; root < loopCount; ++root) {
    if (loops_[root].parent != kNone)
      continue;
    stack.emplace_back(root, 0);
    m.enter[root] = static_cast<uint32_t>(m.preorder.size());
    m.preorder.push_back(root);
    while (!stack.empty()) {
      auto& [loop, next] = stack.back();
      if (next < loops_[loop].children.size()) {
        uint32_t child = loops_[loop].children[next++];
        m.enter[child] = static_cast<uint32_t>(m.preorder.size());
        m.preorder.push_back(child);
        stack.emplace_back(child, 0);
      } else {
        m.leave[loop] = static_cast<uint32_t>(m.preorder.size());
        stack.pop_back();
      }
    }
  }

  // Exits: an edge leaves every loop that holds its source but not its target, from the source's
  // innermost loop outwards. Per loop, in the order of their sources, then of the edges.
  for (Node x = 0; x < n; ++x)
    for (const auto& edge : cfg.successors(x))
      for (uint32_t loop = m.innermost[x]; loop != kNone && !loops_[loop].contains(edge.to);
           loop = loops_[loop].parent)
        loops_[loop].exits.push_back(edge);
}

} // namespace ocelot::passes
