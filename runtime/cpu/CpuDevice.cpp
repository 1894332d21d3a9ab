#include "runtime/cpu/CpuDevice.h"

#include "runtime/cpu/BlockCountTracer.h"
#include "runtime/cpu/ExecutionTracer.h"
#include "runtime/cpu/TextureObjects.h"
#include "runtime/cpu/llvm/NativeCompiler.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace ocelot::runtime::cpu {

// An sm_90 multiprocessor's occupancy limits, which this device reports and models (attribute()).
constexpr int kSmWarps = 64;  // 2048 threads
constexpr int kSmBlocks = 32; // CTAs
constexpr size_t kSharedPerSm = 228 * 1024;
constexpr size_t kReservedSharedPerBlock = 1024;
constexpr size_t kSharedGranularity = 128;

namespace {
size_t roundUp(size_t value, size_t unit) {
  return (value + unit - 1) / unit * unit;
}
} // namespace
namespace {

bool environmentFlag(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != 0 && std::strcmp(value, "0") != 0;
}

uint32_t environmentNumber(const char* name, uint32_t fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == 0)
    return fallback;
  char* end = nullptr;
  const unsigned long parsed = std::strtoul(value, &end, 10);
  return end != value ? static_cast<uint32_t>(std::min<unsigned long>(parsed, UINT32_MAX))
                      : fallback;
}

/// CTAs a cooperative launch may have: all of them are resident at once (each with its own
/// registers and shared memory), interleaved on one host thread.
constexpr uint64_t kMaxCooperativeCtas = 4096;

} // namespace

std::unique_ptr<CpuDevice> CpuDevice::create(std::string* error) {
  std::unique_ptr<CpuDevice> device(new CpuDevice());
  device->memory_ = DeviceMemory::create(error);
  if (!device->memory_)
    return nullptr;
  device->options_.memcheck = environmentFlag("OCELOT_MEMCHECK");
  device->options_.watchdogMs = environmentNumber("OCELOT_CPU_WATCHDOG_MS", 0);
  device->options_.deterministic = environmentFlag("OCELOT_CPU_DETERMINISTIC");
  device->options_.workers = defaultWorkerCount();
  device->options_.compiler = NativeCompiler::fromEnvironment();
  device->runner_ = std::make_unique<LaunchRunner>(device->options_.workers);
  device->heap_ = std::make_unique<DeviceHeap>(*device->memory_, size_t{8} << 20);
  device->textureSlots_.assign(kMaxTextureObjects, nullptr);
  device->legacy_ =
      std::make_shared<StreamQueue>(device->progress_, StreamQueue::Kind::Legacy, 0, 0, 1);
  if (const char* path = std::getenv("OCELOT_CPU_TRACE_OUTPUT"); path != nullptr && *path != 0) {
    device->blockTrace_ = std::make_unique<BlockCountTracer>(path);
    device->tracer_ = device->blockTrace_.get();
  }
  return device;
}

CpuDevice::~CpuDevice() {
  drainAll();
  {
    // Graphs go first: their allocations return memory to the arena.
    std::lock_guard graphLock(graphMutex_);
    execs_.clear();
    graphs_.clear();
  }
  {
    std::lock_guard lock(streamsMutex_);
    streams_.clear();
    perThread_.clear();
    retired_.clear();
    legacy_.reset();
  }
  flushOutput();
}

void CpuDevice::setWorkers(uint32_t workers) {
  drainAll();
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

bool CpuDevice::isDevicePointer(const void* pointer) const {
  return memory_->find(reinterpret_cast<uintptr_t>(pointer)).has_value();
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

cudaError_t CpuDevice::uuid(cudaUUID_t* uuid) {
  static constexpr char kUuid[16] = {'O', 'c', 'e', 'l', 'o', 't', '-', 'C',
                                     'P', 'U', '-', 'd', 'e', 'v', '0', '0'};
  std::memcpy(uuid->bytes, kUuid, sizeof kUuid);
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
  drainAll();
  flushOutput();
  return sticky();
}

cudaError_t CpuDevice::reset() {
  // Queued work finishes first (a fault drops it quickly); then every object goes.
  drainAll();
  flushOutput();
  {
    std::lock_guard graphLock(graphMutex_);
    execs_.clear();
    graphs_.clear();
    userObjects_.clear();
    captures_.clear();
  }
  {
    std::lock_guard streamsLock(streamsMutex_);
    streams_.clear();
    retired_.clear();
  }
  std::lock_guard launchLock(launchMutex_);
  std::lock_guard lock(mutex_);
  functions_.clear();
  modules_.clear();
  events_.clear();
  graphAllocations_.clear();
  arrays_.clear();
  textureObjects_.clear();
  std::fill(textureSlots_.begin(), textureSlots_.end(), nullptr);
  hostAllocations_.clear();
  registeredFlags_.clear();
  advice_.clear();
  mipmaps_.clear();
  pools_.clear();
  poolBlocks_.clear();
  defaultPool_ = currentPool_ = nullptr;
  unusableLibraries_.clear();
  memory_->releaseAll();
  heap_ = std::make_unique<DeviceHeap>(*memory_, heap_->limit());
  stickyError_.store(cudaSuccess);
  faultMessage_.clear();
  flags_ = 0;
  return cudaSuccess;
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
    options_.stackBytes = static_cast<uint32_t>(std::min<size_t>(value, 1u << 20));
    return cudaSuccess;
  case cudaLimitPrintfFifoSize:
    printfFifoSize_ = value;
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

cudaError_t CpuDevice::streamPriorityRange(int* least, int* greatest) {
  *least = 0;
  *greatest = -5;
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
  {
    // Memory of graph mem-alloc nodes belongs to its graph.
    std::lock_guard lock(mutex_);
    if (graphAllocations_.count(pointer) != 0)
      return cudaSuccess;
  }
  auto allocation = memory_->find(reinterpret_cast<uintptr_t>(pointer));
  if (!allocation || allocation->base != reinterpret_cast<uintptr_t>(pointer) ||
      (allocation->kind != DeviceMemory::Kind::Device &&
       allocation->kind != DeviceMemory::Kind::Managed))
    return cudaErrorInvalidValue;
  // cudaFree synchronizes the device: queued work may still use the memory.
  drainAll();
  memory_->release(pointer);
  return cudaSuccess;
}

cudaError_t CpuDevice::allocateHost(void** pointer, size_t bytes, unsigned int flags) {
  if (cudaError_t error = sticky(); error != cudaSuccess)
    return error;
  *pointer = memory_->allocate(std::max<size_t>(bytes, 1), DeviceMemory::Kind::Host);
  if (*pointer == nullptr)
    return cudaErrorMemoryAllocation;
  std::lock_guard lock(mutex_);
  hostAllocations_[*pointer] = flags | cudaHostAllocMapped;
  return cudaSuccess;
}

cudaError_t CpuDevice::freeHost(void* pointer) {
  if (pointer == nullptr)
    return cudaSuccess;
  if (cudaError_t error = checkUnsafeCall(); error != cudaSuccess)
    return error;
  drainAll(); // like cudaFree, cudaFreeHost synchronizes
  std::lock_guard lock(mutex_);
  auto it = hostAllocations_.find(pointer);
  if (it == hostAllocations_.end())
    return cudaErrorInvalidValue;
  hostAllocations_.erase(it);
  memory_->release(pointer);
  return cudaSuccess;
}

cudaError_t CpuDevice::registerHost(void* pointer, size_t bytes, unsigned int flags) {
  if (memory_->isRegisteredHost(pointer))
    return cudaErrorHostMemoryAlreadyRegistered;
  if (!memory_->registerHost(pointer, bytes))
    return cudaErrorInvalidValue;
  std::lock_guard lock(mutex_);
  registeredFlags_[pointer] = (flags & cudaHostRegisterPortable) | cudaHostAllocMapped;
  return cudaSuccess;
}

cudaError_t CpuDevice::unregisterHost(void* pointer) {
  {
    std::lock_guard lock(mutex_);
    registeredFlags_.erase(pointer);
  }
  return memory_->unregisterHost(pointer) ? cudaSuccess : cudaErrorHostMemoryNotRegistered;
}

cudaError_t CpuDevice::hostDevicePointer(void** device, void* host) {
  // Host and device share one address space here: the device pointer is the host pointer.
  {
    std::lock_guard lock(mutex_);
    for (const auto& [base, flags] : hostAllocations_) {
      (void)flags;
      auto allocation = memory_->find(reinterpret_cast<uintptr_t>(base));
      if (allocation && reinterpret_cast<uintptr_t>(host) - allocation->base < allocation->size) {
        *device = host;
        return cudaSuccess;
      }
    }
  }
  if (memory_->hostAccessible(reinterpret_cast<uintptr_t>(host), 1)) {
    *device = host;
    return cudaSuccess;
  }
  return cudaErrorInvalidValue;
}

cudaError_t CpuDevice::hostFlags(unsigned int* flags, void* host) {
  std::lock_guard lock(mutex_);
  if (memory_->hostAccessible(reinterpret_cast<uintptr_t>(host), 1)) {
    // Registered memory is always mapped here.
    *flags = cudaHostAllocMapped;
    for (const auto& [base, value] : registeredFlags_)
      if (memory_->hostAccessible(reinterpret_cast<uintptr_t>(base), 1) &&
          reinterpret_cast<uintptr_t>(host) >= reinterpret_cast<uintptr_t>(base))
        *flags = value;
    return cudaSuccess;
  }
  for (const auto& [base, value] : hostAllocations_) {
    auto allocation = memory_->find(reinterpret_cast<uintptr_t>(base));
    if (allocation && reinterpret_cast<uintptr_t>(host) - allocation->base < allocation->size) {
      *flags = value;
      return cudaSuccess;
    }
  }
  return cudaErrorInvalidValue;
}

cudaError_t CpuDevice::allocateManaged(void** pointer, size_t bytes, unsigned int flags) {
  (void)flags;
  if (cudaError_t error = sticky(); error != cudaSuccess)
    return error;
  *pointer = memory_->allocate(std::max<size_t>(bytes, 1), DeviceMemory::Kind::Managed);
  if (*pointer != nullptr)
    std::memset(*pointer, 0, bytes);
  return *pointer != nullptr ? cudaSuccess : cudaErrorMemoryAllocation;
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
  attributes->device = 0;
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

cudaError_t CpuDevice::prefetch(const void* pointer, size_t, cudaMemLocation location, unsigned int,
                                cudaStream_t stream) {
  if (!validStream(stream))
    return cudaErrorInvalidResourceHandle;
  // Only managed memory migrates (a GPU without HMM refuses anything else, as does this device).
  auto allocation = memory_->find(reinterpret_cast<uintptr_t>(pointer));
  if (!allocation || allocation->kind != DeviceMemory::Kind::Managed)
    return cudaErrorInvalidValue;
  std::lock_guard lock(mutex_);
  advice_[allocation->base].lastPrefetch = location;
  return sticky();
}

cudaError_t CpuDevice::advise(const void* pointer, size_t, cudaMemoryAdvise advice,
                              cudaMemLocation location) {
  auto allocation = memory_->find(reinterpret_cast<uintptr_t>(pointer));
  if (!allocation || allocation->kind != DeviceMemory::Kind::Managed)
    return cudaErrorInvalidValue; // advice applies to managed memory only
  std::lock_guard lock(mutex_);
  ManagedAdvice& state = advice_[allocation->base];
  switch (advice) {
  case cudaMemAdviseSetReadMostly:
    state.readMostly = true;
    break;
  case cudaMemAdviseUnsetReadMostly:
    state.readMostly = false;
    break;
  case cudaMemAdviseSetPreferredLocation:
    state.preferred = location;
    break;
  case cudaMemAdviseUnsetPreferredLocation:
    state.preferred = {cudaMemLocationTypeInvalid, 0};
    break;
  default:
    break; // accessed-by: every processor accesses everything here
  }
  return cudaSuccess;
}

namespace {

/// The device id the legacy range attributes report for a location.
int legacyLocation(const cudaMemLocation& location) {
  switch (location.type) {
  case cudaMemLocationTypeDevice:
    return location.id;
  case cudaMemLocationTypeHost:
  case cudaMemLocationTypeHostNuma:
  case cudaMemLocationTypeHostNumaCurrent:
    return cudaCpuDeviceId;
  default:
    return cudaInvalidDeviceId;
  }
}

} // namespace

cudaError_t CpuDevice::rangeAttributes(void** data, size_t* dataSizes,
                                       cudaMemRangeAttribute* attributes, size_t count,
                                       const void* pointer, size_t) {
  auto allocation = memory_->find(reinterpret_cast<uintptr_t>(pointer));
  if (!allocation || allocation->kind != DeviceMemory::Kind::Managed)
    return cudaErrorInvalidValue;
  ManagedAdvice state;
  {
    std::lock_guard lock(mutex_);
    if (auto it = advice_.find(allocation->base); it != advice_.end())
      state = it->second;
  }
  for (size_t i = 0; i < count; ++i) {
    auto* values = static_cast<int*>(data[i]);
    const size_t slots = dataSizes[i] / sizeof(int);
    if (slots == 0)
      return cudaErrorInvalidValue;
    int value = 0;
    switch (attributes[i]) {
    case cudaMemRangeAttributeReadMostly:
      value = state.readMostly ? 1 : 0;
      break;
    case cudaMemRangeAttributePreferredLocation:
      value = legacyLocation(state.preferred);
      break;
    case cudaMemRangeAttributeAccessedBy:
      for (size_t s = 0; s < slots; ++s)
        values[s] = cudaInvalidDeviceId;
      continue;
    case cudaMemRangeAttributeLastPrefetchLocation:
      value = legacyLocation(state.lastPrefetch);
      break;
    case cudaMemRangeAttributePreferredLocationType:
      value = state.preferred.type;
      break;
    case cudaMemRangeAttributePreferredLocationId:
      value = state.preferred.id;
      break;
    case cudaMemRangeAttributeLastPrefetchLocationType:
      value = state.lastPrefetch.type;
      break;
    case cudaMemRangeAttributeLastPrefetchLocationId:
      value = state.lastPrefetch.id;
      break;
    default:
      return cudaErrorInvalidValue;
    }
    values[0] = value;
  }
  return cudaSuccess;
}

cudaError_t CpuDevice::ipcMemHandle(cudaIpcMemHandle_t*, void* pointer) {
  auto allocation = memory_->find(reinterpret_cast<uintptr_t>(pointer));
  if (!allocation || allocation->kind != DeviceMemory::Kind::Device)
    return cudaErrorInvalidValue;
  // Device memory is this process's own host memory: no other process can map it.
  return cudaErrorNotSupported;
}

cudaError_t CpuDevice::attachMemory(cudaStream_t stream, void*, size_t, unsigned int) {
  // Managed memory is host memory here: attaching changes nothing.
  return validStream(stream) ? sticky() : cudaErrorInvalidResourceHandle;
}

// --- Arrays
// ---------------------------------------------------------------------------------------

cudaError_t CpuDevice::createArray(cudaArray_t* array, const cudaChannelFormatDesc& format,
                                   cudaExtent extent, unsigned int flags) {
  auto created = std::make_unique<CpuArray>();
  created->format = format;
  created->extent = extent;
  created->flags = flags;
  const int bits = format.x + format.y + format.z + format.w;
  created->elementBytes = static_cast<uint32_t>(std::max(bits / 8, 1));
  created->width = std::max<size_t>(extent.width, 1);
  created->height = std::max<size_t>(extent.height, 1);
  created->depth = std::max<size_t>(extent.depth, 1);
  created->rowBytes = created->width * created->elementBytes;
  created->sliceBytes = created->rowBytes * created->height;
  const size_t bytes = created->sliceBytes * created->depth;
  created->data = static_cast<std::byte*>(memory_->allocate(bytes, DeviceMemory::Kind::Device));
  if (created->data == nullptr)
    return cudaErrorMemoryAllocation;
  std::memset(created->data, 0, bytes);
  *array = reinterpret_cast<cudaArray_t>(created.get());
  std::lock_guard lock(mutex_);
  arrays_[*array] = std::move(created);
  return cudaSuccess;
}

cudaError_t CpuDevice::destroyArray(cudaArray_t array) {
  std::lock_guard lock(mutex_);
  auto it = arrays_.find(array);
  if (it == arrays_.end())
    return cudaErrorInvalidResourceHandle;
  memory_->release(it->second->data);
  arrays_.erase(it);
  return cudaSuccess;
}

cudaError_t CpuDevice::arrayInfo(cudaChannelFormatDesc* format, cudaExtent* extent,
                                 unsigned int* flags, cudaArray_const_t array) {
  std::lock_guard lock(mutex_);
  auto it = arrays_.find(const_cast<cudaArray_t>(array));
  if (it == arrays_.end())
    return cudaErrorInvalidResourceHandle;
  if (format != nullptr)
    *format = it->second->format;
  if (extent != nullptr)
    *extent = it->second->extent;
  if (flags != nullptr)
    *flags = it->second->flags;
  return cudaSuccess;
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
  auto loaded = CpuModule::load(image.ptx, image.label, *memory_);
  if (!loaded) {
    if (log != nullptr)
      *log = loaded.error().message;
    return cudaErrorInvalidPtx;
  }
  CpuModule* raw = loaded->get();
  std::lock_guard lock(mutex_);
  modules_[raw] = std::move(*loaded);
  *module = raw;
  return cudaSuccess;
}

cudaError_t CpuDevice::unloadModule(DeviceModule module) {
  drainAll(); // queued launches may use its kernels and variables
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

cudaError_t CpuDevice::functionAttributes(cudaFuncAttributes* attributes, DeviceFunction function) {
  Function* entry = nullptr;
  {
    std::lock_guard lock(mutex_);
    auto it = functions_.find(function);
    if (it == functions_.end())
      return cudaErrorInvalidDeviceFunction;
    entry = it->second.get();
  }
  auto kernel = entry->module->kernel(entry->name);
  std::memset(attributes, 0, sizeof *attributes);
  attributes->maxThreadsPerBlock = 1024;
  attributes->ptxVersion = 90;
  attributes->binaryVersion = 90;
  attributes->preferredShmemCarveout = entry->carveout;
  attributes->maxDynamicSharedSizeBytes = entry->maxDynamicShared;
  if (kernel) {
    const DecodedKernel& k = **kernel;
    if (entry->maxDynamicShared < 0)
      attributes->maxDynamicSharedSizeBytes =
          static_cast<int>(48 * 1024 - std::min<uint32_t>(k.staticSharedSize, 48 * 1024));
    attributes->sharedSizeBytes = k.staticSharedSize;
    attributes->localSizeBytes = k.staticStackSize;
    attributes->numRegs = static_cast<int>(std::min<uint32_t>(
        k.functions.empty() ? 0 : k.functions[0].rowEnd - k.functions[0].rowBegin, 255));
    attributes->constSizeBytes = 0;
    if (k.maxThreadsPerBlock != 0)
      attributes->maxThreadsPerBlock = static_cast<int>(k.maxThreadsPerBlock);
    attributes->clusterDimMustBeSet = k.clusterRequired ? 1 : 0;
    attributes->requiredClusterWidth = static_cast<int>(k.requiredCluster[0]);
    attributes->requiredClusterHeight = static_cast<int>(k.requiredCluster[1]);
    attributes->requiredClusterDepth = static_cast<int>(k.requiredCluster[2]);
  }
  return cudaSuccess;
}

cudaError_t CpuDevice::setFunctionAttribute(DeviceFunction function, cudaFuncAttribute attribute,
                                            int value) {
  std::lock_guard lock(mutex_);
  auto it = functions_.find(function);
  if (it == functions_.end())
    return cudaErrorInvalidDeviceFunction;
  if (attribute == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || value > 227 * 1024)
      return cudaErrorInvalidValue;
    it->second->maxDynamicShared = value;
  } else if (attribute == cudaFuncAttributePreferredSharedMemoryCarveout) {
    if (value < -1 || value > 100)
      return cudaErrorInvalidValue;
    it->second->carveout = value;
  }
  return cudaSuccess;
}

cudaError_t CpuDevice::setFunctionCacheConfig(DeviceFunction function, cudaFuncCache) {
  std::lock_guard lock(mutex_);
  return functions_.count(function) ? cudaSuccess : cudaErrorInvalidDeviceFunction;
}

cudaError_t CpuDevice::maxActiveBlocks(int* blocks, DeviceFunction function, int blockSize,
                                       size_t sharedMem, unsigned int) {
  cudaFuncAttributes attributes;
  if (cudaError_t error = functionAttributes(&attributes, function); error != cudaSuccess)
    return error;
  // The device reports an sm_90 multiprocessor's limits (attribute()), and occupancy follows the
  // same rules with them: warps per SM, CTAs per SM, and shared memory per SM with 1 KiB reserved
  // per CTA. Registers are host memory here and never limit. A block larger than the kernel allows,
  // or more dynamic shared memory than it may use, fits 0 times, as on a GPU.
  if (blockSize <= 0 || blockSize > attributes.maxThreadsPerBlock ||
      sharedMem > static_cast<size_t>(std::max(attributes.maxDynamicSharedSizeBytes, 0))) {
    *blocks = 0;
    return cudaSuccess;
  }
  const int warps = (blockSize + 31) / 32;
  const int byThreads = kSmWarps / warps;
  const size_t shared =
      roundUp(sharedMem + attributes.sharedSizeBytes, kSharedGranularity) + kReservedSharedPerBlock;
  const int byShared = static_cast<int>(kSharedPerSm / shared);
  *blocks = std::max(0, std::min({byThreads, byShared, kSmBlocks}));
  return cudaSuccess;
}

// --- Execution
// ------------------------------------------------------------------------------------

cudaError_t CpuDevice::prepareLaunch(DeviceFunction function, dim3 grid, dim3 block,
                                     size_t sharedMem, void** args,
                                     const cudaLaunchAttribute* attributes,
                                     unsigned int attributeCount, bool cooperative,
                                     PreparedLaunch* prepared) {
  Function* entry = nullptr;
  {
    std::lock_guard lock(mutex_);
    auto it = functions_.find(function);
    if (it == functions_.end())
      return cudaErrorInvalidDeviceFunction;
    entry = it->second.get();
  }
  auto decoded = entry->module->kernel(entry->name);
  if (!decoded) {
    std::fprintf(stderr, "ocelot: the CPU device cannot run %s\n", decoded.error().message.c_str());
    return cudaErrorNotSupported;
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
    if (maxActiveBlocks(&perWorker, function, static_cast<int>(threads), sharedMem, 0) !=
        cudaSuccess)
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
  state.textures = textureSlots_.data();
  state.textureCount = static_cast<uint32_t>(textureSlots_.size());
  state.options = options_;
  if (options_.watchdogMs != 0)
    state.deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.watchdogMs);

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
  Function* entry = nullptr;
  {
    std::lock_guard lock(mutex_);
    auto it = functions_.find(function);
    if (it == functions_.end())
      return cudaErrorInvalidDeviceFunction;
    entry = it->second.get();
  }
  auto kernel = entry->module->kernel(entry->name);
  if (!kernel)
    return cudaErrorNotSupported;
  offsets->assign((**kernel).parameterOffsets.begin(), (**kernel).parameterOffsets.end());
  sizes->assign((**kernel).parameterSizes.begin(), (**kernel).parameterSizes.end());
  return cudaSuccess;
}

cudaError_t CpuDevice::launch(const LaunchParams& params) {
  if (cudaError_t error = sticky(); error != cudaSuccess)
    return error;
  StreamQueue* queue = nullptr;
  if (cudaError_t error = resolveStream(params.stream, &queue); error != cudaSuccess)
    return error;
  auto prepared = std::make_shared<PreparedLaunch>();
  if (cudaError_t error = prepareLaunch(params.function, params.grid, params.block,
                                        params.sharedMem, params.args, params.attributes,
                                        params.attributeCount, params.cooperative, prepared.get());
      error != cudaSuccess)
    return error;
  if (capturing(*queue)) {
    cudaGraphNodeParams node = {};
    node.type = cudaGraphNodeTypeKernel;
    node.kernel.func = params.function;
    node.kernel.gridDim = params.grid;
    node.kernel.blockDim = params.block;
    node.kernel.sharedMemBytes = static_cast<unsigned int>(params.sharedMem);
    node.kernel.kernelParams = params.args;
    GraphNode* added = nullptr;
    if (cudaError_t error = captureNode(*queue, node, &added); error != cudaSuccess)
      return error;
    // The launch's attributes become the node's.
    std::lock_guard graphLock(graphMutex_);
    for (unsigned int i = 0; added != nullptr && i < params.attributeCount; ++i)
      added->attributes[params.attributes[i].id] = params.attributes[i].val;
    if (added != nullptr && prepared->cooperative)
      added->attributes[cudaLaunchAttributeCooperative].cooperative = 1;
    return cudaSuccess;
  }
  if (cudaError_t error = checkLegacyDuringCapture(*queue); error != cudaSuccess)
    return error;
  if (options_.deterministic) {
    std::lock_guard turn(turnMutex_);
    prepared->ticket = ++nextTicket_;
  }
  enqueue(*queue, [this, prepared] { runLaunch(*prepared, nullptr); });
  // Like an asynchronous GPU launch, a fault shows at a later call, not at the launch itself.
  return cudaSuccess;
}

cudaError_t CpuDevice::functionParameter(DeviceFunction function, size_t index, size_t* offset,
                                         size_t* size) {
  Function* entry = nullptr;
  {
    std::lock_guard lock(mutex_);
    auto it = functions_.find(function);
    if (it == functions_.end())
      return cudaErrorInvalidDeviceFunction;
    entry = it->second.get();
  }
  auto kernel = entry->module->kernel(entry->name);
  if (!kernel)
    return cudaErrorInvalidDeviceFunction;
  const DecodedKernel& k = **kernel;
  if (index >= k.parameterOffsets.size())
    return cudaErrorInvalidValue;
  if (offset != nullptr)
    *offset = k.parameterOffsets[index];
  if (size != nullptr)
    *size = k.parameterSizes[index];
  return cudaSuccess;
}

cudaError_t CpuDevice::availableDynamicSharedMemory(size_t* bytes, DeviceFunction function,
                                                    int blocks, int blockSize) {
  cudaFuncAttributes attributes;
  if (cudaError_t error = functionAttributes(&attributes, function); error != cudaSuccess)
    return error;
  if (blocks <= 0 || blockSize <= 0 || blockSize > attributes.maxThreadsPerBlock ||
      blocks * ((blockSize + 31) / 32) > kSmWarps || blocks > kSmBlocks) {
    *bytes = 0;
    return cudaSuccess;
  }
  // An equal share of the SM's shared memory in allocation units (as the driver computes it: the
  // per-CTA reservation is not taken off here), less static shared memory, capped by what the
  // kernel may use dynamically.
  const size_t share = kSharedPerSm / static_cast<size_t>(blocks) / 256 * 256;
  const size_t fixed = attributes.sharedSizeBytes;
  const size_t limit = static_cast<size_t>(std::max(attributes.maxDynamicSharedSizeBytes, 0));
  *bytes = std::min(limit, share > fixed ? share - fixed : 0);
  return cudaSuccess;
}

// --- Libraries ----------------------------------------------------------------------------------
// A library is a module loaded from a PTX image; its cudaKernel_t handles are the device's
// DeviceFunction handles, so launching one needs no translation.

cudaError_t CpuDevice::loadLibrary(cudaLibrary_t* library, const void* image, const char* file,
                                   cudaJitOption*, void**, unsigned int, cudaLibraryOption*, void**,
                                   unsigned int) {
  std::string text;
  if (image != nullptr) {
    text = static_cast<const char*>(image);
  } else {
    std::FILE* in = std::fopen(file, "rb");
    if (in == nullptr)
      return cudaErrorFileNotFound;
    char buffer[4096];
    for (size_t got; (got = std::fread(buffer, 1, sizeof buffer, in)) != 0;)
      text.append(buffer, got);
    std::fclose(in);
  }
  if (text.find(".version") == std::string::npos) {
    // Not PTX (a cubin, a fatbinary, garbage): like the driver's lazy loading, the load itself
    // succeeds and using the library fails.
    auto placeholder = std::make_unique<char>();
    *library = reinterpret_cast<cudaLibrary_t>(placeholder.get());
    std::lock_guard lock(mutex_);
    unusableLibraries_[placeholder.get()] = std::move(placeholder);
    return cudaSuccess;
  }
  ModuleImage moduleImage;
  moduleImage.form = ModuleImage::Form::Ptx;
  moduleImage.ptx = {std::move(text)};
  moduleImage.label = "library";
  DeviceModule module = nullptr;
  std::string log;
  if (cudaError_t error = loadModule(moduleImage, &module, &log); error != cudaSuccess) {
    std::fprintf(stderr, "ocelot: %s\n", log.c_str());
    return error;
  }
  *library = static_cast<cudaLibrary_t>(module);
  return cudaSuccess;
}

cudaError_t CpuDevice::unloadLibrary(cudaLibrary_t library) {
  {
    std::lock_guard lock(mutex_);
    if (unusableLibraries_.erase(library) != 0)
      return cudaSuccess;
  }
  return unloadModule(library);
}

cudaError_t CpuDevice::libraryKernel(cudaKernel_t* kernel, cudaLibrary_t library,
                                     const char* name) {
  DeviceFunction handle = nullptr;
  if (cudaError_t error = function(library, name, &handle); error != cudaSuccess)
    return error;
  *kernel = static_cast<cudaKernel_t>(handle);
  return cudaSuccess;
}

cudaError_t CpuDevice::libraryKernelCount(unsigned int* count, cudaLibrary_t library) {
  std::lock_guard lock(mutex_);
  auto it = modules_.find(static_cast<CpuModule*>(static_cast<void*>(library)));
  if (it == modules_.end())
    return cudaErrorInvalidResourceHandle;
  unsigned int kernels = 0;
  for (const ModuleFunction& function : it->second->functions())
    kernels += function.function->isEntry() ? 1 : 0;
  *count = kernels;
  return cudaSuccess;
}

cudaError_t CpuDevice::libraryKernels(cudaKernel_t* kernels, unsigned int count,
                                      cudaLibrary_t library) {
  std::vector<std::string> names;
  {
    std::lock_guard lock(mutex_);
    auto it = modules_.find(static_cast<CpuModule*>(static_cast<void*>(library)));
    if (it == modules_.end())
      return cudaErrorInvalidResourceHandle;
    for (const ModuleFunction& function : it->second->functions())
      if (function.function->isEntry())
        names.emplace_back(function.name);
  }
  for (unsigned int i = 0; i < count && i < names.size(); ++i)
    if (cudaError_t error = libraryKernel(&kernels[i], library, names[i].c_str());
        error != cudaSuccess)
      return error;
  return cudaSuccess;
}

cudaError_t CpuDevice::libraryGlobal(void** address, size_t* bytes, cudaLibrary_t library,
                                     const char* name, bool) {
  return global(library, name, address, bytes);
}

cudaError_t CpuDevice::kernelFunction(DeviceFunction* function, cudaKernel_t kernel) {
  std::lock_guard lock(mutex_);
  if (!functions_.count(kernel))
    return cudaErrorInvalidResourceHandle;
  *function = kernel;
  return cudaSuccess;
}

cudaError_t CpuDevice::kernelName(const char** name, cudaKernel_t kernel) {
  std::lock_guard lock(mutex_);
  auto it = functions_.find(kernel);
  if (it == functions_.end())
    return cudaErrorInvalidResourceHandle;
  *name = it->second->name.c_str();
  return cudaSuccess;
}

} // namespace ocelot::runtime::cpu
