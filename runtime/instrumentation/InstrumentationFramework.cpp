#include "runtime/instrumentation/InstrumentationFramework.h"

#include "ocelot/Demangle.h"
#include "ocelot/KernelProfile.h"
#include "runtime/core/ApiCallLog.h"
#include "runtime/core/ErrorTable.h"
#include "runtime/core/Event.h"
#include "runtime/core/ForkGuard.h"
#include "runtime/core/Functions.h"
#include "runtime/core/Runtime.h"
#include "runtime/core/Stream.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <tuple>

namespace ocelot::runtime::instrumentation {

namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

/// Instances to flush at exit (the process's runtime is never destroyed; test instances are).
std::mutex& liveMutex() {
  static std::mutex mutex;
  return mutex;
}
std::vector<InstrumentationFramework*>& liveInstances() {
  static std::vector<InstrumentationFramework*> instances;
  return instances;
}

std::string describeInstrumentor(const PTXInstrumentor& instrumentor) {
  std::string options = instrumentor.options();
  return std::string(instrumentor.name()) + (options.empty() ? "" : ":" + options);
}

} // namespace

InstrumentationFramework::InstrumentationFramework(const Logger& logger,
                                                   const ModulePipeline& pipeline,
                                                   std::atomic<bool>* idle,
                                                   const ApiCallLog* apiCalls,
                                                   const NvtxRanges* nvtx)
    : logger_(logger), catalog_(pipeline),
      worker_([this](ProfileWorker::Batch& batch) { complete(batch); }), idle_(idle) {
  hub_.setApiCalls(apiCalls);
  hub_.setNvtx(nvtx);
  apiCalls_ = apiCalls;
  if (hostMeasures_)
    summary_.setDeviceWorkRecorded();
  nvtx_ = nvtx;
  std::lock_guard lock(liveMutex());
  liveInstances().push_back(this);
}

void InstrumentationFramework::installOn(Runtime& runtime) {
  runtime.setLaunchInterceptorFactory([](const InterceptorServices& services) {
    return std::make_shared<InstrumentationFramework>(
        services.logger, services.pipeline, services.idle, services.apiCalls, services.nvtx);
  });
}

InstrumentationFramework& InstrumentationFramework::of(Runtime& runtime) {
  auto* framework = dynamic_cast<InstrumentationFramework*>(runtime.launchInterceptor());
  if (framework == nullptr)
    throw std::logic_error("the runtime has no instrumentation framework installed");
  return *framework;
}

InstrumentationFramework::~InstrumentationFramework() {
  worker_.flush(std::chrono::seconds(5));
  std::lock_guard lock(liveMutex());
  std::erase(liveInstances(), this);
}

namespace {
/// ForkGuard::forks() when the exit handler was installed.
std::atomic<unsigned> gExitHandlerForks{0};
} // namespace

void InstrumentationFramework::flushAllAtExit() {
  // A child forked after instrumentation started has none of its worker threads (flushing would
  // wait for them) and must not overwrite its parent's files: the parent writes them.
  if (ForkGuard::forks() != gExitHandlerForks.load())
    return;
  std::vector<InstrumentationFramework*> instances;
  {
    std::lock_guard lock(liveMutex());
    instances = liveInstances();
  }
  // Bounded: an application that exits without waiting for its kernels still gets the profiles
  // of those that finish soon; a hung kernel must not hang the exit.
  for (InstrumentationFramework* instance : instances) {
    instance->worker_.flush(std::chrono::seconds(10));
    instance->hub_.closeFile();
    const std::string& target = instance->summaryTarget_;
    if (target.empty() || instance->summary_.empty())
      continue;
    std::string text = instance->summary();
    if (target == "stderr") {
      std::fputs(text.c_str(), stderr);
    } else if (std::FILE* file = std::fopen(target.c_str(), "w")) {
      std::fputs(text.c_str(), file);
      std::fclose(file);
    } else {
      instance->logger_.warn("instrumentation: cannot write the summary to " + target);
    }
  }
}

// --- Configuration ---------------------------------------------------------------------------

bool InstrumentationFramework::active() {
  std::call_once(configured_, [this] { configureFromEnvironment(); });
  return activeCount_.load(std::memory_order_acquire) > 0;
}

void InstrumentationFramework::configureFromEnvironment() {
  try {
    SelectionRules rules;
    rules.kernelRegex = environment("OCELOT_KERNEL_REGEX");
    if (std::string launches = environment("OCELOT_LAUNCHES"); !launches.empty())
      if (auto error = rules.parseLaunchRange(launches))
        throw std::invalid_argument("OCELOT_LAUNCHES: " + *error);
    InstrumentorOptions numbers;
    if (std::string every = environment("OCELOT_EVERY"); !every.empty())
      numbers.set("OCELOT_EVERY", every);
    if (std::string most = environment("OCELOT_MAX_PER_KERNEL"); !most.empty())
      numbers.set("OCELOT_MAX_PER_KERNEL", most);
    rules.every = numbers.unsignedNumber("OCELOT_EVERY", 1);
    rules.maxPerKernel = numbers.unsignedNumber("OCELOT_MAX_PER_KERNEL", UINT64_MAX);
    installSelection(rules);
    // Read before any launch and never changed: launches read the rules without a lock.
    std::string include = environment("OCELOT_NVTX_INCLUDE");
    for (size_t start = 0; start < include.size();) {
      size_t end = include.find(';', start);
      std::string rule = include.substr(start, end == std::string::npos ? end : end - start);
      if (!rule.empty())
        nvtxInclude_.push_back(ocelot::NvtxRule::parse(rule));
      start = end == std::string::npos ? include.size() : end + 1;
    }
  } catch (const std::exception& e) {
    logger_.warn(std::string("instrumentation: ignoring the launch selection: ") + e.what());
  }
  bool atExit = false;
  if (std::string output = environment("OCELOT_PROFILE_OUTPUT"); !output.empty()) {
    atExit = true;
    if (hub_.openFile(output))
      logger_.info("instrumentation: writing profiles to " + output);
    else
      logger_.warn("instrumentation: cannot write the profile file " + output);
  }
  // OCELOT_KEEP_OCCUPANCY=0: instrumented kernels use what registers ptxas gives them (to compare,
  // or where spilling would cost more than the lost CTAs).
  keepOccupancy_.store(environment("OCELOT_KEEP_OCCUPANCY") != "0", std::memory_order_relaxed);
  // OCELOT_CALL_STACKS=0 (`ocelot run --no-call-stacks`): launches do not unwind the host stack.
  callStacks_.store(environment("OCELOT_CALL_STACKS") != "0", std::memory_order_relaxed);
  summaryTarget_ = environment("OCELOT_SUMMARY");
  if (summaryTarget_.empty() && !environment("OCELOT_INSTRUMENTORS").empty())
    summaryTarget_ = "stderr";
  if (summaryTarget_ == "off")
    summaryTarget_.clear();
  if (atExit || !summaryTarget_.empty()) {
    static std::once_flag exitHandler;
    std::call_once(exitHandler, [] {
      gExitHandlerForks.store(ForkGuard::forks());
      ForkGuard::watch();
      std::atexit(&InstrumentationFramework::flushAllAtExit);
    });
  }
  if (std::string list = environment("OCELOT_INSTRUMENTORS"); !list.empty())
    addSpecs(list);
  std::lock_guard lock(activeMutex_);
  environmentRead_ = true;
  publishIdle();
}

void InstrumentationFramework::publishIdle() {
  // Before the environment is read, the launch path must come here (active() reads it); with
  // host measures every launch does (launchUnprofiled times it).
  if (idle_ != nullptr)
    idle_->store(environmentRead_ && active_->empty() && !hostMeasures_, std::memory_order_relaxed);
}

void InstrumentationFramework::addSpecs(const std::string& list) {
  std::vector<instrumentors::InstrumentorSpec> specs;
  try {
    specs = instrumentors::parseInstrumentorList(list);
  } catch (const std::exception& e) {
    logger_.warn(std::string("OCELOT_INSTRUMENTORS: ") + e.what());
    return;
  }
  for (const auto& spec : specs) {
    try {
      std::vector<std::string> names;
      if (spec.isPath) {
        names = registry_.loadPlugin(spec.name);
      } else {
        if (!registry_.contains(spec.name)) {
          // A plugin installed as libocelot-<name>.so in one of OCELOT_PLUGIN_PATH's folders.
          std::string path = environment("OCELOT_PLUGIN_PATH");
          size_t start = 0;
          while (start <= path.size() && !registry_.contains(spec.name)) {
            size_t colon = path.find(':', start);
            std::string dir =
                path.substr(start, colon == std::string::npos ? colon : colon - start);
            std::filesystem::path candidate =
                std::filesystem::path(dir.empty() ? "." : dir) / ("libocelot-" + spec.name + ".so");
            if (std::filesystem::exists(candidate))
              registry_.loadPlugin(candidate.string());
            if (colon == std::string::npos)
              break;
            start = colon + 1;
          }
        }
        names.push_back(spec.name);
      }
      for (const auto& name : names) {
        activate(registry_.create(name, spec.options));
        logger_.info("instrumentation: " + name + " active");
      }
    } catch (const std::exception& e) {
      logger_.warn(std::string("OCELOT_INSTRUMENTORS: ") + e.what() + "; continuing without it");
    }
  }
}

// --- Active set and selection ----------------------------------------------------------------

uint64_t InstrumentationFramework::add(std::shared_ptr<const PTXInstrumentor> instrumentor) {
  // The environment's instrumentors come first (configureFromEnvironment adds them through
  // activate, not through here: call_once must not be re-entered).
  std::call_once(configured_, [this] { configureFromEnvironment(); });
  return activate(std::move(instrumentor));
}

uint64_t InstrumentationFramework::activate(std::shared_ptr<const PTXInstrumentor> instrumentor) {
  if (!instrumentor)
    throw std::invalid_argument("addInstrumentor: null instrumentor");
  std::lock_guard lock(activeMutex_);
  auto next = std::make_shared<ActiveList>(*active_);
  uint64_t handle = nextHandle_++;
  next->push_back({handle, instrumentor, describeInstrumentor(*instrumentor)});
  active_ = std::move(next);
  configGeneration_.fetch_add(1, std::memory_order_release);
  activeCount_.store(active_->size(), std::memory_order_release);
  publishIdle();
  return handle;
}

uint64_t InstrumentationFramework::add(std::string_view name, const InstrumentorOptions& options) {
  std::call_once(configured_, [this] { configureFromEnvironment(); }); // plugins it loads first
  return activate(registry_.create(name, options));
}

bool InstrumentationFramework::remove(uint64_t handle) {
  std::lock_guard lock(activeMutex_);
  auto next = std::make_shared<ActiveList>(*active_);
  auto removed = std::erase_if(*next, [&](const Active& a) { return a.handle == handle; });
  if (removed == 0)
    return false;
  active_ = std::move(next);
  configGeneration_.fetch_add(1, std::memory_order_release);
  activeCount_.store(active_->size(), std::memory_order_release);
  publishIdle();
  return true;
}

void InstrumentationFramework::removeAll() {
  std::lock_guard lock(activeMutex_);
  active_ = std::make_shared<ActiveList>();
  configGeneration_.fetch_add(1, std::memory_order_release);
  activeCount_.store(0, std::memory_order_release);
  publishIdle();
}

std::vector<std::string> InstrumentationFramework::activeDescriptions() const {
  std::vector<std::string> out;
  for (const Active& a : *activeList())
    out.push_back(a.description);
  return out;
}

const InstrumentationFramework::ConfigSnapshot& InstrumentationFramework::snapshot() const {
  // Every launch asks for the active instrumentors and the selection: the launching thread keeps
  // the pair it saw last and takes the lock only when a change bumped the generation (under the
  // lock, after the change). Keyed by the instance's serial number, not its address, which a later
  // instance may reuse.
  thread_local ConfigSnapshot cached;
  const uint64_t generation = configGeneration_.load(std::memory_order_acquire);
  if (cached.instance != instance_ || cached.generation != generation) {
    std::lock_guard lock(activeMutex_);
    cached.instance = instance_;
    cached.generation = configGeneration_.load(std::memory_order_relaxed);
    cached.active = active_;
    cached.selection = selection_;
  }
  return cached;
}

std::shared_ptr<const InstrumentationFramework::ActiveList>
InstrumentationFramework::activeList() const {
  return snapshot().active;
}

void InstrumentationFramework::setSelection(const SelectionRules& rules) {
  // The environment's rules are read first, so that they never replace the caller's.
  std::call_once(configured_, [this] { configureFromEnvironment(); });
  installSelection(rules);
}

void InstrumentationFramework::installSelection(const SelectionRules& rules) {
  auto selection = std::make_shared<KernelSelection>(rules); // throws on a bad regex
  std::lock_guard lock(activeMutex_);
  selection_ = std::move(selection);
  configGeneration_.fetch_add(1, std::memory_order_release);
}

SelectionRules InstrumentationFramework::selection() const {
  return currentSelection()->rules();
}

std::shared_ptr<KernelSelection> InstrumentationFramework::currentSelection() const {
  return snapshot().selection;
}

void InstrumentationFramework::flush() {
  worker_.flush();
  hub_.flushFile();
}

// --- Devices and registrations ---------------------------------------------------------------

DeviceResources& InstrumentationFramework::resources(Device& device, int ordinal) {
  std::lock_guard lock(resourcesMutex_);
  auto& slot = resources_[ordinal];
  if (!slot || &slot->device() != &device) {
    slot = std::make_unique<DeviceResources>(device);
    // The first instrumented launch on a device may come while another thread resets it: its
    // buffers go with the reset, so it is disturbed like those of a device with resources.
    if (resettingDevices_.count(ordinal) != 0)
      slot->beginReset();
  }
  return *slot;
}

void InstrumentationFramework::forgetDevice(int ordinal, bool afterReset) {
  auto forget = [&] {
    catalog_.forgetDevice(ordinal);
    modules_.forgetDevice(ordinal);
    std::lock_guard lock(resourcesMutex_);
    // A new generation: launches of the old one, and those made while the reset runs, report no
    // results.
    if (auto it = resettingDevices_.find(ordinal); afterReset && it != resettingDevices_.end())
      resettingDevices_.erase(it); // one of them: threads may reset one device at once
    else if (!afterReset)
      resettingDevices_.insert(ordinal);
    if (auto it = resources_.find(ordinal); it != resources_.end()) {
      if (afterReset)
        it->second->endReset();
      else
        it->second->beginReset();
    }
  };
  if (afterReset) {
    forget();
    worker_.flush(std::chrono::seconds(5));
    forgetGraphPlans(ordinal);
    return;
  }
  // The reset destroys the device's memory: results still on their way are waited for first.
  if (!worker_.flush(std::chrono::seconds(5)))
    logger_.warn("instrumentation: profiles of launches before cudaDeviceReset are lost");
  forget();
  forgetGraphPlans(ordinal);
}

void InstrumentationFramework::forgetRegistration(uint64_t id) {
  catalog_.forgetRegistration(id);
  modules_.forgetRegistration(id, [this](int ordinal, DeviceModule module) {
    std::lock_guard lock(resourcesMutex_);
    if (auto it = resources_.find(ordinal); it != resources_.end())
      it->second->device().unloadModule(module);
  });
}

bool InstrumentationFramework::unloadRegistration(uint64_t id) {
  const bool flushed = worker_.flush(std::chrono::seconds(10));
  if (!flushed)
    logger_.warn("instrumentation: profiles of launches before a module unload did not arrive "
                 "within 10 s; unloading anyway");
  forgetRegistration(id);
  return flushed;
}

void InstrumentationFramework::logOnce(const std::string& key, const std::string& message) {
  {
    std::lock_guard lock(logMutex_);
    auto [entry, first] = logged_.try_emplace(key, message, 0);
    if (++entry->second.second > 1)
      return;
  }
  logger_.warn(message);
}

std::string InstrumentationFramework::summary() {
  if (hostMeasures_ && apiCalls_ != nullptr) {
    ApiCallLog::Totals totals = apiCalls_->totals(apiCallWaitsForDevice);
    summary_.setHostApi({totals.calls, totals.threads, static_cast<double>(totals.ns),
                         static_cast<double>(totals.waitingNs)});
  }
  std::string text = summary_.format();
  std::string repeated;
  {
    std::lock_guard lock(logMutex_);
    for (const auto& [key, entry] : logged_)
      if (entry.second > 1)
        repeated += "  " + std::to_string(entry.second) + " x " + entry.first + "\n";
  }
  if (!repeated.empty())
    text += "\nrepeated warnings (logged once each)\n" + repeated;
  return text;
}

void InstrumentationFramework::graphLaunched() {
  static const std::string kWhy =
      "graph launch (cudaGraphLaunch): kernel nodes of CUDA graphs are not instrumented on this "
      "device";
  summary_.addUnprofiled(kWhy);
  logOnce("graph", "instrumentation: " + kWhy);
}

// --- Host measures: timed copies, memsets and unprofiled kernels ----------------------------

cudaError_t InstrumentationFramework::timeOperation(Device& device, int ordinal, Stream& stream,
                                                    DeviceOperation::Kind kind, const char* name,
                                                    uint64_t bytes,
                                                    const std::function<cudaError_t()>& run) {
  std::call_once(configured_, [this] { configureFromEnvironment(); }); // opens the profile file
  if (!hostMeasures_)
    return run();
  // Work captured into a graph runs later, when the graph does: our events would be captured.
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (stream.captureStatus(&capture) != cudaSuccess || capture != cudaStreamCaptureStatusNone)
    return run();
  DeviceResources& pool = resources(device, ordinal);
  const uint64_t generation = pool.generation();
  Event* start = pool.acquireEvent();
  if (start == nullptr || start->record(stream, 0) != cudaSuccess) {
    pool.releaseEvent(start, generation);
    return run();
  }
  const int64_t enqueued = ApiCallLog::nowNs();
  cudaError_t result = run();
  Event* end = result == cudaSuccess ? pool.acquireEvent() : nullptr;
  if (end == nullptr || end->record(stream, 0) != cudaSuccess) {
    pool.releaseEvent(start, generation);
    pool.releaseEvent(end, generation);
    return result;
  }
  auto pending = std::make_unique<PendingLaunch>();
  pending->device = &device;
  pending->resources = &pool;
  pending->generation = generation;
  pending->info.device = ordinal;
  pending->info.stream = reinterpret_cast<uint64_t>(stream.handle());
  pending->hostThread = hostThreadNumber();
  pending->start = start;
  pending->done = end;
  pending->enqueuedNs = enqueued;
  DeviceOperation operation;
  operation.kind = kind;
  operation.name = name;
  operation.device = ordinal;
  operation.stream = pending->info.stream;
  operation.bytes = bytes;
  operation.enqueuedNs = enqueued;
  pending->operation = std::move(operation);
  worker_.begin();
  worker_.push(std::move(pending));
  return result;
}

std::optional<cudaError_t> InstrumentationFramework::launchUnprofiled(const LaunchSite& site) {
  if (!hostMeasures_)
    return std::nullopt;
  return timeOperation(site.device, site.ordinal, *site.params.stream,
                       DeviceOperation::Kind::Kernel, site.kernelName.c_str(), 0,
                       [&site] { return site.device.launch(site.params); });
}

} // namespace ocelot::runtime::instrumentation
