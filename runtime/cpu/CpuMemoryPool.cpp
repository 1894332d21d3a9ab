// Stream-ordered allocation and memory pools on the CPU device.

#include "runtime/cpu/CpuMemoryPool.h"

#include "runtime/cpu/CpuDevice.h"

#include <algorithm>

namespace ocelot::runtime::cpu {

CpuMemoryPool::CpuMemoryPool(CpuDevice& device)
    : MemoryPool(reinterpret_cast<cudaMemPool_t>(this)), device_(device) {}

void CpuMemoryPool::releaseCached(uint64_t keep) {
  while (reserved_ > keep && !cached_.empty()) {
    auto it = cached_.begin();
    reserved_ -= it->first;
    device_.memory().release(it->second);
    cached_.erase(it);
  }
}

void CpuMemoryPool::releaseAll() {
  std::lock_guard lock(mutex_);
  releaseCached(0);
}

void* CpuMemoryPool::take(size_t bytes) {
  std::lock_guard lock(mutex_);
  void* block = nullptr;
  if (auto it = cached_.find(bytes); it != cached_.end()) {
    block = it->second;
    cached_.erase(it);
  } else {
    block = device_.memory().allocate(bytes, DeviceMemory::Kind::Device);
    if (block == nullptr)
      return nullptr;
    reserved_ += bytes;
    reservedHigh_ = std::max(reservedHigh_, reserved_);
  }
  used_ += bytes;
  usedHigh_ = std::max(usedHigh_, used_);
  return block;
}

void CpuMemoryPool::giveBack(void* block, size_t bytes) {
  std::lock_guard lock(mutex_);
  used_ -= bytes;
  cached_.emplace(bytes, block);
  releaseCached(std::max<uint64_t>(releaseThreshold_, used_));
}

cudaError_t CpuMemoryPool::attribute(cudaMemPoolAttr attribute, void* value) {
  std::lock_guard lock(mutex_);
  switch (attribute) {
  case cudaMemPoolReuseFollowEventDependencies:
    *static_cast<int*>(value) = reuseFollowEvents_;
    break;
  case cudaMemPoolReuseAllowOpportunistic:
    *static_cast<int*>(value) = reuseOpportunistic_;
    break;
  case cudaMemPoolReuseAllowInternalDependencies:
    *static_cast<int*>(value) = reuseInternal_;
    break;
  case cudaMemPoolAttrReleaseThreshold:
    *static_cast<uint64_t*>(value) = releaseThreshold_;
    break;
  case cudaMemPoolAttrReservedMemCurrent:
    *static_cast<uint64_t*>(value) = reserved_;
    break;
  case cudaMemPoolAttrReservedMemHigh:
    *static_cast<uint64_t*>(value) = reservedHigh_;
    break;
  case cudaMemPoolAttrUsedMemCurrent:
    *static_cast<uint64_t*>(value) = used_;
    break;
  case cudaMemPoolAttrUsedMemHigh:
    *static_cast<uint64_t*>(value) = usedHigh_;
    break;
  default:
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

cudaError_t CpuMemoryPool::setAttribute(cudaMemPoolAttr attribute, void* value) {
  std::lock_guard lock(mutex_);
  switch (attribute) {
  case cudaMemPoolReuseFollowEventDependencies:
    reuseFollowEvents_ = *static_cast<int*>(value);
    break;
  case cudaMemPoolReuseAllowOpportunistic:
    reuseOpportunistic_ = *static_cast<int*>(value);
    break;
  case cudaMemPoolReuseAllowInternalDependencies:
    reuseInternal_ = *static_cast<int*>(value);
    break;
  case cudaMemPoolAttrReleaseThreshold:
    releaseThreshold_ = *static_cast<uint64_t*>(value);
    break;
  case cudaMemPoolAttrReservedMemHigh: // only resetting (to the current value) is allowed
    reservedHigh_ = reserved_;
    break;
  case cudaMemPoolAttrUsedMemHigh:
    usedHigh_ = used_;
    break;
  default:
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

cudaError_t CpuMemoryPool::trim(size_t keep) {
  std::lock_guard lock(mutex_);
  releaseCached(std::max<uint64_t>(keep, used_));
  return cudaSuccess;
}

cudaError_t CpuMemoryPool::access(cudaMemAccessFlags* flags, const cudaMemLocation& location) {
  *flags = location.type == cudaMemLocationTypeDevice && location.id == 0
               ? cudaMemAccessFlagsProtReadWrite
               : cudaMemAccessFlagsProtNone;
  return cudaSuccess;
}

cudaError_t CpuMemoryPool::setAccess(const cudaMemAccessDesc* descriptions, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if (descriptions[i].location.type != cudaMemLocationTypeDevice ||
        descriptions[i].location.id != 0)
      return cudaErrorInvalidDevice;
  return cudaSuccess;
}

// --- CpuMemoryPools ---------------------------------------------------------------------------

CpuMemoryPool& CpuMemoryPools::defaultPool() {
  if (default_ == nullptr) {
    auto pool = std::make_unique<CpuMemoryPool>(device_);
    const cudaMemPool_t handle = pool->handle();
    default_ = table_.insert(handle, std::move(pool));
  }
  return *default_;
}

cudaError_t CpuMemoryPools::create(const cudaMemPoolProps& properties, MemoryPool** pool) {
  if (properties.allocType != cudaMemAllocationTypePinned ||
      properties.location.type != cudaMemLocationTypeDevice || properties.location.id != 0)
    return cudaErrorInvalidValue;
  auto created = std::make_unique<CpuMemoryPool>(device_);
  const cudaMemPool_t handle = created->handle();
  *pool = table_.insert(handle, std::move(created));
  return cudaSuccess;
}

cudaError_t CpuMemoryPools::destroy(MemoryPool& pool) {
  device_.cpuStreams().drainAll(); // queued frees refer to the pool
  std::lock_guard lock(mutex_);
  if (&pool == default_)
    return cudaErrorInvalidValue;
  static_cast<CpuMemoryPool&>(pool).releaseAll();
  if (current_ == &pool)
    current_ = nullptr;
  table_.remove(pool.handle());
  return cudaSuccess;
}

cudaError_t CpuMemoryPools::defaultPool(const cudaMemLocation& location, cudaMemAllocationType,
                                        cudaMemPool_t* pool) {
  if (location.type != cudaMemLocationTypeDevice || location.id != 0)
    return cudaErrorInvalidValue;
  std::lock_guard lock(mutex_);
  *pool = defaultPool().handle();
  return cudaSuccess;
}

cudaError_t CpuMemoryPools::currentPool(const cudaMemLocation& location, cudaMemAllocationType,
                                        cudaMemPool_t* pool) {
  if (location.type != cudaMemLocationTypeDevice || location.id != 0)
    return cudaErrorInvalidValue;
  std::lock_guard lock(mutex_);
  *pool = current_ != nullptr ? current_->handle() : defaultPool().handle();
  return cudaSuccess;
}

cudaError_t CpuMemoryPools::setCurrentPool(const cudaMemLocation& location, cudaMemAllocationType,
                                           MemoryPool& pool) {
  if (location.type != cudaMemLocationTypeDevice || location.id != 0)
    return cudaErrorInvalidValue;
  std::lock_guard lock(mutex_);
  current_ = &static_cast<CpuMemoryPool&>(pool);
  return cudaSuccess;
}

cudaError_t CpuMemoryPools::allocate(void** pointer, size_t bytes, MemoryPool* pool,
                                     Stream& queue) {
  auto& stream = static_cast<CpuStream&>(queue);
  if (cudaError_t error = device_.sticky(); error != cudaSuccess)
    return error;
  if (stream.capturing()) {
    // A mem-alloc node; its memory (and so the address returned now) is the graph's.
    cudaGraphNodeParams params = {};
    params.type = cudaGraphNodeTypeMemAlloc;
    params.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
    params.alloc.poolProps.location = {cudaMemLocationTypeDevice, 0};
    params.alloc.bytesize = bytes;
    GraphNode* node = nullptr;
    if (cudaError_t error = stream.capture(params, &node); error != cudaSuccess)
      return error;
    std::lock_guard graphLock(device_.cpuGraphs().mutex());
    *pointer = node != nullptr ? node->params.alloc.dptr : nullptr;
    return cudaSuccess;
  }
  if (cudaError_t error = stream.checkLegacyDuringCapture(); error != cudaSuccess)
    return error;
  // The memory exists from now on; it is in use from the stream's point of view, which needs no
  // operation. Blocks return to the pool when their free runs in stream order.
  std::lock_guard lock(mutex_);
  CpuMemoryPool& from = pool != nullptr       ? static_cast<CpuMemoryPool&>(*pool)
                        : current_ != nullptr ? *current_
                                              : defaultPool();
  if (bytes == 0) {
    *pointer = nullptr;
    return cudaSuccess;
  }
  void* block = from.take(bytes);
  if (block == nullptr)
    return cudaErrorMemoryAllocation;
  blocks_[block] = {&from, bytes};
  *pointer = block;
  return cudaSuccess;
}

cudaError_t CpuMemoryPools::free(void* pointer, Stream& queue) {
  auto& stream = static_cast<CpuStream&>(queue);
  if (stream.capturing()) {
    cudaGraphNodeParams params = {};
    params.type = cudaGraphNodeTypeMemFree;
    params.free.dptr = pointer;
    return stream.capture(params);
  }
  if (cudaError_t error = stream.checkLegacyDuringCapture(); error != cudaSuccess)
    return error;
  if (device_.cpuGraphs().isAllocation(pointer))
    return device_.sticky(); // graph memory is released with its graph
  bool pooled = false;
  {
    std::lock_guard lock(mutex_);
    pooled = blocks_.count(pointer) != 0;
  }
  if (pooled) {
    stream.enqueue([this, pointer] {
      std::lock_guard lock(mutex_);
      auto it = blocks_.find(pointer);
      if (it == blocks_.end())
        return;
      auto [pool, bytes] = it->second;
      blocks_.erase(it);
      pool->giveBack(pointer, bytes);
    });
    return device_.sticky();
  }
  // Memory from cudaMalloc: released in stream order too (cudaFree would synchronize).
  DeviceMemory& memory = device_.memory();
  auto allocation = memory.find(reinterpret_cast<uintptr_t>(pointer));
  if (!allocation || allocation->base != reinterpret_cast<uintptr_t>(pointer) ||
      (allocation->kind != DeviceMemory::Kind::Device &&
       allocation->kind != DeviceMemory::Kind::Managed))
    return cudaErrorInvalidValue;
  stream.enqueue([&memory, pointer] { memory.release(pointer); });
  return device_.sticky();
}

void CpuMemoryPools::reset() {
  std::vector<std::unique_ptr<MemoryPool>> gone = table_.clear();
  std::lock_guard lock(mutex_);
  default_ = current_ = nullptr;
  blocks_.clear();
}

} // namespace ocelot::runtime::cpu
