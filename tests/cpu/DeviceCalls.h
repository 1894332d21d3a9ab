#pragma once

// The device's calls by the handles the application holds, as the API layer makes them (a handle
// resolved to its object, cudaErrorInvalidResourceHandle when it names none): what the CPU device's
// tests call, so that they read like the CUDA programs they stand for.

#include "runtime/core/Device.h"
#include "runtime/core/Event.h"
#include "runtime/core/Graph.h"
#include "runtime/core/MemoryPool.h"
#include "runtime/core/Stream.h"

namespace ocelot::runtime::test {

class DeviceCalls {
public:
  explicit DeviceCalls(Device& device) : device_(device) {}

  /// The stream of a handle (null when there is none).
  Stream* stream(cudaStream_t handle) { return device_.streams().find(handle); }

  // --- Streams -------------------------------------------------------------------------------
  cudaError_t createStream(cudaStream_t* stream, unsigned int flags, int priority) {
    Stream* created = nullptr;
    cudaError_t error = device_.streams().create(flags, priority, &created);
    if (error == cudaSuccess)
      *stream = created->handle();
    return error;
  }
  cudaError_t destroyStream(cudaStream_t stream) {
    return onStream(stream, [&](Stream& s) { return device_.streams().destroy(s); });
  }
  cudaError_t synchronizeStream(cudaStream_t stream) {
    return onStream(stream, [](Stream& s) { return s.synchronize(); });
  }
  cudaError_t queryStream(cudaStream_t stream) {
    return onStream(stream, [](Stream& s) { return s.query(); });
  }
  cudaError_t waitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
    return onStream(stream, [&](Stream& s) {
      return onEvent(event, [&](Event& e) { return s.waitEvent(e, flags); });
    });
  }
  cudaError_t launchHostFunction(cudaStream_t stream, cudaHostFn_t function, void* userData) {
    return onStream(stream, [&](Stream& s) { return s.launchHostFunction(function, userData); });
  }
  cudaError_t beginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
    return onStream(stream, [&](Stream& s) { return s.beginCapture(mode); });
  }
  cudaError_t beginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                  const cudaGraphNode_t* dependencies,
                                  const cudaGraphEdgeData* edges, size_t count,
                                  cudaStreamCaptureMode mode) {
    return onStream(stream, [&](Stream& s) {
      return onGraph(graph, [&](Graph& g) {
        return s.beginCaptureToGraph(g, dependencies, edges, count, mode);
      });
    });
  }
  cudaError_t endCapture(cudaStream_t stream, cudaGraph_t* graph) {
    return onStream(stream, [&](Stream& s) { return s.endCapture(graph); });
  }
  cudaError_t captureStatus(cudaStream_t stream, cudaStreamCaptureStatus* status) {
    return onStream(stream, [&](Stream& s) { return s.captureStatus(status); });
  }
  cudaError_t captureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status,
                          unsigned long long* id, cudaGraph_t* graph,
                          const cudaGraphNode_t** dependencies, const cudaGraphEdgeData** edges,
                          size_t* count) {
    return onStream(stream, [&](Stream& s) {
      return s.captureInfo(status, id, graph, dependencies, edges, count);
    });
  }
  cudaError_t updateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                        const cudaGraphEdgeData* edges, size_t count,
                                        unsigned int flags) {
    return onStream(stream, [&](Stream& s) {
      return s.updateCaptureDependencies(dependencies, edges, count, flags);
    });
  }
  cudaError_t exchangeCaptureMode(cudaStreamCaptureMode* mode) {
    return device_.streams().exchangeCaptureMode(mode);
  }

  // --- Events --------------------------------------------------------------------------------
  cudaError_t createEvent(cudaEvent_t* event, unsigned int flags) {
    Event* created = nullptr;
    cudaError_t error = device_.events().create(flags, &created);
    if (error == cudaSuccess)
      *event = created->handle();
    return error;
  }
  cudaError_t destroyEvent(cudaEvent_t event) {
    return onEvent(event, [&](Event& e) { return device_.events().destroy(e); });
  }
  cudaError_t recordEvent(cudaEvent_t event, cudaStream_t stream) {
    return onStream(stream, [&](Stream& s) {
      return onEvent(event, [&](Event& e) { return e.record(s, 0); });
    });
  }
  cudaError_t synchronizeEvent(cudaEvent_t event) {
    return onEvent(event, [](Event& e) { return e.synchronize(); });
  }
  cudaError_t queryEvent(cudaEvent_t event) {
    return onEvent(event, [](Event& e) { return e.query(); });
  }
  cudaError_t elapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end) {
    return onEvent(start, [&](Event& from) {
      return onEvent(end, [&](Event& to) { return to.elapsedSince(from, milliseconds); });
    });
  }

  // --- Stream-ordered work -------------------------------------------------------------------
  cudaError_t copy(void* destination, const void* source, size_t bytes, cudaStream_t stream,
                   bool async) {
    return onStream(stream,
                    [&](Stream& s) { return device_.copy(destination, source, bytes, s, async); });
  }
  cudaError_t fill(void* destination, unsigned char value, size_t bytes, cudaStream_t stream,
                   bool async) {
    return onStream(stream,
                    [&](Stream& s) { return device_.fill(destination, value, bytes, s, async); });
  }
  cudaError_t allocateAsync(void** pointer, size_t bytes, cudaMemPool_t pool, cudaStream_t stream) {
    MemoryPool* from = pool != nullptr ? device_.memoryPools()->find(pool) : nullptr;
    if (pool != nullptr && from == nullptr)
      return cudaErrorInvalidValue;
    return onStream(stream, [&](Stream& s) {
      return device_.memoryPools()->allocate(pointer, bytes, from, s);
    });
  }
  cudaError_t freeAsync(void* pointer, cudaStream_t stream) {
    return onStream(stream, [&](Stream& s) { return device_.memoryPools()->free(pointer, s); });
  }
  cudaError_t launchGraph(cudaGraphExec_t exec, cudaStream_t stream) {
    return onStream(
        stream, [&](Stream& s) { return onExec(exec, [&](GraphExec& e) { return e.launch(s); }); });
  }

  // --- Graphs (unknown graph and executable graph handles are invalid values) ----------------
  cudaError_t createGraph(cudaGraph_t* graph, unsigned int flags) {
    Graph* created = nullptr;
    cudaError_t error = device_.graphs()->create(flags, &created);
    if (error == cudaSuccess)
      *graph = created->handle();
    return error;
  }
  cudaError_t destroyGraph(cudaGraph_t graph) {
    return onGraph(graph, [&](Graph& g) { return device_.graphs()->destroy(g); });
  }
  cudaError_t cloneGraph(cudaGraph_t* clone, cudaGraph_t graph) {
    return onGraph(graph, [&](Graph& g) {
      Graph* made = nullptr;
      cudaError_t error = g.clone(&made);
      if (error == cudaSuccess)
        *clone = made->handle();
      return error;
    });
  }
  cudaError_t addGraphNode(cudaGraphNode_t* node, cudaGraph_t graph,
                           const cudaGraphNode_t* dependencies, const cudaGraphEdgeData* edges,
                           size_t count, cudaGraphNodeParams* params) {
    return onGraph(graph,
                   [&](Graph& g) { return g.addNode(node, dependencies, edges, count, params); });
  }
  cudaError_t graphNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count, bool rootsOnly) {
    return onGraph(graph, [&](Graph& g) { return g.nodes(nodes, count, rootsOnly); });
  }
  cudaError_t graphEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                         cudaGraphEdgeData* edges, size_t* count) {
    return onGraph(graph, [&](Graph& g) { return g.edges(from, to, edges, count); });
  }
  cudaError_t changeGraphDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                      const cudaGraphNode_t* to, const cudaGraphEdgeData* edges,
                                      size_t count, bool add) {
    return onGraph(graph,
                   [&](Graph& g) { return g.changeDependencies(from, to, edges, count, add); });
  }
  cudaError_t findInClone(cudaGraphNode_t* cloned, cudaGraphNode_t node, cudaGraph_t clone) {
    return onGraph(clone, [&](Graph& g) { return g.findClonedNode(node, cloned); });
  }
  cudaError_t createConditionalHandle(cudaGraphConditionalHandle* handle, cudaGraph_t graph,
                                      unsigned int defaultValue, unsigned int flags) {
    return onGraph(
        graph, [&](Graph& g) { return g.createConditionalHandle(handle, defaultValue, flags); });
  }
  cudaError_t printGraph(cudaGraph_t graph, const char* path, unsigned int flags) {
    return onGraph(graph, [&](Graph& g) { return g.print(path, flags); });
  }
  cudaError_t changeGraphUserObject(cudaGraph_t graph, cudaUserObject_t object, int count,
                                    unsigned int flags) {
    return onGraph(graph, [&](Graph& g) { return g.changeUserObject(object, count, flags); });
  }
  cudaError_t instantiateGraph(cudaGraphExec_t* exec, cudaGraph_t graph,
                               cudaGraphInstantiateParams* params) {
    return onGraph(graph, [&](Graph& g) {
      GraphExec* made = nullptr;
      cudaError_t error = g.instantiate(params, &made);
      if (error == cudaSuccess)
        *exec = made->handle();
      return error;
    });
  }
  cudaError_t destroyGraphExec(cudaGraphExec_t exec) {
    return onExec(exec, [&](GraphExec& e) { return device_.graphs()->destroy(e); });
  }
  cudaError_t updateGraphExec(cudaGraphExec_t exec, cudaGraph_t graph,
                              cudaGraphExecUpdateResultInfo* info) {
    return onExec(exec, [&](GraphExec& e) {
      return onGraph(graph, [&](Graph& g) { return e.update(g, info); });
    });
  }
  cudaError_t setExecNodeParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                cudaGraphNodeParams* params) {
    return onExec(exec, [&](GraphExec& e) { return e.setNodeParams(node, params); });
  }
  cudaError_t setGraphNodeEnabled(cudaGraphExec_t exec, cudaGraphNode_t node,
                                  unsigned int enabled) {
    return onExec(exec, [&](GraphExec& e) { return e.setNodeEnabled(node, enabled); });
  }
  cudaError_t graphNodeEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned int* enabled) {
    return onExec(exec, [&](GraphExec& e) { return e.nodeEnabled(node, enabled); });
  }
  // Calls on single nodes and user objects are the Graphs area's own.
  Graphs& graphs() { return *device_.graphs(); }

private:
  template <class Call> cudaError_t onStream(cudaStream_t handle, Call call) {
    Stream* found = device_.streams().find(handle);
    return found != nullptr ? call(*found) : cudaErrorInvalidResourceHandle;
  }
  template <class Call> cudaError_t onEvent(cudaEvent_t handle, Call call) {
    Event* found = handle != nullptr ? device_.events().find(handle) : nullptr;
    return found != nullptr ? call(*found) : cudaErrorInvalidResourceHandle;
  }

  template <class Call> cudaError_t onGraph(cudaGraph_t handle, Call call) {
    Graph* found = handle != nullptr ? device_.graphs()->find(handle) : nullptr;
    return found != nullptr ? call(*found) : cudaErrorInvalidValue;
  }
  template <class Call> cudaError_t onExec(cudaGraphExec_t handle, Call call) {
    GraphExec* found = handle != nullptr ? device_.graphs()->find(handle) : nullptr;
    return found != nullptr ? call(*found) : cudaErrorInvalidValue;
  }

  Device& device_;
};

} // namespace ocelot::runtime::test
