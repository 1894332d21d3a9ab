#pragma once

#include "instrumentors/InstrumentorRegistry.h"
#include "ocelot/KernelSelection.h"
#include "ocelot/ProfileSummary.h"
#include "runtime/core/LaunchInterceptor.h"
#include "runtime/core/LaunchSite.h"
#include "runtime/core/Logger.h"
#include "runtime/core/ModulePipeline.h"
#include "runtime/instrumentation/DeviceResources.h"
#include "runtime/instrumentation/InstrumentedModuleCache.h"
#include "runtime/instrumentation/LaunchCallPath.h"
#include "runtime/instrumentation/ModuleCatalog.h"
#include "runtime/instrumentation/OccupancyGuard.h"
#include "runtime/instrumentation/ProfileHub.h"
#include "runtime/instrumentation/ProfileWorker.h"

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace ocelot::runtime {
class Runtime;
}

namespace ocelot::runtime::instrumentation {

/// The instrumentation side of the runtime, behind one narrow interface (LaunchInterceptor, which
/// it installs on the runtime with installOn): the runtime offers it every launch (launch()) and
/// tells it about device resets; the API layer forwards Ocelot's public API (ocelot/ocelot.h) to
/// it. Everything else (instrumented module
/// cache, buffers, readback, profiles) lives here.
///
/// An instrumented launch, on the application's stream and without synchronizing it:
///   fill each instrumentor's buffer; record an event; launch the instrumented kernel with the
///   hidden parameter appended; record an event; copy each buffer into pinned host memory;
///   enqueue a host function that hands the launch to the profile worker.
/// The worker (never the driver's callback thread) finalizes the results into a KernelProfile,
/// stores it as the latest and calls the subscribers. Anything that goes wrong on the way runs
/// the original kernel instead, logs one line, and records why in the launch's profile.
class InstrumentationFramework final : public LaunchInterceptor {
public:
  /// Makes `runtime` create an InstrumentationFramework as its launch interceptor when it first
  /// needs one.
  static void installOn(Runtime& runtime);
  /// The framework of a runtime it was installed on (created now if it was not yet); throws
  /// std::logic_error if none was installed.
  static InstrumentationFramework& of(Runtime& runtime);

  /// `idle`, when given, is kept true exactly while the configuration has been read and no
  /// instrumentor is active, so that the runtime's launch path skips the framework with one
  /// relaxed load.
  InstrumentationFramework(const Logger& logger, const ModulePipeline& pipeline,
                           std::atomic<bool>* idle = nullptr);
  InstrumentationFramework(const InstrumentationFramework&) = delete;
  InstrumentationFramework& operator=(const InstrumentationFramework&) = delete;
  ~InstrumentationFramework() override;

  /// The next process-wide launch number (every launch the runtime sees takes one).
  uint64_t nextLaunchId() override {
    return launchIds_.fetch_add(1, std::memory_order_relaxed) + 1;
  }
  /// Whether any instrumentor is active (reads the environment's configuration the first time).
  bool active() override;
  /// Handles the launch if it is selected: returns the launch's result, or nullopt when the
  /// runtime should launch it as usual.
  std::optional<cudaError_t> launch(const LaunchSite& site) override;
  /// Before cudaDeviceReset: waits (bounded) for pending results, then forgets the device's
  /// modules and buffers. After it (`afterReset`), for what launches of other threads made while
  /// it ran: forgets first, so that those launches' profiles report the disturbance, then waits.
  void forgetDevice(int ordinal, bool afterReset = false) override;
  /// After __cudaUnregisterFatBinary: unloads that registration's instrumented modules.
  void forgetRegistration(uint64_t id);

  // --- The public API -----------------------------------------------------------------------
  uint64_t add(std::shared_ptr<const PTXInstrumentor> instrumentor);
  uint64_t add(std::string_view name, const InstrumentorOptions& options);
  bool remove(uint64_t handle);
  void removeAll();
  std::vector<std::string> activeDescriptions() const;
  instrumentors::InstrumentorRegistry& registry() { return registry_; }
  void setSelection(const SelectionRules& rules);
  SelectionRules selection() const;
  ProfileHub& profiles() { return hub_; }
  void flush();

  /// The summary of every profile so far (what `ocelot run` prints at exit).
  std::string summary() const { return summary_.format(); }
  /// Flushes every live instance, completes its profile file and prints its summary (registered
  /// with atexit when a profile file or a summary is asked for).
  static void flushAllAtExit();

private:
  struct Active {
    uint64_t handle = 0;
    std::shared_ptr<const PTXInstrumentor> instrumentor;
    std::string description;
  };
  using ActiveList = std::vector<Active>;

  void configureFromEnvironment();
  uint64_t activate(std::shared_ptr<const PTXInstrumentor> instrumentor);
  void installSelection(const SelectionRules& rules);
  /// Updates the runtime's idle flag; activeMutex_ held.
  void publishIdle();
  /// Copies the attributes the application set on its kernel to the instrumented one.
  static void mirrorAttributes(Device& device, const LaunchParams& params,
                               DeviceFunction instrumented);
  void addSpecs(const std::string& list);
  std::shared_ptr<const ActiveList> activeList() const;
  std::shared_ptr<KernelSelection> currentSelection() const;
  DeviceResources& resources(Device& device, int ordinal);
  LaunchInfo describe(const LaunchSite& site);
  /// Launches the original kernel and delivers a profile that says why.
  cudaError_t runOriginal(const LaunchSite& site, std::unique_ptr<PendingLaunch> pending,
                          std::string note, bool streamUsable);
  void enqueueCompletion(Stream& stream, std::unique_ptr<PendingLaunch> pending);
  void complete(std::unique_ptr<PendingLaunch> pending);
  void release(PendingLaunch& pending);
  void logOnce(const std::string& key, const std::string& message);
  /// The instrumented module for `slots` and `caps`, built at the first call that needs it; that
  /// call logs what the build cost (the paper's Figure 9: the pipeline next to the driver's JIT)
  /// or why it failed.
  std::shared_ptr<LoadedInstrumentation>
  moduleFor(const CatalogEntry& catalog, const LaunchSite& site,
            const std::vector<SlotChoice>& slots, const RegisterCaps& caps,
            const InstrumentedModuleCache::AddressOf& addresses,
            const instrumentors::OriginalFunctionAddresses& functionAddresses,
            const PendingLaunch& pending);

  const Logger& logger_;
  instrumentors::InstrumentorRegistry registry_;
  ModuleCatalog catalog_;
  InstrumentedModuleCache modules_;
  OccupancyGuard occupancy_;
  std::atomic<bool> keepOccupancy_{true}; ///< OCELOT_KEEP_OCCUPANCY (on unless "0")
  /// OCELOT_CALL_STACKS (on unless "0"): each selected launch records its host call path.
  std::atomic<bool> callStacks_{true};
  CallPathCapture callPathCapture_ = CallPathCapture::forThisLibrary();
  CallPathSymbolizer callPathSymbolizer_;
  ProfileHub hub_;
  ProfileSummary summary_;
  /// Where the summary goes at exit: "stderr", a file, or empty for nowhere (OCELOT_SUMMARY;
  /// stderr by default when OCELOT_INSTRUMENTORS is set, as under `ocelot run`).
  std::string summaryTarget_;
  ProfileWorker worker_;

  std::once_flag configured_;
  std::atomic<uint64_t> launchIds_{0};
  std::atomic<size_t> activeCount_{0};
  mutable std::mutex activeMutex_;
  std::shared_ptr<const ActiveList> active_ = std::make_shared<ActiveList>();
  std::atomic<bool>* idle_ = nullptr;
  bool environmentRead_ = false; ///< under activeMutex_
  uint64_t nextHandle_ = 1;
  std::shared_ptr<KernelSelection> selection_ = std::make_shared<KernelSelection>();

  std::mutex launchIndexMutex_;
  std::unordered_map<std::string, uint64_t> kernelLaunches_;
  std::unordered_map<std::string, std::string> demangled_;

  std::mutex resourcesMutex_;
  std::map<int, std::unique_ptr<DeviceResources>> resources_;

  std::mutex logMutex_;
  std::set<std::string> logged_;
};

} // namespace ocelot::runtime::instrumentation
