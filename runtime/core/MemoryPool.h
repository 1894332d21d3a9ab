#pragma once

#include "runtime/core/HandleTable.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <driver_types.h>

namespace ocelot::runtime {

class Stream;

/// A memory pool of a device (cudaMemPool_t: the CUmemoryPool itself on the driver).
class MemoryPool {
public:
  explicit MemoryPool(cudaMemPool_t handle) : handle_(handle) {}
  virtual ~MemoryPool() = default;
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  cudaMemPool_t handle() const { return handle_; }

  virtual cudaError_t attribute(cudaMemPoolAttr attribute, void* value) = 0;
  virtual cudaError_t setAttribute(cudaMemPoolAttr attribute, void* value) = 0;
  /// Releases cached memory down to `keep` bytes.
  virtual cudaError_t trim(size_t keep) = 0;
  virtual cudaError_t access(cudaMemAccessFlags* flags, const cudaMemLocation& location) = 0;
  virtual cudaError_t setAccess(const cudaMemAccessDesc* descriptions, size_t count) = 0;
  virtual cudaError_t exportHandle(void* /*handle*/, cudaMemAllocationHandleType /*type*/,
                                   unsigned int /*flags*/) {
    return cudaErrorNotSupported;
  }
  /// An allocation another process exported from its pool, mapped into this one.
  virtual cudaError_t importPointer(void** /*pointer*/, cudaMemPoolPtrExportData* /*data*/) {
    return cudaErrorNotSupported;
  }

private:
  const cudaMemPool_t handle_;
};

/// A device's memory pools and stream-ordered allocation (cudaMallocAsync & co.).
class MemoryPools {
public:
  virtual ~MemoryPools() = default;

  virtual cudaError_t create(const cudaMemPoolProps& properties, MemoryPool** pool) = 0;
  virtual cudaError_t destroy(MemoryPool& pool) = 0;
  /// The default and the current pool of a location (cudaDeviceGetDefaultMemPool,
  /// cudaMemGetDefaultMemPool, cudaDeviceGetMemPool, cudaMemGetMemPool, cudaMemSetMemPool).
  virtual cudaError_t defaultPool(const cudaMemLocation& location, cudaMemAllocationType type,
                                  cudaMemPool_t* pool) = 0;
  virtual cudaError_t currentPool(const cudaMemLocation& location, cudaMemAllocationType type,
                                  cudaMemPool_t* pool) = 0;
  virtual cudaError_t setCurrentPool(const cudaMemLocation& location, cudaMemAllocationType type,
                                     MemoryPool& pool) = 0;

  /// cudaMallocAsync (`pool` null: the device's current pool) and cudaMallocFromPoolAsync.
  virtual cudaError_t allocate(void** pointer, size_t bytes, MemoryPool* pool, Stream& stream) = 0;
  virtual cudaError_t free(void* pointer, Stream& stream) = 0;

  /// Pools and their allocations shared between processes.
  virtual cudaError_t importPool(cudaMemPool_t* /*pool*/, void* /*handle*/,
                                 cudaMemAllocationHandleType /*type*/, unsigned int /*flags*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t exportPointer(cudaMemPoolPtrExportData* /*data*/, void* /*pointer*/) {
    return cudaErrorNotSupported;
  }

  MemoryPool* find(cudaMemPool_t handle) {
    if (MemoryPool* pool = table_.find(handle))
      return pool;
    return adopt(handle);
  }

protected:
  /// Handles the table does not know (see Streams::adopt): the driver's default pools.
  virtual MemoryPool* adopt(cudaMemPool_t /*handle*/) { return nullptr; }

  HandleTable<MemoryPool> table_;
};

} // namespace ocelot::runtime
