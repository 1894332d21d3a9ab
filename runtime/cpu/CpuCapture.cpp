// CpuStream: stream capture. While a stream is captured, every stream-ordered call on it adds a
// node to the capture's graph (after the stream's current dependencies) instead of running;
// streams join a capture by waiting on an event recorded in it, and the stream that began it
// ends it.

#include "runtime/cpu/CpuDevice.h"
#include "runtime/cpu/CpuStream.h"

#include <algorithm>

namespace ocelot::runtime::cpu {

bool CpuStream::capturing() {
  if (!device_.captures_.active())
    return false;
  std::lock_guard lock(device_.graphMutex_);
  return device_.captures_.find(this) != nullptr;
}

cudaError_t CpuStream::capture(const cudaGraphNodeParams& params, GraphNode** node) {
  if (!device_.captures_.active())
    return cudaSuccess;
  std::lock_guard lock(device_.graphMutex_);
  CaptureStream* capture = device_.captures_.find(this);
  if (capture == nullptr)
    return cudaSuccess;
  if (capture->session->invalidated)
    return cudaErrorStreamCaptureInvalidated;
  Graph& graph = *capture->session->graph;
  std::unique_ptr<GraphNode> made;
  if (cudaError_t error = device_.makeNode(graph, params, &made); error != cudaSuccess) {
    capture->session->invalidated = true;
    return error;
  }
  GraphNode* inserted = nullptr;
  if (cudaError_t error =
          device_.insertNode(graph, std::move(made), capture->dependencies.data(),
                             capture->edges.data(), capture->dependencies.size(), &inserted);
      error != cudaSuccess) {
    capture->session->invalidated = true;
    return error;
  }
  capture->dependencies.assign(1, inserted->handle());
  capture->edges.assign(1, cudaGraphEdgeData{});
  if (node != nullptr)
    *node = inserted;
  return cudaSuccess;
}

cudaError_t CpuStream::refuseDuringCapture() {
  std::lock_guard lock(device_.graphMutex_);
  if (CaptureStream* capture = device_.captures_.find(this))
    capture->session->invalidated = true;
  return cudaErrorStreamCaptureUnsupported;
}

cudaError_t CpuStream::checkLegacyDuringCapture() {
  if (!legacy() || !device_.captures_.active())
    return cudaSuccess;
  std::lock_guard lock(device_.graphMutex_);
  bool implicit = false;
  device_.captures_.forEachStream([&](const CpuStream* captured, CaptureStream& stream) {
    if (captured->blocking()) {
      stream.session->invalidated = true;
      implicit = true;
    }
  });
  return implicit ? cudaErrorStreamCaptureImplicit : cudaSuccess;
}

std::optional<cudaError_t> CpuStream::captureEventRecord(CpuEvent& event, unsigned int flags) {
  std::lock_guard graphLock(device_.graphMutex_);
  CaptureStream* capture = device_.captures_.find(this);
  if (capture == nullptr)
    return std::nullopt;
  if (capture->session->invalidated)
    return cudaErrorStreamCaptureInvalidated;
  // The event now stands for the stream's current position in the capture.
  event.captured(capture->session->id, capture->dependencies);
  if ((flags & cudaEventRecordExternal) == 0)
    return cudaSuccess;
  cudaGraphNodeParams params = {};
  params.type = cudaGraphNodeTypeEventRecord;
  params.eventRecord.event = event.handle();
  return this->capture(params);
}

std::optional<cudaError_t> CpuStream::captureEventWait(const CpuEvent::Record& record,
                                                       cudaEvent_t event, unsigned int flags) {
  if (!device_.captures_.active())
    return std::nullopt;
  std::lock_guard graphLock(device_.graphMutex_);
  CaptureStream* capture = device_.captures_.find(this);
  std::shared_ptr<CaptureSession> recordedIn =
      record.captureId != 0 ? device_.captures_.session(record.captureId) : nullptr;
  if (capture != nullptr && capture->session->invalidated)
    return cudaErrorStreamCaptureInvalidated;
  if (recordedIn != nullptr) {
    if (capture == nullptr) {
      // A fork: the stream joins the capture, after the nodes the event stands for.
      device_.captures_.join(this, std::move(recordedIn), record.captureNodes);
      return cudaSuccess;
    }
    if (capture->session != recordedIn) {
      capture->session->invalidated = true;
      return cudaErrorStreamCaptureIsolation;
    }
    for (cudaGraphNode_t node : record.captureNodes)
      if (std::find(capture->dependencies.begin(), capture->dependencies.end(), node) ==
          capture->dependencies.end()) {
        capture->dependencies.push_back(node);
        capture->edges.push_back(cudaGraphEdgeData{});
      }
    return cudaSuccess;
  }
  if (capture == nullptr)
    return std::nullopt;
  // Only an external wait may cross into a capture (as a wait-event node).
  if ((flags & cudaEventWaitExternal) == 0) {
    capture->session->invalidated = true;
    return cudaErrorStreamCaptureIsolation;
  }
  cudaGraphNodeParams params = {};
  params.type = cudaGraphNodeTypeWaitEvent;
  params.eventWait.event = event;
  return this->capture(params);
}

cudaError_t CpuStream::beginCapture(cudaStreamCaptureMode mode) {
  if (legacy())
    return cudaErrorStreamCaptureUnsupported;
  std::lock_guard lock(device_.graphMutex_);
  if (device_.captures_.find(this) != nullptr)
    return cudaErrorIllegalState;
  Graph* graph = device_.graphs_.adopt(std::make_unique<Graph>());
  device_.captures_.begin(this, graph, true, mode);
  return cudaSuccess;
}

cudaError_t CpuStream::beginCaptureToGraph(cudaGraph_t graphHandle,
                                           const cudaGraphNode_t* dependencies,
                                           const cudaGraphEdgeData* edges, size_t count,
                                           cudaStreamCaptureMode mode) {
  if (legacy())
    return cudaErrorStreamCaptureUnsupported;
  std::lock_guard lock(device_.graphMutex_);
  Graph* graph = device_.graphs_.graph(graphHandle);
  if (graph == nullptr)
    return cudaErrorInvalidValue;
  for (size_t i = 0; i < count; ++i) {
    GraphNode* node = device_.graphs_.node(dependencies[i]);
    if (node == nullptr || node->graph != graph)
      return cudaErrorInvalidValue;
  }
  if (device_.captures_.find(this) != nullptr)
    return cudaErrorIllegalState;
  CaptureStream& capture = device_.captures_.begin(this, graph, false, mode);
  capture.dependencies.assign(dependencies, dependencies + count);
  capture.edges.assign(count, cudaGraphEdgeData{});
  if (edges != nullptr)
    capture.edges.assign(edges, edges + count);
  return cudaSuccess;
}

cudaError_t CpuStream::endCapture(cudaGraph_t* graph) {
  std::lock_guard lock(device_.graphMutex_);
  CaptureStream* capture = device_.captures_.find(this);
  if (capture == nullptr)
    return cudaErrorIllegalState;
  std::shared_ptr<CaptureSession> session = capture->session;
  if (session->origin != this) {
    session->invalidated = true;
    return cudaErrorStreamCaptureUnmatched;
  }
  if (session->mode != cudaStreamCaptureModeRelaxed &&
      session->thread != std::this_thread::get_id())
    return cudaErrorStreamCaptureWrongThread;
  const bool joined = device_.captures_.joined(*session);
  device_.captures_.end(*session);
  if (session->invalidated || !joined) {
    if (session->ownsGraph)
      device_.graphs_.destroy(session->graph);
    *graph = nullptr;
    return session->invalidated ? cudaErrorStreamCaptureInvalidated
                                : cudaErrorStreamCaptureUnjoined;
  }
  *graph = session->graph->handle();
  return cudaSuccess;
}

cudaError_t CpuStream::captureStatus(cudaStreamCaptureStatus* status) {
  *status = cudaStreamCaptureStatusNone;
  if (!device_.captures_.active())
    return cudaSuccess;
  std::lock_guard lock(device_.graphMutex_);
  if (const CaptureStream* capture = device_.captures_.find(this))
    *status = capture->session->invalidated ? cudaStreamCaptureStatusInvalidated
                                            : cudaStreamCaptureStatusActive;
  return cudaSuccess;
}

cudaError_t CpuStream::captureInfo(cudaStreamCaptureStatus* status, unsigned long long* id,
                                   cudaGraph_t* graph, const cudaGraphNode_t** dependencies,
                                   const cudaGraphEdgeData** edges, size_t* count) {
  std::lock_guard lock(device_.graphMutex_);
  const CaptureStream* capture = device_.captures_.find(this);
  if (capture == nullptr) {
    *status = cudaStreamCaptureStatusNone;
    return cudaSuccess;
  }
  *status = capture->session->invalidated ? cudaStreamCaptureStatusInvalidated
                                          : cudaStreamCaptureStatusActive;
  if (id != nullptr)
    *id = capture->session->id;
  if (graph != nullptr)
    *graph = capture->session->graph->handle();
  // Valid until the stream's next captured operation, as in CUDA.
  if (dependencies != nullptr)
    *dependencies = capture->dependencies.data();
  if (edges != nullptr)
    *edges = capture->edges.data();
  if (count != nullptr)
    *count = capture->dependencies.size();
  return cudaSuccess;
}

cudaError_t CpuStream::updateCaptureDependencies(cudaGraphNode_t* dependencies,
                                                 const cudaGraphEdgeData* edges, size_t count,
                                                 unsigned int flags) {
  if (flags != cudaStreamAddCaptureDependencies && flags != cudaStreamSetCaptureDependencies)
    return cudaErrorInvalidValue;
  std::lock_guard lock(device_.graphMutex_);
  CaptureStream* capture = device_.captures_.find(this);
  if (capture == nullptr)
    return cudaErrorIllegalState;
  if (capture->session->invalidated)
    return cudaErrorStreamCaptureInvalidated;
  for (size_t i = 0; i < count; ++i) {
    GraphNode* node = device_.graphs_.node(dependencies[i]);
    if (node == nullptr || node->graph != capture->session->graph)
      return cudaErrorInvalidValue;
  }
  if (flags == cudaStreamSetCaptureDependencies) {
    capture->dependencies.clear();
    capture->edges.clear();
  }
  for (size_t i = 0; i < count; ++i) {
    if (std::find(capture->dependencies.begin(), capture->dependencies.end(), dependencies[i]) !=
        capture->dependencies.end())
      continue;
    capture->dependencies.push_back(dependencies[i]);
    capture->edges.push_back(edges != nullptr ? edges[i] : cudaGraphEdgeData{});
  }
  return cudaSuccess;
}

void CpuDevice::forgetCapture(CpuStream& stream) {
  if (!captures_.active())
    return;
  std::lock_guard graphLock(graphMutex_);
  if (auto ended = captures_.forget(&stream); ended != nullptr && ended->ownsGraph)
    graphs_.destroy(ended->graph);
}

cudaError_t CpuDevice::checkUnsafeCall() {
  if (!captures_.active())
    return cudaSuccess;
  std::lock_guard lock(graphMutex_);
  return captures_.prohibitsUnsafeCall() ? cudaErrorStreamCaptureUnsupported : cudaSuccess;
}

} // namespace ocelot::runtime::cpu
