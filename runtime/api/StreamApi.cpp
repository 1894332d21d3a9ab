// The CUDA Runtime API: stream management (CUDART_STREAM).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Implemented functions forward to ocelot::runtime::Runtime; the
// others return notImplemented(__func__), which logs the name once and returns
// cudaErrorNotSupported.

#include "runtime/api/ApiBoundary.h"

#include <cuda_runtime_api.h>

using namespace ocelot::runtime::api;

extern "C" {

cudaError_t CUDARTAPI cudaCtxResetPersistingL2Cache() {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaStreamAddCallback(cudaStream_t /*stream*/,
                                            cudaStreamCallback_t /*callback*/, void* /*userData*/,
                                            unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaStreamAttachMemAsync(cudaStream_t /*stream*/, void* /*devPtr*/,
                                               size_t /*length*/, unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaStreamBeginCapture(cudaStream_t /*stream*/,
                                             enum cudaStreamCaptureMode /*mode*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph(cudaStream_t /*stream*/, cudaGraph_t /*graph*/,
                                                    const cudaGraphNode_t* /*dependencies*/,
                                                    const cudaGraphEdgeData* /*dependencyData*/,
                                                    size_t /*numDependencies*/,
                                                    enum cudaStreamCaptureMode /*mode*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaStreamCopyAttributes(cudaStream_t /*dst*/, cudaStream_t /*src*/) {
  return notImplemented(__func__);
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

cudaError_t CUDARTAPI cudaStreamEndCapture(cudaStream_t /*stream*/, cudaGraph_t* /*pGraph*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaStreamGetAttribute(cudaStream_t /*hStream*/,
                                             cudaLaunchAttributeID /*attr*/,
                                             cudaLaunchAttributeValue* /*value_out*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaStreamGetCaptureInfo(cudaStream_t /*stream*/,
                                               enum cudaStreamCaptureStatus* /*captureStatus_out*/,
                                               unsigned long long* /*id_out*/,
                                               cudaGraph_t* /*graph_out*/,
                                               const cudaGraphNode_t** /*dependencies_out*/,
                                               const cudaGraphEdgeData** /*edgeData_out*/,
                                               size_t* /*numDependencies_out*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaStreamGetDevice(cudaStream_t /*hStream*/, int* /*device*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaStreamGetFlags(cudaStream_t /*hStream*/, unsigned int* /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaStreamGetId(cudaStream_t /*hStream*/, unsigned long long* /*streamId*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaStreamGetPriority(cudaStream_t /*hStream*/, int* /*priority*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaStreamIsCapturing(cudaStream_t /*stream*/,
                                            enum cudaStreamCaptureStatus* /*pCaptureStatus*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t stream) {
  return call([&] { return runtime().streamQuery(stream); });
}

cudaError_t CUDARTAPI cudaStreamSetAttribute(cudaStream_t /*hStream*/,
                                             cudaLaunchAttributeID /*attr*/,
                                             const cudaLaunchAttributeValue* /*value*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t stream) {
  return call([&] { return runtime().streamSynchronize(stream); });
}

cudaError_t CUDARTAPI
cudaStreamUpdateCaptureDependencies(cudaStream_t /*stream*/, cudaGraphNode_t* /*dependencies*/,
                                    const cudaGraphEdgeData* /*dependencyData*/,
                                    size_t /*numDependencies*/, unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                          unsigned int flags) {
  return call([&] { return runtime().streamWaitEvent(stream, event, flags); });
}

cudaError_t CUDARTAPI cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode* /*mode*/) {
  return notImplemented(__func__);
}

} // extern "C"
