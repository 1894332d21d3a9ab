// Runtime: what streams report (flags, priority, id, device, attributes), host work in streams
// (callbacks and host functions), event records with flags, and stream capture.

#include "runtime/core/Runtime.h"
#include "runtime/core/StreamCallback.h"

#include <cstring>
#include <memory>

namespace ocelot::runtime {
namespace {

bool validCaptureMode(int mode) {
  return mode >= cudaStreamCaptureModeGlobal && mode <= cudaStreamCaptureModeRelaxed;
}

bool validLaunchAttribute(int attribute) {
  return attribute > cudaLaunchAttributeIgnore &&
         attribute <= cudaLaunchAttributeNvlinkUtilCentricScheduling;
}

/// The legacy NULL stream cannot be captured (it synchronizes with every other stream).
bool isLegacyStream(cudaStream_t stream) {
  return stream == nullptr || stream == cudaStreamLegacy;
}

} // namespace

cudaError_t Runtime::streamGetFlags(cudaStream_t stream, unsigned int* flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (flags == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->streamFlags(stream, flags));
}

cudaError_t Runtime::streamGetPriority(cudaStream_t stream, int* priority) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (priority == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->streamPriority(stream, priority));
}

cudaError_t Runtime::streamGetId(cudaStream_t stream, unsigned long long* id) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (id == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->streamId(stream, id));
}

cudaError_t Runtime::streamGetDevice(cudaStream_t stream, int* ordinal) {
  Device* device = nullptr;
  int current = 0;
  if (cudaError_t error = currentDevice(&device, &current); error != cudaSuccess)
    return error;
  if (ordinal == nullptr)
    return cudaErrorInvalidValue;
  // The special handles belong to the calling thread's current device.
  if (isLegacyStream(stream) || stream == cudaStreamPerThread) {
    *ordinal = current;
    return cudaSuccess;
  }
  return deviceResult(device->streamDevice(stream, ordinal));
}

cudaError_t Runtime::streamGetAttribute(cudaStream_t stream, int attribute,
                                        cudaLaunchAttributeValue* value) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (value == nullptr || !validLaunchAttribute(attribute))
    return cudaErrorInvalidValue;
  return deviceResult(
      device->streamAttribute(stream, static_cast<cudaLaunchAttributeID>(attribute), value));
}

cudaError_t Runtime::streamSetAttribute(cudaStream_t stream, int attribute,
                                        const cudaLaunchAttributeValue* value) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (value == nullptr || !validLaunchAttribute(attribute))
    return cudaErrorInvalidValue;
  return deviceResult(
      device->setStreamAttribute(stream, static_cast<cudaLaunchAttributeID>(attribute), value));
}

cudaError_t Runtime::streamCopyAttributes(cudaStream_t destination, cudaStream_t source) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  return deviceResult(device->copyStreamAttributes(destination, source));
}

cudaError_t Runtime::streamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                       void* userData, unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (callback == nullptr || flags != 0)
    return cudaErrorInvalidValue;
  // A callback cannot become part of a graph: it is called once, its record then freed.
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (device->captureStatus(stream, &status) == cudaSuccess &&
      status != cudaStreamCaptureStatusNone)
    return cudaErrorStreamCaptureUnsupported;
  auto record = std::make_unique<StreamCallback>(StreamCallback{callback, userData, stream});
  cudaError_t error = device->launchHostFunction(stream, &StreamCallback::run, record.get());
  if (error == cudaSuccess)
    record.release(); // StreamCallback::run owns it now
  return deviceResult(error);
}

cudaError_t Runtime::launchHostFunc(cudaStream_t stream, cudaHostFn_t function, void* userData) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (function == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->launchHostFunction(stream, function, userData));
}

cudaError_t Runtime::eventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                          unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (event == nullptr)
    return cudaErrorInvalidResourceHandle;
  if ((flags & ~static_cast<unsigned int>(cudaEventRecordExternal)) != 0)
    return cudaErrorInvalidValue;
  return deviceResult(device->recordEventWithFlags(event, stream, flags));
}

cudaError_t Runtime::streamBeginCapture(cudaStream_t stream, int mode) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (!validCaptureMode(mode))
    return cudaErrorInvalidValue;
  if (isLegacyStream(stream))
    return cudaErrorStreamCaptureUnsupported;
  return deviceResult(device->beginCapture(stream, static_cast<cudaStreamCaptureMode>(mode)));
}

cudaError_t Runtime::streamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                               const cudaGraphNode_t* dependencies,
                                               const cudaGraphEdgeData* edges, size_t count,
                                               int mode) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (graph == nullptr || !validCaptureMode(mode) || (count != 0 && dependencies == nullptr))
    return cudaErrorInvalidValue;
  if (isLegacyStream(stream))
    return cudaErrorStreamCaptureUnsupported;
  return deviceResult(device->beginCaptureToGraph(stream, graph, dependencies, edges, count,
                                                  static_cast<cudaStreamCaptureMode>(mode)));
}

cudaError_t Runtime::streamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (graph == nullptr)
    return cudaErrorInvalidValue;
  if (isLegacyStream(stream))
    return cudaErrorIllegalState;
  return deviceResult(device->endCapture(stream, graph));
}

cudaError_t Runtime::streamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (status == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->captureStatus(stream, status));
}

cudaError_t Runtime::streamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status,
                                          unsigned long long* id, cudaGraph_t* graph,
                                          const cudaGraphNode_t** dependencies,
                                          const cudaGraphEdgeData** edges, size_t* count) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (status == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->captureInfo(stream, status, id, graph, dependencies, edges, count));
}

cudaError_t Runtime::streamUpdateCaptureDependencies(cudaStream_t stream,
                                                     cudaGraphNode_t* dependencies,
                                                     const cudaGraphEdgeData* edges, size_t count,
                                                     unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (count != 0 && dependencies == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->updateCaptureDependencies(stream, dependencies, edges, count, flags));
}

cudaError_t Runtime::threadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (mode == nullptr)
    return cudaErrorInvalidValue;
  int requested = 0;
  std::memcpy(&requested, mode, sizeof requested);
  if (!validCaptureMode(requested))
    return cudaErrorInvalidValue;
  return deviceResult(device->exchangeCaptureMode(mode));
}

} // namespace ocelot::runtime
