#include "instrumentors/CounterPlacement.h"

#include "passes/ControlFlowGraph.h"
#include "passes/DominatorTree.h"
#include "passes/LoopInfo.h"

#include <algorithm>
#include <numeric>

namespace ocelot::instrumentors {

namespace {

bool makesCalls(const ir::BasicBlock& block) {
  bool calls = false;
  block.forEachInstruction(
      [&](const ir::Instruction& inst) { calls = calls || inst.form().has(ir::kCall); });
  return calls;
}

uint32_t instructionCount(const ir::BasicBlock& block) {
  uint32_t count = 0;
  block.forEachInstruction([&](const ir::Instruction&) { ++count; });
  return count;
}

using Node = passes::ControlFlowGraph::Node;
constexpr uint32_t kNoIndex = UINT32_MAX;

/// Post-dominance inside one region of a function: the blocks of a loop, where a back edge to the
/// loop's header or an edge out of the loop ends an iteration, or the whole function, where the
/// exit ends it: dominators of the reversed region graph (passes::immediateDominators), rooted at
/// a sink that stands for the end of an iteration.
class RegionPostDominators {
public:
  RegionPostDominators(const passes::ControlFlowGraph& cfg, const std::vector<Node>& nodes,
                       const passes::Loop* loop) {
    const uint32_t m = static_cast<uint32_t>(nodes.size());
    sink_ = m;
    index_.assign(cfg.size(), kNoIndex);
    for (uint32_t i = 0; i < m; ++i)
      index_[nodes[i]] = i;
    // successors within the region; the sink for whatever ends an iteration
    std::vector<std::vector<uint32_t>> successors(m + 1), predecessors(m + 1);
    for (uint32_t i = 0; i < m; ++i) {
      for (const auto& edge : cfg.successors(nodes[i])) {
        bool ends = cfg.isVirtual(edge.to) || index_[edge.to] == kNoIndex ||
                    (loop != nullptr && edge.to == loop->header);
        uint32_t to = ends ? sink_ : index_[edge.to];
        successors[i].push_back(to);
        predecessors[to].push_back(i);
      }
    }
    // Post-order of the reversed graph from the sink (iterative depth-first search).
    std::vector<uint32_t> order;
    std::vector<uint8_t> seen(m + 1, 0);
    std::vector<std::pair<uint32_t, size_t>> stack{{sink_, 0}};
    seen[sink_] = 1;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < predecessors[node].size()) {
        uint32_t p = predecessors[node][next++];
        if (!seen[p]) {
          seen[p] = 1;
          stack.push_back({p, 0});
        }
      } else {
        order.push_back(node);
        stack.pop_back();
      }
    }
    std::vector<uint32_t> reversePostOrder(order.rbegin(), order.rend());
    idom_ = passes::immediateDominators(m + 1, reversePostOrder, [&](uint32_t x, auto&& fn) {
      for (uint32_t s : successors[x])
        fn(s);
    });
  }

  /// Whether every path from `a` to the end of its iteration passes `b` (both in the region).
  bool postDominates(Node b, Node a) const {
    uint32_t x = index_[a], target = index_[b];
    if (x == kNoIndex || target == kNoIndex || idom_[x] == kNoIndex)
      return false; // outside the region, or no path to the end of an iteration
    for (; x != sink_; x = idom_[x])
      if (x == target)
        return true;
    return false;
  }

private:
  uint32_t sink_ = 0;
  std::vector<uint32_t> index_;
  std::vector<uint32_t> idom_;
};

/// Derives blocks that run exactly as often as a block that dominates them. When A dominates B,
/// both have the same innermost loop, and every path from A to the end of the iteration (or of
/// the function) passes B, then B runs once for every run of A: A's run comes first in each
/// iteration (dominance), B cannot run twice without A between (any cycle through B passes the
/// loop's header, which reaches B only through A), and it runs at least once (post-dominance).
/// Regions with calls are left alone (a callee may `exit`), and so are irreducible functions
/// (cycles without a loop).
void deriveControlEquivalent(ir::Function& function, passes::AnalysisManager& analyses,
                             std::vector<BlockCounter>& blocks) {
  const auto& cfg = analyses.getResult<passes::ControlFlowGraphAnalysis>(function);
  const auto& loops = analyses.getResult<passes::LoopAnalysis>(function);
  const auto& dominators = analyses.getResult<passes::DominatorTreeAnalysis>(function);
  if (!loops.irreducibleEdges().empty())
    return;
  const size_t n = cfg.blockCount();
  // Regions: the function (kNoLoop) and each loop; a region's nodes include its inner loops.
  std::vector<uint32_t> regions{passes::Loop::kNoLoop};
  for (uint32_t l = 0; l < loops.loops().size(); ++l)
    regions.push_back(l);
  for (uint32_t region : regions) {
    const passes::Loop* loop = region == passes::Loop::kNoLoop ? nullptr : &loops.loops()[region];
    std::vector<Node> nodes;
    if (loop != nullptr) {
      nodes = loop->nodes;
    } else {
      for (Node b = 0; b < n; ++b)
        if (cfg.isReachable(b))
          nodes.push_back(b);
    }
    bool calls = false;
    for (Node b : nodes)
      calls = calls || makesCalls(*cfg.block(b));
    if (calls)
      continue;
    RegionPostDominators post(cfg, nodes, loop);
    for (Node b : cfg.reversePostOrder()) {
      if (cfg.isVirtual(b) || loops.loopIndexFor(b) != region ||
          blocks[b].kind != CounterKind::Atomic)
        continue;
      // The earliest dominator with the same innermost loop that b post-dominates.
      Node source = passes::ControlFlowGraph::kNone;
      for (Node a = dominators.idom(b); a != passes::DominatorTree::kNone && !cfg.isVirtual(a);
           a = dominators.idom(a)) {
        if (loop != nullptr && !loop->contains(a))
          break; // left the loop
        if (loops.loopIndexFor(a) != region)
          continue; // in an inner loop (the join after it is equivalent to the block before it)
        if (blocks[a].kind != CounterKind::Unreachable && post.postDominates(b, a))
          source = a;
      }
      if (source == passes::ControlFlowGraph::kNone)
        continue;
      blocks[b].kind = CounterKind::Derived;
      blocks[b].source =
          blocks[source].kind == CounterKind::Derived ? blocks[source].source : source;
    }
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
      if (cfg.isVirtual(p) || p == b || cfg.successors(p).size() != 1 || makesCalls(*cfg.block(p)))
        continue;
      const BlockCounter& head = placement.blocks[p];
      placement.blocks[b].kind = CounterKind::Derived;
      placement.blocks[b].source = head.kind == CounterKind::Derived ? head.source : p;
    }
  }

  if (options.derive)
    deriveControlEquivalent(function, analyses, placement.blocks);

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
      return instructionCount(*cfg.block(a)) < instructionCount(*cfg.block(c));
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

} // namespace ocelot::instrumentors
