// The CUDA Runtime API: stream management (CUDART_STREAM).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Every function forwards to ocelot::runtime::Runtime.

#include "runtime/api/ApiBoundary.h"

#include <cuda_runtime_api.h>

using namespace ocelot::runtime::api;

extern "C" {

cudaError_t CUDARTAPI cudaCtxResetPersistingL2Cache() {
  return call([] { return runtime().ctxResetPersistingL2Cache(); });
}

cudaError_t CUDARTAPI cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                            void* userData, unsigned int flags) {
  return call([&] { return runtime().streamAddCallback(stream, callback, userData, flags); });
}

cudaError_t CUDARTAPI cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr, size_t length,
                                               unsigned int flags) {
  return call([&] { return runtime().streamAttachMemAsync(stream, devPtr, length, flags); });
}

cudaError_t CUDARTAPI cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
  return call([&] { return runtime().streamBeginCapture(stream, raw(mode)); });
}

cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                                    const cudaGraphNode_t* dependencies,
                                                    const cudaGraphEdgeData* dependencyData,
                                                    size_t numDependencies,
                                                    enum cudaStreamCaptureMode mode) {
  return call([&] {
    return runtime().streamBeginCaptureToGraph(stream, graph, dependencies, dependencyData,
                                               numDependencies, raw(mode));
  });
}

cudaError_t CUDARTAPI cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src) {
  return call([&] { return runtime().streamCopyAttributes(dst, src); });
}

cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t* pStream) {
  return call([&] { return runtime().streamCreate(pStream, cudaStreamDefault, 0); });
}

cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
  return call([&] { return runtime().streamCreate(pStream, flags, 0); });
}

cudaError_t CUDARTAPI cudaStreamCreateWithPriority(cudaStream_t* pStream, unsigned int flags,
                                                   int priority) {
  return call([&] { return runtime().streamCreate(pStream, flags, priority); });
}

cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t stream) {
  return call([&] { return runtime().streamDestroy(stream); });
}

cudaError_t CUDARTAPI cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* pGraph) {
  return call([&] { return runtime().streamEndCapture(stream, pGraph); });
}

cudaError_t CUDARTAPI cudaStreamGetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                             cudaLaunchAttributeValue* value_out) {
  return call([&] { return runtime().streamGetAttribute(hStream, raw(attr), value_out); });
}

cudaError_t CUDARTAPI cudaStreamGetCaptureInfo(cudaStream_t stream,
                                               enum cudaStreamCaptureStatus* captureStatus_out,
                                               unsigned long long* id_out, cudaGraph_t* graph_out,
                                               const cudaGraphNode_t** dependencies_out,
                                               const cudaGraphEdgeData** edgeData_out,
                                               size_t* numDependencies_out) {
  return call([&] {
    return runtime().streamGetCaptureInfo(stream, captureStatus_out, id_out, graph_out,
                                          dependencies_out, edgeData_out, numDependencies_out);
  });
}

cudaError_t CUDARTAPI cudaStreamGetDevice(cudaStream_t hStream, int* device) {
  return call([&] { return runtime().streamGetDevice(hStream, device); });
}

cudaError_t CUDARTAPI cudaStreamGetFlags(cudaStream_t hStream, unsigned int* flags) {
  return call([&] { return runtime().streamGetFlags(hStream, flags); });
}

cudaError_t CUDARTAPI cudaStreamGetId(cudaStream_t hStream, unsigned long long* streamId) {
  return call([&] { return runtime().streamGetId(hStream, streamId); });
}

cudaError_t CUDARTAPI cudaStreamGetPriority(cudaStream_t hStream, int* priority) {
  return call([&] { return runtime().streamGetPriority(hStream, priority); });
}

cudaError_t CUDARTAPI cudaStreamIsCapturing(cudaStream_t stream,
                                            enum cudaStreamCaptureStatus* pCaptureStatus) {
  return call([&] { return runtime().streamIsCapturing(stream, pCaptureStatus); });
}

cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t stream) {
  return call([&] { return runtime().streamQuery(stream); });
}

cudaError_t CUDARTAPI cudaStreamSetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                             const cudaLaunchAttributeValue* value) {
  return call([&] { return runtime().streamSetAttribute(hStream, raw(attr), value); });
}

cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t stream) {
  return call([&] { return runtime().streamSynchronize(stream); });
}

cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
                                                          cudaGraphNode_t* dependencies,
                                                          const cudaGraphEdgeData* dependencyData,
                                                          size_t numDependencies,
                                                          unsigned int flags) {
  return call([&] {
    return runtime().streamUpdateCaptureDependencies(stream, dependencies, dependencyData,
                                                     numDependencies, flags);
  });
}

cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                          unsigned int flags) {
  return call([&] { return runtime().streamWaitEvent(stream, event, flags); });
}

cudaError_t CUDARTAPI cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode* mode) {
  return call([&] { return runtime().threadExchangeStreamCaptureMode(mode); });
}

} // extern "C"
