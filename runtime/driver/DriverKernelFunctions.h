#pragma once

#include "runtime/core/Functions.h"
#include "runtime/driver/DriverApi.h"

namespace ocelot::runtime::driver {

/// Kernel functions on a GPU: the driver's CUfunction attributes and occupancy calculator.
class DriverKernelFunctions final : public Functions {
public:
  explicit DriverKernelFunctions(const DriverApi& api) : api_(api) {}

  cudaError_t attributes(DeviceFunction function, cudaFuncAttributes* attributes) override;
  cudaError_t setAttribute(DeviceFunction function, cudaFuncAttribute attribute,
                           int value) override;
  cudaError_t setCacheConfig(DeviceFunction function, cudaFuncCache config) override;
  cudaError_t parameter(DeviceFunction function, size_t index, size_t* offset,
                        size_t* size) override;
  cudaError_t maxActiveBlocks(DeviceFunction function, int blockSize, size_t sharedMem,
                              unsigned int flags, int* blocks) override;
  cudaError_t availableDynamicSharedMemory(DeviceFunction function, int blocks, int blockSize,
                                           size_t* bytes) override;
  cudaError_t maxPotentialClusterSize(const LaunchParams& params, int* size) override;
  cudaError_t maxActiveClusters(const LaunchParams& params, int* clusters) override;

private:
  const DriverApi& api_;
};

} // namespace ocelot::runtime::driver
