#pragma once

#include "ocelot/Instrumentor.h"

#include <optional>
#include <span>
#include <string>

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
/// It also tells the host that the launch is over, without an event after the kernel (issue 14):
/// given a completion word (the module's slot after the instrumentors', see
/// InstrumentOptions::completionWord), the leaving lanes' leader adds
/// their number to a counter after the records with `atom.acq_rel.gpu` (after `bar.warp.sync`
/// over the leaving lanes, so that everything the warp wrote is released with it), and the lane
/// whose add completes the grid's thread count writes 1 into the word (`st.relaxed.sys`). Its add
/// acquired every earlier warp's, so all results are in device memory at GPU scope when the word
/// says so; the host reads them with a copy from device memory after it sees the word, so no
/// system-scope fence is needed (one cost the H200 ~3 us per launch of a 50 us kernel). A word
/// address of 0 means nobody waits for it.
///
/// Not user-selectable; the runtime appends it to the instrumentors of an instrumented launch and
/// reads its buffer with gpuNanoseconds() instead of finalize().
class LaunchClock final : public PTXInstrumentor {
public:
  static constexpr uint32_t kRecords = 32;
  /// Bytes of one record: ~earliest start ns, latest end ns (u64 each).
  static constexpr uint64_t kRecordBytes = 16;
  /// Where the count of threads that left the kernel is (u64), after the records.
  static constexpr uint64_t kExitedOffset = kRecords * kRecordBytes;
  static constexpr uint64_t kBufferBytes = kExitedOffset + 8;

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

  /// analyze() and instrument() for a module whose kernels also get the launch's completion word
  /// (`completion`: that slot's access), which the kernel writes at its end (see above). The
  /// plain overrides write no word.
  std::unique_ptr<InstrumentorModuleState> analyze(ir::Module& module,
                                                   passes::AnalysisManager& analyses,
                                                   const InstrumentationTarget& target,
                                                   const BufferAccess* completion) const;
  void instrument(InstrumentorModuleState& state, passes::PassManager& passes,
                  const InstrumentationTarget& target, const BufferAccess* completion) const;

  /// Whether the module's kernels write their completion word whenever they end without a fault:
  /// every thread leaves through code the pass instruments. Not so when a device function the
  /// buffers cannot reach (its address is taken, it has an alias, other units may call it) has an
  /// `exit`, or when the module had no completion slot: the runtime then waits for an event.
  /// `why` (if given) receives the reason.
  static bool signalsCompletion(const InstrumentorModuleState& state, std::string* why = nullptr);

  /// The launch's GPU time from its buffer, or nothing where no warp recorded a start and an end
  /// (the kernel did not run, or the buffer is not one of this instrumentor's).
  static std::optional<uint64_t> gpuNanoseconds(std::span<const std::byte> buffer);
};

} // namespace ocelot::instrumentors
