#include "runtime/cpu/CpuDevice.h"

#include "runtime/cpu/BlockCountTracer.h"
#include "runtime/cpu/EnvironmentNumber.h"
#include "runtime/cpu/ExecutionTracer.h"
#include "runtime/cpu/llvm/NativeCompiler.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace ocelot::runtime::cpu {

namespace {

bool environmentFlag(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != 0 && std::strcmp(value, "0") != 0;
}

/// CTAs a cooperative launch may have: all of them are resident at once (each with its own
/// registers and shared memory), interleaved on one host thread.
constexpr uint64_t kMaxCooperativeCtas = 4096;

} // namespace

std::unique_ptr<CpuDevice> CpuDevice::create(std::string* error, int ordinal) {
  std::unique_ptr<CpuDevice> device(new CpuDevice());
  device->ordinal_ = ordinal;
  device->memory_ = DeviceMemory::create(error);
  if (!device->memory_)
    return nullptr;
  device->options_.memcheck = environmentFlag("OCELOT_MEMCHECK");
  device->options_.watchdogMs = environmentNumber(
      "OCELOT_CPU_WATCHDOG_MS", kDefaultWatchdogMs, 0, UINT32_MAX,
      "a time in milliseconds (N, Nms or Ns; 0: no watchdog)", {{"ms", 1}, {"s", 1000}});
  device->options_.deterministic = environmentFlag("OCELOT_CPU_DETERMINISTIC");
  device->options_.workers = defaultWorkerCount();
  device->options_.compiler = NativeCompiler::fromEnvironment();
  device->runner_ = std::make_unique<LaunchRunner>(device->options_.workers);
  device->heap_ = std::make_unique<DeviceHeap>(*device->memory_, size_t{8} << 20);
  if (const char* path = std::getenv("OCELOT_CPU_TRACE_OUTPUT"); path != nullptr && *path != 0) {
    device->blockTrace_ = std::make_unique<BlockCountTracer>(path);
    device->tracer_ = device->blockTrace_.get();
  }
  return device;
}

CpuDevice::CpuDevice() {
  areas_.streams = &streams_;
  areas_.events = &events_;
  areas_.hostMemory = &hostMemory_;
  areas_.memoryPools = &memoryPools_;
  areas_.managedMemory = &managedMemory_;
  areas_.copies = &copies_;
  areas_.ipc = &ipc_;
  areas_.graphs = &graphs_;
  areas_.arrays = &arrays_;
  areas_.textures = &textures_;
  areas_.functions = &kernelFunctions_;
  areas_.libraries = &libraries_;
}

CpuDevice::~CpuDevice() {
  streams_.drainAll();
  // Graphs go first: their allocations return memory to the arena.
  graphs_.reset();
  flushOutput();
}

void CpuDevice::setWorkers(uint32_t workers) {
  streams_.drainAll();
  std::lock_guard lock(launchMutex_);
  options_.workers = std::max(workers, 1u);
  runner_ = std::make_unique<LaunchRunner>(options_.workers);
}

std::string CpuDevice::name() const {
  return "Ocelot CPU device (" + std::to_string(runner_->workers()) + " host threads, " +
         (options_.compiler != nullptr ? "LLVM executor" : "interpreter") + ")";
}

std::string CpuDevice::faultMessage() const {
  std::lock_guard lock(mutex_);
  return faultMessage_;
}

void CpuDevice::flushOutput() {
  std::string text;
  {
    std::lock_guard lock(outputMutex_);
    text.swap(pendingOutput_);
  }
  if (!text.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
}

bool CpuDevice::isPageable(const void* pointer) const {
  const auto address = reinterpret_cast<uintptr_t>(pointer);
  return !memory_->find(address).has_value() && !memory_->hostAccessible(address, 1);
}

// --- Properties
// -----------------------------------------------------------------------------------

cudaError_t CpuDevice::memoryInfo(size_t* free, size_t* total) {
  *total = memory_->totalBytes();
  const size_t used = memory_->usedBytes();
  *free = *total > used ? *total - used : 0;
  return sticky();
}

// "Ocelot-CPU-devNN": one UUID per device, as NVML and peer-to-peer code tell GPUs apart by it.
cudaError_t CpuDevice::uuid(cudaUUID_t* uuid) {
  char bytes[16] = {'O', 'c', 'e', 'l', 'o', 't', '-', 'C', 'P', 'U', '-', 'd', 'e', 'v', '0', '0'};
  bytes[14] = static_cast<char>('0' + (ordinal_ / 10) % 10);
  bytes[15] = static_cast<char>('0' + ordinal_ % 10);
  std::memcpy(uuid->bytes, bytes, sizeof bytes);
  return cudaSuccess;
}

cudaError_t CpuDevice::totalMemory(size_t* bytes) {
  *bytes = memory_->totalBytes();
  return cudaSuccess;
}

// --- Context ------------------------------------------------------------------------------------

cudaError_t CpuDevice::synchronize() {
  if (cudaError_t error = checkUnsafeCall(); error != cudaSuccess)
    return error;
  streams_.drainAll();
  flushOutput();
  return sticky();
}

cudaError_t CpuDevice::reset() {
  // Queued work finishes first (a fault drops it quickly); then every object goes.
  streams_.drainAll();
  flushOutput();
  graphs_.reset();
  streams_.reset();
  events_.reset();
  std::vector<std::unique_ptr<CpuModule>> olderModules;
  std::vector<std::unique_ptr<Function>> olderFunctions;
  {
    std::lock_guard launchLock(launchMutex_);
    std::lock_guard lock(mutex_);
    // Another thread's launch racing the reset (undefined behaviour for the application, but it
    // must not take the process down) may have found its function just before: it reads the
    // function and its module's decoded kernel after findFunction() returned, and its work may
    // be queued after drainAll() above. So the modules and functions are set aside, and
    // destroyed at the end of a later reset that finds no launch preparing (destroyRetired).
    olderModules = std::move(retiredModules_);
    olderFunctions = std::move(retiredFunctions_);
    retiredModules_.clear();
    retiredFunctions_.clear();
    for (auto& [handle, function] : functions_)
      retiredFunctions_.push_back(std::move(function));
    for (auto& [raw, module] : modules_) {
      module->forgetStorage(); // releaseAll() below releases it
      retiredModules_.push_back(std::move(module));
    }
    functions_.clear();
    modules_.clear();
    textures_.reset();
    arrays_.reset();
    hostMemory_.reset();
    managedMemory_.reset();
    memoryPools_.reset();
    unusableLibraries_.clear();
    memory_->releaseAll();
    heap_ = std::make_unique<DeviceHeap>(*memory_, heap_->limit());
    stickyError_.store(cudaSuccess);
    faultMessage_.clear();
    flags_ = 0;
  }
  destroyRetired(std::move(olderModules), std::move(olderFunctions));
  return cudaSuccess;
}

void CpuDevice::destroyRetired(std::vector<std::unique_ptr<CpuModule>> modules,
                               std::vector<std::unique_ptr<Function>> functions) {
  if (modules.empty() && functions.empty())
    return;
  // What an earlier reset set aside left the tables then: a launch can reach it only if it found
  // its function before that reset and is still preparing, or if its work is still queued. With
  // no launch preparing now (none can find these functions any more), draining the streams ends
  // the rest; otherwise they wait for a later reset.
  if (launchesPreparing_.load(std::memory_order_seq_cst) == 0 &&
      StreamQueue::current() == nullptr) {
    streams_.drainAll();
    return; // destroyed here
  }
  std::lock_guard lock(mutex_);
  for (auto& module : modules)
    retiredModules_.push_back(std::move(module));
  for (auto& function : functions)
    retiredFunctions_.push_back(std::move(function));
}

cudaError_t CpuDevice::setFlags(unsigned int flags) {
  flags_ = flags | cudaDeviceMapHost;
  return cudaSuccess;
}

cudaError_t CpuDevice::flags(unsigned int* flags) {
  *flags = flags_;
  return cudaSuccess;
}

cudaError_t CpuDevice::limit(cudaLimit limit, size_t* value) {
  switch (limit) {
  case cudaLimitStackSize:
    *value = options_.stackBytes;
    return cudaSuccess;
  case cudaLimitPrintfFifoSize:
    *value = printfFifoSize_;
    return cudaSuccess;
  case cudaLimitMallocHeapSize:
    *value = heap_->limit();
    return cudaSuccess;
  case cudaLimitDevRuntimeSyncDepth:
  case cudaLimitDevRuntimePendingLaunchCount:
    *value = 0;
    return cudaErrorUnsupportedLimit;
  case cudaLimitMaxL2FetchGranularity:
    *value = 32;
    return cudaSuccess;
  case cudaLimitPersistingL2CacheSize:
    *value = 0;
    return cudaSuccess;
  default:
    return cudaErrorUnsupportedLimit;
  }
}

cudaError_t CpuDevice::setLimit(cudaLimit limit, size_t value) {
  switch (limit) {
  case cudaLimitStackSize:
    // As on an H200 (CUDA 13.0): the largest stack is 523,712 bytes, a larger one is refused and
    // the limit stays; sizes are rounded up to 16 bytes.
    if (value > kMaxStackBytes)
      return cudaErrorInvalidValue;
    options_.stackBytes = static_cast<uint32_t>((value + 15) / 16 * 16);
    return cudaSuccess;
  case cudaLimitPrintfFifoSize:
    printfFifoSize_ = std::max(value, kMinPrintfFifoBytes);
    return cudaSuccess;
  case cudaLimitMallocHeapSize:
    heap_->setLimit(value);
    return cudaSuccess;
  case cudaLimitMaxL2FetchGranularity:
  case cudaLimitPersistingL2CacheSize:
    return cudaSuccess;
  default:
    return cudaErrorUnsupportedLimit;
  }
}

cudaError_t CpuDevice::cacheConfig(cudaFuncCache* config) {
  *config = cacheConfig_;
  return cudaSuccess;
}

cudaError_t CpuDevice::setCacheConfig(cudaFuncCache config) {
  cacheConfig_ = config;
  return cudaSuccess;
}

// --- Memory
// ---------------------------------------------------------------------------------------

cudaError_t CpuDevice::allocate(void** pointer, size_t bytes) {
  if (cudaError_t error = sticky(); error != cudaSuccess)
    return error;
  if (cudaError_t error = checkUnsafeCall(); error != cudaSuccess)
    return error;
  if (bytes == 0) {
    *pointer = nullptr;
    return cudaSuccess;
  }
  *pointer = memory_->allocate(bytes, DeviceMemory::Kind::Device);
  return *pointer != nullptr ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t CpuDevice::free(void* pointer) {
  if (cudaError_t error = sticky(); error != cudaSuccess)
    return error;
  if (cudaError_t error = checkUnsafeCall(); error != cudaSuccess)
    return error;
  if (pointer == nullptr)
    return cudaSuccess;
  // Memory of graph mem-alloc nodes belongs to its graph.
  if (graphs_.isAllocation(pointer))
    return cudaSuccess;
  auto allocation = memory_->find(reinterpret_cast<uintptr_t>(pointer));
  if (!allocation || allocation->base != reinterpret_cast<uintptr_t>(pointer) ||
      (allocation->kind != DeviceMemory::Kind::Device &&
       allocation->kind != DeviceMemory::Kind::Managed))
    return cudaErrorInvalidValue;
  // cudaFree synchronizes the device: queued work may still use the memory.
  streams_.drainAll();
  memory_->release(pointer);
  return cudaSuccess;
}

cudaError_t CpuDevice::checkCopyKind(const void* destination, const void* source, int kind) {
  const bool toDevice = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  const bool fromDevice = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if ((toDevice && isPageable(destination)) || (fromDevice && isPageable(source)))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

cudaError_t CpuDevice::copy(void* destination, const void* source, size_t bytes, Stream& stream,
                            bool async) {
  return copies_.copy(destination, source, bytes, stream, async);
}

cudaError_t CpuDevice::fill(void* destination, unsigned char value, size_t bytes, Stream& stream,
                            bool async) {
  return copies_.fill(destination, value, bytes, stream, async);
}

cudaError_t CpuDevice::allocatePitch(void** pointer, size_t* pitch, size_t width, size_t height) {
  if (cudaError_t error = sticky(); error != cudaSuccess)
    return error;
  constexpr size_t kPitchAlignment = 512;
  *pitch = std::max<size_t>((width + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment,
                            kPitchAlignment);
  if (width == 0 || height == 0) {
    *pointer = nullptr;
    return cudaSuccess;
  }
  *pointer = memory_->allocate(*pitch * height, DeviceMemory::Kind::Device);
  return *pointer != nullptr ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t CpuDevice::pointerAttributes(cudaPointerAttributes* attributes, const void* pointer) {
  std::memset(attributes, 0, sizeof *attributes);
  attributes->device = ordinal_;
  auto allocation = memory_->find(reinterpret_cast<uintptr_t>(pointer));
  if (!allocation) {
    if (memory_->hostAccessible(reinterpret_cast<uintptr_t>(pointer), 1)) {
      attributes->type = cudaMemoryTypeHost;
      attributes->hostPointer = const_cast<void*>(pointer);
      attributes->devicePointer = const_cast<void*>(pointer);
      return cudaSuccess;
    }
    attributes->type = cudaMemoryTypeUnregistered;
    attributes->hostPointer = const_cast<void*>(pointer);
    attributes->device = -2;
    return cudaSuccess;
  }
  switch (allocation->kind) {
  case DeviceMemory::Kind::Host:
    attributes->type = cudaMemoryTypeHost;
    attributes->hostPointer = const_cast<void*>(pointer);
    attributes->devicePointer = const_cast<void*>(pointer);
    break;
  case DeviceMemory::Kind::Managed:
    attributes->type = cudaMemoryTypeManaged;
    attributes->hostPointer = const_cast<void*>(pointer);
    attributes->devicePointer = const_cast<void*>(pointer);
    break;
  default:
    attributes->type = cudaMemoryTypeDevice;
    attributes->devicePointer = const_cast<void*>(pointer);
    break;
  }
  return cudaSuccess;
}

cudaError_t CpuDevice::checkUnsafeCall() {
  CaptureRegistry& captures = graphs_.captures();
  if (!captures.active())
    return cudaSuccess;
  std::lock_guard lock(graphs_.mutex());
  return captures.prohibitsUnsafeCall() ? cudaErrorStreamCaptureUnsupported : cudaSuccess;
}

// --- Modules
// --------------------------------------------------------------------------------------

cudaError_t CpuDevice::loadModule(const ModuleImage& image, DeviceModule* module,
                                  std::string* log) {
  if (cudaError_t error = sticky(); error != cudaSuccess)
    return error;
  if (image.form == ModuleImage::Form::Original || image.ptx.empty()) {
    if (log != nullptr)
      *log = "the CPU device runs PTX only, and " + image.label + " has none it could use";
    return cudaErrorInvalidPtx;
  }
  // The module pipeline's IR when it kept it (one parse per module image), else the text.
  auto loaded = image.units.size() == image.ptx.size()
                    ? CpuModule::load(image.units, image.label, *memory_)
                    : CpuModule::load(image.ptx, image.label, *memory_);
  if (!loaded) {
    if (log != nullptr)
      *log = loaded.error().message;
    return loaded.error().error;
  }
  CpuModule* raw = loaded->get();
  std::lock_guard lock(mutex_);
  modules_[raw] = std::move(*loaded);
  *module = raw;
  return cudaSuccess;
}

cudaError_t CpuDevice::unloadModule(DeviceModule module) {
  streams_.drainAll(); // queued launches may use its kernels and variables
  std::lock_guard launchLock(launchMutex_);
  std::lock_guard lock(mutex_);
  auto it = modules_.find(static_cast<CpuModule*>(module));
  if (it == modules_.end())
    return cudaErrorInvalidResourceHandle;
  for (auto f = functions_.begin(); f != functions_.end();)
    f = f->second->module == it->first ? functions_.erase(f) : std::next(f);
  modules_.erase(it);
  return cudaSuccess;
}

cudaError_t CpuDevice::function(DeviceModule module, const char* name, DeviceFunction* function) {
  std::lock_guard lock(mutex_);
  auto it = modules_.find(static_cast<CpuModule*>(module));
  if (it == modules_.end())
    return cudaErrorInvalidResourceHandle;
  if (!it->second->hasKernel(name))
    return cudaErrorSymbolNotFound;
  for (const auto& [handle, entry] : functions_)
    if (entry->module == it->first && entry->name == name) {
      *function = handle;
      return cudaSuccess;
    }
  auto entry = std::make_unique<Function>();
  entry->module = it->first;
  entry->name = name;
  *function = entry.get();
  functions_[entry.get()] = std::move(entry);
  return cudaSuccess;
}

cudaError_t CpuDevice::global(DeviceModule module, const char* name, void** address,
                              size_t* bytes) {
  std::lock_guard lock(mutex_);
  auto it = modules_.find(static_cast<CpuModule*>(module));
  if (it == modules_.end())
    return cudaErrorInvalidResourceHandle;
  const ModuleVariable* variable = it->second->findGlobal(name);
  if (variable == nullptr)
    return cudaErrorSymbolNotFound;
  if (address != nullptr)
    *address = reinterpret_cast<void*>(variable->address);
  if (bytes != nullptr)
    *bytes = variable->size;
  return cudaSuccess;
}

CpuDevice::Function* CpuDevice::findFunction(DeviceFunction function) const {
  std::lock_guard lock(mutex_);
  auto it = functions_.find(function);
  return it != functions_.end() ? it->second.get() : nullptr;
}

// --- Execution
// ------------------------------------------------------------------------------------

cudaError_t CpuDevice::prepareLaunch(DeviceFunction function, dim3 grid, dim3 block,
                                     size_t sharedMem, void** args,
                                     const cudaLaunchAttribute* attributes,
                                     unsigned int attributeCount, bool cooperative,
                                     PreparedLaunch* prepared) {
  Function* entry = findFunction(function);
  if (entry == nullptr)
    return cudaErrorInvalidDeviceFunction;
  auto decoded = entry->module->kernel(entry->name);
  if (!decoded) {
    std::fprintf(stderr, "ocelot: the CPU device cannot run %s\n", decoded.error().message.c_str());
    return decoded.error().error;
  }
  const DecodedKernel& kernel = **decoded;
  ExecutionTracer* tracer = tracer_;
  auto rejected = [&](cudaError_t error) {
    if (tracer != nullptr)
      tracer->launchRejected(kernel);
    return error;
  };
  const uint64_t threads = uint64_t{block.x} * block.y * block.z;
  if (threads == 0 || threads > 1024 || grid.x == 0 || grid.y == 0 || grid.z == 0)
    return rejected(cudaErrorInvalidConfiguration);
  if (kernel.maxThreadsPerBlock != 0 && threads > kernel.maxThreadsPerBlock)
    return rejected(
        cudaErrorInvalidValue); // what the driver reports for a launch above __launch_bounds__
  const size_t dynamicLimit =
      entry->maxDynamicShared >= 0
          ? static_cast<size_t>(entry->maxDynamicShared)
          : 48 * 1024 - std::min<size_t>(kernel.staticSharedSize, 48 * 1024);
  if (sharedMem > dynamicLimit)
    return rejected(cudaErrorInvalidValue);
  const uint64_t ctaCount = uint64_t{grid.x} * grid.y * grid.z;
  // Thread-block clusters (from the launch or the kernel's .reqnctapercluster) must tile the grid.
  dim3 cluster(kernel.requiredCluster[0], kernel.requiredCluster[1], kernel.requiredCluster[2]);
  for (unsigned int i = 0; i < attributeCount; ++i) {
    if (attributes[i].id == cudaLaunchAttributeCooperative && attributes[i].val.cooperative != 0)
      cooperative = true;
    if (attributes[i].id == cudaLaunchAttributeClusterDimension)
      cluster = dim3(attributes[i].val.clusterDim.x, attributes[i].val.clusterDim.y,
                     attributes[i].val.clusterDim.z);
  }
  if (cluster.x != 0 && cluster.y != 0 && cluster.z != 0 &&
      (grid.x % cluster.x != 0 || grid.y % cluster.y != 0 || grid.z % cluster.z != 0))
    return rejected(cudaErrorInvalidClusterSize);
  // Co-residency as cudaOccupancyMaxActiveBlocksPerMultiprocessor reports it, times the workers
  // (this device's multiprocessors), as CUDA defines a cooperative grid's limit.
  if (cooperative) {
    int perWorker = 0;
    // threads <= 1024 (checked above)
    if (kernelFunctions_.maxActiveBlocks(function, static_cast<int>(threads), sharedMem, 0,
                                         &perWorker) != cudaSuccess)
      perWorker = 0;
    if (ctaCount > std::min<uint64_t>(kMaxCooperativeCtas,
                                      static_cast<uint64_t>(perWorker) * runner_->workers()))
      return rejected(cudaErrorCooperativeLaunchTooLarge);
  }

  // The parameter buffer's bytes: the arguments are copied now, as a launch does.
  prepared->parameters.assign(std::max<size_t>(kernel.parameterBufferSize, 8), std::byte{0});
  for (size_t i = 0; i < kernel.parameterOffsets.size(); ++i) {
    if (args == nullptr || args[i] == nullptr)
      break;
    std::memcpy(prepared->parameters.data() + kernel.parameterOffsets[i], args[i],
                kernel.parameterSizes[i]);
  }
  prepared->kernel = *decoded;
  prepared->grid = grid;
  prepared->block = block;
  prepared->dynamicShared = static_cast<uint32_t>(sharedMem);
  prepared->cooperative = cooperative;
  prepared->tracer = tracer;
  return cudaSuccess;
}

void CpuDevice::runLaunch(const PreparedLaunch& launch, ConditionalValues* conditionals) {
  // The worker pool runs one launch at a time. A launch that cannot have it runs on the calling
  // stream thread alone when the launch holding the pool leaves workers idle (fewer CTAs than
  // workers: typically a kernel spinning until the host or another stream lets it go), so that no
  // stream holds up another; a pool busy with a big grid is worth waiting for, up to half a second
  // (deterministic mode, whose pool is one worker, always waits that long). Traced launches always
  // wait: the tracer follows one launch at a time.
  thread_local std::unique_ptr<LaunchRunner> alone;
  const DecodedKernel& kernel = *launch.kernel;
  if (launch.ticket != 0) {
    // Wait until every launch issued before this one has started (or half a second: a launch
    // dropped after a fault never starts, and one may wait for the host).
    std::unique_lock turn(turnMutex_);
    turnChanged_.wait_for(turn, std::chrono::milliseconds(500),
                          [&] { return turn_ + 1 >= launch.ticket; });
  }
  std::unique_lock pool(launchMutex_, std::defer_lock);
  if (launch.tracer != nullptr) {
    pool.lock();
  } else {
    constexpr auto kSlice = std::chrono::milliseconds(20);
    auto waited = std::chrono::milliseconds(0);
    while (!pool.try_lock_for(kSlice)) {
      waited += kSlice;
      if (waited >= std::chrono::milliseconds(500) ||
          (!options_.deterministic && poolCtas_.load() < runner_->workers()))
        break;
    }
  }
  if (launch.ticket != 0) {
    {
      std::lock_guard turn(turnMutex_);
      turn_ = std::max(turn_, launch.ticket);
    }
    turnChanged_.notify_all();
  }
  LaunchRunner* runner = runner_.get();
  if (pool.owns_lock()) {
    const uint64_t ctas = uint64_t{launch.grid.x} * launch.grid.y * launch.grid.z;
    poolCtas_.store(launch.cooperative ? 1 : ctas);
  } else {
    if (!alone)
      alone = std::make_unique<LaunchRunner>(1);
    runner = alone.get();
  }
  // The parameter buffer lives in device memory so that `mov %rd, param; ld.u32 [%rd]` works as on
  // the GPU.
  auto* buffer = static_cast<std::byte*>(
      memory_->allocate(launch.parameters.size(), DeviceMemory::Kind::Parameters));
  if (buffer == nullptr) {
    stickyError_.store(cudaErrorMemoryAllocation);
    return;
  }
  std::memcpy(buffer, launch.parameters.data(), launch.parameters.size());

  LaunchState state;
  state.kernel = &kernel;
  state.grid = launch.grid;
  state.block = launch.block;
  state.dynamicShared = launch.dynamicShared;
  state.parameters = reinterpret_cast<uintptr_t>(buffer);
  state.gridId = ++nextGridId_;
  state.smCount = runner_->workers();
  state.memory = memory_.get();
  state.heap = heap_.get();
  state.tracer = launch.tracer;
  state.cooperative = launch.cooperative;
  state.conditionals = conditionals;
  void* workspace = nullptr;
  if (launch.cooperative) {
    // grid.sync()'s barrier counter lives here (%envreg1:%envreg2), zeroed for each launch.
    workspace = memory_->allocate(64, DeviceMemory::Kind::Parameters);
    if (workspace == nullptr) {
      memory_->release(buffer);
      stickyError_.store(cudaErrorMemoryAllocation);
      return;
    }
    std::memset(workspace, 0, 64);
    state.gridWorkspace = reinterpret_cast<uintptr_t>(workspace);
  }
  state.textures = textures_.slots();
  state.textureCount = textures_.slotCount();
  state.options = options_;
  state.printfRecordsLeft.store(printfFifoSize_ / kPrintfRecordBytes);
  if (options_.watchdogMs != 0) {
    const auto now = std::chrono::steady_clock::now();
    state.deadline = now + std::chrono::milliseconds(options_.watchdogMs);
    state.reportAt = now + std::chrono::milliseconds(options_.longLaunchReportMs);
  }

  std::string output;
  runner->run(state, &output);
  memory_->release(buffer);
  if (workspace != nullptr)
    memory_->release(workspace);
  if (!output.empty()) {
    std::lock_guard lock(outputMutex_);
    pendingOutput_ += output;
  }
  if (state.faultKind != FaultKind::None) {
    std::fprintf(stderr, "ocelot: %s\n", state.faultMessage.c_str());
    std::lock_guard lock(mutex_);
    if (stickyError_.load() == cudaSuccess) {
      faultMessage_ = state.faultMessage;
      stickyError_.store(faultError(state.faultKind));
    }
  }
}

cudaError_t CpuDevice::parameterLayout(DeviceFunction function, std::vector<size_t>* offsets,
                                       std::vector<size_t>* sizes) {
  Function* entry = findFunction(function);
  if (entry == nullptr)
    return cudaErrorInvalidDeviceFunction;
  auto kernel = entry->module->kernel(entry->name);
  if (!kernel)
    return kernel.error().error;
  offsets->assign((**kernel).parameterOffsets.begin(), (**kernel).parameterOffsets.end());
  sizes->assign((**kernel).parameterSizes.begin(), (**kernel).parameterSizes.end());
  return cudaSuccess;
}

cudaError_t CpuDevice::launch(const LaunchParams& params) {
  if (cudaError_t error = sticky(); error != cudaSuccess)
    return error;
  // From finding the function until the work is enqueued (see destroyRetired).
  struct Preparing {
    std::atomic<int>& count;
    explicit Preparing(std::atomic<int>& c) : count(c) {
      count.fetch_add(1, std::memory_order_seq_cst);
    }
    ~Preparing() { count.fetch_sub(1, std::memory_order_seq_cst); }
  } preparing(launchesPreparing_);
  auto& stream = static_cast<CpuStream&>(*params.stream);
  auto prepared = std::make_shared<PreparedLaunch>();
  if (cudaError_t error = prepareLaunch(params.function, params.grid, params.block,
                                        params.sharedMem, params.args, params.attributes,
                                        params.attributeCount, params.cooperative, prepared.get());
      error != cudaSuccess)
    return error;
  if (stream.capturing()) {
    cudaGraphNodeParams node = {};
    node.type = cudaGraphNodeTypeKernel;
    node.kernel.func = params.function;
    node.kernel.gridDim = params.grid;
    node.kernel.blockDim = params.block;
    node.kernel.sharedMemBytes = static_cast<unsigned int>(params.sharedMem);
    node.kernel.kernelParams = params.args;
    GraphNode* added = nullptr;
    if (cudaError_t error = stream.capture(node, &added); error != cudaSuccess)
      return error;
    // The launch's attributes become the node's.
    std::lock_guard graphLock(graphs_.mutex());
    for (unsigned int i = 0; added != nullptr && i < params.attributeCount; ++i)
      added->attributes[params.attributes[i].id] = params.attributes[i].val;
    if (added != nullptr && prepared->cooperative)
      added->attributes[cudaLaunchAttributeCooperative].cooperative = 1;
    return cudaSuccess;
  }
  if (cudaError_t error = stream.checkLegacyDuringCapture(); error != cudaSuccess)
    return error;
  if (options_.deterministic) {
    std::lock_guard turn(turnMutex_);
    prepared->ticket = ++nextTicket_;
  }
  stream.enqueue([this, prepared] { runLaunch(*prepared, nullptr); });
  // Like an asynchronous GPU launch, a fault shows at a later call, not at the launch itself.
  return cudaSuccess;
}

} // namespace ocelot::runtime::cpu
