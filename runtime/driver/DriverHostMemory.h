#pragma once

#include "runtime/core/HostMemory.h"
#include "runtime/driver/DriverApi.h"

namespace ocelot::runtime::driver {

/// A GPU's page-locked host memory.
class DriverHostMemory final : public HostMemory {
public:
  explicit DriverHostMemory(const DriverApi& api) : api_(api) {}

  cudaError_t allocate(void** pointer, size_t bytes, unsigned int flags) override;
  cudaError_t free(void* pointer) override;
  cudaError_t registerRange(void* pointer, size_t bytes, unsigned int flags) override;
  cudaError_t unregisterRange(void* pointer) override;
  cudaError_t devicePointer(void* host, void** device) override;
  cudaError_t flags(void* host, unsigned int* flags) override;

private:
  const DriverApi& api_;
};

} // namespace ocelot::runtime::driver
