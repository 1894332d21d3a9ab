#pragma once

#include "runtime/core/ManagedMemory.h"
#include "runtime/driver/DriverApi.h"

namespace ocelot::runtime::driver {

/// A GPU's managed memory and its hints.
class DriverManagedMemory final : public ManagedMemory {
public:
  explicit DriverManagedMemory(const DriverApi& api) : api_(api) {}

  cudaError_t allocate(void** pointer, size_t bytes, unsigned int flags) override;
  cudaError_t advise(const void* pointer, size_t bytes, cudaMemoryAdvise advice,
                     cudaMemLocation location) override;
  cudaError_t prefetch(const void* pointer, size_t bytes, cudaMemLocation location,
                       unsigned int flags, Stream& stream) override;
  cudaError_t prefetchBatch(void** pointers, size_t* sizes, size_t count, bool discard,
                            cudaMemLocation* locations, size_t* locationIndices,
                            size_t locationCount, unsigned long long flags,
                            Stream& stream) override;
  cudaError_t rangeAttributes(void** data, size_t* dataSizes, cudaMemRangeAttribute* attributes,
                              size_t count, const void* pointer, size_t bytes) override;

private:
  const DriverApi& api_;
};

} // namespace ocelot::runtime::driver
