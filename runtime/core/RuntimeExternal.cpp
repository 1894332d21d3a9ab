// Runtime: external memory and semaphores imported from other APIs (Vulkan, D3D, NvSci, POSIX file
// descriptors). The runtime checks what it can see (null outputs and descriptions, channel
// formats); the handles and what they refer to are the device's to check.

#include "runtime/core/ChannelFormat.h"
#include "runtime/core/Runtime.h"

namespace ocelot::runtime {

cudaError_t Runtime::importExternalMemory(cudaExternalMemory_t* memory,
                                          const cudaExternalMemoryHandleDesc* description) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (memory == nullptr || description == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->importExternalMemory(memory, *description));
}

cudaError_t
Runtime::externalMemoryGetMappedBuffer(void** pointer, cudaExternalMemory_t memory,
                                       const cudaExternalMemoryBufferDesc* description) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pointer == nullptr || description == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->externalMemoryBuffer(pointer, memory, *description));
}

cudaError_t Runtime::externalMemoryGetMappedMipmappedArray(
    cudaMipmappedArray_t* array, cudaExternalMemory_t memory,
    const cudaExternalMemoryMipmappedArrayDesc* description) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (array == nullptr || description == nullptr)
    return cudaErrorInvalidValue;
  ChannelLayout layout;
  if (cudaError_t error = channelLayout(description->formatDesc, &layout); error != cudaSuccess)
    return error;
  return deviceResult(device->externalMemoryMipmappedArray(array, memory, *description));
}

cudaError_t Runtime::destroyExternalMemory(cudaExternalMemory_t memory) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  return deviceResult(device->destroyExternalMemory(memory));
}

cudaError_t Runtime::importExternalSemaphore(cudaExternalSemaphore_t* semaphore,
                                             const cudaExternalSemaphoreHandleDesc* description) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (semaphore == nullptr || description == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->importExternalSemaphore(semaphore, *description));
}

cudaError_t Runtime::destroyExternalSemaphore(cudaExternalSemaphore_t semaphore) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  return deviceResult(device->destroyExternalSemaphore(semaphore));
}

cudaError_t Runtime::signalExternalSemaphores(const cudaExternalSemaphore_t* semaphores,
                                              const cudaExternalSemaphoreSignalParams* params,
                                              unsigned int count, cudaStream_t stream) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (count != 0 && (semaphores == nullptr || params == nullptr))
    return cudaErrorInvalidValue;
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  return deviceResult(device->signalExternalSemaphores(semaphores, params, count, *queue));
}

cudaError_t Runtime::waitExternalSemaphores(const cudaExternalSemaphore_t* semaphores,
                                            const cudaExternalSemaphoreWaitParams* params,
                                            unsigned int count, cudaStream_t stream) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (count != 0 && (semaphores == nullptr || params == nullptr))
    return cudaErrorInvalidValue;
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  return deviceResult(device->waitExternalSemaphores(semaphores, params, count, *queue));
}

} // namespace ocelot::runtime
