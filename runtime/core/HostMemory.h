#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <driver_types.h>

namespace ocelot::runtime {

/// A device's page-locked host memory: allocated (cudaMallocHost, cudaHostAlloc) or registered
/// (cudaHostRegister). Flags arrive validated.
class HostMemory {
public:
  virtual ~HostMemory() = default;

  virtual cudaError_t allocate(void** pointer, size_t bytes, unsigned int flags) = 0;
  virtual cudaError_t free(void* pointer) = 0;
  virtual cudaError_t registerRange(void* pointer, size_t bytes, unsigned int flags) = 0;
  virtual cudaError_t unregisterRange(void* pointer) = 0;
  /// The device address of mapped host memory.
  virtual cudaError_t devicePointer(void* host, void** device) = 0;
  virtual cudaError_t flags(void* host, unsigned int* flags) = 0;
};

} // namespace ocelot::runtime
