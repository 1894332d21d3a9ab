// CpuDevice: stream capture. While a stream is captured, every stream-ordered call on it adds a
// node to the capture's graph (after the stream's current dependencies) instead of running;
// streams join a capture by waiting on an event recorded in it, and the stream that began it
// ends it.

#include "runtime/cpu/CpuDevice.h"

#include <algorithm>

namespace ocelot::runtime::cpu {

bool CpuDevice::capturing(StreamQueue& queue) {
  if (!captures_.active())
    return false;
  std::lock_guard lock(graphMutex_);
  return captures_.find(&queue) != nullptr;
}

cudaError_t CpuDevice::captureNode(StreamQueue& queue, const cudaGraphNodeParams& params,
                                   GraphNode** node) {
  if (!captures_.active())
    return cudaSuccess;
  std::lock_guard lock(graphMutex_);
  CaptureStream* capture = captures_.find(&queue);
  if (capture == nullptr)
    return cudaSuccess;
  if (capture->session->invalidated)
    return cudaErrorStreamCaptureInvalidated;
  Graph& graph = *capture->session->graph;
  std::unique_ptr<GraphNode> made;
  if (cudaError_t error = makeNode(graph, params, &made); error != cudaSuccess) {
    capture->session->invalidated = true;
    return error;
  }
  GraphNode* inserted = nullptr;
  if (cudaError_t error =
          insertNode(graph, std::move(made), capture->dependencies.data(), capture->edges.data(),
                     capture->dependencies.size(), &inserted);
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

cudaError_t CpuDevice::refuseDuringCapture(StreamQueue& queue) {
  std::lock_guard lock(graphMutex_);
  if (CaptureStream* capture = captures_.find(&queue))
    capture->session->invalidated = true;
  return cudaErrorStreamCaptureUnsupported;
}

cudaError_t CpuDevice::checkUnsafeCall() {
  if (!captures_.active())
    return cudaSuccess;
  std::lock_guard lock(graphMutex_);
  return captures_.prohibitsUnsafeCall() ? cudaErrorStreamCaptureUnsupported : cudaSuccess;
}

cudaError_t CpuDevice::checkLegacyDuringCapture(StreamQueue& queue) {
  if (queue.kind() != StreamQueue::Kind::Legacy || !captures_.active())
    return cudaSuccess;
  std::lock_guard lock(graphMutex_);
  bool implicit = false;
  captures_.forEachStream([&](const StreamQueue* captured, CaptureStream& stream) {
    if (captured->blocking()) {
      stream.session->invalidated = true;
      implicit = true;
    }
  });
  return implicit ? cudaErrorStreamCaptureImplicit : cudaSuccess;
}

cudaError_t CpuDevice::beginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  StreamQueue* queue = nullptr;
  if (cudaError_t error = resolveStream(stream, &queue); error != cudaSuccess)
    return error;
  if (queue->kind() == StreamQueue::Kind::Legacy)
    return cudaErrorStreamCaptureUnsupported;
  std::lock_guard lock(graphMutex_);
  if (captures_.find(queue) != nullptr)
    return cudaErrorIllegalState;
  Graph* graph = graphs_.adopt(std::make_unique<Graph>());
  captures_.begin(queue, graph, true, mode);
  return cudaSuccess;
}

cudaError_t CpuDevice::beginCaptureToGraph(cudaStream_t stream, cudaGraph_t graphHandle,
                                           const cudaGraphNode_t* dependencies,
                                           const cudaGraphEdgeData* edges, size_t count,
                                           cudaStreamCaptureMode mode) {
  StreamQueue* queue = nullptr;
  if (cudaError_t error = resolveStream(stream, &queue); error != cudaSuccess)
    return error;
  if (queue->kind() == StreamQueue::Kind::Legacy)
    return cudaErrorStreamCaptureUnsupported;
  std::lock_guard lock(graphMutex_);
  Graph* graph = graphs_.graph(graphHandle);
  if (graph == nullptr)
    return cudaErrorInvalidValue;
  for (size_t i = 0; i < count; ++i) {
    GraphNode* node = graphs_.node(dependencies[i]);
    if (node == nullptr || node->graph != graph)
      return cudaErrorInvalidValue;
  }
  if (captures_.find(queue) != nullptr)
    return cudaErrorIllegalState;
  CaptureStream& capture = captures_.begin(queue, graph, false, mode);
  capture.dependencies.assign(dependencies, dependencies + count);
  capture.edges.assign(count, cudaGraphEdgeData{});
  if (edges != nullptr)
    capture.edges.assign(edges, edges + count);
  return cudaSuccess;
}

cudaError_t CpuDevice::endCapture(cudaStream_t stream, cudaGraph_t* graph) {
  StreamQueue* queue = nullptr;
  if (cudaError_t error = resolveStream(stream, &queue); error != cudaSuccess)
    return error;
  std::lock_guard lock(graphMutex_);
  CaptureStream* capture = captures_.find(queue);
  if (capture == nullptr)
    return cudaErrorIllegalState;
  std::shared_ptr<CaptureSession> session = capture->session;
  if (session->origin != queue) {
    session->invalidated = true;
    return cudaErrorStreamCaptureUnmatched;
  }
  if (session->mode != cudaStreamCaptureModeRelaxed &&
      session->thread != std::this_thread::get_id())
    return cudaErrorStreamCaptureWrongThread;
  const bool joined = captures_.joined(*session);
  captures_.end(*session);
  if (session->invalidated || !joined) {
    if (session->ownsGraph)
      graphs_.destroy(session->graph);
    *graph = nullptr;
    return session->invalidated ? cudaErrorStreamCaptureInvalidated
                                : cudaErrorStreamCaptureUnjoined;
  }
  *graph = session->graph->handle();
  return cudaSuccess;
}

cudaError_t CpuDevice::captureStatus(cudaStream_t stream, cudaStreamCaptureStatus* status) {
  StreamQueue* queue = nullptr;
  if (cudaError_t error = resolveStream(stream, &queue); error != cudaSuccess)
    return error;
  *status = cudaStreamCaptureStatusNone;
  if (!captures_.active())
    return cudaSuccess;
  std::lock_guard lock(graphMutex_);
  if (const CaptureStream* capture = captures_.find(queue))
    *status = capture->session->invalidated ? cudaStreamCaptureStatusInvalidated
                                            : cudaStreamCaptureStatusActive;
  return cudaSuccess;
}

cudaError_t CpuDevice::captureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status,
                                   unsigned long long* id, cudaGraph_t* graph,
                                   const cudaGraphNode_t** dependencies,
                                   const cudaGraphEdgeData** edges, size_t* count) {
  StreamQueue* queue = nullptr;
  if (cudaError_t error = resolveStream(stream, &queue); error != cudaSuccess)
    return error;
  std::lock_guard lock(graphMutex_);
  const CaptureStream* capture = captures_.find(queue);
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

cudaError_t CpuDevice::updateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                                 const cudaGraphEdgeData* edges, size_t count,
                                                 unsigned int flags) {
  StreamQueue* queue = nullptr;
  if (cudaError_t error = resolveStream(stream, &queue); error != cudaSuccess)
    return error;
  if (flags != cudaStreamAddCaptureDependencies && flags != cudaStreamSetCaptureDependencies)
    return cudaErrorInvalidValue;
  std::lock_guard lock(graphMutex_);
  CaptureStream* capture = captures_.find(queue);
  if (capture == nullptr)
    return cudaErrorIllegalState;
  if (capture->session->invalidated)
    return cudaErrorStreamCaptureInvalidated;
  for (size_t i = 0; i < count; ++i) {
    GraphNode* node = graphs_.node(dependencies[i]);
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

cudaError_t CpuDevice::exchangeCaptureMode(cudaStreamCaptureMode* mode) {
  std::swap(*mode, CaptureRegistry::threadMode());
  return cudaSuccess;
}

} // namespace ocelot::runtime::cpu
