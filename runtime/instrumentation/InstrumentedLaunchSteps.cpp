// An instrumented launch, step by step (select -> describe -> module -> buffers -> launch ->
// complete), the original kernel where a step says why not, and the completion it enqueues.
#include "ocelot/Demangle.h"
#include "ocelot/KernelProfile.h"
#include "runtime/core/ApiCallLog.h"
#include "runtime/core/ErrorTable.h"
#include "runtime/core/Event.h"
#include "runtime/core/Functions.h"
#include "runtime/core/Stream.h"
#include "runtime/instrumentation/InstrumentationFramework.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string_view>
#include <tuple>

namespace ocelot::runtime::instrumentation {

// --- Launches -----------------------------------------------------------------------------

LaunchInfo InstrumentationFramework::describeLaunch(const std::string& kernelName,
                                                    uint64_t launchId, int ordinal,
                                                    const LaunchParams& params, bool countLaunch) {
  LaunchInfo info;
  describeLaunchInto(info, kernelName, launchId, ordinal, params, countLaunch);
  return info;
}

void InstrumentationFramework::describeLaunchInto(LaunchInfo& info, const std::string& kernelName,
                                                  uint64_t launchId, int ordinal,
                                                  const LaunchParams& params, bool countLaunch) {
  info.kernelName.assign(kernelName); // into a reused record's buffer: no allocation
  info.launchId = launchId;
  info.device = ordinal;
  info.grid = {params.grid.x, params.grid.y, params.grid.z};
  info.block = {params.block.x, params.block.y, params.block.z};
  info.dynamicSharedMemory = params.sharedMem;
  info.stream = reinterpret_cast<uint64_t>(params.stream->handle());
  if (nvtx_ != nullptr && nvtx_->attached())
    info.nvtxRanges = nvtx_->launchStack(); // the launching thread's, read on it
  // The kernel's record: a launching thread keeps the last one it looked up (records are never
  // erased, and an unordered_map's nodes stay where they are), so repeated launches of a kernel
  // take no lock. Its demangled name is written once, before the record is handed out.
  struct LastKernel {
    uint64_t instance = 0;
    std::string name;
    KernelNameRecord* record = nullptr;
  };
  thread_local LastKernel last;
  KernelNameRecord* record = last.record;
  if (last.instance != instance_ || last.name != kernelName) {
    std::lock_guard lock(launchIndexMutex_);
    record = &kernelNames_[kernelName];
    if (record->demangled.empty())
      record->demangled = demangle(kernelName);
    last.instance = instance_;
    last.name.assign(kernelName);
    last.record = record;
  }
  if (countLaunch)
    info.kernelLaunchIndex = record->launches.fetch_add(1, std::memory_order_relaxed) + 1;
  info.demangledName.assign(record->demangled);
}

std::unique_ptr<PendingLaunch> InstrumentationFramework::newPending(Device& device, int ordinal,
                                                                    LaunchInfo info,
                                                                    const ActiveList& active) {
  std::unique_ptr<PendingLaunch> pending = records_.acquire();
  pending->info = std::move(info);
  preparePending(*pending, device, ordinal, active);
  return pending;
}

void InstrumentationFramework::preparePending(PendingLaunch& pending, Device& device, int ordinal,
                                              const ActiveList& active) {
  pending.device = &device;
  pending.resources = &resources(device, ordinal);
  pending.generation = pending.resources->generation();
  pending.enqueuedNs = ApiCallLog::nowNs();
  pending.hostThread = hostThreadNumber();
  if (callStacks_.load(std::memory_order_relaxed))
    callPathCapture_.capture(pending.callPath);
  // A reused record's strings are overwritten in place.
  pending.instrumentors.resize(active.size());
  for (size_t i = 0; i < active.size(); ++i)
    pending.instrumentors[i].assign(active[i].description);
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
  return runUninstrumented(std::move(pending), params.stream, launch);
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
                                                                const ActiveList& active,
                                                                bool countLaunch) {
  // The record is described in place: a reused one's strings keep their buffers.
  std::unique_ptr<PendingLaunch> pending = records_.acquire();
  describeLaunchInto(pending->info, site.kernelName, site.launchId, site.ordinal, site.params,
                     countLaunch);
  const LaunchInfo& info = pending->info;
  // This thread's snapshot holds the selection for the call (no shared_ptr copy per launch).
  KernelSelection::Decision decision =
      snapshot().selection->decide(info.kernelName, info.demangledName);
  // --nvtx-include: only launches inside one of the ranges (Nsight Compute's selection).
  if (!decision.instrument ||
      (!nvtxInclude_.empty() && (nvtx_ == nullptr || !nvtx_->matches(nvtxInclude_)))) {
    records_.recycle(std::move(pending));
    return nullptr;
  }
  preparePending(*pending, site.device, site.ordinal, active);
  return pending;
}

InstrumentationFramework::Step<InstrumentationFramework::Target>
InstrumentationFramework::describe(const LaunchSite& site, const ActiveList& active,
                                   PendingLaunch& pending) {
  const LaunchInfo& info = pending.info;
  Target target;
  pending.choices.clear();
  target.choices = &pending.choices;
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
    pending.choices.push_back({a.handle, a.instrumentor, choice.variant});
  }
  pending.choices.push_back({0, launchClock_, 0});
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
    std::shared_ptr<const std::string> key;
    bool signals = false;
  };
  thread_local Memo memo;
  const bool occupancy = keepOccupancy_.load(std::memory_order_relaxed);
  const uint64_t threads =
      uint64_t{site.params.block.x} * site.params.block.y * site.params.block.z;
  auto sameSlots = [&] {
    if (memo.slots.size() != target.slots().size())
      return false;
    for (size_t s = 0; s < target.slots().size(); ++s)
      if (memo.slots[s] != std::tuple{target.slots()[s].handle,
                                      target.slots()[s].instrumentor.get(),
                                      target.slots()[s].variant})
        return false;
    return true;
  };
  if (memo.owner == this && memo.modules == modules_.generation() &&
      memo.caps == occupancy_.generation() && memo.occupancy == occupancy &&
      memo.catalog == target.catalog.get() && memo.registration == site.registration.id &&
      memo.ordinal == site.ordinal && memo.threads == threads &&
      memo.shared == site.params.sharedMem && memo.kernel == info.kernelName && sameSlots())
    if (std::shared_ptr<LoadedInstrumentation> module = memo.module.lock())
      return InstrumentedKernel{std::move(module), memo.function, memo.key, memo.signals};
  const uint64_t modulesGeneration = modules_.generation(),
                 capsGeneration = occupancy_.generation();
  InstrumentedKernel kernel;
  kernel.key = std::make_shared<const std::string>(
      modules_.key(site.registration.id, site.ordinal, target.slots()));
  const std::string& key = *kernel.key;
  std::string why;
  // The module as the occupancy guard's caps want it; built again (once) when this launch's
  // configuration shows that the instrumented kernel fits fewer CTAs per SM than the original.
  for (int attempt = 0; attempt < 2; ++attempt) {
    RegisterCaps caps = occupancy_.caps(key);
    kernel.module = moduleFor(*target.catalog, key, site, target.slots(), caps, addresses,
                              functionAddresses, pending);
    if (!kernel.module->ok() && caps.contains(info.kernelName)) {
      // The capped build failed where the one without this cap did not: forget the cap.
      occupancy_.dropCap(key, info.kernelName);
      kernel.module = moduleFor(*target.catalog, key, site, target.slots(), occupancy_.caps(key),
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
  for (const SlotChoice& slot : target.slots())
    memo.slots.emplace_back(slot.handle, slot.instrumentor.get(), slot.variant);
  memo.kernel = info.kernelName;
  memo.threads = threads;
  memo.shared = site.params.sharedMem;
  memo.module = kernel.module;
  memo.function = kernel.function;
  // The launch clock is the last slot (describe).
  kernel.signals = instrumentors::LaunchClock::signalsCompletion(
      kernel.module->state(target.kernel->unit, static_cast<uint32_t>(target.slots().size() - 1)));
  memo.key = kernel.key;
  memo.signals = kernel.signals;
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
  pending.slots.reserve(target.slots().size());
  uint64_t ringBytes = 0;
  bool zeroFilled = true;
  for (uint32_t s = 0; s < target.slots().size(); ++s) {
    PendingLaunch::Slot slot;
    slot.instrumentor = target.slots()[s].instrumentor;
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
      pending.parameter.push_back(0); // the completion word: set by launchInstrumented
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
  pending.parameter.push_back(0); // no completion word: the copies after the kernel need an event
  return Ready{};
}

InstrumentationFramework::Step<InstrumentationFramework::Ready>
InstrumentationFramework::launchInstrumented(const LaunchSite& site, const Target& target,
                                             const InstrumentedKernel& kernel,
                                             PendingLaunch& pending) {
  Device& device = site.device;
  DeviceResources& pool = *pending.resources;
  mirrorAttributes(device, site.params, kernel.function);

  // The application's arguments, then the hidden parameter: on the stack for up to 63
  // parameters (no allocation per launch), else on the heap.
  const size_t parameters = target.kernel->parameters;
  std::array<void*, 64> small;
  std::vector<void*> large;
  void** arguments = small.data();
  if (parameters + 1 > small.size()) {
    large.resize(parameters + 1);
    arguments = large.data();
  }
  if (parameters > 0)
    std::copy(site.params.args, site.params.args + parameters, arguments);
  arguments[parameters] = pending.parameter.data();
  LaunchParams params = site.params;
  params.function = kernel.function;
  params.args = arguments;

  // Results in the ring, and a kernel whose every thread leaves through the launch clock's code:
  // the kernel writes its chunk's completion word at its end, and nothing but the kernel goes
  // into the application's stream (an event record costs the launching thread ~1.8 us on an H200).
  // OCELOT_COMPLETION_WORDS=0 keeps the event after every launch (to compare the two).
  static const bool wordsAllowed = [] {
    const char* value = std::getenv("OCELOT_COMPLETION_WORDS");
    return value == nullptr || std::string_view(value) != "0";
  }();
  pending.signals = wordsAllowed && kernel.signals && pending.ring && pending.clockSlot &&
                    pending.ring->word(pending.chunk) != nullptr;
  if (pending.signals)
    pending.parameter.back() = pending.ring->wordAddress(pending.chunk);

  // The kernel's own clock gives its GPU time: no event before it.
  pending.start = pending.clockSlot ? nullptr : pool.acquireEvent();
  if (pending.start != nullptr)
    pending.start->record(*params.stream, 0);
  cudaError_t result = device.launch(params);
  if (result != cudaSuccess) {
    pending.signals = false; // the original kernel runs instead, with events
    // Typically too many resources: the instrumented kernel needs more registers than the
    // application's block size allows. The original kernel runs instead (and if it fails too,
    // the application sees exactly the error it would have seen).
    std::string note = "the instrumented kernel could not be launched (" +
                       std::string(errorName(result)) + "), the original kernel ran";
    logOnce("launch/" + *kernel.key + "/" + pending.info.kernelName + "/" + errorName(result),
            "instrumentation: " + pending.info.demangledName + ": " + note);
    return Fallback{std::move(note)};
  }
  pending.instrumented = true;
  if (pending.signals)
    return Ready{};
  // Timed only when it ends a timed interval: with the kernel's own clock it just says "done".
  pending.end = pool.acquireEvent(pending.start != nullptr);
  if (pending.end != nullptr && pending.end->record(*params.stream, 0) != cudaSuccess) {
    pool.releaseEvent(pending.end, pending.generation);
    pending.end = nullptr;
  }
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
  return runUninstrumented(std::move(pending), why.streamUsable ? site.params.stream : nullptr,
                           [&site] { return site.device.launch(site.params); });
}

cudaError_t
InstrumentationFramework::runUninstrumented(std::unique_ptr<PendingLaunch> pending, Stream* stream,
                                            const std::function<cudaError_t()>& launch) {
  DeviceResources* pool = stream != nullptr ? pending->resources : nullptr;
  auto record = [&](Event*& event) {
    event = pool->acquireEvent();
    if (event != nullptr && event->record(*stream, 0) != cudaSuccess) {
      pool->releaseEvent(event, pending->generation);
      event = nullptr;
    }
  };
  // A launch whose instrumented kernel could not be launched may have its start event already.
  if (pool != nullptr && pending->start == nullptr)
    record(pending->start);
  cudaError_t result = launch();
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
  if (stream != nullptr) {
    enqueueCompletion(*stream, std::move(pending));
  } else {
    worker_.begin();
    worker_.completeHere(std::move(pending));
  }
  return result;
}

void InstrumentationFramework::enqueueCompletion(Stream& stream,
                                                 std::unique_ptr<PendingLaunch> pending) {
  // The kernel's own completion word, read by the profile thread (begun and queued under one
  // lock of the worker's).
  if (pending->signals) {
    worker_.beginAndPush(std::move(pending));
    return;
  }
  // An event after the kernel (results in the ring, or no results: the original kernel ran) or
  // after the result copies, polled by the profile thread: the application's stream runs on at
  // full speed (a host function would stall it for the round trip to the host).
  if ((pending->ring || pending->slots.empty()) && pending->end != nullptr) {
    pending->done = pending->end;
    worker_.beginAndPush(std::move(pending));
    return;
  }
  worker_.begin();
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

} // namespace ocelot::runtime::instrumentation
