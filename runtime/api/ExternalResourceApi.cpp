// The CUDA Runtime API: external resource interoperability (CUDART_EXTRES_INTEROP).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Every function forwards to ocelot::runtime::Runtime.

#include "runtime/api/ApiBoundary.h"

#include <cuda_runtime_api.h>

using namespace ocelot::runtime::api;

extern "C" {

cudaError_t CUDARTAPI cudaDestroyExternalMemory(cudaExternalMemory_t extMem) {
  return call([&] { return runtime().destroyExternalMemory(extMem); });
}

cudaError_t CUDARTAPI cudaDestroyExternalSemaphore(cudaExternalSemaphore_t extSem) {
  return call([&] { return runtime().destroyExternalSemaphore(extSem); });
}

cudaError_t CUDARTAPI
cudaExternalMemoryGetMappedBuffer(void** devPtr, cudaExternalMemory_t extMem,
                                  const struct cudaExternalMemoryBufferDesc* bufferDesc) {
  return call([&] { return runtime().externalMemoryGetMappedBuffer(devPtr, extMem, bufferDesc); });
}

cudaError_t CUDARTAPI cudaExternalMemoryGetMappedMipmappedArray(
    cudaMipmappedArray_t* mipmap, cudaExternalMemory_t extMem,
    const struct cudaExternalMemoryMipmappedArrayDesc* mipmapDesc) {
  return call(
      [&] { return runtime().externalMemoryGetMappedMipmappedArray(mipmap, extMem, mipmapDesc); });
}

cudaError_t CUDARTAPI cudaImportExternalMemory(
    cudaExternalMemory_t* extMem_out, const struct cudaExternalMemoryHandleDesc* memHandleDesc) {
  return call([&] { return runtime().importExternalMemory(extMem_out, memHandleDesc); });
}

cudaError_t CUDARTAPI
cudaImportExternalSemaphore(cudaExternalSemaphore_t* extSem_out,
                            const struct cudaExternalSemaphoreHandleDesc* semHandleDesc) {
  return call([&] { return runtime().importExternalSemaphore(extSem_out, semHandleDesc); });
}

cudaError_t CUDARTAPI
cudaSignalExternalSemaphoresAsync(const cudaExternalSemaphore_t* extSemArray,
                                  const struct cudaExternalSemaphoreSignalParams* paramsArray,
                                  unsigned int numExtSems, cudaStream_t stream) {
  return call([&] {
    return runtime().signalExternalSemaphores(extSemArray, paramsArray, numExtSems, stream);
  });
}

cudaError_t CUDARTAPI
cudaWaitExternalSemaphoresAsync(const cudaExternalSemaphore_t* extSemArray,
                                const struct cudaExternalSemaphoreWaitParams* paramsArray,
                                unsigned int numExtSems, cudaStream_t stream) {
  return call([&] {
    return runtime().waitExternalSemaphores(extSemArray, paramsArray, numExtSems, stream);
  });
}

} // extern "C"
