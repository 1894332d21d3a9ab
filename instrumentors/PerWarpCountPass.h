#pragma once

#include "instrumentors/BlockCountState.h"
#include "passes/Pass.h"

#include <vector>

namespace ocelot::instrumentors {

/// The fast basic-block counter. At the entry of each block counted atomically, the warp's
/// active lanes elect their lowest lane, which adds their number (`popc(activemask)`) to the
/// block's counter with one `red.global.add.u64`; counters are striped by CTA so that warps of
/// different SMs rarely hit the same address. Blocks with register counters add 1 to a 32-bit
/// register instead (half the registers of 64-bit ones: register pressure is what such counters
/// cost, see docs/instrumentation.md), and every exit of the kernel adds the warp's sum of each
/// register (`redux.sync`) to its counter. Derived and unreachable blocks get no code. With
/// BlockCountState::countWarps it counts warp entries instead: the leader adds 1 (to the counter
/// or to its register).
class PerWarpCountPass final : public passes::BasicBlockPass {
public:
  PerWarpCountPass(BlockCountState& state, const BufferAccess& buffer)
      : state_(state), buffer_(buffer) {}

  std::string_view name() const override { return "bbcount-per-warp"; }
  bool appliesTo(const ir::Function& function) const override;
  void beginFunction(ir::Function& function, passes::AnalysisManager& analyses) override;
  passes::PreservedAnalyses runOnBlock(ir::BasicBlock& block,
                                       passes::AnalysisManager& analyses) override;
  passes::PreservedAnalyses endFunction(ir::Function& function,
                                        passes::AnalysisManager& analyses) override;

private:
  /// `[buffer + (row * stripes + ctaid.x % stripes) * 8]`, emitted at the builder's point.
  ir::Operand counterAddress(ir::IRBuilder& b, uint32_t row) const;
  void flushRegisters(ir::IRBuilder& b, std::optional<ir::Guard> guard) const;

  BlockCountState& state_;
  const BufferAccess& buffer_;
  // The function being instrumented.
  std::vector<ir::RegisterRef> registers_;
  std::vector<uint32_t> registerRows_;
};

} // namespace ocelot::instrumentors
