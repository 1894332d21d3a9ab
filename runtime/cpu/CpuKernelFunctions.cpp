// The CPU device's kernel functions: attributes, parameter layout, occupancy (an sm_90
// multiprocessor's limits).

#include "runtime/cpu/CpuKernelFunctions.h"

#include "runtime/cpu/CpuDevice.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace ocelot::runtime::cpu {

// An sm_90 multiprocessor's occupancy limits, which this device reports and models (attribute()).
constexpr int kSmWarps = 64;  // 2048 threads
constexpr int kSmBlocks = 32; // CTAs
constexpr size_t kSharedPerSm = 228 * 1024;
constexpr size_t kReservedSharedPerBlock = 1024;
constexpr size_t kSharedGranularity = 128;

namespace {

size_t roundUp(size_t value, size_t unit) {
  return (value + unit - 1) / unit * unit;
}

} // namespace

cudaError_t CpuKernelFunctions::attributes(DeviceFunction function,
                                           cudaFuncAttributes* attributes) {
  CpuDevice::Function* entry = device_.findFunction(function);
  if (entry == nullptr)
    return cudaErrorInvalidDeviceFunction;
  auto kernel = entry->module->kernel(entry->name);
  std::memset(attributes, 0, sizeof *attributes);
  attributes->maxThreadsPerBlock = 1024;
  attributes->ptxVersion = 90;
  attributes->binaryVersion = 90;
  attributes->preferredShmemCarveout = entry->carveout;
  attributes->maxDynamicSharedSizeBytes = entry->maxDynamicShared;
  if (kernel) {
    const DecodedKernel& k = **kernel;
    if (entry->maxDynamicShared < 0)
      attributes->maxDynamicSharedSizeBytes =
          static_cast<int>(48 * 1024 - std::min<uint32_t>(k.staticSharedSize, 48 * 1024));
    attributes->sharedSizeBytes = k.staticSharedSize;
    attributes->localSizeBytes = k.staticStackSize;
    attributes->numRegs = static_cast<int>(std::min<uint32_t>(
        k.functions.empty() ? 0 : k.functions[0].rowEnd - k.functions[0].rowBegin, 255));
    attributes->constSizeBytes = 0;
    if (k.maxThreadsPerBlock != 0)
      attributes->maxThreadsPerBlock = static_cast<int>(k.maxThreadsPerBlock);
    attributes->clusterDimMustBeSet = k.clusterRequired ? 1 : 0;
    attributes->requiredClusterWidth = static_cast<int>(k.requiredCluster[0]);
    attributes->requiredClusterHeight = static_cast<int>(k.requiredCluster[1]);
    attributes->requiredClusterDepth = static_cast<int>(k.requiredCluster[2]);
  }
  return cudaSuccess;
}

cudaError_t CpuKernelFunctions::setAttribute(DeviceFunction function, cudaFuncAttribute attribute,
                                             int value) {
  std::lock_guard lock(device_.mutex_);
  auto it = device_.functions_.find(function);
  if (it == device_.functions_.end())
    return cudaErrorInvalidDeviceFunction;
  if (attribute == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || value > 227 * 1024)
      return cudaErrorInvalidValue;
    it->second->maxDynamicShared = value;
  } else if (attribute == cudaFuncAttributePreferredSharedMemoryCarveout) {
    if (value < -1 || value > 100)
      return cudaErrorInvalidValue;
    it->second->carveout = value;
  }
  return cudaSuccess;
}

cudaError_t CpuKernelFunctions::setCacheConfig(DeviceFunction function, cudaFuncCache) {
  std::lock_guard lock(device_.mutex_);
  return device_.functions_.count(function) ? cudaSuccess : cudaErrorInvalidDeviceFunction;
}

cudaError_t CpuKernelFunctions::maxActiveBlocks(DeviceFunction function, int blockSize,
                                                size_t sharedMem, unsigned int, int* blocks) {
  cudaFuncAttributes attributes;
  if (cudaError_t error = this->attributes(function, &attributes); error != cudaSuccess)
    return error;
  // The device reports an sm_90 multiprocessor's limits (attribute()), and occupancy follows the
  // same rules with them: warps per SM, CTAs per SM, and shared memory per SM with 1 KiB reserved
  // per CTA. Registers are host memory here and never limit. A block larger than the kernel allows,
  // or more dynamic shared memory than it may use, fits 0 times, as on a GPU.
  if (blockSize <= 0 || blockSize > attributes.maxThreadsPerBlock ||
      sharedMem > static_cast<size_t>(std::max(attributes.maxDynamicSharedSizeBytes, 0))) {
    *blocks = 0;
    return cudaSuccess;
  }
  const int warps = (blockSize + 31) / 32;
  const int byThreads = kSmWarps / warps;
  const size_t shared =
      roundUp(sharedMem + attributes.sharedSizeBytes, kSharedGranularity) + kReservedSharedPerBlock;
  const int byShared = static_cast<int>(kSharedPerSm / shared);
  *blocks = std::max(0, std::min({byThreads, byShared, kSmBlocks}));
  return cudaSuccess;
}

cudaError_t CpuKernelFunctions::parameter(DeviceFunction function, size_t index, size_t* offset,
                                          size_t* size) {
  CpuDevice::Function* entry = device_.findFunction(function);
  if (entry == nullptr)
    return cudaErrorInvalidDeviceFunction;
  auto kernel = entry->module->kernel(entry->name);
  if (!kernel)
    return cudaErrorInvalidDeviceFunction;
  const DecodedKernel& k = **kernel;
  if (index >= k.parameterOffsets.size())
    return cudaErrorInvalidValue;
  if (offset != nullptr)
    *offset = k.parameterOffsets[index];
  if (size != nullptr)
    *size = k.parameterSizes[index];
  return cudaSuccess;
}

cudaError_t CpuKernelFunctions::availableDynamicSharedMemory(DeviceFunction function, int blocks,
                                                             int blockSize, size_t* bytes) {
  cudaFuncAttributes attributes;
  if (cudaError_t error = this->attributes(function, &attributes); error != cudaSuccess)
    return error;
  if (blocks <= 0 || blockSize <= 0 || blockSize > attributes.maxThreadsPerBlock ||
      blocks * ((blockSize + 31) / 32) > kSmWarps || blocks > kSmBlocks) {
    *bytes = 0;
    return cudaSuccess;
  }
  // An equal share of the SM's shared memory in allocation units (as the driver computes it: the
  // per-CTA reservation is not taken off here), less static shared memory, capped by what the
  // kernel may use dynamically.
  const size_t share = kSharedPerSm / static_cast<size_t>(blocks) / 256 * 256;
  const size_t fixed = attributes.sharedSizeBytes;
  const size_t limit = static_cast<size_t>(std::max(attributes.maxDynamicSharedSizeBytes, 0));
  *bytes = std::min(limit, share > fixed ? share - fixed : 0);
  return cudaSuccess;
}

} // namespace ocelot::runtime::cpu
