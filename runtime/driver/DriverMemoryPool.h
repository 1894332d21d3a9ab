#pragma once

#include "runtime/core/MemoryPool.h"
#include "runtime/driver/DriverApi.h"

namespace ocelot::runtime::driver {

/// A memory pool of a GPU: the CUmemoryPool is the handle (the pool, location and access
/// structures of both APIs have the same layout and numbering).
class DriverMemoryPool final : public MemoryPool {
public:
  DriverMemoryPool(const DriverApi& api, cudaMemPool_t pool) : MemoryPool(pool), api_(api) {}

  cudaError_t attribute(cudaMemPoolAttr attribute, void* value) override;
  cudaError_t setAttribute(cudaMemPoolAttr attribute, void* value) override;
  cudaError_t trim(size_t keep) override;
  cudaError_t access(cudaMemAccessFlags* flags, const cudaMemLocation& location) override;
  cudaError_t setAccess(const cudaMemAccessDesc* descriptions, size_t count) override;
  cudaError_t exportHandle(void* handle, cudaMemAllocationHandleType type,
                           unsigned int flags) override;
  cudaError_t importPointer(void** pointer, cudaMemPoolPtrExportData* data) override;

private:
  CUmemoryPool pool() const { return reinterpret_cast<CUmemoryPool>(handle()); }

  const DriverApi& api_;
};

/// A GPU's memory pools and stream-ordered allocation. Pools the table does not know (the default
/// pools, pools made through the driver API) are wrapped when first seen.
class DriverMemoryPools final : public MemoryPools {
public:
  explicit DriverMemoryPools(const DriverApi& api) : api_(api) {}

  cudaError_t create(const cudaMemPoolProps& properties, MemoryPool** pool) override;
  cudaError_t destroy(MemoryPool& pool) override;
  cudaError_t defaultPool(const cudaMemLocation& location, cudaMemAllocationType type,
                          cudaMemPool_t* pool) override;
  cudaError_t currentPool(const cudaMemLocation& location, cudaMemAllocationType type,
                          cudaMemPool_t* pool) override;
  cudaError_t setCurrentPool(const cudaMemLocation& location, cudaMemAllocationType type,
                             MemoryPool& pool) override;
  cudaError_t allocate(void** pointer, size_t bytes, MemoryPool* pool, Stream& stream) override;
  cudaError_t free(void* pointer, Stream& stream) override;
  cudaError_t importPool(cudaMemPool_t* pool, void* handle, cudaMemAllocationHandleType type,
                         unsigned int flags) override;
  cudaError_t exportPointer(cudaMemPoolPtrExportData* data, void* pointer) override;

protected:
  MemoryPool* adopt(cudaMemPool_t handle) override;

private:
  const DriverApi& api_;
};

} // namespace ocelot::runtime::driver
