#pragma once

#include "runtime/core/ManagedMemory.h"

#include <cstdint>
#include <map>
#include <mutex>

namespace ocelot::runtime::cpu {

class CpuDevice;

/// The CPU device's managed memory and its hints (cudaMemAdvise, cudaMemPrefetchAsync), remembered
/// per allocation and reported by cudaMemRangeGetAttribute: data never moves, it is host memory
/// already.
class CpuManagedMemory final : public ManagedMemory {
public:
  explicit CpuManagedMemory(CpuDevice& device) : device_(device) {}

  cudaError_t allocate(void** pointer, size_t bytes, unsigned int flags) override;
  cudaError_t advise(const void* pointer, size_t bytes, cudaMemoryAdvise advice,
                     cudaMemLocation location) override;
  cudaError_t prefetch(const void* pointer, size_t bytes, cudaMemLocation location,
                       unsigned int flags, Stream& stream) override;
  cudaError_t rangeAttributes(void** data, size_t* dataSizes, cudaMemRangeAttribute* attributes,
                              size_t count, const void* pointer, size_t bytes) override;

  /// A device reset: the allocations and their hints are gone.
  void reset();

private:
  struct Advice {
    bool readMostly = false;
    cudaMemLocation preferred{cudaMemLocationTypeInvalid, 0};
    cudaMemLocation lastPrefetch{cudaMemLocationTypeInvalid, 0};
  };

  CpuDevice& device_;
  std::mutex mutex_;
  std::map<uintptr_t, Advice> advice_; ///< by allocation base
};

} // namespace ocelot::runtime::cpu
