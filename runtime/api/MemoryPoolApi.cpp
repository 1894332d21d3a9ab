// The CUDA Runtime API: the stream-ordered memory allocator (CUDART_MEMORY_POOLS).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error.

#include "runtime/api/ApiBoundary.h"
#include "runtime/api/MemoryCalls.h"

#include <cuda_runtime_api.h>

namespace ocelot::runtime::api {
namespace {

bool validPoolAttribute(int attribute) {
  return attribute >= cudaMemPoolReuseFollowEventDependencies &&
         attribute <= cudaMemPoolAttrUsedMemHigh;
}

bool validAllocationType(int type) {
  return type == cudaMemAllocationTypePinned || type == cudaMemAllocationTypeManaged;
}

/// The location-based pool queries of CUDA 13 are answered by the device the location names (an
/// invalid one is an invalid value); host locations by the current device.
template <class Query>
cudaError_t onLocation(const cudaMemLocation* location, Scope& scope, Query query) {
  Device* device = &scope.device();
  if (location->type == cudaMemLocationTypeDevice &&
      scope.runtime().deviceByOrdinal(location->id, &device) != cudaSuccess)
    return cudaErrorInvalidValue;
  return query(Scope::area(device->memoryPools()));
}

} // namespace

cudaError_t allocateAsync(void** pointer, size_t bytes, cudaMemPool_t pool, cudaStream_t stream) {
  return onCurrentDevice([&](Scope& scope) {
    if (pointer == nullptr)
      return cudaErrorInvalidValue;
    Stream& queue = scope.stream(stream);
    MemoryPool* from = pool != nullptr ? &scope.pool(pool) : nullptr;
    return scope.memoryPools().allocate(pointer, bytes, from, queue);
  });
}

cudaError_t allocateFromPoolAsync(void** pointer, size_t bytes, cudaMemPool_t pool,
                                  cudaStream_t stream) {
  // A null pool here is an error, not "the current pool".
  if (pool == nullptr)
    return call([] {
      Scope(runtime()).initialize();
      return cudaErrorInvalidValue;
    });
  return allocateAsync(pointer, bytes, pool, stream);
}

cudaError_t freeAsync(void* pointer, cudaStream_t stream) {
  return onCurrentDevice([&](Scope& scope) {
    if (pointer == nullptr)
      return cudaErrorInvalidValue;
    Stream& queue = scope.stream(stream);
    return scope.memoryPools().free(pointer, queue);
  });
}

} // namespace ocelot::runtime::api

using namespace ocelot::runtime::api;
using ocelot::runtime::Device;
using ocelot::runtime::MemoryPool;
using ocelot::runtime::MemoryPools;
using ocelot::runtime::Scope;

extern "C" {

cudaError_t CUDARTAPI cudaFreeAsync(void* devPtr, cudaStream_t hStream) {
  return freeAsync(devPtr, hStream);
}

cudaError_t CUDARTAPI cudaMallocAsync(void** devPtr, size_t size, cudaStream_t hStream) {
  return allocateAsync(devPtr, size, nullptr, hStream);
}

cudaError_t CUDARTAPI cudaMallocFromPoolAsync(void** ptr, size_t size, cudaMemPool_t memPool,
                                              cudaStream_t stream) {
  return allocateFromPoolAsync(ptr, size, memPool, stream);
}

cudaError_t CUDARTAPI cudaMemGetDefaultMemPool(cudaMemPool_t* memPool,
                                               struct cudaMemLocation* location,
                                               enum cudaMemAllocationType type) {
  return onCurrentDevice([&](Scope& scope) {
    if (memPool == nullptr || location == nullptr || !validAllocationType(raw(type)))
      return cudaErrorInvalidValue;
    return onLocation(location, scope, [&](MemoryPools& pools) {
      return pools.defaultPool(*location, static_cast<cudaMemAllocationType>(raw(type)), memPool);
    });
  });
}

cudaError_t CUDARTAPI cudaMemGetMemPool(cudaMemPool_t* memPool, struct cudaMemLocation* location,
                                        enum cudaMemAllocationType type) {
  return onCurrentDevice([&](Scope& scope) {
    if (memPool == nullptr || location == nullptr || !validAllocationType(raw(type)))
      return cudaErrorInvalidValue;
    return onLocation(location, scope, [&](MemoryPools& pools) {
      return pools.currentPool(*location, static_cast<cudaMemAllocationType>(raw(type)), memPool);
    });
  });
}

cudaError_t CUDARTAPI cudaMemPoolCreate(cudaMemPool_t* memPool,
                                        const struct cudaMemPoolProps* poolProps) {
  return onCurrentDevice([&](Scope& scope) {
    if (memPool == nullptr || poolProps == nullptr)
      return cudaErrorInvalidValue;
    // A pool on a device that does not exist is an invalid value (not an invalid device).
    Device* located = nullptr;
    if (poolProps->location.type == cudaMemLocationTypeDevice &&
        scope.runtime().deviceByOrdinal(poolProps->location.id, &located) != cudaSuccess)
      return cudaErrorInvalidValue;
    MemoryPool* created = nullptr;
    cudaError_t error = scope.memoryPools().create(*poolProps, &created);
    if (error == cudaSuccess)
      *memPool = created->handle();
    return error;
  });
}

cudaError_t CUDARTAPI cudaMemPoolDestroy(cudaMemPool_t memPool) {
  return onCurrentDevice([&](Scope& scope) {
    MemoryPool& pool = scope.pool(memPool);
    return scope.memoryPools().destroy(pool);
  });
}

cudaError_t CUDARTAPI cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData* exportData,
                                               void* ptr) {
  return onCurrentDevice([&](Scope& scope) {
    if (exportData == nullptr || ptr == nullptr)
      return cudaErrorInvalidValue;
    return scope.memoryPools().exportPointer(exportData, ptr);
  });
}

cudaError_t CUDARTAPI cudaMemPoolExportToShareableHandle(
    void* shareableHandle, cudaMemPool_t memPool, enum cudaMemAllocationHandleType handleType,
    unsigned int flags) {
  return onCurrentDevice([&](Scope& scope) {
    if (shareableHandle == nullptr || memPool == nullptr || flags != 0)
      return cudaErrorInvalidValue;
    return scope.pool(memPool).exportHandle(
        shareableHandle, static_cast<cudaMemAllocationHandleType>(raw(handleType)), flags);
  });
}

cudaError_t CUDARTAPI cudaMemPoolGetAccess(enum cudaMemAccessFlags* flags, cudaMemPool_t memPool,
                                           struct cudaMemLocation* location) {
  return onCurrentDevice([&](Scope& scope) {
    if (flags == nullptr || memPool == nullptr || location == nullptr)
      return cudaErrorInvalidValue;
    return scope.pool(memPool).access(flags, *location);
  });
}

cudaError_t CUDARTAPI cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
                                              void* value) {
  return onCurrentDevice([&](Scope& scope) {
    if (memPool == nullptr || value == nullptr || !validPoolAttribute(raw(attr)))
      return cudaErrorInvalidValue;
    return scope.pool(memPool).attribute(static_cast<cudaMemPoolAttr>(raw(attr)), value);
  });
}

cudaError_t CUDARTAPI cudaMemPoolImportFromShareableHandle(
    cudaMemPool_t* memPool, void* shareableHandle, enum cudaMemAllocationHandleType handleType,
    unsigned int flags) {
  return onCurrentDevice([&](Scope& scope) {
    if (memPool == nullptr || flags != 0)
      return cudaErrorInvalidValue;
    return scope.memoryPools().importPool(
        memPool, shareableHandle, static_cast<cudaMemAllocationHandleType>(raw(handleType)), flags);
  });
}

cudaError_t CUDARTAPI cudaMemPoolImportPointer(void** ptr, cudaMemPool_t memPool,
                                               struct cudaMemPoolPtrExportData* exportData) {
  return onCurrentDevice([&](Scope& scope) {
    if (ptr == nullptr || memPool == nullptr || exportData == nullptr)
      return cudaErrorInvalidValue;
    return scope.pool(memPool).importPointer(ptr, exportData);
  });
}

cudaError_t CUDARTAPI cudaMemPoolSetAccess(cudaMemPool_t memPool,
                                           const struct cudaMemAccessDesc* descList, size_t count) {
  return onCurrentDevice([&](Scope& scope) {
    if (memPool == nullptr || (count != 0 && descList == nullptr))
      return cudaErrorInvalidValue;
    return scope.pool(memPool).setAccess(descList, count);
  });
}

cudaError_t CUDARTAPI cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
                                              void* value) {
  return onCurrentDevice([&](Scope& scope) {
    if (memPool == nullptr || value == nullptr || !validPoolAttribute(raw(attr)))
      return cudaErrorInvalidValue;
    return scope.pool(memPool).setAttribute(static_cast<cudaMemPoolAttr>(raw(attr)), value);
  });
}

cudaError_t CUDARTAPI cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep) {
  return onCurrentDevice([&](Scope& scope) { return scope.pool(memPool).trim(minBytesToKeep); });
}

cudaError_t CUDARTAPI cudaMemSetMemPool(struct cudaMemLocation* location,
                                        enum cudaMemAllocationType type, cudaMemPool_t memPool) {
  return onCurrentDevice([&](Scope& scope) {
    if (location == nullptr || memPool == nullptr || !validAllocationType(raw(type)))
      return cudaErrorInvalidValue;
    return onLocation(location, scope, [&](MemoryPools& pools) {
      return pools.setCurrentPool(*location, static_cast<cudaMemAllocationType>(raw(type)),
                                  Scope::found(pools.find(memPool), cudaErrorInvalidValue));
    });
  });
}

} // extern "C"
