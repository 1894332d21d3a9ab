#include "runtime/instrumentation/InstrumentationFramework.h"

#include "ocelot/Demangle.h"
#include "ocelot/KernelProfile.h"
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

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

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
  activeCount_.store(active_->size(), std::memory_order_release);
  publishIdle();
  return true;
}

void InstrumentationFramework::removeAll() {
  std::lock_guard lock(activeMutex_);
  active_ = std::make_shared<ActiveList>();
  activeCount_.store(0, std::memory_order_release);
  publishIdle();
}

std::vector<std::string> InstrumentationFramework::activeDescriptions() const {
  std::vector<std::string> out;
  for (const Active& a : *activeList())
    out.push_back(a.description);
  return out;
}

std::shared_ptr<const InstrumentationFramework::ActiveList>
InstrumentationFramework::activeList() const {
  std::lock_guard lock(activeMutex_);
  return active_;
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
}

SelectionRules InstrumentationFramework::selection() const {
  return currentSelection()->rules();
}

std::shared_ptr<KernelSelection> InstrumentationFramework::currentSelection() const {
  std::lock_guard lock(activeMutex_);
  return selection_;
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
    return;
  }
  // The reset destroys the device's memory: results still on their way are waited for first.
  if (!worker_.flush(std::chrono::seconds(5)))
    logger_.warn("instrumentation: profiles of launches before cudaDeviceReset are lost");
  forget();
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

// --- Launches -----------------------------------------------------------------------------

LaunchInfo InstrumentationFramework::describeLaunch(const LaunchSite& site) {
  return describeLaunch(site.kernelName, site.launchId, site.ordinal, site.params);
}

LaunchInfo InstrumentationFramework::describeLaunch(const std::string& kernelName,
                                                    uint64_t launchId, int ordinal,
                                                    const LaunchParams& params) {
  LaunchInfo info;
  info.kernelName = kernelName;
  info.launchId = launchId;
  info.device = ordinal;
  info.grid = {params.grid.x, params.grid.y, params.grid.z};
  info.block = {params.block.x, params.block.y, params.block.z};
  info.dynamicSharedMemory = params.sharedMem;
  info.stream = reinterpret_cast<uint64_t>(params.stream->handle());
  if (nvtx_ != nullptr && nvtx_->attached())
    info.nvtxRanges = nvtx_->launchStack(); // the launching thread's, read on it
  std::lock_guard lock(launchIndexMutex_);
  info.kernelLaunchIndex = ++kernelLaunches_[kernelName];
  auto& demangled = demangled_[kernelName];
  if (demangled.empty())
    demangled = demangle(kernelName);
  info.demangledName = demangled;
  return info;
}

std::unique_ptr<PendingLaunch> InstrumentationFramework::newPending(Device& device, int ordinal,
                                                                    LaunchInfo info,
                                                                    const ActiveList& active) {
  auto pending = std::make_unique<PendingLaunch>();
  pending->device = &device;
  pending->resources = &resources(device, ordinal);
  pending->generation = pending->resources->generation();
  pending->info = std::move(info);
  pending->enqueuedNs = nowNs();
  pending->hostThread = hostThreadNumber();
  if (callStacks_.load(std::memory_order_relaxed))
    callPathCapture_.capture(pending->callPath);
  for (const Active& a : active)
    pending->instrumentors.push_back(a.description);
  return pending;
}

std::optional<cudaError_t> InstrumentationFramework::launchForeign(
    Device& device, int ordinal, const std::string& kernelName, const LaunchParams& params,
    const std::function<cudaError_t()>& launch, const std::string& reason) {
  auto active = activeList();
  if (active->empty() || params.stream == nullptr)
    return std::nullopt;
  // Events in a stream being captured would become graph nodes: such launches run unobserved.
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (params.stream->captureStatus(&capture) == cudaSuccess &&
      capture != cudaStreamCaptureStatusNone)
    return std::nullopt;
  LaunchInfo info = describeLaunch(kernelName, nextLaunchId(), ordinal, params);
  if (!currentSelection()->decide(info.kernelName, info.demangledName).instrument)
    return std::nullopt;
  auto pending = newPending(device, ordinal, std::move(info), *active);
  pending->instrumented = false;
  pending->notes.push_back(reason);
  DeviceResources& pool = *pending->resources;
  auto record = [&](Event*& event) {
    event = pool.acquireEvent();
    if (event != nullptr && event->record(*params.stream, 0) != cudaSuccess) {
      pool.releaseEvent(event, pending->generation);
      event = nullptr;
    }
  };
  record(pending->start);
  cudaError_t result = launch();
  if (result != cudaSuccess) {
    // As for an original kernel that fails to launch: the application gets its error, and the
    // profile says that the launch failed.
    release(*pending);
    pending->launchFailed = true;
    pending->outcome = result;
    worker_.begin();
    worker_.completeHere(std::move(pending));
    return result;
  }
  if (pending->start != nullptr)
    record(pending->end);
  enqueueCompletion(*params.stream, std::move(pending));
  return result;
}

std::optional<cudaError_t> InstrumentationFramework::launch(const LaunchSite& site) {
  // select -> describe -> module -> buffers -> launch -> complete. Each step returns what the next
  // needs, or why the original kernel runs instead (then it runs, and its profile says why).
  auto active = activeList();
  if (active->empty())
    return launchUnprofiled(site);
  // A launch being captured into a graph runs nothing now: it becomes a kernel node as the
  // application made it, instrumented when the graph is launched (graphLaunch).
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (site.params.stream->captureStatus(&capture) == cudaSuccess &&
      capture != cudaStreamCaptureStatusNone)
    return std::nullopt;
  std::unique_ptr<PendingLaunch> pending = select(site, *active);
  if (!pending)
    return launchUnprofiled(site); // not selected: as usual (timed with host measures)
  auto target = describe(site, *active, *pending);
  if (!target)
    return runOriginal(site, std::move(pending), target.error());
  auto instrumented = module(site, *target, *pending);
  if (!instrumented)
    return runOriginal(site, std::move(pending), instrumented.error());
  // From taking result buffers until the kernel and its copies are enqueued, no device reset may
  // begin: it would free the ring under a kernel not yet enqueued, which would then write into
  // whatever takes that memory after the reset (another launch's results, reported as its counts:
  // issue 18 item 9). A launch made while a reset runs gets no use and no ring: its pooled
  // buffers go with the reset, and the device drops or finishes its work before it frees memory;
  // its profile reports the disturbance.
  const DeviceResources::Use use = pending->resources->use();
  if (auto ready = buffers(site, *target, *instrumented, *pending); !ready) {
    release(*pending);
    return runOriginal(site, std::move(pending), ready.error());
  }
  if (auto launched = launchInstrumented(site, *target, *instrumented, *pending); !launched) {
    release(*pending);
    return runOriginal(site, std::move(pending), launched.error());
  }
  enqueueCompletion(*site.params.stream, std::move(pending));
  return cudaSuccess;
}

std::unique_ptr<PendingLaunch> InstrumentationFramework::select(const LaunchSite& site,
                                                                const ActiveList& active) {
  LaunchInfo info = describeLaunch(site);
  KernelSelection::Decision decision =
      currentSelection()->decide(info.kernelName, info.demangledName);
  if (!decision.instrument)
    return nullptr;
  // --nvtx-include: only launches inside one of the ranges (Nsight Compute's selection).
  if (!nvtxInclude_.empty() && (nvtx_ == nullptr || !nvtx_->matches(nvtxInclude_)))
    return nullptr;
  return newPending(site.device, site.ordinal, std::move(info), active);
}

InstrumentationFramework::Step<InstrumentationFramework::Target>
InstrumentationFramework::describe(const LaunchSite& site, const ActiveList& active,
                                   PendingLaunch& pending) {
  const LaunchInfo& info = pending.info;
  Target target;
  target.catalog = catalog_.get(site.registration, site.ordinal, site.device);
  const CatalogEntry& catalog = *target.catalog;
  if (!catalog.ok) {
    logOnce("catalog/" + catalog.label, "instrumentation: " + catalog.label + ": " + catalog.error +
                                            "; its kernels run uninstrumented");
    return Fallback{"no PTX to instrument: " + catalog.error};
  }
  if (!catalog.linkWarning.empty())
    logOnce("link/" + catalog.label,
            "instrumentation: " + catalog.label + ": " + catalog.linkWarning);
  auto kernel = catalog.kernels.find(info.kernelName);
  if (kernel == catalog.kernels.end())
    return Fallback{"the kernel is not in the module's PTX"};
  target.kernel = &kernel->second;
  // No argument array for a kernel with parameters: what the device makes of that is its own
  // business, and the instrumented launch would have to read the array to append its parameter.
  if (site.params.args == nullptr && target.kernel->parameters > 0)
    return Fallback{"the launch passes no argument array for the kernel's " +
                    std::to_string(target.kernel->parameters) +
                    " parameters: it runs as the application made it"};

  // Each instrumentor's variant for this launch.
  for (const Active& a : active) {
    VariantChoice choice;
    try {
      choice = a.instrumentor->variant(info, target.kernel->facts);
    } catch (const std::exception& e) {
      return Fallback{std::string(a.instrumentor->name()) + ": " + e.what()};
    }
    if (!choice.note.empty()) {
      pending.notes.push_back(choice.note);
      // Once per kernel and instrumentor: the note's numbers change with every grid size.
      logOnce("variant/" + info.kernelName + "/" + std::string(a.instrumentor->name()),
              "instrumentation: " + info.demangledName + ": " + choice.note);
    }
    target.slots.push_back({a.handle, a.instrumentor, choice.variant});
  }
  target.slots.push_back({0, launchClock_, 0});
  return target;
}

InstrumentationFramework::Step<InstrumentationFramework::InstrumentedKernel>
InstrumentationFramework::module(const LaunchSite& site, const Target& target,
                                 PendingLaunch& pending) {
  Device& device = site.device;
  const LaunchInfo& info = pending.info;
  auto addresses =
      [&device, module = site.applicationModule](std::string_view name) -> std::optional<uint64_t> {
    void* address = nullptr;
    size_t bytes = 0;
    if (device.global(module, std::string(name).c_str(), &address, &bytes) != cudaSuccess)
      return std::nullopt;
    return reinterpret_cast<uint64_t>(address);
  };
  // The application module's function-address tables, read when a module is built.
  DeviceResources& deviceResources = *pending.resources;
  auto functionAddresses = [&device, &deviceResources, module = site.applicationModule](
                               std::string_view name,
                               size_t entries) -> std::optional<std::vector<uint64_t>> {
    void* address = nullptr;
    size_t bytes = 0;
    if (device.global(module, std::string(name).c_str(), &address, &bytes) != cudaSuccess ||
        bytes != entries * sizeof(uint64_t))
      return std::nullopt;
    std::vector<uint64_t> values(entries);
    if (deviceResources.read(values.data(), address, bytes) != cudaSuccess)
      return std::nullopt;
    return values;
  };
  // This thread's last instrumented kernel: a launch of the same kernel with the same
  // instrumentors (and variants), module cache and register caps gets the same one, without
  // building the module key and taking the cache's and the guard's locks (about 1 us of the
  // launch path on an H200's host). The occupancy check is per block size and shared memory.
  struct Memo {
    const InstrumentationFramework* owner = nullptr;
    uint64_t modules = 0, caps = 0;
    bool occupancy = false;
    const CatalogEntry* catalog = nullptr;
    uint64_t registration = 0;
    int ordinal = -1;
    /// handle, instrumentor, variant: no reference that would keep a plugin's object past its
    /// library (the memo lives until the thread ends).
    std::vector<std::tuple<uint64_t, const PTXInstrumentor*, uint32_t>> slots;
    std::string kernel;
    uint64_t threads = 0;
    size_t shared = 0;
    std::weak_ptr<LoadedInstrumentation> module;
    DeviceFunction function = nullptr;
    std::string key;
  };
  thread_local Memo memo;
  const bool occupancy = keepOccupancy_.load(std::memory_order_relaxed);
  const uint64_t threads =
      uint64_t{site.params.block.x} * site.params.block.y * site.params.block.z;
  auto sameSlots = [&] {
    if (memo.slots.size() != target.slots.size())
      return false;
    for (size_t s = 0; s < target.slots.size(); ++s)
      if (memo.slots[s] != std::tuple{target.slots[s].handle, target.slots[s].instrumentor.get(),
                                      target.slots[s].variant})
        return false;
    return true;
  };
  if (memo.owner == this && memo.modules == modules_.generation() &&
      memo.caps == occupancy_.generation() && memo.occupancy == occupancy &&
      memo.catalog == target.catalog.get() && memo.registration == site.registration.id &&
      memo.ordinal == site.ordinal && memo.threads == threads &&
      memo.shared == site.params.sharedMem && memo.kernel == info.kernelName && sameSlots())
    if (std::shared_ptr<LoadedInstrumentation> module = memo.module.lock())
      return InstrumentedKernel{std::move(module), memo.function, memo.key};
  const uint64_t modulesGeneration = modules_.generation(),
                 capsGeneration = occupancy_.generation();
  InstrumentedKernel kernel;
  kernel.key = modules_.key(site.registration.id, site.ordinal, target.slots);
  const std::string& key = kernel.key;
  std::string why;
  // The module as the occupancy guard's caps want it; built again (once) when this launch's
  // configuration shows that the instrumented kernel fits fewer CTAs per SM than the original.
  for (int attempt = 0; attempt < 2; ++attempt) {
    RegisterCaps caps = occupancy_.caps(key);
    kernel.module = moduleFor(*target.catalog, key, site, target.slots, caps, addresses,
                              functionAddresses, pending);
    if (!kernel.module->ok() && caps.contains(info.kernelName)) {
      // The capped build failed where the one without this cap did not: forget the cap.
      occupancy_.dropCap(key, info.kernelName);
      kernel.module = moduleFor(*target.catalog, key, site, target.slots, occupancy_.caps(key),
                                addresses, functionAddresses, pending);
    }
    if (!kernel.module->ok()) {
      // A reset since the launch began destroyed the application's module while the build read
      // its variables' addresses (seen as "no address for variable _ZTV5Shape" on the CPU
      // device): that failure is not the code's, and remembered it would run every launch up to
      // the next reset uninstrumented. The next launch builds the module again.
      if (pending.resources->disturbed(pending.generation))
        modules_.forgetFailed(kernel.module);
      return Fallback{kernel.module->error()};
    }
    if (!kernel.module->instrumented(info.kernelName, &why)) {
      logOnce("kernel/" + key + "/" + info.kernelName,
              "instrumentation: " + info.demangledName + ": " + why);
      return Fallback{why};
    }
    if (cudaError_t error = kernel.module->function(device, info.kernelName, &kernel.function);
        error != cudaSuccess)
      return Fallback{"the instrumented kernel was not found (" + std::string(errorName(error)) +
                      ")"};
    std::string change;
    if (attempt > 0 || !keepOccupancy_.load(std::memory_order_relaxed) ||
        !occupancy_.check(key, info.kernelName, device, site.params.function, kernel.function,
                          site.params, &change))
      break;
    logger_.info("instrumentation: " + info.demangledName + ": " + change);
  }
  memo.owner = this;
  memo.modules = modulesGeneration;
  memo.caps = capsGeneration;
  memo.occupancy = occupancy;
  memo.catalog = target.catalog.get();
  memo.registration = site.registration.id;
  memo.ordinal = site.ordinal;
  memo.slots.clear();
  for (const SlotChoice& slot : target.slots)
    memo.slots.emplace_back(slot.handle, slot.instrumentor.get(), slot.variant);
  memo.kernel = info.kernelName;
  memo.threads = threads;
  memo.shared = site.params.sharedMem;
  memo.module = kernel.module;
  memo.function = kernel.function;
  memo.key = kernel.key;
  return kernel;
}

InstrumentationFramework::Step<InstrumentationFramework::Ready>
InstrumentationFramework::buffers(const LaunchSite& site, const Target& target,
                                  const InstrumentedKernel& kernel, PendingLaunch& pending,
                                  bool streamBuffers) {
  // initialize: what each instrumentor needs for this launch.
  DeviceResources& pool = *pending.resources;
  const uint32_t unit = target.kernel->unit;
  pending.module = kernel.module;
  pending.slots.reserve(target.slots.size());
  uint64_t ringBytes = 0;
  bool zeroFilled = true;
  for (uint32_t s = 0; s < target.slots.size(); ++s) {
    PendingLaunch::Slot slot;
    slot.instrumentor = target.slots[s].instrumentor;
    slot.state = &kernel.module->state(unit, s);
    BufferRequest request;
    try {
      request = slot.instrumentor->initialize(*slot.state, pending.info);
    } catch (const std::exception& e) {
      return Fallback{std::string(slot.instrumentor->name()) + " initialize: " + e.what()};
    }
    slot.bytes = std::max<uint64_t>(request.bytes, 8);
    slot.fill = request.fill;
    slot.offset = ringBytes;
    ringBytes += ResultRing::aligned(slot.bytes);
    zeroFilled = zeroFilled && request.fill == 0;
    if (slot.instrumentor == launchClock_)
      pending.clockSlot = s;
    pending.slots.push_back(std::move(slot));
  }

  // The result ring: zeroed chunks, read back by the profile worker, nothing in the stream.
  std::shared_ptr<ResultRing> ring = zeroFilled ? pool.ring() : nullptr;
  if (zeroFilled && !ring && pool.ringError() != cudaSuccess)
    logOnce("ring/" + std::to_string(pending.info.device),
            "instrumentation: device " + std::to_string(pending.info.device) +
                ": no result ring (" + errorName(pool.ringError()) +
                "): instrumented launches fill and copy their buffers in their stream");
  if (ring)
    if (std::optional<ResultRing::Chunk> chunk = ring->take(ringBytes)) {
      auto* base = static_cast<std::byte*>(ring->device(*chunk));
      for (const auto& slot : pending.slots)
        pending.parameter.push_back(reinterpret_cast<uint64_t>(base + slot.offset));
      pending.ring = std::move(ring);
      pending.chunk = *chunk;
      return Ready{};
    }

  if (!streamBuffers)
    return Fallback{ring         ? "the result ring has no room for the node's results now"
                    : zeroFilled ? "no result ring: a graph node's results cannot be filled and "
                                   "copied in its stream"
                                 : "an instrumentor wants its buffer filled with other than zero, "
                                   "which a graph node's cannot be"};
  // Else pooled buffers, filled in the launch's stream (and copied back after the kernel).
  for (auto& slot : pending.slots) {
    cudaError_t error = pool.deviceBuffers().acquire(slot.bytes, &slot.deviceBuffer);
    if (error == cudaSuccess)
      error = pool.stagingBuffers().acquire(slot.bytes, &slot.staging);
    if (error == cudaSuccess)
      error = site.device.fill(slot.deviceBuffer.pointer, slot.fill, slot.bytes,
                               *site.params.stream, true);
    if (error != cudaSuccess)
      return Fallback{std::string(slot.instrumentor->name()) + ": cannot get " +
                      std::to_string(slot.bytes) + " bytes for its results (" + errorName(error) +
                      ")"};
    pending.parameter.push_back(reinterpret_cast<uint64_t>(slot.deviceBuffer.pointer));
  }
  return Ready{};
}

InstrumentationFramework::Step<InstrumentationFramework::Ready>
InstrumentationFramework::launchInstrumented(const LaunchSite& site, const Target& target,
                                             const InstrumentedKernel& kernel,
                                             PendingLaunch& pending) {
  Device& device = site.device;
  DeviceResources& pool = *pending.resources;
  mirrorAttributes(device, site.params, kernel.function);

  // The application's arguments, then the hidden parameter.
  std::vector<void*> arguments;
  arguments.reserve(target.kernel->parameters + 1);
  if (target.kernel->parameters > 0)
    arguments.assign(site.params.args, site.params.args + target.kernel->parameters);
  arguments.push_back(pending.parameter.data());
  LaunchParams params = site.params;
  params.function = kernel.function;
  params.args = arguments.data();

  // The kernel's own clock gives its GPU time: no event before it.
  pending.start = pending.clockSlot ? nullptr : pool.acquireEvent();
  if (pending.start != nullptr)
    pending.start->record(*params.stream, 0);
  cudaError_t result = device.launch(params);
  if (result != cudaSuccess) {
    // Typically too many resources: the instrumented kernel needs more registers than the
    // application's block size allows. The original kernel runs instead (and if it fails too,
    // the application sees exactly the error it would have seen).
    std::string note = "the instrumented kernel could not be launched (" +
                       std::string(errorName(result)) + "), the original kernel ran";
    logOnce("launch/" + kernel.key + "/" + pending.info.kernelName + "/" + errorName(result),
            "instrumentation: " + pending.info.demangledName + ": " + note);
    return Fallback{std::move(note)};
  }
  // Timed only when it ends a timed interval: with the kernel's own clock it just says "done".
  pending.end = pool.acquireEvent(pending.start != nullptr);
  if (pending.end != nullptr && pending.end->record(*params.stream, 0) != cudaSuccess) {
    pool.releaseEvent(pending.end, pending.generation);
    pending.end = nullptr;
  }
  pending.instrumented = true;
  if (pending.ring)
    return Ready{}; // the profile worker reads the ring's chunk once `end` has fired
  // finalize's input: the pooled buffers, copied in stream order into pinned memory.
  for (const auto& slot : pending.slots)
    if (cudaError_t error = device.copy(slot.staging.pointer, slot.deviceBuffer.pointer, slot.bytes,
                                        *params.stream, true);
        error != cudaSuccess && pending.outcome == cudaSuccess)
      pending.outcome = error; // the staging buffer keeps what it held: never report it
  return Ready{};
}

std::shared_ptr<LoadedInstrumentation> InstrumentationFramework::moduleFor(
    const CatalogEntry& catalog, const std::string& key, const LaunchSite& site,
    const std::vector<SlotChoice>& slots, const RegisterCaps& caps,
    const InstrumentedModuleCache::AddressOf& addresses,
    const instrumentors::OriginalFunctionAddresses& functionAddresses,
    const PendingLaunch& pending) {
  bool built = false;
  auto module = modules_.get(catalog, key, site.registration.id, site.ordinal, slots, caps,
                             site.device, addresses, functionAddresses, &built);
  if (!built)
    return module;
  // What building it cost (once per module), for the log.
  std::string instrumentorList;
  for (const auto& d : pending.instrumentors)
    instrumentorList += (instrumentorList.empty() ? "" : ",") + d;
  if (module->ok())
    logger_.info("instrumentation: " + catalog.label + " instrumented for " + instrumentorList +
                 " in " + std::to_string(module->timings().totalMs()) + " ms, JIT " +
                 std::to_string(module->jitMs()) + " ms");
  else
    logger_.warn("instrumentation: " + module->error() +
                 (caps.contains(site.kernelName) ? "; running without the register cap"
                                                 : "; running the original code"));
  return module;
}

void InstrumentationFramework::mirrorAttributes(Device& device, const LaunchParams& params,
                                                DeviceFunction instrumented) {
  // What the application set with cudaFuncSetAttribute on its kernel applies to the instrumented
  // one too: above 48 KB of dynamic shared memory the launch needs the raised limit, and cluster
  // launches may need non-portable sizes. Queried only for launches that can depend on them.
  constexpr size_t kDefaultDynamicShared = 48 * 1024;
  if (params.sharedMem <= kDefaultDynamicShared && params.attributeCount == 0)
    return;
  Functions* functions = device.functions();
  cudaFuncAttributes original{};
  if (functions == nullptr || functions->attributes(params.function, &original) != cudaSuccess)
    return;
  functions->setAttribute(instrumented, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          original.maxDynamicSharedSizeBytes);
  if (original.preferredShmemCarveout >= 0)
    functions->setAttribute(instrumented, cudaFuncAttributePreferredSharedMemoryCarveout,
                            original.preferredShmemCarveout);
  if (original.nonPortableClusterSizeAllowed != 0)
    functions->setAttribute(instrumented, cudaFuncAttributeNonPortableClusterSizeAllowed,
                            original.nonPortableClusterSizeAllowed);
}

cudaError_t InstrumentationFramework::runOriginal(const LaunchSite& site,
                                                  std::unique_ptr<PendingLaunch> pending,
                                                  const Fallback& why) {
  pending->instrumented = false;
  pending->notes.push_back(why.note);
  // The original kernel's GPU time too (issue 15: every kernel with its time), from events around
  // it on its stream, like an instrumented launch's.
  DeviceResources* pool = why.streamUsable ? pending->resources : nullptr;
  auto record = [&](Event*& event) {
    event = pool->acquireEvent();
    if (event != nullptr && event->record(*site.params.stream, 0) != cudaSuccess) {
      pool->releaseEvent(event, pending->generation);
      event = nullptr;
    }
  };
  if (pool != nullptr && pending->start == nullptr)
    record(pending->start);
  cudaError_t result = site.device.launch(site.params);
  if (result != cudaSuccess) {
    // The application gets the error it would have got without Ocelot; the launch still has a
    // profile, which says that it failed.
    if (pool != nullptr)
      release(*pending);
    pending->launchFailed = true;
    pending->outcome = result;
    worker_.begin();
    worker_.completeHere(std::move(pending));
    return result;
  }
  if (pending->start != nullptr && pending->end == nullptr)
    record(pending->end);
  if (why.streamUsable) {
    enqueueCompletion(*site.params.stream, std::move(pending));
  } else {
    worker_.begin();
    worker_.completeHere(std::move(pending));
  }
  return result;
}

void InstrumentationFramework::enqueueCompletion(Stream& stream,
                                                 std::unique_ptr<PendingLaunch> pending) {
  worker_.begin();
  // An event after the kernel (results in the ring, or no results: the original kernel ran) or
  // after the result copies, polled by the profile thread: the application's stream runs on at
  // full speed (a host function would stall it for the round trip to the host).
  if ((pending->ring || pending->slots.empty()) && pending->end != nullptr) {
    pending->done = pending->end;
    worker_.push(std::move(pending));
    return;
  }
  if (pending->resources != nullptr) {
    pending->done = pending->resources->acquireEvent(false);
    if (pending->done != nullptr) {
      if (pending->done->record(stream, 0) == cudaSuccess) {
        worker_.push(std::move(pending));
        return;
      }
      pending->resources->releaseEvent(pending->done, pending->generation);
      pending->done = nullptr;
    }
  }
  struct Handover {
    InstrumentationFramework* owner;
    std::unique_ptr<PendingLaunch> pending;
  };
  auto* handover = new Handover{this, std::move(pending)};
  auto callback = [](void* data) {
    std::unique_ptr<Handover> h(static_cast<Handover*>(data));
    h->owner->worker_.push(std::move(h->pending));
  };
  if (stream.launchHostFunction(callback, handover) == cudaSuccess)
    return;
  // A device without host functions: wait for the stream here and complete on this thread.
  std::unique_ptr<Handover> h(handover);
  if (cudaError_t status = stream.synchronize(); h->pending->outcome == cudaSuccess)
    h->pending->outcome = status;
  worker_.completeHere(std::move(h->pending));
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
  const int64_t enqueued = nowNs();
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

void InstrumentationFramework::completeOperation(PendingLaunch& pending) {
  DeviceOperation operation = std::move(*pending.operation);
  if (pending.generation == pending.resources->generation() && pending.outcome == cudaSuccess &&
      pending.start != nullptr && pending.done != nullptr) {
    float ms = 0;
    if (pending.done->elapsedSince(*pending.start, &ms) == cudaSuccess)
      operation.gpuNs = static_cast<double>(ms) * 1e6;
  }
  release(pending);
  summary_.addDeviceWork(operation.kind == DeviceOperation::Kind::Kernel
                             ? DeviceInterval::Kind::Kernel
                             : DeviceInterval::Kind::Transfer,
                         operation.device, operation.enqueuedNs, operation.gpuNs);
  hub_.addOperation(std::move(operation));
}

void InstrumentationFramework::release(PendingLaunch& pending) {
  DeviceResources& pool = *pending.resources;
  for (auto& slot : pending.slots) {
    pool.deviceBuffers().release(slot.deviceBuffer);
    pool.stagingBuffers().release(slot.staging);
    slot.deviceBuffer = {};
    slot.staging = {};
  }
  pending.slots.clear();
  pending.parameter.clear();
  if (pending.ring) {
    // Unread: a launch that never ran leaves its chunk zero; complete() cleared a failed one's.
    pending.ring->give(pending.chunk);
    pending.ring.reset();
  }
  if (pending.done == pending.end)
    pending.done = nullptr;
  pool.releaseEvent(pending.start, pending.generation);
  pool.releaseEvent(pending.end, pending.generation);
  pool.releaseEvent(pending.done, pending.generation);
  pending.start = pending.end = pending.done = nullptr;
}

void InstrumentationFramework::complete(ProfileWorker::Batch& batch) {
  readBack(batch);
  for (auto& pending : batch)
    complete(std::move(pending));
}

void InstrumentationFramework::readBack(ProfileWorker::Batch& batch) {
  // Each finished launch's chunk of its device's result ring is copied into the ring's host
  // mirror and zeroed again on Ocelot's stream (a failed launch's chunk too: nobody reads its
  // copy). Launches made back to back hold adjacent chunks: one copy and one fill serve each run
  // of them, and one synchronization per device the whole batch, so that the worker's driver calls
  // (which contend with the application's launches for the driver) do not grow with the launches.
  struct Span {
    ResultRing* ring;
    DeviceResources* resources;
    Stream* stream;
    ResultRing::Chunk chunk;     ///< the run of adjacent chunks
    std::vector<size_t> members; ///< indices into batch
  };
  std::vector<Span> spans;
  // From the checks below to the last synchronization, no device reset may begin (each device's
  // DeviceResources::Use): it would free the ring's device memory and Ocelot's stream under the
  // copies (the CI segfault of
  // ALaunchRacingAResetLeavesNoFunctionOfTheDestroyedContextBehind: the check said "not
  // disturbed", then the reset freed the ring while the copy read it). A reset that begins later
  // marks these launches disturbed, and complete() reports no counts for them.
  std::vector<std::pair<DeviceResources*, DeviceResources::Use>> uses;
  for (size_t i = 0; i < batch.size(); ++i) {
    PendingLaunch& pending = *batch[i];
    if (!pending.ring)
      continue;
    DeviceResources& pool = *pending.resources;
    auto use =
        std::find_if(uses.begin(), uses.end(), [&](const auto& u) { return u.first == &pool; });
    if (use == uses.end()) {
      uses.emplace_back(&pool, pool.use());
      use = std::prev(uses.end());
    }
    // A reset in progress, or one since the ring was made, took the ring's memory: nothing to
    // read or zero (complete() reports the disturbance). A disturbed launch that holds a chunk of
    // the live ring (it began before a reset and took its chunk after it) is read back like a
    // failed one, only to zero its chunk again: its kernel may have written there, and the next
    // launch given that chunk would count those writes as its own.
    if (!use->second || pending.ring->deviceMemoryGone())
      continue;
    Stream* stream = pool.ownStream();
    if (stream == nullptr) {
      pending.ring->poison(); // nothing can zero its chunk again: later launches use pools
      if (pending.outcome == cudaSuccess)
        pending.outcome = cudaErrorNotSupported;
      continue;
    }
    const ResultRing::Chunk chunk = pending.chunk;
    auto joins = [&](const Span& span) {
      return span.ring == pending.ring.get() &&
             span.chunk.position + span.chunk.bytes == chunk.position &&
             span.ring->device(span.chunk) < span.ring->device(chunk); // not across the wrap
    };
    auto span = std::find_if(spans.begin(), spans.end(), joins);
    if (span == spans.end())
      spans.push_back({pending.ring.get(), &pool, stream, chunk, {i}});
    else {
      span->chunk.bytes += chunk.bytes;
      span->members.push_back(i);
    }
  }
  auto fail = [&](const std::vector<size_t>& members, cudaError_t error) {
    for (size_t i : members) {
      PendingLaunch& pending = *batch[i];
      pending.ring->poison(); // its memory may no longer be zero: later launches use pools
      if (pending.outcome == cudaSuccess)
        pending.outcome = error;
    }
  };
  std::vector<std::pair<DeviceResources*, Stream*>> toSynchronize;
  for (Span& span : spans) {
    PendingLaunch& first = *batch[span.members.front()];
    first.device->activate();
    relaxStreamCaptureRules(*first.device);
    if (cudaError_t error = span.ring->readBack(span.chunk, *span.stream); error != cudaSuccess) {
      fail(span.members, error);
      continue;
    }
    if (std::none_of(toSynchronize.begin(), toSynchronize.end(),
                     [&](const auto& entry) { return entry.first == span.resources; }))
      toSynchronize.emplace_back(span.resources, span.stream);
  }
  for (const auto& [resources, stream] : toSynchronize) {
    const cudaError_t error = stream->synchronize();
    if (error == cudaSuccess)
      continue;
    for (const Span& span : spans)
      if (span.resources == resources)
        fail(span.members, error);
  }
}

namespace {

/// What a finished launch's slot holds: its part of the ring's host mirror, or its staging buffer.
std::span<const std::byte> slotContents(const PendingLaunch& pending,
                                        const PendingLaunch::Slot& slot) {
  const std::byte* contents = pending.ring ? pending.ring->host(pending.chunk) + slot.offset
                                           : static_cast<const std::byte*>(slot.staging.pointer);
  return {contents, slot.bytes};
}

} // namespace

void InstrumentationFramework::complete(std::unique_ptr<PendingLaunch> pending) {
  try {
    if (pending->operation) {
      pending->device->activate(); // event queries in the device's context
      completeOperation(*pending);
      return;
    }
    Device& device = *pending->device;
    DeviceResources& pool = *pending->resources;
    device.activate(); // the profile thread uses the device's context for event queries
    KernelProfile::Timing timing;
    timing.enqueuedNs = pending->enqueuedNs;
    // A launch whose results cannot be trusted reports that, never what its buffers hold: they
    // were not written (a fault), not copied (an unusable context), or went with a device reset.
    std::string failure;
    if (pending->instrumented) {
      if (pool.disturbed(pending->generation))
        failure = "the device was reset (cudaDeviceReset) while the launch was in flight: its "
                  "results are not reported";
      else if (pending->outcome != cudaSuccess)
        failure = "the launch failed (" + std::string(errorName(pending->outcome)) +
                  "): its results are not reported";
    } else if (pending->launchFailed) {
      failure =
          "the kernel could not be launched (" + std::string(errorName(pending->outcome)) + ")";
    }
    if (failure.empty() && pending->start != nullptr && pending->end != nullptr) {
      float ms = 0;
      cudaError_t error = pending->end->elapsedSince(*pending->start, &ms);
      if (error == cudaSuccess)
        timing.gpuMilliseconds = ms;
      else if (pending->instrumented && error != cudaErrorNotReady &&
               error != cudaErrorInvalidResourceHandle)
        failure = "the launch failed (" + std::string(errorName(error)) +
                  "): its results are not reported";
    }
    if (failure.empty() && pending->instrumented && pending->clockSlot) {
      // The kernel's own start and end (the first warp's start to the last lanes' exit).
      if (std::optional<uint64_t> ns = instrumentors::LaunchClock::gpuNanoseconds(
              slotContents(*pending, pending->slots[*pending->clockSlot])))
        timing.gpuMilliseconds = static_cast<double>(*ns) * 1e-6;
    }
    DeviceFacts facts = pool.facts();
    facts.kernelMilliseconds = timing.gpuMilliseconds.value_or(0);
    std::vector<std::shared_ptr<const InstrumentorResult>> results;
    if (!failure.empty()) {
      timing.gpuMilliseconds.reset();
      pending->notes.push_back(failure);
      logOnce("failed/" + pending->info.kernelName + "/" + failure,
              "instrumentation: " + pending->info.demangledName + ": " + failure);
    }
    for (const auto& slot : pending->slots) {
      if (!failure.empty())
        break;
      if (slot.instrumentor == launchClock_)
        continue; // read above
      try {
        auto result = slot.instrumentor->finalize(*slot.state, pending->info, facts,
                                                  slotContents(*pending, slot));
        if (result)
          results.push_back(std::move(result));
      } catch (const std::exception& e) {
        pending->notes.push_back(std::string(slot.instrumentor->name()) + " finalize: " + e.what());
      }
    }
    release(*pending);
    pending->info.callPath = callPathSymbolizer_.symbolize(pending->callPath);
    timing.completedNs = nowNs();
    auto profile = std::make_shared<const KernelProfile>(
        pending->info, timing,
        !failure.empty()        ? KernelProfile::Execution::Failed
        : pending->instrumented ? KernelProfile::Execution::Instrumented
                                : KernelProfile::Execution::Original,
        pending->instrumentors, pending->notes, std::move(results));
    summary_.add(*profile);
    hub_.publish(std::move(profile));
  } catch (const std::exception& e) {
    logger_.warn(std::string("instrumentation: a profile was lost: ") + e.what());
  }
}

} // namespace ocelot::runtime::instrumentation
