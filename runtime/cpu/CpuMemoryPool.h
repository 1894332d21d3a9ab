#pragma once

#include "runtime/core/MemoryPool.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

namespace ocelot::runtime::cpu {

class CpuDevice;

/// A memory pool of the CPU device: bookkeeping around DeviceMemory (what is in use, what is kept
/// for reuse up to the release threshold, the attributes programs read back).
class CpuMemoryPool final : public MemoryPool {
public:
  explicit CpuMemoryPool(CpuDevice& device);

  cudaError_t attribute(cudaMemPoolAttr attribute, void* value) override;
  cudaError_t setAttribute(cudaMemPoolAttr attribute, void* value) override;
  cudaError_t trim(size_t keep) override;
  cudaError_t access(cudaMemAccessFlags* flags, const cudaMemLocation& location) override;
  cudaError_t setAccess(const cudaMemAccessDesc* descriptions, size_t count) override;

  /// A block of `bytes` (a cached one of that size, or new memory): null when there is none.
  void* take(size_t bytes);
  /// A block comes back (its free ran in stream order): kept for reuse up to the threshold.
  void giveBack(void* block, size_t bytes);
  /// Releases every cached block (the pool is being destroyed).
  void releaseAll();

private:
  /// Releases cached blocks until at most `keep` bytes stay reserved (called under mutex_).
  void releaseCached(uint64_t keep);

  CpuDevice& device_;
  std::mutex mutex_;
  int reuseFollowEvents_ = 1, reuseOpportunistic_ = 1, reuseInternal_ = 1;
  uint64_t releaseThreshold_ = 0;
  uint64_t used_ = 0, usedHigh_ = 0, reserved_ = 0, reservedHigh_ = 0;
  std::multimap<size_t, void*> cached_; ///< freed blocks kept for reuse, by size
};

/// The CPU device's memory pools and stream-ordered allocation. Allocation happens when
/// cudaMallocAsync is called; a block returns to its pool when its cudaFreeAsync runs in stream
/// order, so no other stream gets it while work queued before the free may still use it.
class CpuMemoryPools final : public MemoryPools {
public:
  explicit CpuMemoryPools(CpuDevice& device) : device_(device) {}

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

  /// A device reset: every pool goes (their memory went with the device's arena).
  void reset();

private:
  /// The default pool, made on first use (under mutex_).
  CpuMemoryPool& defaultPool();

  CpuDevice& device_;
  std::mutex mutex_; ///< the default and current pool and the blocks in use
  CpuMemoryPool* default_ = nullptr;
  CpuMemoryPool* current_ = nullptr;
  /// Stream-ordered allocations in use: their pool and size.
  std::map<void*, std::pair<CpuMemoryPool*, size_t>> blocks_;
};

} // namespace ocelot::runtime::cpu
