// The CUDA Runtime API: memory management: allocation, copies, fills, arrays, symbols and unified
// addressing (CUDART_MEMORY, CUDART_UNIFIED).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Every function forwards to ocelot::runtime::Runtime.

#include "runtime/api/ApiBoundary.h"

#include <cuda_runtime_api.h>

using namespace ocelot::runtime::api;
using ocelot::runtime::arrayAt;
using ocelot::runtime::CopyEndpoint;
using ocelot::runtime::linearMemory;

extern "C" {

cudaError_t CUDARTAPI cudaArrayGetInfo(struct cudaChannelFormatDesc* desc,
                                       struct cudaExtent* extent, unsigned int* flags,
                                       cudaArray_t array) {
  return call([&] { return runtime().arrayGetInfo(desc, extent, flags, array); });
}

cudaError_t CUDARTAPI cudaArrayGetMemoryRequirements(
    struct cudaArrayMemoryRequirements* memoryRequirements, cudaArray_t array, int device) {
  return call(
      [&] { return runtime().arrayGetMemoryRequirements(memoryRequirements, array, device); });
}

cudaError_t CUDARTAPI cudaArrayGetPlane(cudaArray_t* pPlaneArray, cudaArray_t hArray,
                                        unsigned int planeIdx) {
  return call([&] { return runtime().arrayGetPlane(pPlaneArray, hArray, planeIdx); });
}

cudaError_t CUDARTAPI cudaArrayGetSparseProperties(
    struct cudaArraySparseProperties* sparseProperties, cudaArray_t array) {
  return call([&] { return runtime().arrayGetSparseProperties(sparseProperties, array); });
}

cudaError_t CUDARTAPI cudaFree(void* devPtr) {
  return call([&] { return runtime().free(devPtr); });
}

cudaError_t CUDARTAPI cudaFreeArray(cudaArray_t array) {
  return call([&] { return runtime().freeArray(array); });
}

cudaError_t CUDARTAPI cudaFreeHost(void* ptr) {
  return call([&] { return runtime().freeHost(ptr); });
}

cudaError_t CUDARTAPI cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray) {
  return call([&] { return runtime().freeMipmappedArray(mipmappedArray); });
}

cudaError_t CUDARTAPI cudaGetMipmappedArrayLevel(cudaArray_t* levelArray,
                                                 cudaMipmappedArray_const_t mipmappedArray,
                                                 unsigned int level) {
  return call([&] { return runtime().getMipmappedArrayLevel(levelArray, mipmappedArray, level); });
}

cudaError_t CUDARTAPI cudaGetSymbolAddress(void** devPtr, const void* symbol) {
  return call([&] { return runtime().getSymbolAddress(devPtr, symbol); });
}

cudaError_t CUDARTAPI cudaGetSymbolSize(size_t* size, const void* symbol) {
  return call([&] { return runtime().getSymbolSize(size, symbol); });
}

cudaError_t CUDARTAPI cudaHostAlloc(void** pHost, size_t size, unsigned int flags) {
  return call([&] { return runtime().mallocHost(pHost, size, flags); });
}

cudaError_t CUDARTAPI cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
  return call([&] { return runtime().hostGetDevicePointer(pDevice, pHost, flags); });
}

cudaError_t CUDARTAPI cudaHostGetFlags(unsigned int* pFlags, void* pHost) {
  return call([&] { return runtime().hostGetFlags(pFlags, pHost); });
}

cudaError_t CUDARTAPI cudaHostRegister(void* ptr, size_t size, unsigned int flags) {
  return call([&] { return runtime().hostRegister(ptr, size, flags); });
}

cudaError_t CUDARTAPI cudaHostUnregister(void* ptr) {
  return call([&] { return runtime().hostUnregister(ptr); });
}

cudaError_t CUDARTAPI cudaMalloc(void** devPtr, size_t size) {
  return call([&] { return runtime().malloc(devPtr, size); });
}

cudaError_t CUDARTAPI cudaMalloc3D(struct cudaPitchedPtr* pitchedDevPtr, struct cudaExtent extent) {
  return call([&] { return runtime().malloc3D(pitchedDevPtr, extent); });
}

cudaError_t CUDARTAPI cudaMalloc3DArray(cudaArray_t* array,
                                        const struct cudaChannelFormatDesc* desc,
                                        struct cudaExtent extent, unsigned int flags) {
  return call([&] { return runtime().mallocArray(array, desc, extent, flags, true); });
}

cudaError_t CUDARTAPI cudaMallocArray(cudaArray_t* array, const struct cudaChannelFormatDesc* desc,
                                      size_t width, size_t height, unsigned int flags) {
  return call([&] {
    return runtime().mallocArray(array, desc, cudaExtent{width, height, 0}, flags, false);
  });
}

cudaError_t CUDARTAPI cudaMallocHost(void** ptr, size_t size) {
  return call([&] { return runtime().mallocHost(ptr, size, cudaHostAllocDefault); });
}

cudaError_t CUDARTAPI cudaMallocManaged(void** devPtr, size_t size, unsigned int flags) {
  return call([&] { return runtime().mallocManaged(devPtr, size, flags); });
}

cudaError_t CUDARTAPI cudaMallocMipmappedArray(cudaMipmappedArray_t* mipmappedArray,
                                               const struct cudaChannelFormatDesc* desc,
                                               struct cudaExtent extent, unsigned int numLevels,
                                               unsigned int flags) {
  return call([&] {
    return runtime().mallocMipmappedArray(mipmappedArray, desc, extent, numLevels, flags);
  });
}

cudaError_t CUDARTAPI cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height) {
  return call([&] { return runtime().mallocPitch(devPtr, pitch, width, height); });
}

cudaError_t CUDARTAPI cudaMemAdvise(const void* devPtr, size_t count, enum cudaMemoryAdvise advice,
                                    struct cudaMemLocation location) {
  return call([&] { return runtime().memAdvise(devPtr, count, raw(advice), location); });
}

cudaError_t CUDARTAPI cudaMemDiscardAndPrefetchBatchAsync(void** dptrs, size_t* sizes, size_t count,
                                                          struct cudaMemLocation* prefetchLocs,
                                                          size_t* prefetchLocIdxs,
                                                          size_t numPrefetchLocs,
                                                          unsigned long long flags,
                                                          cudaStream_t stream) {
  return call([&] {
    return runtime().memPrefetchBatchAsync(dptrs, sizes, count, true, prefetchLocs, prefetchLocIdxs,
                                           numPrefetchLocs, flags, stream);
  });
}

cudaError_t CUDARTAPI cudaMemDiscardBatchAsync(void** dptrs, size_t* sizes, size_t count,
                                               unsigned long long flags, cudaStream_t stream) {
  return call([&] {
    return runtime().memPrefetchBatchAsync(dptrs, sizes, count, true, nullptr, nullptr, 0, flags,
                                           stream);
  });
}

cudaError_t CUDARTAPI cudaMemGetInfo(size_t* freeBytes, size_t* totalBytes) {
  return call([&] { return runtime().memGetInfo(freeBytes, totalBytes); });
}

cudaError_t CUDARTAPI cudaMemPrefetchAsync(const void* devPtr, size_t count,
                                           struct cudaMemLocation location, unsigned int flags,
                                           cudaStream_t stream) {
  return call([&] { return runtime().memPrefetchAsync(devPtr, count, location, flags, stream); });
}

cudaError_t CUDARTAPI cudaMemPrefetchBatchAsync(void** dptrs, size_t* sizes, size_t count,
                                                struct cudaMemLocation* prefetchLocs,
                                                size_t* prefetchLocIdxs, size_t numPrefetchLocs,
                                                unsigned long long flags, cudaStream_t stream) {
  return call([&] {
    return runtime().memPrefetchBatchAsync(dptrs, sizes, count, false, prefetchLocs,
                                           prefetchLocIdxs, numPrefetchLocs, flags, stream);
  });
}

cudaError_t CUDARTAPI cudaMemRangeGetAttribute(void* data, size_t dataSize,
                                               enum cudaMemRangeAttribute attribute,
                                               const void* devPtr, size_t count) {
  return call([&] {
    return runtime().memRangeGetAttributes(&data, &dataSize, &attribute, 1, devPtr, count);
  });
}

cudaError_t CUDARTAPI cudaMemRangeGetAttributes(void** data, size_t* dataSizes,
                                                enum cudaMemRangeAttribute* attributes,
                                                size_t numAttributes, const void* devPtr,
                                                size_t count) {
  return call([&] {
    return runtime().memRangeGetAttributes(data, dataSizes, attributes, numAttributes, devPtr,
                                           count);
  });
}

cudaError_t CUDARTAPI cudaMemcpy(void* dst, const void* src, size_t count,
                                 enum cudaMemcpyKind kind) {
  return call([&] { return runtime().memcpy(dst, src, count, raw(kind), nullptr, false); });
}

cudaError_t CUDARTAPI cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch,
                                   size_t width, size_t height, enum cudaMemcpyKind kind) {
  return call([&] {
    return runtime().memcpy2D(linearMemory(dst, dpitch), linearMemory(src, spitch), width, height,
                              raw(kind), nullptr, false);
  });
}

cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst,
                                               size_t hOffsetDst, cudaArray_const_t src,
                                               size_t wOffsetSrc, size_t hOffsetSrc, size_t width,
                                               size_t height, enum cudaMemcpyKind kind) {
  return call([&] {
    return runtime().memcpy2D(arrayAt(dst, wOffsetDst, hOffsetDst),
                              arrayAt(src, wOffsetSrc, hOffsetSrc), width, height, raw(kind),
                              nullptr, false);
  });
}

cudaError_t CUDARTAPI cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                                        size_t width, size_t height, enum cudaMemcpyKind kind,
                                        cudaStream_t stream) {
  return call([&] {
    return runtime().memcpy2D(linearMemory(dst, dpitch), linearMemory(src, spitch), width, height,
                              raw(kind), stream, true);
  });
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src,
                                            size_t wOffset, size_t hOffset, size_t width,
                                            size_t height, enum cudaMemcpyKind kind) {
  return call([&] {
    return runtime().memcpy2D(linearMemory(dst, dpitch), arrayAt(src, wOffset, hOffset), width,
                              height, raw(kind), nullptr, false);
  });
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src,
                                                 size_t wOffset, size_t hOffset, size_t width,
                                                 size_t height, enum cudaMemcpyKind kind,
                                                 cudaStream_t stream) {
  return call([&] {
    return runtime().memcpy2D(linearMemory(dst, dpitch), arrayAt(src, wOffset, hOffset), width,
                              height, raw(kind), stream, true);
  });
}

cudaError_t CUDARTAPI cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                          const void* src, size_t spitch, size_t width,
                                          size_t height, enum cudaMemcpyKind kind) {
  return call([&] {
    return runtime().memcpy2D(arrayAt(dst, wOffset, hOffset), linearMemory(src, spitch), width,
                              height, raw(kind), nullptr, false);
  });
}

cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                               const void* src, size_t spitch, size_t width,
                                               size_t height, enum cudaMemcpyKind kind,
                                               cudaStream_t stream) {
  return call([&] {
    return runtime().memcpy2D(arrayAt(dst, wOffset, hOffset), linearMemory(src, spitch), width,
                              height, raw(kind), stream, true);
  });
}

cudaError_t CUDARTAPI cudaMemcpy3D(const struct cudaMemcpy3DParms* p) {
  return call([&] { return runtime().memcpy3D(p, nullptr, false); });
}

cudaError_t CUDARTAPI cudaMemcpy3DAsync(const struct cudaMemcpy3DParms* p, cudaStream_t stream) {
  return call([&] { return runtime().memcpy3D(p, stream, true); });
}

cudaError_t CUDARTAPI cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp* opList,
                                             unsigned long long flags, cudaStream_t stream) {
  return call([&] { return runtime().memcpy3DBatchAsync(numOps, opList, flags, stream); });
}

cudaError_t CUDARTAPI cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms* p) {
  return call([&] { return runtime().memcpy3DPeer(p, nullptr, false); });
}

cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms* p,
                                            cudaStream_t stream) {
  return call([&] { return runtime().memcpy3DPeer(p, stream, true); });
}

cudaError_t CUDARTAPI cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                             cudaArray_const_t src, size_t wOffsetSrc,
                                             size_t hOffsetSrc, size_t count,
                                             enum cudaMemcpyKind kind) {
  return call([&] {
    return runtime().memcpyArrayLinear(arrayAt(dst, wOffsetDst, hOffsetDst),
                                       arrayAt(src, wOffsetSrc, hOffsetSrc), count, raw(kind),
                                       nullptr, false);
  });
}

cudaError_t CUDARTAPI cudaMemcpyAsync(void* dst, const void* src, size_t count,
                                      enum cudaMemcpyKind kind, cudaStream_t stream) {
  return call([&] { return runtime().memcpy(dst, src, count, raw(kind), stream, true); });
}

cudaError_t CUDARTAPI cudaMemcpyBatchAsync(void* const* dsts, const void* const* srcs,
                                           const size_t* sizes, size_t count,
                                           struct cudaMemcpyAttributes* attrs, size_t* attrsIdxs,
                                           size_t numAttrs, cudaStream_t stream) {
  return call([&] {
    return runtime().memcpyBatchAsync(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, stream);
  });
}

cudaError_t CUDARTAPI cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t wOffset,
                                          size_t hOffset, size_t count, enum cudaMemcpyKind kind) {
  return call([&] {
    return runtime().memcpyArrayLinear(linearMemory(dst, 0), arrayAt(src, wOffset, hOffset), count,
                                       raw(kind), nullptr, false);
  });
}

cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync(void* dst, cudaArray_const_t src, size_t wOffset,
                                               size_t hOffset, size_t count,
                                               enum cudaMemcpyKind kind, cudaStream_t stream) {
  return call([&] {
    return runtime().memcpyArrayLinear(linearMemory(dst, 0), arrayAt(src, wOffset, hOffset), count,
                                       raw(kind), stream, true);
  });
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count,
                                           size_t offset, enum cudaMemcpyKind kind) {
  return call([&] {
    return runtime().memcpyFromSymbol(dst, symbol, count, offset, raw(kind), nullptr, false);
  });
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count,
                                                size_t offset, enum cudaMemcpyKind kind,
                                                cudaStream_t stream) {
  return call([&] {
    return runtime().memcpyFromSymbol(dst, symbol, count, offset, raw(kind), stream, true);
  });
}

cudaError_t CUDARTAPI cudaMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice,
                                     size_t count) {
  return call(
      [&] { return runtime().memcpyPeer(dst, dstDevice, src, srcDevice, count, nullptr, false); });
}

cudaError_t CUDARTAPI cudaMemcpyPeerAsync(void* dst, int dstDevice, const void* src, int srcDevice,
                                          size_t count, cudaStream_t stream) {
  return call(
      [&] { return runtime().memcpyPeer(dst, dstDevice, src, srcDevice, count, stream, true); });
}

cudaError_t CUDARTAPI cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                        const void* src, size_t count, enum cudaMemcpyKind kind) {
  return call([&] {
    return runtime().memcpyArrayLinear(arrayAt(dst, wOffset, hOffset), linearMemory(src, 0), count,
                                       raw(kind), nullptr, false);
  });
}

cudaError_t CUDARTAPI cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                             const void* src, size_t count,
                                             enum cudaMemcpyKind kind, cudaStream_t stream) {
  return call([&] {
    return runtime().memcpyArrayLinear(arrayAt(dst, wOffset, hOffset), linearMemory(src, 0), count,
                                       raw(kind), stream, true);
  });
}

cudaError_t CUDARTAPI cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count,
                                         size_t offset, enum cudaMemcpyKind kind) {
  return call([&] {
    return runtime().memcpyToSymbol(symbol, src, count, offset, raw(kind), nullptr, false);
  });
}

cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count,
                                              size_t offset, enum cudaMemcpyKind kind,
                                              cudaStream_t stream) {
  return call([&] {
    return runtime().memcpyToSymbol(symbol, src, count, offset, raw(kind), stream, true);
  });
}

cudaError_t CUDARTAPI cudaMemset(void* devPtr, int value, size_t count) {
  return call([&] { return runtime().memset(devPtr, value, count, nullptr, false); });
}

cudaError_t CUDARTAPI cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width,
                                   size_t height) {
  return call(
      [&] { return runtime().memset2D(devPtr, pitch, value, width, height, nullptr, false); });
}

cudaError_t CUDARTAPI cudaMemset2DAsync(void* devPtr, size_t pitch, int value, size_t width,
                                        size_t height, cudaStream_t stream) {
  return call(
      [&] { return runtime().memset2D(devPtr, pitch, value, width, height, stream, true); });
}

cudaError_t CUDARTAPI cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value,
                                   struct cudaExtent extent) {
  return call([&] { return runtime().memset3D(pitchedDevPtr, value, extent, nullptr, false); });
}

cudaError_t CUDARTAPI cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
                                        struct cudaExtent extent, cudaStream_t stream) {
  return call([&] { return runtime().memset3D(pitchedDevPtr, value, extent, stream, true); });
}

cudaError_t CUDARTAPI cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  return call([&] { return runtime().memset(devPtr, value, count, stream, true); });
}

cudaError_t CUDARTAPI
cudaMipmappedArrayGetMemoryRequirements(struct cudaArrayMemoryRequirements* memoryRequirements,
                                        cudaMipmappedArray_t mipmap, int device) {
  return call([&] {
    return runtime().mipmappedArrayGetMemoryRequirements(memoryRequirements, mipmap, device);
  });
}

cudaError_t CUDARTAPI cudaMipmappedArrayGetSparseProperties(
    struct cudaArraySparseProperties* sparseProperties, cudaMipmappedArray_t mipmap) {
  return call(
      [&] { return runtime().mipmappedArrayGetSparseProperties(sparseProperties, mipmap); });
}

cudaError_t CUDARTAPI cudaPointerGetAttributes(struct cudaPointerAttributes* attributes,
                                               const void* ptr) {
  return call([&] { return runtime().pointerGetAttributes(attributes, ptr); });
}

} // extern "C"
