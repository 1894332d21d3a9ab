// The CUDA Runtime API: the stream-ordered memory allocator (CUDART_MEMORY_POOLS).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Every function forwards to ocelot::runtime::Runtime.

#include "runtime/api/ApiBoundary.h"

#include <cuda_runtime_api.h>

using namespace ocelot::runtime::api;

extern "C" {

cudaError_t CUDARTAPI cudaFreeAsync(void* devPtr, cudaStream_t hStream) {
  return call([&] { return runtime().freeAsync(devPtr, hStream); });
}

cudaError_t CUDARTAPI cudaMallocAsync(void** devPtr, size_t size, cudaStream_t hStream) {
  return call([&] { return runtime().mallocAsync(devPtr, size, nullptr, hStream); });
}

cudaError_t CUDARTAPI cudaMallocFromPoolAsync(void** ptr, size_t size, cudaMemPool_t memPool,
                                              cudaStream_t stream) {
  return call([&] { return runtime().mallocFromPoolAsync(ptr, size, memPool, stream); });
}

cudaError_t CUDARTAPI cudaMemGetDefaultMemPool(cudaMemPool_t* memPool,
                                               struct cudaMemLocation* location,
                                               enum cudaMemAllocationType type) {
  return call([&] { return runtime().memGetDefaultMemPool(memPool, location, raw(type)); });
}

cudaError_t CUDARTAPI cudaMemGetMemPool(cudaMemPool_t* memPool, struct cudaMemLocation* location,
                                        enum cudaMemAllocationType type) {
  return call([&] { return runtime().memGetMemPool(memPool, location, raw(type)); });
}

cudaError_t CUDARTAPI cudaMemPoolCreate(cudaMemPool_t* memPool,
                                        const struct cudaMemPoolProps* poolProps) {
  return call([&] { return runtime().memPoolCreate(memPool, poolProps); });
}

cudaError_t CUDARTAPI cudaMemPoolDestroy(cudaMemPool_t memPool) {
  return call([&] { return runtime().memPoolDestroy(memPool); });
}

cudaError_t CUDARTAPI cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData* exportData,
                                               void* ptr) {
  return call([&] { return runtime().memPoolExportPointer(exportData, ptr); });
}

cudaError_t CUDARTAPI cudaMemPoolExportToShareableHandle(
    void* shareableHandle, cudaMemPool_t memPool, enum cudaMemAllocationHandleType handleType,
    unsigned int flags) {
  return call([&] {
    return runtime().memPoolExportToShareableHandle(shareableHandle, memPool, raw(handleType),
                                                    flags);
  });
}

cudaError_t CUDARTAPI cudaMemPoolGetAccess(enum cudaMemAccessFlags* flags, cudaMemPool_t memPool,
                                           struct cudaMemLocation* location) {
  return call([&] { return runtime().memPoolGetAccess(flags, memPool, location); });
}

cudaError_t CUDARTAPI cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
                                              void* value) {
  return call([&] { return runtime().memPoolGetAttribute(memPool, raw(attr), value); });
}

cudaError_t CUDARTAPI cudaMemPoolImportFromShareableHandle(
    cudaMemPool_t* memPool, void* shareableHandle, enum cudaMemAllocationHandleType handleType,
    unsigned int flags) {
  return call([&] {
    return runtime().memPoolImportFromShareableHandle(memPool, shareableHandle, raw(handleType),
                                                      flags);
  });
}

cudaError_t CUDARTAPI cudaMemPoolImportPointer(void** ptr, cudaMemPool_t memPool,
                                               struct cudaMemPoolPtrExportData* exportData) {
  return call([&] { return runtime().memPoolImportPointer(ptr, memPool, exportData); });
}

cudaError_t CUDARTAPI cudaMemPoolSetAccess(cudaMemPool_t memPool,
                                           const struct cudaMemAccessDesc* descList, size_t count) {
  return call([&] { return runtime().memPoolSetAccess(memPool, descList, count); });
}

cudaError_t CUDARTAPI cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
                                              void* value) {
  return call([&] { return runtime().memPoolSetAttribute(memPool, raw(attr), value); });
}

cudaError_t CUDARTAPI cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep) {
  return call([&] { return runtime().memPoolTrimTo(memPool, minBytesToKeep); });
}

cudaError_t CUDARTAPI cudaMemSetMemPool(struct cudaMemLocation* location,
                                        enum cudaMemAllocationType type, cudaMemPool_t memPool) {
  return call([&] { return runtime().memSetMemPool(location, raw(type), memPool); });
}

} // extern "C"
