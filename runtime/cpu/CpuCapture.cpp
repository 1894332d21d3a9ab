// CpuStream: stream capture. While a stream is captured, every stream-ordered call on it adds a
// node to the capture's graph (after the stream's current dependencies) instead of running;
// streams join a capture by waiting on an event recorded in it, and the stream that began it
// ends it.

#include "runtime/cpu/CpuDevice.h"
#include "runtime/cpu/CpuGraph.h"
#include "runtime/cpu/CpuStream.h"

#include <algorithm>

namespace ocelot::runtime::cpu {

bool CpuStream::capturing() {
  CpuGraphs& graphs = device_.cpuGraphs();
  if (!graphs.captures().active())
    return false;
  std::lock_guard lock(graphs.mutex());
  return capture_.has_value();
}

cudaError_t CpuStream::capture(const cudaGraphNodeParams& params, GraphNode** node) {
  CpuGraphs& graphs = device_.cpuGraphs();
  if (!graphs.captures().active())
    return cudaSuccess;
  std::lock_guard lock(graphs.mutex());
  CaptureStream* capture = captureState();
  if (capture == nullptr)
    return cudaSuccess;
  if (capture->session->invalidated)
    return cudaErrorStreamCaptureInvalidated;
  GraphBody& graph = *capture->session->graph;
  std::unique_ptr<GraphNode> made;
  if (cudaError_t error = graphs.makeNode(graph, params, &made); error != cudaSuccess) {
    capture->session->invalidated = true;
    return error;
  }
  GraphNode* inserted = nullptr;
  if (cudaError_t error =
          graphs.insertNode(graph, std::move(made), capture->dependencies.data(),
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
  std::lock_guard lock(device_.cpuGraphs().mutex());
  if (CaptureStream* capture = captureState())
    capture->session->invalidated = true;
  return cudaErrorStreamCaptureUnsupported;
}

cudaError_t CpuStream::checkLegacyDuringCapture() {
  CpuGraphs& graphs = device_.cpuGraphs();
  if (!legacy() || !graphs.captures().active())
    return cudaSuccess;
  std::lock_guard lock(graphs.mutex());
  bool implicit = false;
  graphs.captures().forEachStream([&](CpuStream& captured, CaptureStream& stream) {
    if (captured.blocking()) {
      stream.session->invalidated = true;
      implicit = true;
    }
  });
  return implicit ? cudaErrorStreamCaptureImplicit : cudaSuccess;
}

std::optional<cudaError_t> CpuStream::captureEventRecord(CpuEvent& event, unsigned int flags) {
  std::lock_guard graphLock(device_.cpuGraphs().mutex());
  CaptureStream* capture = captureState();
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
  CaptureRegistry& captures = device_.cpuGraphs().captures();
  if (!captures.active())
    return std::nullopt;
  std::lock_guard graphLock(device_.cpuGraphs().mutex());
  CaptureStream* capture = captureState();
  std::shared_ptr<CaptureSession> recordedIn =
      record.captureId != 0 ? captures.session(record.captureId) : nullptr;
  if (capture != nullptr && capture->session->invalidated)
    return cudaErrorStreamCaptureInvalidated;
  if (recordedIn != nullptr) {
    if (capture == nullptr) {
      // A fork: the stream joins the capture, after the nodes the event stands for.
      captures.join(*this, std::move(recordedIn), record.captureNodes);
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
  CpuGraphs& graphs = device_.cpuGraphs();
  std::lock_guard lock(graphs.mutex());
  if (capture_.has_value())
    return cudaErrorIllegalState;
  CpuGraph& graph = graphs.own(std::make_unique<GraphBody>());
  graphs.captures().begin(*this, &graph.body(), true, mode);
  return cudaSuccess;
}

cudaError_t CpuStream::beginCaptureToGraph(Graph& target, const cudaGraphNode_t* dependencies,
                                           const cudaGraphEdgeData* edges, size_t count,
                                           cudaStreamCaptureMode mode) {
  if (legacy())
    return cudaErrorStreamCaptureUnsupported;
  CpuGraphs& graphs = device_.cpuGraphs();
  std::lock_guard lock(graphs.mutex());
  GraphBody* graph = &static_cast<CpuGraph&>(target).body();
  for (size_t i = 0; i < count; ++i) {
    GraphNode* node = graphs.node(dependencies[i]);
    if (node == nullptr || node->graph != graph)
      return cudaErrorInvalidValue;
  }
  if (capture_.has_value())
    return cudaErrorIllegalState;
  CaptureStream& capture = graphs.captures().begin(*this, graph, false, mode);
  capture.dependencies.assign(dependencies, dependencies + count);
  capture.edges.assign(count, cudaGraphEdgeData{});
  if (edges != nullptr)
    capture.edges.assign(edges, edges + count);
  return cudaSuccess;
}

cudaError_t CpuStream::endCapture(cudaGraph_t* graph) {
  CpuGraphs& graphs = device_.cpuGraphs();
  std::lock_guard lock(graphs.mutex());
  CaptureStream* capture = captureState();
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
  // A graph the capture made itself must go somewhere; one into the caller's graph need not.
  if (graph == nullptr && session->ownsGraph)
    return cudaErrorInvalidValue;
  const bool joined = graphs.captures().joined(*session);
  graphs.captures().end(*session);
  if (session->invalidated || !joined) {
    if (session->ownsGraph)
      graphs.destroyTopLevel(*session->graph);
    if (graph != nullptr)
      *graph = nullptr;
    return session->invalidated ? cudaErrorStreamCaptureInvalidated
                                : cudaErrorStreamCaptureUnjoined;
  }
  if (graph != nullptr)
    *graph = session->graph->handle();
  return cudaSuccess;
}

cudaError_t CpuStream::captureStatus(cudaStreamCaptureStatus* status) {
  *status = cudaStreamCaptureStatusNone;
  CpuGraphs& graphs = device_.cpuGraphs();
  if (!graphs.captures().active())
    return cudaSuccess;
  std::lock_guard lock(graphs.mutex());
  if (const CaptureStream* capture = captureState())
    *status = capture->session->invalidated ? cudaStreamCaptureStatusInvalidated
                                            : cudaStreamCaptureStatusActive;
  return cudaSuccess;
}

cudaError_t CpuStream::captureInfo(cudaStreamCaptureStatus* status, unsigned long long* id,
                                   cudaGraph_t* graph, const cudaGraphNode_t** dependencies,
                                   const cudaGraphEdgeData** edges, size_t* count) {
  std::lock_guard lock(device_.cpuGraphs().mutex());
  const CaptureStream* capture = captureState();
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
  CpuGraphs& graphs = device_.cpuGraphs();
  std::lock_guard lock(graphs.mutex());
  CaptureStream* capture = captureState();
  if (capture == nullptr)
    return cudaErrorIllegalState;
  if (capture->session->invalidated)
    return cudaErrorStreamCaptureInvalidated;
  for (size_t i = 0; i < count; ++i) {
    GraphNode* node = graphs.node(dependencies[i]);
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

void CpuStream::forgetCapture() {
  CpuGraphs& graphs = device_.cpuGraphs();
  if (!graphs.captures().active())
    return;
  std::lock_guard graphLock(graphs.mutex());
  if (auto ended = graphs.captures().forget(*this); ended != nullptr && ended->ownsGraph)
    graphs.destroyTopLevel(*ended->graph);
}

} // namespace ocelot::runtime::cpu
