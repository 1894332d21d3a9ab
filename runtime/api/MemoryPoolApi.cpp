// The CUDA Runtime API: the stream-ordered memory allocator (CUDART_MEMORY_POOLS).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Implemented functions forward to ocelot::runtime::Runtime; the
// others return notImplemented(__func__), which logs the name once and returns
// cudaErrorNotSupported.

#include "runtime/api/ApiBoundary.h"

#include <cuda_runtime_api.h>

using namespace ocelot::runtime::api;

extern "C" {

cudaError_t CUDARTAPI cudaFreeAsync(void* /*devPtr*/, cudaStream_t /*hStream*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaMallocAsync(void** /*devPtr*/, size_t /*size*/,
                                      cudaStream_t /*hStream*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaMallocFromPoolAsync(void** /*ptr*/, size_t /*size*/,
                                              cudaMemPool_t /*memPool*/, cudaStream_t /*stream*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaMemGetDefaultMemPool(cudaMemPool_t* /*memPool*/,
                                               struct cudaMemLocation* /*location*/,
                                               enum cudaMemAllocationType /*type*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaMemGetMemPool(cudaMemPool_t* /*memPool*/,
                                        struct cudaMemLocation* /*location*/,
                                        enum cudaMemAllocationType /*type*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaMemPoolCreate(cudaMemPool_t* /*memPool*/,
                                        const struct cudaMemPoolProps* /*poolProps*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaMemPoolDestroy(cudaMemPool_t /*memPool*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData* /*exportData*/,
                                               void* /*ptr*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaMemPoolExportToShareableHandle(
    void* /*shareableHandle*/, cudaMemPool_t /*memPool*/,
    enum cudaMemAllocationHandleType /*handleType*/, unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaMemPoolGetAccess(enum cudaMemAccessFlags* /*flags*/,
                                           cudaMemPool_t /*memPool*/,
                                           struct cudaMemLocation* /*location*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaMemPoolGetAttribute(cudaMemPool_t /*memPool*/,
                                              enum cudaMemPoolAttr /*attr*/, void* /*value*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaMemPoolImportFromShareableHandle(
    cudaMemPool_t* /*memPool*/, void* /*shareableHandle*/,
    enum cudaMemAllocationHandleType /*handleType*/, unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaMemPoolImportPointer(void** /*ptr*/, cudaMemPool_t /*memPool*/,
                                               struct cudaMemPoolPtrExportData* /*exportData*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaMemPoolSetAccess(cudaMemPool_t /*memPool*/,
                                           const struct cudaMemAccessDesc* /*descList*/,
                                           size_t /*count*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaMemPoolSetAttribute(cudaMemPool_t /*memPool*/,
                                              enum cudaMemPoolAttr /*attr*/, void* /*value*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaMemPoolTrimTo(cudaMemPool_t /*memPool*/, size_t /*minBytesToKeep*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaMemSetMemPool(struct cudaMemLocation* /*location*/,
                                        enum cudaMemAllocationType /*type*/,
                                        cudaMemPool_t /*memPool*/) {
  return notImplemented(__func__);
}

} // extern "C"
