#pragma once

#include "passes/Pass.h"

namespace ocelot::passes {

/// Ends a basic block after every `call`, so that the CFG has a node per call return point (for
/// calling-context attribution and for instrumentation between a call and what follows it). By
/// default blocks do not split at calls: a call returns to the next instruction, which is
/// ordinary straight-line flow.
class SplitBlocksAtCalls final : public KernelPass {
public:
  std::string_view name() const override { return "split-blocks-at-calls"; }
  PreservedAnalyses run(ir::Function& function, AnalysisManager& analyses) override;
};

} // namespace ocelot::passes
