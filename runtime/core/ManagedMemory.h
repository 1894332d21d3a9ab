#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <driver_types.h>

namespace ocelot::runtime {

class Stream;

/// A device's managed (unified) memory: allocation and the hints that say where it should live.
class ManagedMemory {
public:
  virtual ~ManagedMemory() = default;

  virtual cudaError_t allocate(void** pointer, size_t bytes, unsigned int flags) = 0;
  virtual cudaError_t advise(const void* pointer, size_t bytes, cudaMemoryAdvise advice,
                             cudaMemLocation location) = 0;
  virtual cudaError_t prefetch(const void* pointer, size_t bytes, cudaMemLocation location,
                               unsigned int flags, Stream& stream) = 0;
  /// cudaMemPrefetchBatchAsync / cudaMemDiscardBatchAsync / cudaMemDiscardAndPrefetchBatchAsync:
  /// `discard` and/or prefetch (when `locations` is not null) a list of ranges.
  virtual cudaError_t prefetchBatch(void** /*pointers*/, size_t* /*sizes*/, size_t /*count*/,
                                    bool /*discard*/, cudaMemLocation* /*locations*/,
                                    size_t* /*locationIndices*/, size_t /*locationCount*/,
                                    unsigned long long /*flags*/, Stream& /*stream*/) {
    return cudaErrorNotSupported;
  }
  /// cudaMemRangeGetAttributes (attributes validated).
  virtual cudaError_t rangeAttributes(void** data, size_t* dataSizes,
                                      cudaMemRangeAttribute* attributes, size_t count,
                                      const void* pointer, size_t bytes) = 0;
};

} // namespace ocelot::runtime
