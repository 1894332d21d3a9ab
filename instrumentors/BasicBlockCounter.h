#pragma once

#include "ocelot/Instrumentor.h"
#include "ocelot/InstrumentorOptions.h"

#include <cstdint>

namespace ocelot::instrumentors {

/// Counts how many times threads enter each basic block (the paper's BasicBlockInstrumentor,
/// section 3.3), in one of two modes:
///  * per-warp (default): counts summed per warp with one atomic per warp, kept in registers
///    across loops, derived where control flow ties blocks together (see PerWarpCountPass);
///  * per-thread: the paper's matrix of one counter per block and thread (PerThreadCountPass).
///    It needs blocks x threads x 8 bytes; a launch that would exceed the memory budget is counted
///    per warp instead (and the profile says so).
/// Both give exact thread counts; dynamic instruction counts follow from them.
///
/// Options: mode=per-warp|per-thread, budget-mb=N (per-thread budget, default
/// $OCELOT_BBCOUNT_BUDGET_MB or 512), stripes=N (per-warp counters per block, a power of two,
/// default 32), registers=N (register counters per kernel, default 4; 0 turns them off),
/// derive=on|off (default on).
class BasicBlockCounter final : public PTXInstrumentor {
public:
  static constexpr uint32_t kPerWarp = 0;
  static constexpr uint32_t kPerThread = 1;

  explicit BasicBlockCounter(const InstrumentorOptions& options = {});

  std::string_view name() const override { return "bbcount"; }
  std::string options() const override;
  VariantChoice variant(const LaunchInfo& launch, const KernelFacts& facts) const override;
  std::unique_ptr<InstrumentorModuleState>
  analyze(ir::Module& module, passes::AnalysisManager& analyses,
          const InstrumentationTarget& target) const override;
  void instrument(InstrumentorModuleState& state, passes::PassManager& passes,
                  const InstrumentationTarget& target) const override;
  BufferRequest initialize(const InstrumentorModuleState& state,
                           const LaunchInfo& launch) const override;
  std::shared_ptr<const InstrumentorResult>
  finalize(const InstrumentorModuleState& state, const LaunchInfo& launch,
           const DeviceFacts& device, std::span<const std::byte> buffer) const override;

  bool perThread() const { return perThread_; }
  uint64_t budgetBytes() const { return budgetBytes_; }

private:
  bool perThread_ = false;
  uint64_t budgetBytes_ = 0;
  uint32_t stripes_ = 32;
  uint32_t registers_ = 4;
  bool derive_ = true;
};

} // namespace ocelot::instrumentors
