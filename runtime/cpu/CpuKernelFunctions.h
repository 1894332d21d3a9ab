#pragma once

#include "runtime/core/Functions.h"

namespace ocelot::runtime::cpu {

class CpuDevice;

/// What the CPU device says about its kernel functions: attributes, parameter layout, and
/// occupancy as an sm_90 multiprocessor's limits give it (the limits attribute() reports).
class CpuKernelFunctions final : public Functions {
public:
  explicit CpuKernelFunctions(CpuDevice& device) : device_(device) {}

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

private:
  CpuDevice& device_;
};

} // namespace ocelot::runtime::cpu
