// The CUDA Runtime API: external resource interoperability (CUDART_EXTRES_INTEROP).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Implemented functions forward to ocelot::runtime::Runtime; the
// others return notImplemented(__func__), which logs the name once and returns
// cudaErrorNotSupported.

#include "runtime/api/ApiBoundary.h"

#include <cuda_runtime_api.h>

using namespace ocelot::runtime::api;

extern "C" {

cudaError_t CUDARTAPI cudaDestroyExternalMemory(cudaExternalMemory_t /*extMem*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaDestroyExternalSemaphore(cudaExternalSemaphore_t /*extSem*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI
cudaExternalMemoryGetMappedBuffer(void** /*devPtr*/, cudaExternalMemory_t /*extMem*/,
                                  const struct cudaExternalMemoryBufferDesc* /*bufferDesc*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaExternalMemoryGetMappedMipmappedArray(
    cudaMipmappedArray_t* /*mipmap*/, cudaExternalMemory_t /*extMem*/,
    const struct cudaExternalMemoryMipmappedArrayDesc* /*mipmapDesc*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI
cudaImportExternalMemory(cudaExternalMemory_t* /*extMem_out*/,
                         const struct cudaExternalMemoryHandleDesc* /*memHandleDesc*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI
cudaImportExternalSemaphore(cudaExternalSemaphore_t* /*extSem_out*/,
                            const struct cudaExternalSemaphoreHandleDesc* /*semHandleDesc*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI
cudaSignalExternalSemaphoresAsync(const cudaExternalSemaphore_t* /*extSemArray*/,
                                  const struct cudaExternalSemaphoreSignalParams* /*paramsArray*/,
                                  unsigned int /*numExtSems*/, cudaStream_t /*stream*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI
cudaWaitExternalSemaphoresAsync(const cudaExternalSemaphore_t* /*extSemArray*/,
                                const struct cudaExternalSemaphoreWaitParams* /*paramsArray*/,
                                unsigned int /*numExtSems*/, cudaStream_t /*stream*/) {
  return notImplemented(__func__);
}

} // extern "C"
