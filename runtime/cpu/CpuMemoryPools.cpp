// Stream-ordered allocation and memory pools on the CPU device. A pool is bookkeeping around
// DeviceMemory: what is in use, what is kept for reuse (up to the release threshold), and the
// attributes programs read back. Allocation happens when cudaMallocAsync is called; a block
// returns to its pool when its cudaFreeAsync runs in stream order, so no other stream gets it
// while work queued before the free may still use it.

#include "runtime/cpu/CpuDevice.h"

#include <algorithm>

namespace ocelot::runtime::cpu {

CpuDevice::Pool* CpuDevice::poolOf(cudaMemPool_t pool) {
  if (pool == nullptr)
    pool = currentPool_ != nullptr ? currentPool_ : defaultPool();
  auto it = pools_.find(pool);
  return it == pools_.end() ? nullptr : it->second.get();
}

cudaMemPool_t CpuDevice::defaultPool() {
  if (defaultPool_ == nullptr) {
    auto pool = std::make_unique<Pool>();
    defaultPool_ = reinterpret_cast<cudaMemPool_t>(pool.get());
    pools_[defaultPool_] = std::move(pool);
  }
  return defaultPool_;
}

void CpuDevice::releaseCached(Pool& pool, uint64_t keep) {
  while (pool.reserved > keep && !pool.cached.empty()) {
    auto it = pool.cached.begin();
    pool.reserved -= it->first;
    memory_->release(it->second);
    pool.cached.erase(it);
  }
}

cudaError_t CpuDevice::allocateAsync(void** pointer, size_t bytes, cudaMemPool_t handle,
                                     Stream& queue) {
  auto& stream = static_cast<CpuStream&>(queue);
  if (cudaError_t error = sticky(); error != cudaSuccess)
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
    std::lock_guard graphLock(graphMutex_);
    *pointer = node != nullptr ? node->params.alloc.dptr : nullptr;
    return cudaSuccess;
  }
  if (cudaError_t error = stream.checkLegacyDuringCapture(); error != cudaSuccess)
    return error;
  // The memory exists from now on; it is in use from the stream's point of view, which needs no
  // operation. Blocks return to the pool when their free runs in stream order.
  std::lock_guard lock(mutex_);
  Pool* pool = poolOf(handle);
  if (pool == nullptr)
    return cudaErrorInvalidValue;
  if (bytes == 0) {
    *pointer = nullptr;
    return cudaSuccess;
  }
  void* block = nullptr;
  if (auto it = pool->cached.find(bytes); it != pool->cached.end()) {
    block = it->second;
    pool->cached.erase(it);
  } else {
    block = memory_->allocate(bytes, DeviceMemory::Kind::Device);
    if (block == nullptr)
      return cudaErrorMemoryAllocation;
    pool->reserved += bytes;
    pool->reservedHigh = std::max(pool->reservedHigh, pool->reserved);
  }
  pool->used += bytes;
  pool->usedHigh = std::max(pool->usedHigh, pool->used);
  poolBlocks_[block] = {pool, bytes};
  *pointer = block;
  return cudaSuccess;
}

cudaError_t CpuDevice::freeAsync(void* pointer, Stream& queue) {
  auto& stream = static_cast<CpuStream&>(queue);
  if (stream.capturing()) {
    cudaGraphNodeParams params = {};
    params.type = cudaGraphNodeTypeMemFree;
    params.free.dptr = pointer;
    return stream.capture(params);
  }
  if (cudaError_t error = stream.checkLegacyDuringCapture(); error != cudaSuccess)
    return error;
  bool pooled = false;
  {
    std::lock_guard lock(mutex_);
    if (graphAllocations_.count(pointer) != 0)
      return sticky(); // graph memory is released with its graph
    pooled = poolBlocks_.count(pointer) != 0;
  }
  if (pooled) {
    stream.enqueue([this, pointer] {
      std::lock_guard lock(mutex_);
      auto it = poolBlocks_.find(pointer);
      if (it == poolBlocks_.end())
        return;
      auto [pool, bytes] = it->second;
      poolBlocks_.erase(it);
      pool->used -= bytes;
      pool->cached.emplace(bytes, pointer);
      releaseCached(*pool, std::max<uint64_t>(pool->releaseThreshold, pool->used));
    });
    return sticky();
  }
  // Memory from cudaMalloc: released in stream order too (cudaFree would synchronize).
  auto allocation = memory_->find(reinterpret_cast<uintptr_t>(pointer));
  if (!allocation || allocation->base != reinterpret_cast<uintptr_t>(pointer) ||
      (allocation->kind != DeviceMemory::Kind::Device &&
       allocation->kind != DeviceMemory::Kind::Managed))
    return cudaErrorInvalidValue;
  stream.enqueue([this, pointer] { memory_->release(pointer); });
  return sticky();
}

cudaError_t CpuDevice::createPool(cudaMemPool_t* handle, const cudaMemPoolProps& properties) {
  if (properties.allocType != cudaMemAllocationTypePinned ||
      properties.location.type != cudaMemLocationTypeDevice || properties.location.id != 0)
    return cudaErrorInvalidValue;
  auto pool = std::make_unique<Pool>();
  std::lock_guard lock(mutex_);
  *handle = reinterpret_cast<cudaMemPool_t>(pool.get());
  pools_[*handle] = std::move(pool);
  return cudaSuccess;
}

cudaError_t CpuDevice::destroyPool(cudaMemPool_t handle) {
  streams_.drainAll(); // queued frees refer to the pool
  std::lock_guard lock(mutex_);
  auto it = pools_.find(handle);
  if (it == pools_.end() || handle == defaultPool_)
    return cudaErrorInvalidValue;
  releaseCached(*it->second, 0);
  if (currentPool_ == handle)
    currentPool_ = nullptr;
  pools_.erase(it);
  return cudaSuccess;
}

cudaError_t CpuDevice::poolAttribute(cudaMemPool_t handle, cudaMemPoolAttr attribute, void* value) {
  std::lock_guard lock(mutex_);
  Pool* pool = handle != nullptr ? poolOf(handle) : nullptr;
  if (pool == nullptr)
    return cudaErrorInvalidValue;
  switch (attribute) {
  case cudaMemPoolReuseFollowEventDependencies:
    *static_cast<int*>(value) = pool->reuseFollowEvents;
    break;
  case cudaMemPoolReuseAllowOpportunistic:
    *static_cast<int*>(value) = pool->reuseOpportunistic;
    break;
  case cudaMemPoolReuseAllowInternalDependencies:
    *static_cast<int*>(value) = pool->reuseInternal;
    break;
  case cudaMemPoolAttrReleaseThreshold:
    *static_cast<uint64_t*>(value) = pool->releaseThreshold;
    break;
  case cudaMemPoolAttrReservedMemCurrent:
    *static_cast<uint64_t*>(value) = pool->reserved;
    break;
  case cudaMemPoolAttrReservedMemHigh:
    *static_cast<uint64_t*>(value) = pool->reservedHigh;
    break;
  case cudaMemPoolAttrUsedMemCurrent:
    *static_cast<uint64_t*>(value) = pool->used;
    break;
  case cudaMemPoolAttrUsedMemHigh:
    *static_cast<uint64_t*>(value) = pool->usedHigh;
    break;
  default:
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

cudaError_t CpuDevice::setPoolAttribute(cudaMemPool_t handle, cudaMemPoolAttr attribute,
                                        void* value) {
  std::lock_guard lock(mutex_);
  Pool* pool = handle != nullptr ? poolOf(handle) : nullptr;
  if (pool == nullptr)
    return cudaErrorInvalidValue;
  switch (attribute) {
  case cudaMemPoolReuseFollowEventDependencies:
    pool->reuseFollowEvents = *static_cast<int*>(value);
    break;
  case cudaMemPoolReuseAllowOpportunistic:
    pool->reuseOpportunistic = *static_cast<int*>(value);
    break;
  case cudaMemPoolReuseAllowInternalDependencies:
    pool->reuseInternal = *static_cast<int*>(value);
    break;
  case cudaMemPoolAttrReleaseThreshold:
    pool->releaseThreshold = *static_cast<uint64_t*>(value);
    break;
  case cudaMemPoolAttrReservedMemHigh: // only resetting (to the current value) is allowed
    pool->reservedHigh = pool->reserved;
    break;
  case cudaMemPoolAttrUsedMemHigh:
    pool->usedHigh = pool->used;
    break;
  default:
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

cudaError_t CpuDevice::trimPool(cudaMemPool_t handle, size_t keep) {
  std::lock_guard lock(mutex_);
  Pool* pool = handle != nullptr ? poolOf(handle) : nullptr;
  if (pool == nullptr)
    return cudaErrorInvalidValue;
  releaseCached(*pool, std::max<uint64_t>(keep, pool->used));
  return cudaSuccess;
}

cudaError_t CpuDevice::poolAccess(cudaMemAccessFlags* flags, cudaMemPool_t handle,
                                  const cudaMemLocation& location) {
  std::lock_guard lock(mutex_);
  if (handle == nullptr || poolOf(handle) == nullptr)
    return cudaErrorInvalidValue;
  *flags = location.type == cudaMemLocationTypeDevice && location.id == 0
               ? cudaMemAccessFlagsProtReadWrite
               : cudaMemAccessFlagsProtNone;
  return cudaSuccess;
}

cudaError_t CpuDevice::setPoolAccess(cudaMemPool_t handle, const cudaMemAccessDesc* descs,
                                     size_t count) {
  std::lock_guard lock(mutex_);
  if (handle == nullptr || poolOf(handle) == nullptr)
    return cudaErrorInvalidValue;
  for (size_t i = 0; i < count; ++i)
    if (descs[i].location.type != cudaMemLocationTypeDevice || descs[i].location.id != 0)
      return cudaErrorInvalidDevice;
  return cudaSuccess;
}

cudaError_t CpuDevice::defaultPool(cudaMemPool_t* pool, const cudaMemLocation& location,
                                   cudaMemAllocationType) {
  if (location.type != cudaMemLocationTypeDevice || location.id != 0)
    return cudaErrorInvalidValue;
  std::lock_guard lock(mutex_);
  *pool = defaultPool();
  return cudaSuccess;
}

cudaError_t CpuDevice::currentPool(cudaMemPool_t* pool, const cudaMemLocation& location,
                                   cudaMemAllocationType) {
  if (location.type != cudaMemLocationTypeDevice || location.id != 0)
    return cudaErrorInvalidValue;
  std::lock_guard lock(mutex_);
  *pool = currentPool_ != nullptr ? currentPool_ : defaultPool();
  return cudaSuccess;
}

cudaError_t CpuDevice::setCurrentPool(const cudaMemLocation& location, cudaMemAllocationType,
                                      cudaMemPool_t pool) {
  if (location.type != cudaMemLocationTypeDevice || location.id != 0)
    return cudaErrorInvalidValue;
  std::lock_guard lock(mutex_);
  if (pools_.find(pool) == pools_.end())
    return cudaErrorInvalidValue;
  currentPool_ = pool;
  return cudaSuccess;
}

} // namespace ocelot::runtime::cpu
