#pragma once

#include "ocelot/InstrumentorResult.h"
#include "ocelot/LaunchInfo.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ocelot {

/// Everything Ocelot learned about one kernel launch: which kernel, how it was launched, when,
/// whether it ran instrumented (and if not, why), and one result per instrumentor that measured
/// it. Profiles are immutable and shared (std::shared_ptr<const KernelProfile>); they reach
/// clients through ocelot::kernelProfile(), callbacks and the profile file.
class KernelProfile {
public:
  /// When things happened, in nanoseconds of the host's system clock (since the Unix epoch).
  struct Timing {
    int64_t enqueuedNs = 0;  ///< the application's launch call
    int64_t completedNs = 0; ///< Ocelot saw the kernel (and the copies of its results) finish
    /// The kernel's time on the GPU from events recorded around it; absent when unmeasured.
    std::optional<double> gpuMilliseconds;
  };

  /// How the launch ran.
  enum class Execution {
    Instrumented, ///< the instrumented kernel ran; results() holds what it measured
    Original,     ///< the application's own kernel ran (notes() says why); no results
    /// The instrumented kernel ran but its results cannot be trusted: the launch failed (a fault,
    /// the context became unusable before its results were read) or was disturbed (the device
    /// was reset while it was in flight). notes() says which; no results and no GPU time.
    Failed,
  };

  KernelProfile(LaunchInfo launch, Timing timing, Execution execution,
                std::vector<std::string> instrumentors, std::vector<std::string> notes,
                std::vector<std::shared_ptr<const InstrumentorResult>> results);

  const LaunchInfo& launch() const { return launch_; }
  const std::string& kernelName() const { return launch_.kernelName; }
  const std::string& demangledName() const { return launch_.demangledName; }
  uint64_t launchId() const { return launch_.launchId; }
  const Timing& timing() const { return timing_; }
  Execution execution() const { return execution_; }
  bool instrumented() const { return execution_ == Execution::Instrumented; }
  bool failed() const { return execution_ == Execution::Failed; }
  /// The instrumentors that were active for this launch, in slot order.
  const std::vector<std::string>& instrumentors() const { return instrumentors_; }
  /// Things a person should know: why the original kernel ran, a mode an instrumentor switched
  /// to, results that are incomplete.
  const std::vector<std::string>& notes() const { return notes_; }

  const std::vector<std::shared_ptr<const InstrumentorResult>>& results() const { return results_; }
  /// The result of type R (BasicBlockCounts, CtaClockTimes, ...), or nullptr.
  template <class R> const R* result() const {
    for (const auto& r : results_)
      if (const auto* typed = dynamic_cast<const R*>(r.get()))
        return typed;
    return nullptr;
  }
  /// The result of the instrumentor named `name`, or nullptr.
  const InstrumentorResult* result(std::string_view name) const;

  /// The profile as one JSON object (docs/profile.schema.json, docs/instrumentation.md).
  Json json() const;
  /// json() as compact text on one line.
  std::string toJson() const;

private:
  LaunchInfo launch_;
  Timing timing_;
  Execution execution_;
  std::vector<std::string> instrumentors_;
  std::vector<std::string> notes_;
  std::vector<std::shared_ptr<const InstrumentorResult>> results_;
};

/// The version of the JSON schema KernelProfile::json writes ("schema" member).
inline constexpr int kProfileSchemaVersion = 1;

} // namespace ocelot
