#pragma once

#include "instrumentors/InstrumentorRegistry.h"
#include "instrumentors/LaunchClock.h"
#include "ocelot/KernelSelection.h"
#include "ocelot/ProfileSummary.h"
#include "runtime/core/ApiCallLog.h"
#include "runtime/core/LaunchInterceptor.h"
#include "runtime/core/LaunchSite.h"
#include "runtime/core/Logger.h"
#include "runtime/core/ModulePipeline.h"
#include "runtime/core/NvtxRanges.h"
#include "runtime/instrumentation/DeviceResources.h"
#include "runtime/instrumentation/InstrumentedModuleCache.h"
#include "runtime/instrumentation/LaunchCallPath.h"
#include "runtime/instrumentation/LaunchRecordPool.h"
#include "runtime/instrumentation/ModuleCatalog.h"
#include "runtime/instrumentation/OccupancyGuard.h"
#include "runtime/instrumentation/ProfileHub.h"
#include "runtime/instrumentation/ProfileWorker.h"
#include "support/Expected.h"

#include <atomic>
#include <chrono>
#include <functional>
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
/// An instrumented launch, on the application's stream and without synchronizing it: record an
/// event; launch the instrumented kernel with the hidden parameter appended (pointers into a
/// zeroed chunk of the device's result ring); record an event, which the profile worker polls.
/// Once it has fired, the worker (never the driver's callback thread) copies the chunk into pinned
/// host memory and zeroes it again on Ocelot's own stream, finalizes the results into a
/// KernelProfile, stores it as the latest and calls the subscribers. When the ring has no room
/// (or an instrumentor wants a fill other than zero), pooled buffers are filled before and copied
/// after the kernel in the application's stream, and an event after the copies is polled. Anything
/// that goes wrong on the way runs the original kernel instead, logs one line, and records why in
/// the launch's profile.
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
  /// `apiCalls`, when given, goes into the profile file (`api_calls`) when it is completed.
  /// `nvtx`, when given, gives each launch its NVTX range stack (LaunchInfo::nvtxRanges) and
  /// OCELOT_NVTX_INCLUDE's rules something to select by; its ranges go into the file (`nvtx`).
  InstrumentationFramework(const Logger& logger, const ModulePipeline& pipeline,
                           std::atomic<bool>* idle = nullptr, const ApiCallLog* apiCalls = nullptr,
                           const NvtxRanges* nvtx = nullptr);
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
  /// Host measures (OCELOT_HOST_MEASURES: "1" on, "0" off; by default on when a profile file is
  /// written): copies, memsets and kernels that produce no profile are timed with pooled events
  /// and go into the profile file's `operations` (GCP and GLB, seed 001).
  bool hostMeasures() const { return hostMeasures_; }
  /// Runs `run` (which enqueues one copy or memset on `stream` of device `ordinal`) between two
  /// pooled events when host measures are on, and queues the operation for its device time.
  /// Returns what `run` returned.
  cudaError_t timeOperation(Device& device, int ordinal, Stream& stream, DeviceOperation::Kind kind,
                            const char* name, uint64_t bytes,
                            const std::function<cudaError_t()>& run) override;
  /// A launch of a kernel Ocelot did not load (a library's, through the driver API), made by
  /// `launch`: when an instrumentor is active and the launch is selected, it runs between events
  /// and gets a profile (not instrumented, `reason` as its note, its GPU time); nullopt when the
  /// caller should launch it as usual. `params` needs grid, block, shared memory and the stream.
  std::optional<cudaError_t> launchForeign(Device& device, int ordinal,
                                           const std::string& kernelName,
                                           const LaunchParams& params,
                                           const std::function<cudaError_t()>& launch,
                                           const std::string& reason) override;
  /// Before cudaDeviceReset: waits (bounded) for pending results, then forgets the device's
  /// modules and buffers. After it (`afterReset`), for what launches of other threads made while
  /// it ran: forgets first, so that those launches' profiles report the disturbance, then waits.
  void forgetDevice(int ordinal, bool afterReset = false) override;
  /// After __cudaUnregisterFatBinary: unloads that registration's instrumented modules.
  void forgetRegistration(uint64_t id);
  /// Before a module loaded through the driver API is unloaded: waits (bounded) for the profiles
  /// of launches still on their way, so that none is lost, then forgets its instrumented modules.
  /// False when the wait timed out (those profiles may report a disturbed launch).
  bool unloadRegistration(uint64_t id) override;

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
  /// How many bytes of a graph plan's host copies may wait for the profile worker before the next
  /// launch of that graph waits for it (GraphPlan::kMaxStagingBytes unless set; at least two
  /// launches' worth either way).
  void setGraphBacklogBytes(uint64_t bytes) {
    graphBacklogBytes_.store(bytes, std::memory_order_relaxed);
  }

  /// The summary of every profile so far (what `ocelot run` prints at exit).
  /// With the warnings logged more than once, folded into one line each with a count.
  std::string summary();
  /// A cudaGraphLaunch while instrumentors are active on a device that cannot substitute kernel
  /// nodes (the GPU, for now): they are not instrumented;
  /// the coverage counts it, and the log says so once.
  void graphLaunched() override;
  /// A cudaGraphLaunch while instrumentors are active, on a device that substitutes kernel nodes:
  /// each selected node of a registered kernel runs its instrumented kernel and gets its own
  /// KernelProfile (with the graph, node and graph launch), completed once an event recorded after
  /// the graph has fired. Where the executable graph has a `state` (GraphExec::kernelNodeState),
  /// through a GraphPlan kept across its launches; else each node with a chunk of the result ring
  /// of its own for this launch.
  std::unique_ptr<GraphLaunchObserver> graphLaunch(Device& device, int ordinal, Stream& stream,
                                                   uint64_t graph,
                                                   std::optional<uint64_t> state) override;
  /// Drops the executable graph's plan (its device memory goes back to the pool).
  void graphExecDestroyed(uint64_t graph) override;
  /// Flushes every live instance, completes its profile file and prints its summary (registered
  /// with atexit when a profile file or a summary is asked for).
  static void flushAllAtExit();

private:
  class InstrumentedGraphLaunch; // InstrumentedGraphLaunch.cpp
  friend class InstrumentedGraphLaunch;
  class PlannedGraphLaunch; // PlannedGraphLaunch.cpp
  friend class PlannedGraphLaunch;

  struct Active {
    uint64_t handle = 0;
    std::shared_ptr<const PTXInstrumentor> instrumentor;
    std::string description;
  };
  using ActiveList = std::vector<Active>;

  /// What a graph plan was made for: while all of it holds, the plan serves the launch.
  struct PlanKey {
    uint64_t state = 0; ///< GraphExec::kernelNodeState
    std::shared_ptr<const ActiveList> active;
    std::shared_ptr<KernelSelection> selection;
    uint64_t generation = 0; ///< DeviceResources::generation
    uint64_t modules = 0;    ///< InstrumentedModuleCache::generation
    int ordinal = -1;
    bool operator==(const PlanKey&) const = default;
  };
  /// One executable graph's plan and its last launch, for the launches that follow.
  struct GraphState {
    std::mutex launching; ///< held from a launch's observer until its copies are enqueued
    std::shared_ptr<GraphPlan> plan;
    PlanKey key;
    /// The event after the last launch's copy and fill, and that launch's stream: a launch on
    /// another stream waits for it (CUDA orders the launches of one executable graph, but not
    /// Ocelot's copy after one with the next launch).
    bool launchedBefore = false;
    Event* lastDone = nullptr;
    uint64_t lastDoneGeneration = 0;
    cudaStream_t lastStream = nullptr;
    /// The thread that made it (hostThreadNumber): cudaStreamPerThread names another stream in
    /// each thread.
    uint64_t lastThread = 0;
  };
  /// The observer of a launch through the executable graph's plan (made now when it has none for
  /// these instrumentors and this state), or null when a device reset is under way.
  std::unique_ptr<GraphLaunchObserver> plannedGraphLaunch(Device& device, int ordinal,
                                                          Stream& stream, uint64_t graph,
                                                          uint64_t graphLaunch,
                                                          std::shared_ptr<const ActiveList> active,
                                                          uint64_t state);
  /// On the profile worker: one profile per node of a graph plan's launch.
  void completePlanLaunch(std::unique_ptr<PendingLaunch> record);
  /// Around a device reset: the device's graph plans go (their memory and events go with the
  /// reset; the next launch of each graph makes a new plan).
  void forgetGraphPlans(int ordinal);

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
  /// The active instrumentors and the selection as this thread last read them (see snapshot()).
  struct ConfigSnapshot {
    uint64_t instance = 0, generation = 0;
    std::shared_ptr<const ActiveList> active;
    std::shared_ptr<KernelSelection> selection;
  };
  const ConfigSnapshot& snapshot() const;
  DeviceResources& resources(Device& device, int ordinal);
  /// Without `countLaunch` the launch takes no kernelLaunchIndex (a graph plan's node: each of
  /// the plan's launches takes them).
  LaunchInfo describeLaunch(const std::string& kernelName, uint64_t launchId, int ordinal,
                            const LaunchParams& params, bool countLaunch = true);
  /// The same into `info`, whose strings keep their capacity (a reused launch record's).
  void describeLaunchInto(LaunchInfo& info, const std::string& kernelName, uint64_t launchId,
                          int ordinal, const LaunchParams& params, bool countLaunch);
  /// A selected launch's record before it runs (profile fields, instrumentors, call path).
  std::unique_ptr<PendingLaunch> newPending(Device& device, int ordinal, LaunchInfo info,
                                            const ActiveList& active);
  /// The rest of a record whose `info` is filled: device, instrumentors, call path, times.
  void preparePending(PendingLaunch& pending, Device& device, int ordinal,
                      const ActiveList& active);

  // --- The launch path, one step each (launch() chains them) ---------------------------------
  /// Why a selected launch runs the original kernel: its profile's note, and whether the
  /// application's stream may carry the completion (not while it is captured into a graph).
  struct Fallback {
    std::string note;
    bool streamUsable = true;
  };
  template <class T> using Step = support::Expected<T, Fallback>;
  struct Ready {};
  /// describe's value: the kernel's PTX facts and each active instrumentor's variant.
  struct Target {
    std::shared_ptr<const CatalogEntry> catalog;
    const CatalogKernel* kernel = nullptr;
    /// The launch record's PendingLaunch::choices (kept with the record: no vector per launch).
    const std::vector<SlotChoice>* choices = nullptr;
    const std::vector<SlotChoice>& slots() const { return *choices; }
  };
  /// module's value: the instrumented module (built at the first launch that needs it) and kernel.
  struct InstrumentedKernel {
    std::shared_ptr<LoadedInstrumentation> module;
    DeviceFunction function = nullptr;
    /// The module cache's key: shared with the launching thread's memo (no copy per launch).
    std::shared_ptr<const std::string> key;
    /// The module's kernels write their completion word (LaunchClock::signalsCompletion), asked
    /// once per module and kernel, not per launch.
    bool signals = false;
  };
  /// select: whether the launch is instrumented (active instrumentors, the selection rules); its
  /// PendingLaunch, or null to let the runtime launch it as usual.
  std::unique_ptr<PendingLaunch> select(const LaunchSite& site, const ActiveList& active,
                                        bool countLaunch = true);
  /// describe: the kernel in the registration's PTX, its arguments, the instrumentors' variants.
  Step<Target> describe(const LaunchSite& site, const ActiveList& active, PendingLaunch& pending);
  /// module: the instrumented module and kernel (with the occupancy guard's register caps).
  Step<InstrumentedKernel> module(const LaunchSite& site, const Target& target,
                                  PendingLaunch& pending);
  /// buffers: each instrumentor's initialized device buffer (the hidden parameter's values).
  /// Without `streamBuffers` (graph nodes: nothing may be enqueued) only the result ring serves.
  Step<Ready> buffers(const LaunchSite& site, const Target& target,
                      const InstrumentedKernel& kernel, PendingLaunch& pending,
                      bool streamBuffers = true);
  /// launch: the instrumented kernel with the hidden parameter, and what reads its results back.
  Step<Ready> launchInstrumented(const LaunchSite& site, const Target& target,
                                 const InstrumentedKernel& kernel, PendingLaunch& pending);
  /// Launches the original kernel and delivers a profile that says why.
  cudaError_t runOriginal(const LaunchSite& site, std::unique_ptr<PendingLaunch> pending,
                          const Fallback& why);
  /// Runs `launch` (code Ocelot did not instrument) between events on `stream` (none where it is
  /// null: the stream cannot take them) and delivers `pending`'s profile: with its GPU time, or
  /// saying that the launch failed. Returns what `launch` returned.
  cudaError_t runUninstrumented(std::unique_ptr<PendingLaunch> pending, Stream* stream,
                                const std::function<cudaError_t()>& launch);
  void enqueueCompletion(Stream& stream, std::unique_ptr<PendingLaunch> pending);
  /// complete: the profile worker's batch of finished launches, their results read back first.
  void complete(ProfileWorker::Batch& batch);
  void readBack(ProfileWorker::Batch& batch);
  void complete(std::unique_ptr<PendingLaunch> pending);
  void completeOperation(PendingLaunch& pending);
  /// A launch that gets no profile (no instrumentor, not selected): the original kernel between
  /// two events when host measures are on, else nullopt (the runtime launches it).
  std::optional<cudaError_t> launchUnprofiled(const LaunchSite& site);
  void release(PendingLaunch& pending);
  void logOnce(const std::string& key, const std::string& message);
  /// The instrumented module for `slots` (whose InstrumentedModuleCache::key is `key`) and `caps`,
  /// built at the first call that needs it; that call logs what the build cost (the paper's
  /// Figure 9: the pipeline next to the driver's JIT) or why it failed.
  std::shared_ptr<LoadedInstrumentation>
  moduleFor(const CatalogEntry& catalog, const std::string& key, const LaunchSite& site,
            const std::vector<SlotChoice>& slots, const RegisterCaps& caps,
            const InstrumentedModuleCache::AddressOf& addresses,
            const instrumentors::OriginalFunctionAddresses& functionAddresses,
            const PendingLaunch& pending);

  const Logger& logger_;
  instrumentors::InstrumentorRegistry registry_;
  ModuleCatalog catalog_;
  InstrumentedModuleCache modules_;
  /// Appended to every instrumented launch's instrumentors: the kernel measures its own GPU time
  /// (instrumentors/LaunchClock.h), so that the launch needs no event before it.
  const std::shared_ptr<const PTXInstrumentor> launchClock_ =
      std::make_shared<instrumentors::LaunchClock>();
  OccupancyGuard occupancy_;
  std::atomic<bool> keepOccupancy_{true}; ///< OCELOT_KEEP_OCCUPANCY (on unless "0")
  /// OCELOT_CALL_STACKS (on unless "0"): each selected launch records its host call path.
  std::atomic<bool> callStacks_{true};
  std::atomic<uint64_t> graphBacklogBytes_{GraphPlan::kMaxStagingBytes};
  const bool hostMeasures_ = hostMeasuresRequested();
  const NvtxRanges* nvtx_ = nullptr;
  const ApiCallLog* apiCalls_ = nullptr; ///< the host's API calls, for the summary's host line
  /// OCELOT_NVTX_INCLUDE (`ocelot run --nvtx-include`, rules separated by ';'): only launches
  /// inside one of these ranges are instrumented; read once with the environment.
  std::vector<ocelot::NvtxRule> nvtxInclude_;
  CallPathCapture callPathCapture_ = CallPathCapture::forThisLibrary();
  CallPathSymbolizer callPathSymbolizer_;
  ProfileHub hub_;
  ProfileSummary summary_;
  /// Where the summary goes at exit: "stderr", a file, or empty for nowhere (OCELOT_SUMMARY;
  /// stderr by default when OCELOT_INSTRUMENTORS is set, as under `ocelot run`).
  std::string summaryTarget_;
  LaunchRecordPool records_; ///< before worker_, which returns records to it until it stops
  ProfileWorker worker_;

  std::once_flag configured_;
  std::atomic<uint64_t> launchIds_{0};
  std::atomic<size_t> activeCount_{0};
  mutable std::mutex activeMutex_;
  std::shared_ptr<const ActiveList> active_ = std::make_shared<ActiveList>();
  /// Bumped (under activeMutex_) whenever active_ or selection_ changes: snapshot()'s check.
  std::atomic<uint64_t> configGeneration_{1};
  /// This instance's serial number (snapshot()'s key; addresses are reused).
  const uint64_t instance_ = nextInstanceNumber();
  static uint64_t nextInstanceNumber() {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
  }
  std::atomic<bool>* idle_ = nullptr;
  bool environmentRead_ = false; ///< under activeMutex_
  uint64_t nextHandle_ = 1;
  std::shared_ptr<KernelSelection> selection_ = std::make_shared<KernelSelection>();

  std::mutex launchIndexMutex_;
  /// Per mangled kernel name: its launches so far and its demangled name (one lookup per launch).
  struct KernelNameRecord {
    std::atomic<uint64_t> launches{0};
    std::string demangled; ///< written once, under launchIndexMutex_, when the record is made
  };
  std::unordered_map<std::string, KernelNameRecord> kernelNames_;
  std::unordered_map<uint64_t, uint64_t> graphLaunches_; ///< by executable graph

  std::mutex resourcesMutex_;
  std::map<int, std::unique_ptr<DeviceResources>> resources_;
  /// Ordinals between forgetDevice() before and after a reset (under resourcesMutex_).
  std::multiset<int> resettingDevices_;

  /// By executable graph (after resources_: plans give their memory back to its pools).
  std::mutex graphStatesMutex_;
  std::unordered_map<uint64_t, std::shared_ptr<GraphState>> graphStates_;
  std::atomic<uint64_t> planIds_{0};

  mutable std::mutex logMutex_;
  /// Each warning logOnce logged, by key: the message and how often it came (repeats are not
  /// logged again; the summary folds them into one line with the count).
  std::map<std::string, std::pair<std::string, uint64_t>> logged_;
};

} // namespace ocelot::runtime::instrumentation
