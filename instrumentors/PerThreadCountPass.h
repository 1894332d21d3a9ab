#pragma once

#include "instrumentors/BlockCountState.h"
#include "passes/Pass.h"

namespace ocelot::instrumentors {

/// The paper's basic-block counter (Listing 1): a matrix with one row per block and one column
/// per thread of the launch, each thread incrementing its own counter with a plain load, add and
/// store (no atomics; consecutive threads touch consecutive counters, so accesses coalesce). At
/// function entry each thread computes the address of its column and the row stride.
class PerThreadCountPass final : public passes::BasicBlockPass {
public:
  PerThreadCountPass(BlockCountState& state, const BufferAccess& buffer)
      : state_(state), buffer_(buffer) {}

  std::string_view name() const override { return "bbcount-per-thread"; }
  bool appliesTo(const ir::Function& function) const override;
  passes::PreservedAnalyses runOnBlock(ir::BasicBlock& block,
                                       passes::AnalysisManager& analyses) override;

private:
  BlockCountState& state_;
  const BufferAccess& buffer_;
  // The function being instrumented: its column address and row stride, in bytes.
  ir::RegisterRef column_{};
  ir::RegisterRef rowBytes_{};
};

} // namespace ocelot::instrumentors
