#pragma once

#include "passes/Liveness.h"

#include <vector>

namespace ocelot::passes {

/// The most registers live at once in each block, at any instruction boundary: in 32-bit register
/// units (a .b64 counts 2, a .v4 .b32 4), predicates separately. A lower bound on what ptxas must
/// allocate for virtual registers (it may rematerialize or spill); instrumentation that adds live
/// registers in a hot block shows up here.
class RegisterPressure {
public:
  using Node = ControlFlowGraph::Node;
  struct Block {
    unsigned maxUnits = 0;
    unsigned maxPredicates = 0;
  };

  RegisterPressure(const ControlFlowGraph& cfg, const Liveness& liveness);

  const Block& block(Node node) const { return blocks_[node]; }
  /// The maximum over all blocks.
  const Block& function() const { return max_; }

private:
  std::vector<Block> blocks_;
  Block max_;
};

struct RegisterPressureAnalysis {
  static AnalysisKey Key;
  static constexpr std::string_view Name = "register pressure";
  using Result = RegisterPressure;
  Result run(ir::Function& function, AnalysisManager& am);
};

} // namespace ocelot::passes
