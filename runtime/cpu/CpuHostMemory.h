#pragma once

#include "runtime/core/HostMemory.h"

#include <map>
#include <mutex>

namespace ocelot::runtime::cpu {

class CpuDevice;

/// The CPU device's page-locked host memory (cudaMallocHost, cudaHostAlloc, cudaHostRegister).
class CpuHostMemory final : public HostMemory {
public:
  explicit CpuHostMemory(CpuDevice& device) : device_(device) {}

  cudaError_t allocate(void** pointer, size_t bytes, unsigned int flags) override;
  cudaError_t free(void* pointer) override;
  cudaError_t registerRange(void* pointer, size_t bytes, unsigned int flags) override;
  cudaError_t unregisterRange(void* pointer) override;
  cudaError_t devicePointer(void* host, void** device) override;
  cudaError_t flags(void* host, unsigned int* flags) override;

  /// A device reset: the allocations are gone (with the device's arena) and so are registrations.
  void reset();

private:
  CpuDevice& device_;
  std::mutex mutex_;
  std::map<void*, unsigned int> allocations_; ///< cudaMallocHost/cudaHostAlloc -> flags
  std::map<void*, unsigned int> registered_;  ///< cudaHostRegister flags by base
};

} // namespace ocelot::runtime::cpu
