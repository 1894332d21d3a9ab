#pragma once

#include "ocelot/Instrumentor.h"

#include <optional>
#include <span>

namespace ocelot::instrumentors {

/// When a launch ran on the GPU, measured by the kernel itself: Ocelot adds it to every
/// instrumented kernel, so that an instrumented launch needs no timing events in the application's
/// stream (each event record costs the launching thread about 1.8 us on an H200) and graph kernel
/// nodes get their own GPU time. At entry the lowest active lane of each warp folds the warp's
/// %globaltimer into a record with atomic max of the complement (the minimum), at every exit the
/// leaving lanes' leader folds its %globaltimer with atomic max: the launch's GPU time is the
/// latest end minus the earliest start. To keep the atomics of large grids from meeting at one
/// address, a CTA uses record (linear CTA id mod kRecords).
///
/// Not user-selectable; the runtime appends it to the instrumentors of an instrumented launch and
/// reads its buffer with gpuNanoseconds() instead of finalize().
class LaunchClock final : public PTXInstrumentor {
public:
  static constexpr uint32_t kRecords = 32;
  /// Bytes of one record: ~earliest start ns, latest end ns (u64 each).
  static constexpr uint64_t kRecordBytes = 16;

  std::string_view name() const override { return "launchclock"; }
  std::unique_ptr<InstrumentorModuleState>
  analyze(ir::Module& module, passes::AnalysisManager& analyses,
          const InstrumentationTarget& target) const override;
  void instrument(InstrumentorModuleState& state, passes::PassManager& passes,
                  const InstrumentationTarget& target) const override;
  BufferRequest initialize(const InstrumentorModuleState& state,
                           const LaunchInfo& launch) const override;
  /// No result of its own: the runtime reads the time with gpuNanoseconds().
  std::shared_ptr<const InstrumentorResult>
  finalize(const InstrumentorModuleState& state, const LaunchInfo& launch,
           const DeviceFacts& device, std::span<const std::byte> buffer) const override;

  /// The launch's GPU time from its buffer, or nothing where no warp recorded a start and an end
  /// (the kernel did not run, or the buffer is not one of this instrumentor's).
  static std::optional<uint64_t> gpuNanoseconds(std::span<const std::byte> buffer);
};

} // namespace ocelot::instrumentors
