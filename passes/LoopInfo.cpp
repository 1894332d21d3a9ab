#include "passes/LoopInfo.h"

#include "passes/AnalysisManager.h"

#include <map>

namespace ocelot::passes {

AnalysisKey LoopAnalysis::Key;

LoopInfo LoopAnalysis::run(ir::Function& function, AnalysisManager& am) {
  return LoopInfo(am.getResult<ControlFlowGraphAnalysis>(function),
                  am.getResult<DominatorTreeAnalysis>(function));
}

LoopInfo::LoopInfo(const ControlFlowGraph& cfg, const DominatorTree& dom) {
  const size_t n = cfg.size();
  std::vector<uint32_t> rpoIndex(n, UINT32_MAX);
  const auto& rpo = cfg.reversePostOrder();
  for (uint32_t i = 0; i < rpo.size(); ++i)
    rpoIndex[rpo[i]] = i;

  // Back edges grouped by header, headers in reverse post-order.
  std::map<uint32_t, std::vector<Node>> latchesByHeader; // rpo index of header -> latches
  for (Node from : rpo)
    for (const auto& edge : cfg.successors(from)) {
      if (cfg.isVirtual(edge.to) || rpoIndex[edge.to] > rpoIndex[from])
        continue; // not a retreating edge
      if (dom.dominates(edge.to, from))
        latchesByHeader[rpoIndex[edge.to]].push_back(from);
      else
        irreducible_.push_back(edge);
    }

  // Bodies: walk backwards from the latches, stopping at the header.
  std::vector<Loop> found;
  std::vector<uint32_t> mark(n, UINT32_MAX);
  for (auto& [headerIndex, latches] : latchesByHeader) {
    Loop loop;
    loop.header = rpo[headerIndex];
    std::sort(latches.begin(), latches.end());
    latches.erase(std::unique(latches.begin(), latches.end()), latches.end());
    loop.latches = latches;
    const uint32_t id = static_cast<uint32_t>(found.size());
    mark[loop.header] = id;
    loop.nodes.push_back(loop.header);
    std::vector<Node> work;
    for (Node latch : latches)
      if (mark[latch] != id) {
        mark[latch] = id;
        loop.nodes.push_back(latch);
        work.push_back(latch);
      }
    while (!work.empty()) {
      Node x = work.back();
      work.pop_back();
      for (const auto& edge : cfg.predecessors(x)) {
        Node p = edge.from;
        if (mark[p] == id || !cfg.isReachable(p))
          continue;
        mark[p] = id;
        loop.nodes.push_back(p);
        work.push_back(p);
      }
    }
    std::sort(loop.nodes.begin(), loop.nodes.end());
    found.push_back(std::move(loop));
  }

  // Nesting: larger loops first, so that each loop's parent is already placed. Natural loops with
  // different headers are disjoint or nested, so the innermost loop holding the header so far
  // holds the whole loop.
  std::vector<uint32_t> order(found.size());
  for (uint32_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return found[a].nodes.size() > found[b].nodes.size();
  });
  innermost_.assign(n, Loop::kNoLoop);
  loops_.reserve(found.size());
  for (uint32_t original : order) {
    Loop loop = std::move(found[original]);
    const uint32_t index = static_cast<uint32_t>(loops_.size());
    loop.parent = innermost_[loop.header];
    if (loop.parent != Loop::kNoLoop) {
      loop.depth = loops_[loop.parent].depth + 1;
      loops_[loop.parent].children.push_back(index);
    }
    for (Node x : loop.nodes)
      innermost_[x] = index;
    loops_.push_back(std::move(loop));
  }
  for (Loop& loop : loops_)
    for (Node x : loop.nodes)
      for (const auto& edge : cfg.successors(x))
        if (!loop.contains(edge.to))
          loop.exits.push_back(edge);
}

} // namespace ocelot::passes
