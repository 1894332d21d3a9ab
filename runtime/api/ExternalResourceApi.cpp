// The CUDA Runtime API: external resource interoperability (CUDART_EXTRES_INTEROP): memory and
// semaphores imported from other APIs (Vulkan, D3D, NvSci, POSIX file descriptors). The API checks
// what it can see (null outputs and descriptions, channel formats); the handles and what they refer
// to are the device's to check.
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error.

#include "runtime/api/ApiBoundary.h"
#include "runtime/api/StreamCalls.h"
#include "runtime/core/ChannelFormat.h"

#include <cuda_runtime_api.h>

namespace ocelot::runtime::api {

cudaError_t signalExternalSemaphores(const cudaExternalSemaphore_t* semaphores,
                                     const cudaExternalSemaphoreSignalParams* params,
                                     unsigned int count, cudaStream_t stream) {
  return onCurrentDevice([&](Scope& scope) {
    if (count != 0 && (semaphores == nullptr || params == nullptr))
      return cudaErrorInvalidValue;
    Stream& queue = scope.stream(stream);
    return scope.externalResources().signal(semaphores, params, count, queue);
  });
}

cudaError_t waitExternalSemaphores(const cudaExternalSemaphore_t* semaphores,
                                   const cudaExternalSemaphoreWaitParams* params,
                                   unsigned int count, cudaStream_t stream) {
  return onCurrentDevice([&](Scope& scope) {
    if (count != 0 && (semaphores == nullptr || params == nullptr))
      return cudaErrorInvalidValue;
    Stream& queue = scope.stream(stream);
    return scope.externalResources().wait(semaphores, params, count, queue);
  });
}

} // namespace ocelot::runtime::api

using namespace ocelot::runtime::api;
using ocelot::runtime::ChannelLayout;
using ocelot::runtime::channelLayout;
using ocelot::runtime::ExternalMemory;
using ocelot::runtime::ExternalSemaphore;
using ocelot::runtime::Scope;
using ocelot::runtime::Stream;

extern "C" {

cudaError_t CUDARTAPI cudaDestroyExternalMemory(cudaExternalMemory_t extMem) {
  return onCurrentDevice([&](Scope& scope) {
    ExternalMemory& destroyed = scope.externalMemory(extMem);
    return scope.externalResources().destroy(destroyed);
  });
}

cudaError_t CUDARTAPI cudaDestroyExternalSemaphore(cudaExternalSemaphore_t extSem) {
  return onCurrentDevice([&](Scope& scope) {
    ExternalSemaphore& destroyed =
        Scope::found(scope.externalResources().find(extSem), cudaErrorInvalidResourceHandle);
    return scope.externalResources().destroy(destroyed);
  });
}

cudaError_t CUDARTAPI
cudaExternalMemoryGetMappedBuffer(void** devPtr, cudaExternalMemory_t extMem,
                                  const struct cudaExternalMemoryBufferDesc* bufferDesc) {
  return onCurrentDevice([&](Scope& scope) {
    if (devPtr == nullptr || bufferDesc == nullptr)
      return cudaErrorInvalidValue;
    return scope.externalMemory(extMem).mappedBuffer(*bufferDesc, devPtr);
  });
}

cudaError_t CUDARTAPI cudaExternalMemoryGetMappedMipmappedArray(
    cudaMipmappedArray_t* mipmap, cudaExternalMemory_t extMem,
    const struct cudaExternalMemoryMipmappedArrayDesc* mipmapDesc) {
  return onCurrentDevice([&](Scope& scope) {
    if (mipmap == nullptr || mipmapDesc == nullptr)
      return cudaErrorInvalidValue;
    ChannelLayout layout;
    if (cudaError_t error = channelLayout(mipmapDesc->formatDesc, &layout); error != cudaSuccess)
      return error;
    return scope.externalMemory(extMem).mappedMipmappedArray(*mipmapDesc, mipmap);
  });
}

cudaError_t CUDARTAPI cudaImportExternalMemory(
    cudaExternalMemory_t* extMem_out, const struct cudaExternalMemoryHandleDesc* memHandleDesc) {
  return onCurrentDevice([&](Scope& scope) {
    if (extMem_out == nullptr || memHandleDesc == nullptr)
      return cudaErrorInvalidValue;
    ExternalMemory* imported = nullptr;
    cudaError_t error = scope.externalResources().importMemory(*memHandleDesc, &imported);
    if (error == cudaSuccess)
      *extMem_out = imported->handle();
    return error;
  });
}

cudaError_t CUDARTAPI
cudaImportExternalSemaphore(cudaExternalSemaphore_t* extSem_out,
                            const struct cudaExternalSemaphoreHandleDesc* semHandleDesc) {
  return onCurrentDevice([&](Scope& scope) {
    if (extSem_out == nullptr || semHandleDesc == nullptr)
      return cudaErrorInvalidValue;
    ExternalSemaphore* imported = nullptr;
    cudaError_t error = scope.externalResources().importSemaphore(*semHandleDesc, &imported);
    if (error == cudaSuccess)
      *extSem_out = imported->handle();
    return error;
  });
}

cudaError_t CUDARTAPI
cudaSignalExternalSemaphoresAsync(const cudaExternalSemaphore_t* extSemArray,
                                  const struct cudaExternalSemaphoreSignalParams* paramsArray,
                                  unsigned int numExtSems, cudaStream_t stream) {
  return signalExternalSemaphores(extSemArray, paramsArray, numExtSems, stream);
}

cudaError_t CUDARTAPI
cudaWaitExternalSemaphoresAsync(const cudaExternalSemaphore_t* extSemArray,
                                const struct cudaExternalSemaphoreWaitParams* paramsArray,
                                unsigned int numExtSems, cudaStream_t stream) {
  return waitExternalSemaphores(extSemArray, paramsArray, numExtSems, stream);
}

} // extern "C"
