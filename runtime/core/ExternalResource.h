#pragma once

#include "runtime/core/HandleTable.h"

#include <cuda_runtime_api.h>

#include <driver_types.h>

namespace ocelot::runtime {

class Stream;

/// Memory imported from another API (Vulkan, D3D, NvSci, a POSIX file descriptor).
class ExternalMemory {
public:
  explicit ExternalMemory(cudaExternalMemory_t handle) : handle_(handle) {}
  virtual ~ExternalMemory() = default;
  ExternalMemory(const ExternalMemory&) = delete;
  ExternalMemory& operator=(const ExternalMemory&) = delete;

  cudaExternalMemory_t handle() const { return handle_; }

  virtual cudaError_t mappedBuffer(const cudaExternalMemoryBufferDesc& description,
                                   void** pointer) = 0;
  /// `description`'s channel format is validated.
  virtual cudaError_t mappedMipmappedArray(const cudaExternalMemoryMipmappedArrayDesc& description,
                                           cudaMipmappedArray_t* array) = 0;

private:
  const cudaExternalMemory_t handle_;
};

/// A semaphore imported from another API.
class ExternalSemaphore {
public:
  explicit ExternalSemaphore(cudaExternalSemaphore_t handle) : handle_(handle) {}
  virtual ~ExternalSemaphore() = default;
  ExternalSemaphore(const ExternalSemaphore&) = delete;
  ExternalSemaphore& operator=(const ExternalSemaphore&) = delete;

  cudaExternalSemaphore_t handle() const { return handle_; }

private:
  const cudaExternalSemaphore_t handle_;
};

/// A device's external memory and semaphores.
class ExternalResources {
public:
  virtual ~ExternalResources() = default;

  virtual cudaError_t importMemory(const cudaExternalMemoryHandleDesc& description,
                                   ExternalMemory** memory) = 0;
  virtual cudaError_t destroy(ExternalMemory& memory) = 0;
  virtual cudaError_t importSemaphore(const cudaExternalSemaphoreHandleDesc& description,
                                      ExternalSemaphore** semaphore) = 0;
  virtual cudaError_t destroy(ExternalSemaphore& semaphore) = 0;
  /// Signals (waits for) `count` semaphores in stream order; also graph nodes while capturing.
  virtual cudaError_t signal(const cudaExternalSemaphore_t* semaphores,
                             const cudaExternalSemaphoreSignalParams* params, unsigned int count,
                             Stream& stream) = 0;
  virtual cudaError_t wait(const cudaExternalSemaphore_t* semaphores,
                           const cudaExternalSemaphoreWaitParams* params, unsigned int count,
                           Stream& stream) = 0;

  ExternalMemory* find(cudaExternalMemory_t handle) {
    if (ExternalMemory* memory = memories_.find(handle))
      return memory;
    return adopt(handle);
  }
  ExternalSemaphore* find(cudaExternalSemaphore_t handle) {
    if (ExternalSemaphore* semaphore = semaphores_.find(handle))
      return semaphore;
    return adopt(handle);
  }

protected:
  /// Handles the tables do not know (see Streams::adopt).
  virtual ExternalMemory* adopt(cudaExternalMemory_t /*handle*/) { return nullptr; }
  virtual ExternalSemaphore* adopt(cudaExternalSemaphore_t /*handle*/) { return nullptr; }

  HandleTable<ExternalMemory> memories_;
  HandleTable<ExternalSemaphore> semaphores_;
};

} // namespace ocelot::runtime
