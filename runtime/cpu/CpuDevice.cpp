#include "runtime/cpu/CpuDevice.h"

#include "runtime/cpu/BlockCountTracer.h"
#include "runtime/cpu/ExecutionTracer.h"
#include "runtime/cpu/TextureObjects.h"

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

bool isSpecialStream(cudaStream_t stream) {
  return stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread;
}

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
  device->runner_ = std::make_unique<LaunchRunner>(device->options_.workers);
  device->heap_ = std::make_unique<DeviceHeap>(*device->memory_, size_t{8} << 20);
  device->textureSlots_.assign(kMaxTextureObjects, nullptr);
  if (const char* path = std::getenv("OCELOT_CPU_TRACE_OUTPUT"); path != nullptr && *path != 0) {
    device->blockTrace_ = std::make_unique<BlockCountTracer>(path);
    device->tracer_ = device->blockTrace_.get();
  }
  return device;
}

CpuDevice::~CpuDevice() {
  flushOutput();
}

void CpuDevice::setWorkers(uint32_t workers) {
  std::lock_guard lock(launchMutex_);
  options_.workers = std::max(workers, 1u);
  runner_ = std::make_unique<LaunchRunner>(options_.workers);
}

std::string CpuDevice::name() const {
  return "Ocelot CPU device (" + std::to_string(runner_->workers()) + " host threads)";
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

bool CpuDevice::validStream(cudaStream_t stream) const {
  if (isSpecialStream(stream))
    return true;
  std::lock_guard lock(mutex_);
  return streams_.count(stream) != 0;
}

bool CpuDevice::isDevicePointer(const void* pointer) const {
  return memory_->find(reinterpret_cast<uintptr_t>(pointer)).has_value();
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
  flushOutput();
  return sticky();
}

cudaError_t CpuDevice::reset() {
  flushOutput();
  std::lock_guard launchLock(launchMutex_);
  std::lock_guard lock(mutex_);
  functions_.clear();
  modules_.clear();
  streams_.clear();
  events_.clear();
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
  stickyError_ = cudaSuccess;
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
  if (pointer == nullptr)
    return cudaSuccess;
  auto allocation = memory_->find(reinterpret_cast<uintptr_t>(pointer));
  if (!allocation || allocation->base != reinterpret_cast<uintptr_t>(pointer) ||
      (allocation->kind != DeviceMemory::Kind::Device &&
       allocation->kind != DeviceMemory::Kind::Managed))
    return cudaErrorInvalidValue;
  memory_->release(pointer);
  return cudaSuccess;
}

cudaError_t CpuDevice::copy(void* destination, const void* source, size_t bytes,
                            cudaStream_t stream, bool async) {
  if (cudaError_t error = sticky(); error != cudaSuccess)
    return error;
  if (!validStream(stream))
    return cudaErrorInvalidResourceHandle;
  if (!async)
    flushOutput();
  if (bytes != 0 && destination != source)
    std::memmove(destination, source, bytes);
  return cudaSuccess;
}

cudaError_t CpuDevice::fill(void* destination, unsigned char value, size_t bytes,
                            cudaStream_t stream, bool async) {
  (void)async;
  if (cudaError_t error = sticky(); error != cudaSuccess)
    return error;
  if (!validStream(stream))
    return cudaErrorInvalidResourceHandle;
  if (bytes != 0 && !memory_->accessible(reinterpret_cast<uintptr_t>(destination), bytes))
    return cudaErrorInvalidValue;
  std::memset(destination, value, bytes);
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

namespace {

/// The address of (x bytes, row y, slice z) of one side of a copy.
std::byte* endpointAddress(const CopyEndpoint& side, const CpuArray* array, size_t row,
                           size_t slice) {
  if (array != nullptr)
    return array->data + (side.z + slice) * array->sliceBytes + (side.y + row) * array->rowBytes +
           side.x;
  const size_t rowsPerSlice = side.rowsPerSlice;
  return static_cast<std::byte*>(side.pointer) +
         ((side.z + slice) * rowsPerSlice + side.y + row) * side.pitch + side.x;
}

} // namespace

cudaError_t CpuDevice::copy3D(const CopyRegion& region, cudaStream_t stream, bool async) {
  if (cudaError_t error = sticky(); error != cudaSuccess)
    return error;
  if (!validStream(stream))
    return cudaErrorInvalidResourceHandle;
  if (!async)
    flushOutput();
  const CpuArray* from = nullptr;
  const CpuArray* to = nullptr;
  {
    std::lock_guard lock(mutex_);
    if (region.source.array != nullptr) {
      auto it = arrays_.find(region.source.array);
      if (it == arrays_.end())
        return cudaErrorInvalidResourceHandle;
      from = it->second.get();
    }
    if (region.destination.array != nullptr) {
      auto it = arrays_.find(region.destination.array);
      if (it == arrays_.end())
        return cudaErrorInvalidResourceHandle;
      to = it->second.get();
    }
  }
  for (size_t z = 0; z < region.depth; ++z)
    for (size_t y = 0; y < region.height; ++y)
      std::memmove(endpointAddress(region.destination, to, y, z),
                   endpointAddress(region.source, from, y, z), region.widthBytes);
  return cudaSuccess;
}

cudaError_t CpuDevice::fill2D(void* destination, size_t pitch, unsigned char value, size_t width,
                              size_t height, cudaStream_t stream, bool async) {
  (void)async;
  if (cudaError_t error = sticky(); error != cudaSuccess)
    return error;
  if (!validStream(stream))
    return cudaErrorInvalidResourceHandle;
  for (size_t y = 0; y < height; ++y)
    std::memset(static_cast<std::byte*>(destination) + y * pitch, value, width);
  return cudaSuccess;
}

cudaError_t CpuDevice::prefetch(const void* pointer, size_t, cudaMemLocation location, unsigned int,
                                cudaStream_t stream) {
  if (!validStream(stream))
    return cudaErrorInvalidResourceHandle;
  if (auto allocation = memory_->find(reinterpret_cast<uintptr_t>(pointer))) {
    std::lock_guard lock(mutex_);
    advice_[allocation->base].lastPrefetch = location;
  }
  return sticky();
}

cudaError_t CpuDevice::advise(const void* pointer, size_t, cudaMemoryAdvise advice,
                              cudaMemLocation location) {
  auto allocation = memory_->find(reinterpret_cast<uintptr_t>(pointer));
  if (!allocation)
    return cudaErrorInvalidValue;
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

cudaError_t CpuDevice::attachMemory(cudaStream_t stream, void*, size_t, unsigned int) {
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
  {
    std::lock_guard lock(mutex_);
    if (!functions_.count(function))
      return cudaErrorInvalidDeviceFunction;
  }
  // A worker (this device's multiprocessor) holds up to 32 CTAs at once, Hopper's limit per SM,
  // whatever their size (registers and threads are host memory here); shared memory is bounded
  // like an SM's 228 KiB so that programs sizing by it get sensible numbers.
  const int byShared = sharedMem > 0 ? static_cast<int>((228 * 1024) / (sharedMem + 1024)) : 32;
  *blocks = blockSize > 0 && blockSize <= 1024 ? std::max(0, std::min(byShared, 32)) : 0;
  return cudaSuccess;
}

// --- Execution
// ------------------------------------------------------------------------------------

cudaError_t CpuDevice::launch(const LaunchParams& params) {
  if (cudaError_t error = sticky(); error != cudaSuccess)
    return error;
  if (!validStream(params.stream))
    return cudaErrorInvalidResourceHandle;
  Function* entry = nullptr;
  {
    std::lock_guard lock(mutex_);
    auto it = functions_.find(params.function);
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
  auto rejected = [&](cudaError_t error) {
    if (tracer_ != nullptr)
      tracer_->launchRejected(kernel);
    return error;
  };
  const uint64_t threads = uint64_t{params.block.x} * params.block.y * params.block.z;
  if (threads == 0 || threads > 1024 || params.grid.x == 0 || params.grid.y == 0 ||
      params.grid.z == 0)
    return rejected(cudaErrorInvalidConfiguration);
  if (kernel.maxThreadsPerBlock != 0 && threads > kernel.maxThreadsPerBlock)
    return rejected(
        cudaErrorInvalidValue); // what the driver reports for a launch above __launch_bounds__
  const size_t dynamicLimit =
      entry->maxDynamicShared >= 0
          ? static_cast<size_t>(entry->maxDynamicShared)
          : 48 * 1024 - std::min<size_t>(kernel.staticSharedSize, 48 * 1024);
  if (params.sharedMem > dynamicLimit)
    return rejected(cudaErrorInvalidValue);
  const uint64_t ctaCount = uint64_t{params.grid.x} * params.grid.y * params.grid.z;
  bool cooperative = params.cooperative;
  for (unsigned int i = 0; i < params.attributeCount; ++i)
    if (params.attributes[i].id == cudaLaunchAttributeCooperative &&
        params.attributes[i].val.cooperative != 0)
      cooperative = true;
  // Co-residency as cudaOccupancyMaxActiveBlocksPerMultiprocessor reports it (32 per worker).
  if (cooperative && ctaCount > std::min<uint64_t>(kMaxCooperativeCtas, 32 * runner_->workers()))
    return rejected(cudaErrorCooperativeLaunchTooLarge);

  std::lock_guard launchLock(launchMutex_);
  // The parameter buffer: the kernel's parameters copied to their offsets, in device memory so
  // that `mov %rd, param; ld.u32 [%rd]` works as on the GPU.
  const size_t bufferSize = std::max<size_t>(kernel.parameterBufferSize, 8);
  auto* buffer =
      static_cast<std::byte*>(memory_->allocate(bufferSize, DeviceMemory::Kind::Parameters));
  if (buffer == nullptr)
    return cudaErrorMemoryAllocation;
  std::memset(buffer, 0, bufferSize);
  for (size_t i = 0; i < kernel.parameterOffsets.size(); ++i) {
    if (params.args == nullptr || params.args[i] == nullptr)
      break;
    std::memcpy(buffer + kernel.parameterOffsets[i], params.args[i], kernel.parameterSizes[i]);
  }

  LaunchState state;
  state.kernel = &kernel;
  state.grid = params.grid;
  state.block = params.block;
  state.dynamicShared = static_cast<uint32_t>(params.sharedMem);
  state.parameters = reinterpret_cast<uintptr_t>(buffer);
  state.gridId = ++gridId_;
  state.smCount = runner_->workers();
  state.memory = memory_.get();
  state.heap = heap_.get();
  state.tracer = tracer_;
  state.cooperative = cooperative;
  void* workspace = nullptr;
  if (cooperative) {
    // grid.sync()'s barrier counter lives here (%envreg1:%envreg2), zeroed for each launch.
    workspace = memory_->allocate(64, DeviceMemory::Kind::Parameters);
    if (workspace == nullptr) {
      memory_->release(buffer);
      return cudaErrorMemoryAllocation;
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
  runner_->run(state, &output);
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
    stickyError_ = faultError(state.faultKind);
    faultMessage_ = state.faultMessage;
  }
  // Like an asynchronous GPU launch, a fault shows at the next call, not at the launch itself.
  return cudaSuccess;
}

// --- Streams and events
// ---------------------------------------------------------------------------

cudaError_t CpuDevice::createStream(cudaStream_t* stream, unsigned int flags, int priority) {
  auto created = std::make_unique<Stream>();
  created->flags = flags;
  created->priority = std::clamp(priority, -5, 0);
  std::lock_guard lock(mutex_);
  created->id = nextStreamId_++;
  *stream = reinterpret_cast<cudaStream_t>(created.get());
  streams_[created.get()] = std::move(created);
  return cudaSuccess;
}

cudaError_t CpuDevice::destroyStream(cudaStream_t stream) {
  std::lock_guard lock(mutex_);
  return streams_.erase(stream) ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

cudaError_t CpuDevice::synchronizeStream(cudaStream_t stream) {
  if (!validStream(stream))
    return cudaErrorInvalidResourceHandle;
  flushOutput();
  return sticky();
}

cudaError_t CpuDevice::queryStream(cudaStream_t stream) {
  if (!validStream(stream))
    return cudaErrorInvalidResourceHandle;
  return sticky();
}

cudaError_t CpuDevice::waitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  if (!validStream(stream))
    return cudaErrorInvalidResourceHandle;
  std::lock_guard lock(mutex_);
  return events_.count(event) ? sticky() : cudaErrorInvalidResourceHandle;
}

cudaError_t CpuDevice::createEvent(cudaEvent_t* event, unsigned int flags) {
  auto created = std::make_unique<Event>();
  created->flags = flags;
  std::lock_guard lock(mutex_);
  *event = reinterpret_cast<cudaEvent_t>(created.get());
  events_[created.get()] = std::move(created);
  return cudaSuccess;
}

cudaError_t CpuDevice::destroyEvent(cudaEvent_t event) {
  std::lock_guard lock(mutex_);
  return events_.erase(event) ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

cudaError_t CpuDevice::recordEvent(cudaEvent_t event, cudaStream_t stream) {
  return recordEventWithFlags(event, stream, 0);
}

cudaError_t CpuDevice::recordEventWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int) {
  if (!validStream(stream))
    return cudaErrorInvalidResourceHandle;
  std::lock_guard lock(mutex_);
  auto it = events_.find(event);
  if (it == events_.end())
    return cudaErrorInvalidResourceHandle;
  // Work issued before the record has finished: the event completes now.
  it->second->recorded = true;
  it->second->time = std::chrono::steady_clock::now();
  return sticky();
}

cudaError_t CpuDevice::synchronizeEvent(cudaEvent_t event) {
  {
    std::lock_guard lock(mutex_);
    if (!events_.count(event))
      return cudaErrorInvalidResourceHandle;
  }
  flushOutput();
  return sticky();
}

cudaError_t CpuDevice::queryEvent(cudaEvent_t event) {
  std::lock_guard lock(mutex_);
  if (!events_.count(event))
    return cudaErrorInvalidResourceHandle;
  return sticky();
}

cudaError_t CpuDevice::elapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end) {
  std::lock_guard lock(mutex_);
  auto a = events_.find(start), b = events_.find(end);
  if (a == events_.end() || b == events_.end())
    return cudaErrorInvalidResourceHandle;
  if ((a->second->flags & cudaEventDisableTiming) || (b->second->flags & cudaEventDisableTiming))
    return cudaErrorInvalidResourceHandle;
  if (!a->second->recorded || !b->second->recorded)
    return cudaErrorInvalidResourceHandle;
  *milliseconds =
      std::chrono::duration<float, std::milli>(b->second->time - a->second->time).count();
  return sticky();
}

cudaError_t CpuDevice::streamFlags(cudaStream_t stream, unsigned int* flags) {
  if (isSpecialStream(stream)) {
    *flags = 0;
    return cudaSuccess;
  }
  std::lock_guard lock(mutex_);
  auto it = streams_.find(stream);
  if (it == streams_.end())
    return cudaErrorInvalidResourceHandle;
  *flags = it->second->flags;
  return cudaSuccess;
}

cudaError_t CpuDevice::streamPriority(cudaStream_t stream, int* priority) {
  if (isSpecialStream(stream)) {
    *priority = 0;
    return cudaSuccess;
  }
  std::lock_guard lock(mutex_);
  auto it = streams_.find(stream);
  if (it == streams_.end())
    return cudaErrorInvalidResourceHandle;
  *priority = it->second->priority;
  return cudaSuccess;
}

cudaError_t CpuDevice::streamId(cudaStream_t stream, unsigned long long* id) {
  if (stream == nullptr || stream == cudaStreamLegacy) {
    *id = 1;
    return cudaSuccess;
  }
  if (stream == cudaStreamPerThread) {
    *id = 2;
    return cudaSuccess;
  }
  std::lock_guard lock(mutex_);
  auto it = streams_.find(stream);
  if (it == streams_.end())
    return cudaErrorInvalidResourceHandle;
  *id = it->second->id;
  return cudaSuccess;
}

cudaError_t CpuDevice::streamDevice(cudaStream_t stream, int* ordinal) {
  if (!validStream(stream))
    return cudaErrorInvalidResourceHandle;
  *ordinal = 0;
  return cudaSuccess;
}

cudaError_t CpuDevice::launchHostFunction(cudaStream_t stream, cudaHostFn_t hostFunction,
                                          void* userData) {
  if (!validStream(stream))
    return cudaErrorInvalidResourceHandle;
  if (cudaError_t error = sticky(); error != cudaSuccess)
    return error;
  flushOutput();
  // The stream's earlier work is complete: run it now, on a host thread as CUDA does (never on
  // the caller's, which may hold locks the function needs), and wait for it.
  std::thread(hostFunction, userData).join();
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
  (void)blockSize;
  Function* entry = nullptr;
  {
    std::lock_guard lock(mutex_);
    auto it = functions_.find(function);
    if (it == functions_.end())
      return cudaErrorInvalidDeviceFunction;
    entry = it->second.get();
  }
  auto kernel = entry->module->kernel(entry->name);
  const size_t fixed = kernel ? (**kernel).staticSharedSize : 0;
  const size_t perBlock = (228 * 1024) / static_cast<size_t>(std::max(blocks, 1));
  const size_t limit = entry->maxDynamicShared >= 0 ? static_cast<size_t>(entry->maxDynamicShared)
                                                    : size_t{48 * 1024};
  *bytes = std::min(limit, perBlock > fixed + 1024 ? perBlock - fixed - 1024 : 0);
  return cudaSuccess;
}

cudaError_t CpuDevice::copyPeer(void* destination, const void* source, Device&, size_t bytes,
                                cudaStream_t stream, bool async) {
  return copy(destination, source, bytes, stream, async);
}

cudaError_t CpuDevice::copy3DPeer(const CopyRegion& region, Device&, cudaStream_t stream,
                                  bool async) {
  return copy3D(region, stream, async);
}

cudaError_t CpuDevice::copyBatch(void* const* destinations, const void* const* sources,
                                 const size_t* sizes, size_t count, cudaMemcpyAttributes*, size_t*,
                                 size_t, cudaStream_t stream) {
  for (size_t i = 0; i < count; ++i)
    if (cudaError_t error = copy(destinations[i], sources[i], sizes[i], stream, true);
        error != cudaSuccess)
      return error;
  return cudaSuccess;
}

cudaError_t CpuDevice::streamAttribute(cudaStream_t stream, cudaLaunchAttributeID id,
                                       cudaLaunchAttributeValue* value) {
  if (!validStream(stream))
    return cudaErrorInvalidResourceHandle;
  std::memset(value, 0, sizeof *value);
  if (id == cudaLaunchAttributePriority)
    return streamPriority(stream, &value->priority);
  return cudaSuccess;
}

cudaError_t CpuDevice::setStreamAttribute(cudaStream_t stream, cudaLaunchAttributeID id,
                                          const cudaLaunchAttributeValue* value) {
  if (!validStream(stream))
    return cudaErrorInvalidResourceHandle;
  if (id == cudaLaunchAttributePriority && !isSpecialStream(stream)) {
    std::lock_guard lock(mutex_);
    streams_[stream]->priority = std::clamp(value->priority, -5, 0);
  }
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
