// The CUDA Runtime API: the per-thread default stream variants (_ptsz, _ptds) of every function
// that takes or implies a stream.
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Implemented functions call the same bodies as
// the functions without the suffix, with the per-thread stream; the others return
// notImplemented(__func__), which logs the name once and returns cudaErrorNotSupported.
//
// With CUDA_API_PER_THREAD_DEFAULT_STREAM defined, cuda_runtime_api.h declares these variants under
// their own names (cudaMemcpy_ptds, cudaMemcpyAsync_ptsz, ...). Applications built with
// --default-stream per-thread call them; stream 0 means the calling thread's default stream.

#define CUDA_API_PER_THREAD_DEFAULT_STREAM

#include "runtime/api/ApiBoundary.h"
#include "runtime/api/ExecutionCalls.h"
#include "runtime/api/GraphCalls.h"
#include "runtime/api/MemoryCalls.h"
#include "runtime/api/StreamCalls.h"

#include <cuda_runtime_api.h>

using namespace ocelot::runtime::api;
using ocelot::runtime::arrayAt;
using ocelot::runtime::linearMemory;

extern "C" {

cudaError_t CUDARTAPI cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
                                                    unsigned int flags) {
  return eventRecord(event, perThread(stream), flags);
}

cudaError_t CUDARTAPI cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream) {
  return eventRecord(event, perThread(stream), 0);
}

cudaError_t CUDARTAPI cudaFreeAsync_ptsz(void* devPtr, cudaStream_t hStream) {
  return freeAsync(devPtr, perThread(hStream));
}

cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion_ptsz(
    const char* symbol, void** funcPtr, unsigned int cudaVersion, unsigned long long flags,
    enum cudaDriverEntryPointQueryResult* driverStatus) {
  return call([&] {
    return runtime().getDriverEntryPoint(symbol, funcPtr, static_cast<int>(cudaVersion),
                                         perThreadEntryPoints(flags), driverStatus);
  });
}

cudaError_t CUDARTAPI
cudaGetDriverEntryPoint_ptsz(const char* symbol, void** funcPtr, unsigned long long flags,
                             enum cudaDriverEntryPointQueryResult* driverStatus) {
  return call([&] {
    return runtime().getDriverEntryPoint(symbol, funcPtr, CUDART_VERSION,
                                         perThreadEntryPoints(flags), driverStatus);
  });
}

cudaError_t CUDARTAPI cudaGraphInstantiateWithParams_ptsz(
    cudaGraphExec_t* pGraphExec, cudaGraph_t graph, cudaGraphInstantiateParams* instantiateParams) {
  return call([&] { return graphInstantiate(pGraphExec, graph, instantiateParams); });
}

cudaError_t CUDARTAPI cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream) {
  return call([&] { return graphLaunch(graphExec, perThread(stream)); });
}

cudaError_t CUDARTAPI cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream) {
  return call([&] { return graphUpload(graphExec, perThread(stream)); });
}

cudaError_t CUDARTAPI cudaLaunchCooperativeKernel_ptsz(const void* func, dim3 gridDim,
                                                       dim3 blockDim, void** args, size_t sharedMem,
                                                       cudaStream_t stream) {
  return launchCooperativeKernel(func, gridDim, blockDim, args, sharedMem, perThread(stream));
}

cudaError_t CUDARTAPI cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn,
                                              void* userData) {
  return launchHostFunction(perThread(stream), fn, userData);
}

cudaError_t CUDARTAPI cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* func,
                                               void** args) {
  return launchKernelEx(config, func, args, true);
}

cudaError_t CUDARTAPI cudaLaunchKernel_ptsz(const void* func, dim3 gridDim, dim3 blockDim,
                                            void** args, size_t sharedMem, cudaStream_t stream) {
  return call([&] {
    return runtime().launchKernel(func, gridDim, blockDim, args, sharedMem, perThread(stream));
  });
}

cudaError_t CUDARTAPI cudaMallocAsync_ptsz(void** devPtr, size_t size, cudaStream_t hStream) {
  return allocateAsync(devPtr, size, nullptr, perThread(hStream));
}

cudaError_t CUDARTAPI cudaMallocFromPoolAsync_ptsz(void** ptr, size_t size, cudaMemPool_t memPool,
                                                   cudaStream_t stream) {
  return allocateFromPoolAsync(ptr, size, memPool, perThread(stream));
}

cudaError_t CUDARTAPI cudaMemDiscardAndPrefetchBatchAsync_ptsz(
    void** dptrs, size_t* sizes, size_t count, struct cudaMemLocation* prefetchLocs,
    size_t* prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags,
    cudaStream_t stream) {
  return prefetchBatch(dptrs, sizes, count, true, prefetchLocs, prefetchLocIdxs, numPrefetchLocs,
                       flags, perThread(stream));
}

cudaError_t CUDARTAPI cudaMemDiscardBatchAsync_ptsz(void** dptrs, size_t* sizes, size_t count,
                                                    unsigned long long flags, cudaStream_t stream) {
  return prefetchBatch(dptrs, sizes, count, true, nullptr, nullptr, 0, flags, perThread(stream));
}

cudaError_t CUDARTAPI cudaMemPrefetchAsync_ptsz(const void* devPtr, size_t count,
                                                struct cudaMemLocation location, unsigned int flags,
                                                cudaStream_t stream) {
  return prefetch(devPtr, count, location, flags, perThread(stream));
}

cudaError_t CUDARTAPI cudaMemPrefetchBatchAsync_ptsz(void** dptrs, size_t* sizes, size_t count,
                                                     struct cudaMemLocation* prefetchLocs,
                                                     size_t* prefetchLocIdxs,
                                                     size_t numPrefetchLocs,
                                                     unsigned long long flags,
                                                     cudaStream_t stream) {
  return prefetchBatch(dptrs, sizes, count, false, prefetchLocs, prefetchLocIdxs, numPrefetchLocs,
                       flags, perThread(stream));
}

cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
                                                    size_t hOffsetDst, cudaArray_const_t src,
                                                    size_t wOffsetSrc, size_t hOffsetSrc,
                                                    size_t width, size_t height,
                                                    enum cudaMemcpyKind kind) {
  return copy2D(arrayAt(dst, wOffsetDst, hOffsetDst), arrayAt(src, wOffsetSrc, hOffsetSrc), width,
                height, raw(kind), cudaStreamPerThread, false);
}

cudaError_t CUDARTAPI cudaMemcpy2DAsync_ptsz(void* dst, size_t dpitch, const void* src,
                                             size_t spitch, size_t width, size_t height,
                                             enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copy2D(linearMemory(dst, dpitch), linearMemory(src, spitch), width, height, raw(kind),
                perThread(stream), true);
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync_ptsz(void* dst, size_t dpitch,
                                                      cudaArray_const_t src, size_t wOffset,
                                                      size_t hOffset, size_t width, size_t height,
                                                      enum cudaMemcpyKind kind,
                                                      cudaStream_t stream) {
  return copy2D(linearMemory(dst, dpitch), arrayAt(src, wOffset, hOffset), width, height, raw(kind),
                perThread(stream), true);
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArray_ptds(void* dst, size_t dpitch, cudaArray_const_t src,
                                                 size_t wOffset, size_t hOffset, size_t width,
                                                 size_t height, enum cudaMemcpyKind kind) {
  return copy2D(linearMemory(dst, dpitch), arrayAt(src, wOffset, hOffset), width, height, raw(kind),
                cudaStreamPerThread, false);
}

cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                    const void* src, size_t spitch, size_t width,
                                                    size_t height, enum cudaMemcpyKind kind,
                                                    cudaStream_t stream) {
  return copy2D(arrayAt(dst, wOffset, hOffset), linearMemory(src, spitch), width, height, raw(kind),
                perThread(stream), true);
}

cudaError_t CUDARTAPI cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                               const void* src, size_t spitch, size_t width,
                                               size_t height, enum cudaMemcpyKind kind) {
  return copy2D(arrayAt(dst, wOffset, hOffset), linearMemory(src, spitch), width, height, raw(kind),
                cudaStreamPerThread, false);
}

cudaError_t CUDARTAPI cudaMemcpy2D_ptds(void* dst, size_t dpitch, const void* src, size_t spitch,
                                        size_t width, size_t height, enum cudaMemcpyKind kind) {
  return copy2D(linearMemory(dst, dpitch), linearMemory(src, spitch), width, height, raw(kind),
                cudaStreamPerThread, false);
}

cudaError_t CUDARTAPI cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms* p,
                                             cudaStream_t stream) {
  return copy3D(p, perThread(stream), true);
}

cudaError_t CUDARTAPI cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp* opList,
                                                  unsigned long long flags, cudaStream_t stream) {
  return copy3DBatch(numOps, opList, flags, perThread(stream));
}

cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms* p,
                                                 cudaStream_t stream) {
  return copy3DPeer(p, perThread(stream), true);
}

cudaError_t CUDARTAPI cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms* p) {
  return copy3DPeer(p, cudaStreamPerThread, false);
}

cudaError_t CUDARTAPI cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms* p) {
  return copy3D(p, cudaStreamPerThread, false);
}

cudaError_t CUDARTAPI cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
                                                  size_t hOffsetDst, cudaArray_const_t src,
                                                  size_t wOffsetSrc, size_t hOffsetSrc,
                                                  size_t count, enum cudaMemcpyKind kind) {
  return copyArrayLinear(arrayAt(dst, wOffsetDst, hOffsetDst), arrayAt(src, wOffsetSrc, hOffsetSrc),
                         count, raw(kind), cudaStreamPerThread, false);
}

cudaError_t CUDARTAPI cudaMemcpyAsync_ptsz(void* dst, const void* src, size_t count,
                                           enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copy(dst, src, count, raw(kind), perThread(stream), true);
}

cudaError_t CUDARTAPI cudaMemcpyBatchAsync_ptsz(void* const* dsts, const void* const* srcs,
                                                const size_t* sizes, size_t count,
                                                struct cudaMemcpyAttributes* attrs,
                                                size_t* attrsIdxs, size_t numAttrs,
                                                cudaStream_t stream) {
  return copyBatch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, perThread(stream));
}

cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync_ptsz(void* dst, cudaArray_const_t src,
                                                    size_t wOffset, size_t hOffset, size_t count,
                                                    enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copyArrayLinear(linearMemory(dst, 0), arrayAt(src, wOffset, hOffset), count, raw(kind),
                         perThread(stream), true);
}

cudaError_t CUDARTAPI cudaMemcpyFromArray_ptds(void* dst, cudaArray_const_t src, size_t wOffset,
                                               size_t hOffset, size_t count,
                                               enum cudaMemcpyKind kind) {
  return copyArrayLinear(linearMemory(dst, 0), arrayAt(src, wOffset, hOffset), count, raw(kind),
                         cudaStreamPerThread, false);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync_ptsz(void* dst, const void* symbol, size_t count,
                                                     size_t offset, enum cudaMemcpyKind kind,
                                                     cudaStream_t stream) {
  return copyFromSymbol(dst, symbol, count, offset, raw(kind), perThread(stream), true);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbol_ptds(void* dst, const void* symbol, size_t count,
                                                size_t offset, enum cudaMemcpyKind kind) {
  return copyFromSymbol(dst, symbol, count, offset, raw(kind), cudaStreamPerThread, false);
}

cudaError_t CUDARTAPI cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                  const void* src, size_t count,
                                                  enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copyArrayLinear(arrayAt(dst, wOffset, hOffset), linearMemory(src, 0), count, raw(kind),
                         perThread(stream), true);
}

cudaError_t CUDARTAPI cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                             const void* src, size_t count,
                                             enum cudaMemcpyKind kind) {
  return copyArrayLinear(arrayAt(dst, wOffset, hOffset), linearMemory(src, 0), count, raw(kind),
                         cudaStreamPerThread, false);
}

cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync_ptsz(const void* symbol, const void* src,
                                                   size_t count, size_t offset,
                                                   enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copyToSymbol(symbol, src, count, offset, raw(kind), perThread(stream), true);
}

cudaError_t CUDARTAPI cudaMemcpyToSymbol_ptds(const void* symbol, const void* src, size_t count,
                                              size_t offset, enum cudaMemcpyKind kind) {
  return copyToSymbol(symbol, src, count, offset, raw(kind), cudaStreamPerThread, false);
}

cudaError_t CUDARTAPI cudaMemcpy_ptds(void* dst, const void* src, size_t count,
                                      enum cudaMemcpyKind kind) {
  return copy(dst, src, count, raw(kind), cudaStreamPerThread, false);
}

cudaError_t CUDARTAPI cudaMemset2DAsync_ptsz(void* devPtr, size_t pitch, int value, size_t width,
                                             size_t height, cudaStream_t stream) {
  return fill2D(devPtr, pitch, value, width, height, perThread(stream), true);
}

cudaError_t CUDARTAPI cudaMemset2D_ptds(void* devPtr, size_t pitch, int value, size_t width,
                                        size_t height) {
  return fill2D(devPtr, pitch, value, width, height, cudaStreamPerThread, false);
}

cudaError_t CUDARTAPI cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value,
                                             struct cudaExtent extent, cudaStream_t stream) {
  return fill3D(pitchedDevPtr, value, extent, perThread(stream), true);
}

cudaError_t CUDARTAPI cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value,
                                        struct cudaExtent extent) {
  return fill3D(pitchedDevPtr, value, extent, cudaStreamPerThread, false);
}

cudaError_t CUDARTAPI cudaMemsetAsync_ptsz(void* devPtr, int value, size_t count,
                                           cudaStream_t stream) {
  return fill(devPtr, value, count, perThread(stream), true);
}

cudaError_t CUDARTAPI cudaMemset_ptds(void* devPtr, int value, size_t count) {
  return fill(devPtr, value, count, cudaStreamPerThread, false);
}

cudaError_t CUDARTAPI
cudaSignalExternalSemaphoresAsync_ptsz(const cudaExternalSemaphore_t* extSemArray,
                                       const struct cudaExternalSemaphoreSignalParams* paramsArray,
                                       unsigned int numExtSems, cudaStream_t stream) {
  return signalExternalSemaphores(extSemArray, paramsArray, numExtSems, perThread(stream));
}

cudaError_t CUDARTAPI cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback,
                                                 void* userData, unsigned int flags) {
  return streamAddCallback(perThread(stream), callback, userData, flags);
}

cudaError_t CUDARTAPI cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void* devPtr,
                                                    size_t length, unsigned int flags) {
  return streamAttachMemory(perThread(stream), devPtr, length, flags);
}

cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph,
                                                         const cudaGraphNode_t* dependencies,
                                                         const cudaGraphEdgeData* dependencyData,
                                                         size_t numDependencies,
                                                         enum cudaStreamCaptureMode mode) {
  return streamBeginCaptureToGraph(perThread(stream), graph, dependencies, dependencyData,
                                   numDependencies, raw(mode));
}

cudaError_t CUDARTAPI cudaStreamBeginCapture_ptsz(cudaStream_t stream,
                                                  enum cudaStreamCaptureMode mode) {
  return streamBeginCapture(perThread(stream), raw(mode));
}

cudaError_t CUDARTAPI cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src) {
  return streamCopyAttributes(perThread(dst), perThread(src));
}

cudaError_t CUDARTAPI cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t* pGraph) {
  return streamEndCapture(perThread(stream), pGraph);
}

cudaError_t CUDARTAPI cudaStreamGetAttribute_ptsz(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                                  cudaLaunchAttributeValue* value_out) {
  return streamGetAttribute(perThread(hStream), raw(attr), value_out);
}

cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_ptsz(
    cudaStream_t stream, enum cudaStreamCaptureStatus* captureStatus_out,
    unsigned long long* id_out, cudaGraph_t* graph_out, const cudaGraphNode_t** dependencies_out,
    const cudaGraphEdgeData** edgeData_out, size_t* numDependencies_out) {
  return streamGetCaptureInfo(perThread(stream), captureStatus_out, id_out, graph_out,
                              dependencies_out, edgeData_out, numDependencies_out);
}

cudaError_t CUDARTAPI cudaStreamGetDevice_ptsz(cudaStream_t hStream, int* device) {
  return streamGetDevice(perThread(hStream), device);
}

cudaError_t CUDARTAPI cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int* flags) {
  return streamGetFlags(perThread(hStream), flags);
}

cudaError_t CUDARTAPI cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long* streamId) {
  return streamGetId(perThread(hStream), streamId);
}

cudaError_t CUDARTAPI cudaStreamGetPriority_ptsz(cudaStream_t hStream, int* priority) {
  return streamGetPriority(perThread(hStream), priority);
}

cudaError_t CUDARTAPI cudaStreamIsCapturing_ptsz(cudaStream_t stream,
                                                 enum cudaStreamCaptureStatus* pCaptureStatus) {
  return streamIsCapturing(perThread(stream), pCaptureStatus);
}

cudaError_t CUDARTAPI cudaStreamQuery_ptsz(cudaStream_t stream) {
  return streamQuery(perThread(stream));
}

cudaError_t CUDARTAPI cudaStreamSetAttribute_ptsz(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                                  const cudaLaunchAttributeValue* value) {
  return streamSetAttribute(perThread(hStream), raw(attr), value);
}

cudaError_t CUDARTAPI cudaStreamSynchronize_ptsz(cudaStream_t stream) {
  return streamSynchronize(perThread(stream));
}

cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_ptsz(
    cudaStream_t stream, cudaGraphNode_t* dependencies, const cudaGraphEdgeData* dependencyData,
    size_t numDependencies, unsigned int flags) {
  return streamUpdateCaptureDependencies(perThread(stream), dependencies, dependencyData,
                                         numDependencies, flags);
}

cudaError_t CUDARTAPI cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
                                               unsigned int flags) {
  return streamWaitEvent(perThread(stream), event, flags);
}

cudaError_t CUDARTAPI
cudaWaitExternalSemaphoresAsync_ptsz(const cudaExternalSemaphore_t* extSemArray,
                                     const struct cudaExternalSemaphoreWaitParams* paramsArray,
                                     unsigned int numExtSems, cudaStream_t stream) {
  return waitExternalSemaphores(extSemArray, paramsArray, numExtSems, perThread(stream));
}

} // extern "C"
