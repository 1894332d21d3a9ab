#pragma once

#include "runtime/core/LaunchParams.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <driver_types.h>

namespace ocelot::runtime {

/// What a device says about its kernel functions: attributes, parameters and occupancy.
class Functions {
public:
  virtual ~Functions() = default;

  virtual cudaError_t attributes(DeviceFunction function, cudaFuncAttributes* attributes) = 0;
  virtual cudaError_t setAttribute(DeviceFunction function, cudaFuncAttribute attribute,
                                   int value) = 0;
  virtual cudaError_t setCacheConfig(DeviceFunction function, cudaFuncCache config) = 0;
  /// The offset and size of parameter `index` (cudaFuncGetParamInfo).
  virtual cudaError_t parameter(DeviceFunction function, size_t index, size_t* offset,
                                size_t* size) = 0;
  virtual cudaError_t maxActiveBlocks(DeviceFunction function, int blockSize, size_t sharedMem,
                                      unsigned int flags, int* blocks) = 0;
  virtual cudaError_t availableDynamicSharedMemory(DeviceFunction function, int blocks,
                                                   int blockSize, size_t* bytes) = 0;
  /// Cluster occupancy for `params` (function, grid, block, shared memory, attributes, stream).
  virtual cudaError_t maxPotentialClusterSize(const LaunchParams& /*params*/, int* /*size*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t maxActiveClusters(const LaunchParams& /*params*/, int* /*clusters*/) {
    return cudaErrorNotSupported;
  }
};

} // namespace ocelot::runtime
