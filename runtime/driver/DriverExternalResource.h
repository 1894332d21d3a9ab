#pragma once

#include "runtime/core/ExternalResource.h"
#include "runtime/driver/DriverApi.h"

namespace ocelot::runtime::driver {

/// Memory a GPU imported from another API: the CUexternalMemory is the handle.
class DriverExternalMemory final : public ExternalMemory {
public:
  DriverExternalMemory(const DriverApi& api, cudaExternalMemory_t memory)
      : ExternalMemory(memory), api_(api) {}

  cudaError_t mappedBuffer(const cudaExternalMemoryBufferDesc& description,
                           void** pointer) override;
  cudaError_t mappedMipmappedArray(const cudaExternalMemoryMipmappedArrayDesc& description,
                                   cudaMipmappedArray_t* array) override;

private:
  CUexternalMemory driverHandle() const { return reinterpret_cast<CUexternalMemory>(handle()); }

  const DriverApi& api_;
};

/// A semaphore a GPU imported from another API: the CUexternalSemaphore is the handle.
class DriverExternalSemaphore final : public ExternalSemaphore {
public:
  explicit DriverExternalSemaphore(cudaExternalSemaphore_t semaphore)
      : ExternalSemaphore(semaphore) {}
};

/// A GPU's external memory and semaphores. The runtime's descriptions share their layout and
/// numbering with the driver's (checked in the source). Handles the tables do not know (imported
/// through the driver API, or never imported: the driver answers for them) are wrapped when first
/// seen.
class DriverExternalResources final : public ExternalResources {
public:
  explicit DriverExternalResources(const DriverApi& api) : api_(api) {}

  cudaError_t importMemory(const cudaExternalMemoryHandleDesc& description,
                           ExternalMemory** memory) override;
  cudaError_t destroy(ExternalMemory& memory) override;
  cudaError_t importSemaphore(const cudaExternalSemaphoreHandleDesc& description,
                              ExternalSemaphore** semaphore) override;
  cudaError_t destroy(ExternalSemaphore& semaphore) override;
  cudaError_t signal(const cudaExternalSemaphore_t* semaphores,
                     const cudaExternalSemaphoreSignalParams* params, unsigned int count,
                     Stream& stream) override;
  cudaError_t wait(const cudaExternalSemaphore_t* semaphores,
                   const cudaExternalSemaphoreWaitParams* params, unsigned int count,
                   Stream& stream) override;

protected:
  ExternalMemory* adopt(cudaExternalMemory_t handle) override;
  ExternalSemaphore* adopt(cudaExternalSemaphore_t handle) override;

private:
  const DriverApi& api_;
};

} // namespace ocelot::runtime::driver
