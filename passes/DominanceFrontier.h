#pragma once

#include "passes/DominatorTree.h"

#include <span>
#include <vector>

namespace ocelot::passes {

/// Dominance frontiers: DF(x) holds the nodes y where x's dominance ends (x dominates a
/// predecessor of y but does not strictly dominate y). These are where SSA construction places
/// φ-functions. Computed with Cooper, Harvey and Kennedy's runner algorithm: for each join node,
/// walk up from each predecessor to the join node's immediate dominator.
class DominanceFrontier {
public:
  using Node = ControlFlowGraph::Node;

  DominanceFrontier(const ControlFlowGraph& cfg, const DominatorTree& dominators);

  /// The frontier of `node`, sorted by node number, without duplicates.
  std::span<const Node> frontier(Node node) const {
    return {members_.data() + start_[node], members_.data() + start_[node + 1]};
  }

private:
  std::vector<uint32_t> start_;
  std::vector<Node> members_;
};

struct DominanceFrontierAnalysis {
  static AnalysisKey Key;
  static constexpr std::string_view Name = "dominance frontier";
  static constexpr bool ControlFlowOnly = true;
  using Result = DominanceFrontier;
  Result run(ir::Function& function, AnalysisManager& am);
};

} // namespace ocelot::passes
