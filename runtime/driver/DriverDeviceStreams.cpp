// DriverDevice: stream queries and attributes, host functions, events with flags and stream
// capture (cudaGraph_t and cudaGraphNode_t are the driver's CUgraph and CUgraphNode).
#include "runtime/driver/DriverDevice.h"

namespace ocelot::runtime::driver {
namespace {

// cudaLaunchAttributeValue and CUlaunchAttributeValue (= CUstreamAttrValue) are the same union.
static_assert(sizeof(cudaLaunchAttributeValue) == sizeof(CUlaunchAttributeValue));
static_assert(sizeof(cudaGraphEdgeData) == sizeof(CUgraphEdgeData));

} // namespace

cudaError_t DriverDevice::streamFlags(cudaStream_t stream, unsigned int* flags) {
  return toCudaError(invoke(api_.streamGetFlags, stream, flags));
}

cudaError_t DriverDevice::streamPriority(cudaStream_t stream, int* priority) {
  return toCudaError(invoke(api_.streamGetPriority, stream, priority));
}

cudaError_t DriverDevice::streamId(cudaStream_t stream, unsigned long long* id) {
  return toCudaError(invoke(api_.streamGetId, stream, id));
}

cudaError_t DriverDevice::streamDevice(cudaStream_t stream, int* ordinal) {
  // The driver numbers its devices as the runtime does (CUdevice is the ordinal).
  CUdevice device = 0;
  CUresult result = invoke(api_.streamGetDevice, stream, &device);
  if (result == CUDA_SUCCESS)
    *ordinal = static_cast<int>(device);
  return toCudaError(result);
}

cudaError_t DriverDevice::streamAttribute(cudaStream_t stream, cudaLaunchAttributeID id,
                                          cudaLaunchAttributeValue* value) {
  return toCudaError(invoke(api_.streamGetAttribute, stream, static_cast<CUstreamAttrID>(id),
                            reinterpret_cast<CUstreamAttrValue*>(value)));
}

cudaError_t DriverDevice::setStreamAttribute(cudaStream_t stream, cudaLaunchAttributeID id,
                                             const cudaLaunchAttributeValue* value) {
  return toCudaError(invoke(api_.streamSetAttribute, stream, static_cast<CUstreamAttrID>(id),
                            reinterpret_cast<const CUstreamAttrValue*>(value)));
}

cudaError_t DriverDevice::copyStreamAttributes(cudaStream_t destination, cudaStream_t source) {
  return toCudaError(invoke(api_.streamCopyAttributes, destination, source));
}

cudaError_t DriverDevice::launchHostFunction(cudaStream_t stream, cudaHostFn_t hostFunction,
                                             void* userData) {
  return toCudaError(invoke(api_.launchHostFunc, stream, hostFunction, userData));
}

cudaError_t DriverDevice::recordEventWithFlags(cudaEvent_t event, cudaStream_t stream,
                                               unsigned int flags) {
  return toCudaError(invoke(api_.eventRecordWithFlags, event, stream, flags));
}

cudaError_t DriverDevice::beginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  return toCudaError(
      invoke(api_.streamBeginCapture, stream, static_cast<CUstreamCaptureMode>(mode)));
}

cudaError_t DriverDevice::beginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                              const cudaGraphNode_t* dependencies,
                                              const cudaGraphEdgeData* edges, size_t count,
                                              cudaStreamCaptureMode mode) {
  return toCudaError(invoke(api_.streamBeginCaptureToGraph, stream, graph, dependencies,
                            reinterpret_cast<const CUgraphEdgeData*>(edges), count,
                            static_cast<CUstreamCaptureMode>(mode)));
}

cudaError_t DriverDevice::endCapture(cudaStream_t stream, cudaGraph_t* graph) {
  return toCudaError(invoke(api_.streamEndCapture, stream, graph));
}

cudaError_t DriverDevice::captureStatus(cudaStream_t stream, cudaStreamCaptureStatus* status) {
  CUstreamCaptureStatus driverStatus{};
  CUresult result = invoke(api_.streamIsCapturing, stream, &driverStatus);
  if (result == CUDA_SUCCESS)
    *status = static_cast<cudaStreamCaptureStatus>(driverStatus);
  return toCudaError(result);
}

cudaError_t DriverDevice::captureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status,
                                      unsigned long long* id, cudaGraph_t* graph,
                                      const cudaGraphNode_t** dependencies,
                                      const cudaGraphEdgeData** edges, size_t* count) {
  CUstreamCaptureStatus driverStatus{};
  cuuint64_t captureId = 0;
  CUresult result = invoke(api_.streamGetCaptureInfo, stream, &driverStatus, &captureId, graph,
                           dependencies, reinterpret_cast<const CUgraphEdgeData**>(edges), count);
  if (result != CUDA_SUCCESS)
    return toCudaError(result);
  if (status != nullptr)
    *status = static_cast<cudaStreamCaptureStatus>(driverStatus);
  if (id != nullptr)
    *id = captureId;
  return cudaSuccess;
}

cudaError_t DriverDevice::updateCaptureDependencies(cudaStream_t stream,
                                                    cudaGraphNode_t* dependencies,
                                                    const cudaGraphEdgeData* edges, size_t count,
                                                    unsigned int flags) {
  return toCudaError(invoke(api_.streamUpdateCaptureDependencies, stream, dependencies,
                            reinterpret_cast<const CUgraphEdgeData*>(edges), count, flags));
}

cudaError_t DriverDevice::exchangeCaptureMode(cudaStreamCaptureMode* mode) {
  auto* driverMode = reinterpret_cast<CUstreamCaptureMode*>(mode);
  return toCudaError(invoke(api_.threadExchangeStreamCaptureMode, driverMode));
}

} // namespace ocelot::runtime::driver
