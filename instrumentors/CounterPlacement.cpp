#include "instrumentors/CounterPlacement.h"

#include "passes/ControlFlowGraph.h"
#include "passes/DominatorTree.h"
#include "passes/LoopInfo.h"

#include <algorithm>
#include <numeric>

namespace ocelot::instrumentors {

namespace {

using Node = passes::ControlFlowGraph::Node;
constexpr uint32_t kNoIndex = UINT32_MAX;

/// Post-dominance inside the regions of a function: the function, where the exit ends an
/// iteration, and each loop, where a back edge to its header or an edge out of it ends one. A
/// region's graph holds its own blocks (those whose innermost loop it is) and one node per loop
/// directly inside it: a natural loop is entered only through its header and every block of it is
/// reachable from there, so a path through an inner loop is a path through that one node. The
/// graphs together have about as many nodes and edges as the function (a region graph with every
/// block of the loop, inner loops' included, made deep nests quadratic). Each region's
/// post-dominator tree is the dominator tree of its reversed graph (passes::immediateDominators),
/// rooted at a sink that stands for the end of an iteration.
class RegionPostDominators {
public:
  static constexpr uint32_t kFunction = passes::Loop::kNoLoop;

  RegionPostDominators(const passes::ControlFlowGraph& cfg, const passes::LoopInfo& loops,
                       const std::vector<uint8_t>& skip)
      : loops_(loops), regions_(loops.loops().size() + 1) {
    const size_t n = cfg.blockCount();
    // Local numbers: own blocks first, then inner loops; the sink is the last.
    local_.assign(n, kNoIndex);
    loopLocal_.assign(loops.loops().size(), kNoIndex);
    for (Node b = 0; b < n; ++b)
      if (cfg.isReachable(b))
        local_[b] = regions_[slot(loops.loopIndexFor(b))].size++;
    for (uint32_t l = 0; l < loops.loops().size(); ++l)
      loopLocal_[l] = regions_[slot(loops.loops()[l].parent)].size++;

    // Edges of each region graph: an edge x -> y leaves every loop around x that does not hold
    // y (in each, from x's node there to the sink) and lies inside the innermost loop holding
    // both (the function when none does).
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> edges(regions_.size());
    for (Node x = 0; x < n; ++x) {
      if (!cfg.isReachable(x))
        continue;
      for (const auto& edge : cfg.successors(x)) {
        const Node y = edge.to;
        uint32_t below = kNoIndex; // the loop just inside the region, on x's side
        uint32_t region = loops.loopIndexFor(x);
        auto from = [&] { return below == kNoIndex ? local_[x] : loopLocal_[below]; };
        for (; region != kFunction && (cfg.isVirtual(y) || !loops.loops()[region].contains(y));
             region = loops.loops()[region].parent) {
          if (!skip[slot(region)])
            edges[slot(region)].emplace_back(from(), sink(region));
          below = region;
        }
        if (skip[slot(region)])
          continue;
        uint32_t to;
        if (cfg.isVirtual(y) || (region != kFunction && y == loops.loops()[region].header)) {
          to = sink(region);
        } else {
          // y is the region's own block or the header of a loop directly inside it (a natural
          // loop is entered through its header).
          uint32_t inner = loops.loopIndexFor(y);
          while (inner != region && loops.loops()[inner].parent != region)
            inner = loops.loops()[inner].parent;
          to = inner == region ? local_[y] : loopLocal_[inner];
        }
        edges[slot(region)].emplace_back(from(), to);
      }
    }

    for (size_t r = 0; r < regions_.size(); ++r) {
      if (skip[r])
        continue;
      Region& region = regions_[r];
      const uint32_t m = region.size + 1;
      std::vector<uint32_t> successorStart(m + 1, 0), predecessorStart(m + 1, 0);
      for (const auto& [from, to] : edges[r]) {
        ++successorStart[from + 1];
        ++predecessorStart[to + 1];
      }
      for (uint32_t i = 0; i < m; ++i) {
        successorStart[i + 1] += successorStart[i];
        predecessorStart[i + 1] += predecessorStart[i];
      }
      std::vector<uint32_t> successors(edges[r].size()), predecessors(edges[r].size());
      std::vector<uint32_t> nextSuccessor(successorStart.begin(), successorStart.end() - 1);
      std::vector<uint32_t> nextPredecessor(predecessorStart.begin(), predecessorStart.end() - 1);
      for (const auto& [from, to] : edges[r]) {
        successors[nextSuccessor[from]++] = to;
        predecessors[nextPredecessor[to]++] = from;
      }
      edges[r] = {};
      // The reversed graph: from the sink along predecessors.
      std::vector<uint32_t> idom = passes::immediateDominators(
          m, region.size,
          [&](uint32_t x, auto&& fn) {
            for (uint32_t i = predecessorStart[x]; i < predecessorStart[x + 1]; ++i)
              fn(predecessors[i]);
          },
          [&](uint32_t x, auto&& fn) {
            for (uint32_t i = successorStart[x]; i < successorStart[x + 1]; ++i)
              fn(successors[i]);
          });
      // Intervals of a depth-first walk of the tree: ancestry in O(1).
      std::vector<uint32_t> childStart(m + 1, 0), children;
      for (uint32_t x = 0; x < m; ++x)
        if (x != region.size && idom[x] != kNoIndex)
          ++childStart[idom[x] + 1];
      for (uint32_t i = 0; i < m; ++i)
        childStart[i + 1] += childStart[i];
      children.resize(childStart[m]);
      std::vector<uint32_t> fill(childStart.begin(), childStart.end() - 1);
      for (uint32_t x = 0; x < m; ++x)
        if (x != region.size && idom[x] != kNoIndex)
          children[fill[idom[x]]++] = x;
      region.enter.assign(m, kNoIndex);
      region.leave.assign(m, 0);
      uint32_t clock = 0;
      std::vector<std::pair<uint32_t, uint32_t>> stack{{region.size, childStart[region.size]}};
      region.enter[region.size] = clock++;
      while (!stack.empty()) {
        auto& [x, next] = stack.back();
        if (next < childStart[x + 1]) {
          uint32_t child = children[next++];
          region.enter[child] = clock++;
          stack.emplace_back(child, childStart[child]);
        } else {
          region.leave[x] = clock++;
          stack.pop_back();
        }
      }
    }
  }

  /// Whether every path from `a` to the end of its iteration passes `b`; both are blocks of the
  /// same region. False when `a` has no path to the end of an iteration.
  bool postDominates(Node b, Node a) const {
    const Region& region = regions_[slot(loops_.loopIndexFor(a))];
    uint32_t x = local_[a], target = local_[b];
    if (x == kNoIndex || target == kNoIndex || region.enter.empty() ||
        region.enter[x] == kNoIndex || region.enter[target] == kNoIndex)
      return false;
    return region.enter[target] <= region.enter[x] && region.leave[x] <= region.leave[target];
  }

private:
  struct Region {
    uint32_t size = 0; ///< nodes without the sink (which is numbered `size`)
    std::vector<uint32_t> enter, leave;
  };
  size_t slot(uint32_t loop) const { return loop == kFunction ? regions_.size() - 1 : loop; }
  uint32_t sink(uint32_t loop) const { return regions_[slot(loop)].size; }

  const passes::LoopInfo& loops_;
  std::vector<Region> regions_;     ///< per loop, then the function
  std::vector<uint32_t> local_;     ///< per block: its node in its region's graph
  std::vector<uint32_t> loopLocal_; ///< per loop: its node in the graph of the region around it
};

/// Derives blocks that run exactly as often as a block that dominates them. When A dominates B,
/// both have the same innermost loop, and every path from A to the end of the iteration (or of
/// the function) passes B, then B runs once for every run of A: A's run comes first in each
/// iteration (dominance), B cannot run twice without A between (any cycle through B passes the
/// loop's header, which reaches B only through A), and it runs at least once (post-dominance).
/// B counts as the earliest such A. Regions with calls are left alone (a callee may `exit`), and
/// so are irreducible functions (cycles without a loop).
///
/// The earliest A is found without walking B's dominators: along the dominators of B in B's
/// region, the ones B post-dominates are the nearest ones up to some point (if B post-dominates
/// A, it post-dominates every block of its region between A and B on the dominator tree), and if
/// B post-dominates its nearest such dominator U, the blocks it post-dominates are exactly U's
/// (a block U post-dominates comes before U on every path to B, so B post-dominates it too; a
/// block B post-dominates reaches B only through U, so U post-dominates it). So the earliest A of
/// B is the earliest A of U, computed before B in reverse post-order.
void deriveControlEquivalent(ir::Function& function, passes::AnalysisManager& analyses,
                             std::vector<BlockCounter>& blocks) {
  const auto& cfg = analyses.getResult<passes::ControlFlowGraphAnalysis>(function);
  const auto& loops = analyses.getResult<passes::LoopAnalysis>(function);
  const auto& dominators = analyses.getResult<passes::DominatorTreeAnalysis>(function);
  if (!loops.irreducibleEdges().empty())
    return;
  const size_t n = cfg.blockCount();
  const size_t loopCount = loops.loops().size();
  auto slot = [&](uint32_t loop) { return loop == passes::Loop::kNoLoop ? loopCount : loop; };

  // Regions that make calls (their inner loops' calls included) are left alone.
  std::vector<uint8_t> calls(loopCount + 1, 0);
  for (Node b = 0; b < n; ++b)
    if (cfg.isReachable(b) && blockMakesCalls(*cfg.block(b)))
      calls[slot(loops.loopIndexFor(b))] = 1;
  for (size_t l = loopCount; l-- > 0;) // inner loops come after the loops around them
    if (calls[l])
      calls[slot(loops.loops()[l].parent)] = 1;
  bool anyRegion = false;
  for (uint8_t c : calls)
    anyRegion = anyRegion || c == 0;
  if (!anyRegion)
    return;
  RegionPostDominators post(cfg, loops, calls);

  // The nearest dominator of each block in its own region: a walk of the dominator tree keeping,
  // per region, the blocks of that region on the path from the root.
  std::vector<uint32_t> nearest(n, kNoIndex);
  std::vector<std::vector<Node>> path(loopCount + 1);
  std::vector<std::pair<Node, size_t>> stack{{dominators.root(), 0}};
  while (!stack.empty()) {
    auto& [x, next] = stack.back();
    auto kids = dominators.children(x);
    if (next == 0 && !cfg.isVirtual(x)) {
      auto& onPath = path[slot(loops.loopIndexFor(x))];
      if (!onPath.empty())
        nearest[x] = onPath.back();
      onPath.push_back(x);
    }
    if (next < kids.size()) {
      Node child = kids[next++];
      stack.emplace_back(child, 0);
    } else {
      if (!cfg.isVirtual(x))
        path[slot(loops.loopIndexFor(x))].pop_back();
      stack.pop_back();
    }
  }

  std::vector<uint32_t> earliest(n, kNoIndex); // the earliest A of each block (itself: none)
  for (Node b : cfg.reversePostOrder()) {
    if (cfg.isVirtual(b) || calls[slot(loops.loopIndexFor(b))])
      continue;
    earliest[b] = b;
    Node u = nearest[b];
    if (u != kNoIndex && blocks[u].kind != CounterKind::Unreachable && post.postDominates(b, u))
      earliest[b] = earliest[u];
    if (blocks[b].kind != CounterKind::Atomic || earliest[b] == b)
      continue;
    Node source = earliest[b];
    blocks[b].kind = CounterKind::Derived;
    blocks[b].source = blocks[source].kind == CounterKind::Derived ? blocks[source].source : source;
  }
}

} // namespace

CounterPlacement placeCounters(ir::Function& function, passes::AnalysisManager& analyses,
                               const PlacementOptions& options) {
  using Node = passes::ControlFlowGraph::Node;
  const auto& cfg = analyses.getResult<passes::ControlFlowGraphAnalysis>(function);
  CounterPlacement placement;
  const size_t n = cfg.blockCount();
  placement.blocks.resize(n);
  for (Node b = 0; b < n; ++b)
    if (!cfg.isReachable(b))
      placement.blocks[b].kind = CounterKind::Unreachable;

  if (options.derive) {
    // Follow single-predecessor/single-successor edges back to the head of each chain, in
    // reverse post-order so that a predecessor's representative is known first.
    for (Node b : cfg.reversePostOrder()) {
      if (cfg.isVirtual(b) || placement.blocks[b].kind != CounterKind::Atomic)
        continue;
      auto predecessors = cfg.predecessors(b);
      if (predecessors.size() != 1)
        continue;
      Node p = predecessors.front().from;
      if (cfg.isVirtual(p) || p == b || cfg.successors(p).size() != 1 ||
          blockMakesCalls(*cfg.block(p)))
        continue;
      const BlockCounter& head = placement.blocks[p];
      placement.blocks[b].kind = CounterKind::Derived;
      placement.blocks[b].source = head.kind == CounterKind::Derived ? head.source : p;
    }
  }

  if (options.derive) {
    deriveControlEquivalent(function, analyses, placement.blocks);
    // A chain's head can itself be derived by control equivalence after the chain was (a loop's
    // exit block followed by a straight-line block): point every derived block at a counted one.
    for (BlockCounter& block : placement.blocks)
      while (block.kind == CounterKind::Derived &&
             placement.blocks[block.source].kind == CounterKind::Derived &&
             placement.blocks[block.source].source != block.source)
        block.source = placement.blocks[block.source].source;
  }

  if (options.maxRegisters > 0) {
    const auto& loops = analyses.getResult<passes::LoopAnalysis>(function);
    std::vector<Node> candidates;
    for (Node b = 0; b < n; ++b)
      if (placement.blocks[b].kind == CounterKind::Atomic && loops.depth(b) > 0)
        candidates.push_back(b);
    // Innermost loops first; among equals the shorter blocks, where an atomic costs most.
    std::stable_sort(candidates.begin(), candidates.end(), [&](Node a, Node c) {
      if (loops.depth(a) != loops.depth(c))
        return loops.depth(a) > loops.depth(c);
      return blockInstructionCount(*cfg.block(a)) < blockInstructionCount(*cfg.block(c));
    });
    if (candidates.size() > options.maxRegisters)
      candidates.resize(options.maxRegisters);
    std::sort(candidates.begin(), candidates.end());
    for (Node b : candidates) {
      placement.blocks[b].kind = CounterKind::Register;
      placement.blocks[b].register_ = placement.registers++;
    }
  }
  return placement;
}

bool blockMakesCalls(const ir::BasicBlock& block) {
  bool calls = false;
  block.forEachInstruction(
      [&](const ir::Instruction& inst) { calls = calls || inst.form().has(ir::kCall); });
  return calls;
}

uint32_t blockInstructionCount(const ir::BasicBlock& block) {
  uint32_t count = 0;
  block.forEachInstruction([&](const ir::Instruction&) { ++count; });
  return count;
}

} // namespace ocelot::instrumentors
