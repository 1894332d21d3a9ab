#pragma once

#include "ocelot/Instrumentor.h"
#include "ocelot/InstrumentorOptions.h"

namespace ocelot::instrumentors {

/// When each CTA ran and where: the paper's ClockCycleCountInstrumentor (section 3.3,
/// Experiment 3). Per CTA it records the SM (%smid), the start (first warp to arrive) and the end
/// (last thread to leave) in the SM's cycle counter %clock64 and in the GPU's %globaltimer;
/// finalize() turns them into per-SM busy time, CTAs per SM and the kernel's SM load imbalance
/// (CtaClockTimes).
///
/// The paper records the start after a barrier at kernel entry and the end after a barrier at
/// the end. A barrier at the end deadlocks (or is undefined) when some threads have already
/// left the kernel early, and barriers perturb the warps' scheduling; so there are none here.
/// Instead, at entry the lowest active lane of each warp folds the warp's start into the CTA's
/// record with atomic max (of the complement, for the minimum), and at every exit the lanes
/// leaving together fold their end in the same way and count themselves: the record ends up with
/// the earliest start, the latest end, the number of warps that started and of threads that
/// left, which tells that every CTA was recorded exactly once and completely.
class CtaClock final : public PTXInstrumentor {
public:
  /// Bytes of one CTA's record: ~start clock, end clock, ~start ns, end ns (u64 each), then
  /// smid + 1, warps started, threads exited (u32 each), padding.
  static constexpr uint64_t kRecordBytes = 48;

  explicit CtaClock(const InstrumentorOptions& options = {});

  std::string_view name() const override { return "ctaclock"; }
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
};

} // namespace ocelot::instrumentors
