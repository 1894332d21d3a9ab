#include "instrumentors/CounterPlacement.h"

#include "passes/ControlFlowGraph.h"
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
