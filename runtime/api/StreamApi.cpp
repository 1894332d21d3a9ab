// The CUDA Runtime API: stream management (CUDART_STREAM).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error.

#include "runtime/api/ApiBoundary.h"
#include "runtime/api/StreamCalls.h"
#include "runtime/core/StreamCallback.h"

#include <cuda_runtime_api.h>

#include <cstring>
#include <memory>

namespace ocelot::runtime::api {
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

cudaError_t createStream(cudaStream_t* stream, unsigned int flags, int priority) {
  return onCurrentDevice([&](Scope& scope) {
    if (stream == nullptr || (flags & ~static_cast<unsigned int>(cudaStreamNonBlocking)) != 0)
      return cudaErrorInvalidValue;
    Stream* created = nullptr;
    cudaError_t error = scope.device().streams().create(flags, priority, &created);
    if (error == cudaSuccess)
      *stream = created->handle();
    return error;
  });
}

} // namespace

cudaError_t streamSynchronize(cudaStream_t stream) {
  return onCurrentDevice([&](Scope& scope) { return scope.stream(stream).synchronize(); });
}

cudaError_t streamQuery(cudaStream_t stream) {
  return onCurrentDevice([&](Scope& scope) { return scope.stream(stream).query(); });
}

cudaError_t streamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  return onCurrentDevice([&](Scope& scope) {
    Event& waited = scope.event(event);
    return scope.stream(stream).waitEvent(waited, flags);
  });
}

cudaError_t streamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                              unsigned int flags) {
  return onCurrentDevice([&](Scope& scope) {
    if (callback == nullptr || flags != 0)
      return cudaErrorInvalidValue;
    Stream& queue = scope.stream(stream);
    // A callback cannot become part of a graph: it is called once, its record then freed.
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (queue.captureStatus(&status) == cudaSuccess && status != cudaStreamCaptureStatusNone)
      return cudaErrorStreamCaptureUnsupported;
    auto record = std::make_unique<StreamCallback>(StreamCallback{callback, userData, stream});
    cudaError_t error = queue.launchHostFunction(&StreamCallback::run, record.get());
    if (error == cudaSuccess)
      record.release(); // StreamCallback::run owns it now
    return error;
  });
}

cudaError_t launchHostFunction(cudaStream_t stream, cudaHostFn_t function, void* userData) {
  return onCurrentDevice([&](Scope& scope) {
    if (function == nullptr)
      return cudaErrorInvalidValue;
    return scope.stream(stream).launchHostFunction(function, userData);
  });
}

cudaError_t streamAttachMemory(cudaStream_t stream, void* pointer, size_t bytes,
                               unsigned int flags) {
  return onCurrentDevice([&](Scope& scope) {
    if (pointer == nullptr || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost &&
                               flags != cudaMemAttachSingle))
      return cudaErrorInvalidValue;
    return scope.stream(stream).attachMemory(pointer, bytes, flags);
  });
}

cudaError_t streamGetFlags(cudaStream_t stream, unsigned int* flags) {
  return onCurrentDevice([&](Scope& scope) {
    return flags == nullptr ? cudaErrorInvalidValue : scope.stream(stream).flags(flags);
  });
}

cudaError_t streamGetPriority(cudaStream_t stream, int* priority) {
  return onCurrentDevice([&](Scope& scope) {
    return priority == nullptr ? cudaErrorInvalidValue : scope.stream(stream).priority(priority);
  });
}

cudaError_t streamGetId(cudaStream_t stream, unsigned long long* id) {
  return onCurrentDevice([&](Scope& scope) {
    return id == nullptr ? cudaErrorInvalidValue : scope.stream(stream).id(id);
  });
}

cudaError_t streamGetDevice(cudaStream_t stream, int* ordinal) {
  return onCurrentDevice([&](Scope& scope) {
    if (ordinal == nullptr)
      return cudaErrorInvalidValue;
    // The special handles belong to the calling thread's current device.
    if (isLegacyStream(stream) || stream == cudaStreamPerThread) {
      *ordinal = scope.ordinal();
      return cudaSuccess;
    }
    return scope.stream(stream).device(ordinal);
  });
}

cudaError_t streamGetAttribute(cudaStream_t stream, int attribute,
                               cudaLaunchAttributeValue* value) {
  return onCurrentDevice([&](Scope& scope) {
    if (value == nullptr || !validLaunchAttribute(attribute))
      return cudaErrorInvalidValue;
    return scope.stream(stream).attribute(static_cast<cudaLaunchAttributeID>(attribute), value);
  });
}

cudaError_t streamSetAttribute(cudaStream_t stream, int attribute,
                               const cudaLaunchAttributeValue* value) {
  return onCurrentDevice([&](Scope& scope) {
    if (value == nullptr || !validLaunchAttribute(attribute))
      return cudaErrorInvalidValue;
    return scope.stream(stream).setAttribute(static_cast<cudaLaunchAttributeID>(attribute), value);
  });
}

cudaError_t streamCopyAttributes(cudaStream_t destination, cudaStream_t source) {
  return onCurrentDevice([&](Scope& scope) {
    Stream& from = scope.stream(source);
    return scope.stream(destination).copyAttributesFrom(from);
  });
}

cudaError_t streamBeginCapture(cudaStream_t stream, int mode) {
  return onCurrentDevice([&](Scope& scope) {
    if (!validCaptureMode(mode))
      return cudaErrorInvalidValue;
    if (isLegacyStream(stream))
      return cudaErrorStreamCaptureUnsupported;
    return scope.stream(stream).beginCapture(static_cast<cudaStreamCaptureMode>(mode));
  });
}

cudaError_t streamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                      const cudaGraphNode_t* dependencies,
                                      const cudaGraphEdgeData* edges, size_t count, int mode) {
  return onCurrentDevice([&](Scope& scope) {
    if (graph == nullptr || !validCaptureMode(mode) || (count != 0 && dependencies == nullptr))
      return cudaErrorInvalidValue;
    if (isLegacyStream(stream))
      return cudaErrorStreamCaptureUnsupported;
    Stream& capturing = scope.stream(stream);
    return capturing.beginCaptureToGraph(scope.graph(graph), dependencies, edges, count,
                                         static_cast<cudaStreamCaptureMode>(mode));
  });
}

cudaError_t streamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
  return onCurrentDevice([&](Scope& scope) {
    // No graph to return is allowed: a capture into the caller's graph
    // (cudaStreamBeginCaptureToGraph) has nothing to hand back, and the CUDA samples pass null
    // there (issue 14 bug 2). The stream says whether its capture needs one.
    if (isLegacyStream(stream))
      return cudaErrorIllegalState;
    return scope.stream(stream).endCapture(graph);
  });
}

cudaError_t streamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
  return onCurrentDevice([&](Scope& scope) {
    return status == nullptr ? cudaErrorInvalidValue : scope.stream(stream).captureStatus(status);
  });
}

cudaError_t streamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status,
                                 unsigned long long* id, cudaGraph_t* graph,
                                 const cudaGraphNode_t** dependencies,
                                 const cudaGraphEdgeData** edges, size_t* count) {
  return onCurrentDevice([&](Scope& scope) {
    if (status == nullptr)
      return cudaErrorInvalidValue;
    return scope.stream(stream).captureInfo(status, id, graph, dependencies, edges, count);
  });
}

cudaError_t streamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                            const cudaGraphEdgeData* edges, size_t count,
                                            unsigned int flags) {
  return onCurrentDevice([&](Scope& scope) {
    if (count != 0 && dependencies == nullptr)
      return cudaErrorInvalidValue;
    return scope.stream(stream).updateCaptureDependencies(dependencies, edges, count, flags);
  });
}

} // namespace ocelot::runtime::api

using namespace ocelot::runtime::api;
using ocelot::runtime::Scope;

extern "C" {

cudaError_t CUDARTAPI cudaCtxResetPersistingL2Cache() {
  return call([] { return runtime().ctxResetPersistingL2Cache(); });
}

cudaError_t CUDARTAPI cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                            void* userData, unsigned int flags) {
  return streamAddCallback(stream, callback, userData, flags);
}

cudaError_t CUDARTAPI cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr, size_t length,
                                               unsigned int flags) {
  return streamAttachMemory(stream, devPtr, length, flags);
}

cudaError_t CUDARTAPI cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
  return streamBeginCapture(stream, raw(mode));
}

cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                                    const cudaGraphNode_t* dependencies,
                                                    const cudaGraphEdgeData* dependencyData,
                                                    size_t numDependencies,
                                                    enum cudaStreamCaptureMode mode) {
  return streamBeginCaptureToGraph(stream, graph, dependencies, dependencyData, numDependencies,
                                   raw(mode));
}

cudaError_t CUDARTAPI cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src) {
  return streamCopyAttributes(dst, src);
}

cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t* pStream) {
  return createStream(pStream, cudaStreamDefault, 0);
}

cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
  return createStream(pStream, flags, 0);
}

cudaError_t CUDARTAPI cudaStreamCreateWithPriority(cudaStream_t* pStream, unsigned int flags,
                                                   int priority) {
  return createStream(pStream, flags, priority);
}

cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t stream) {
  return onCurrentDevice(
      [&](Scope& scope) { return scope.device().streams().destroy(scope.stream(stream)); });
}

cudaError_t CUDARTAPI cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* pGraph) {
  return streamEndCapture(stream, pGraph);
}

cudaError_t CUDARTAPI cudaStreamGetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                             cudaLaunchAttributeValue* value_out) {
  return streamGetAttribute(hStream, raw(attr), value_out);
}

cudaError_t CUDARTAPI cudaStreamGetCaptureInfo(cudaStream_t stream,
                                               enum cudaStreamCaptureStatus* captureStatus_out,
                                               unsigned long long* id_out, cudaGraph_t* graph_out,
                                               const cudaGraphNode_t** dependencies_out,
                                               const cudaGraphEdgeData** edgeData_out,
                                               size_t* numDependencies_out) {
  return streamGetCaptureInfo(stream, captureStatus_out, id_out, graph_out, dependencies_out,
                              edgeData_out, numDependencies_out);
}

cudaError_t CUDARTAPI cudaStreamGetDevice(cudaStream_t hStream, int* device) {
  return streamGetDevice(hStream, device);
}

cudaError_t CUDARTAPI cudaStreamGetFlags(cudaStream_t hStream, unsigned int* flags) {
  return streamGetFlags(hStream, flags);
}

cudaError_t CUDARTAPI cudaStreamGetId(cudaStream_t hStream, unsigned long long* streamId) {
  return streamGetId(hStream, streamId);
}

cudaError_t CUDARTAPI cudaStreamGetPriority(cudaStream_t hStream, int* priority) {
  return streamGetPriority(hStream, priority);
}

cudaError_t CUDARTAPI cudaStreamIsCapturing(cudaStream_t stream,
                                            enum cudaStreamCaptureStatus* pCaptureStatus) {
  return streamIsCapturing(stream, pCaptureStatus);
}

cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t stream) {
  return streamQuery(stream);
}

cudaError_t CUDARTAPI cudaStreamSetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                             const cudaLaunchAttributeValue* value) {
  return streamSetAttribute(hStream, raw(attr), value);
}

cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t stream) {
  return streamSynchronize(stream);
}

cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
                                                          cudaGraphNode_t* dependencies,
                                                          const cudaGraphEdgeData* dependencyData,
                                                          size_t numDependencies,
                                                          unsigned int flags) {
  return streamUpdateCaptureDependencies(stream, dependencies, dependencyData, numDependencies,
                                         flags);
}

cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                          unsigned int flags) {
  return streamWaitEvent(stream, event, flags);
}

cudaError_t CUDARTAPI cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode* mode) {
  return onCurrentDevice([&](Scope& scope) {
    if (mode == nullptr)
      return cudaErrorInvalidValue;
    int requested = 0;
    std::memcpy(&requested, mode, sizeof requested);
    if (!validCaptureMode(requested))
      return cudaErrorInvalidValue;
    return scope.device().streams().exchangeCaptureMode(mode);
  });
}

} // extern "C"
