#pragma once

#include "runtime/core/HandleTable.h"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <driver_types.h>
#include <optional>
#include <string>
#include <vector>
#include <vector_types.h>

namespace ocelot::runtime {

class GraphExec;
class Stream;

/// A kernel node as one launch of an executable graph runs it, offered to a GraphLaunchHook.
struct GraphKernelNode {
  /// The node's id: its template node's (unique for the process; the node the application added
  /// or capture made).
  uint64_t node = 0;
  void* function = nullptr; ///< the device's function (a DeviceFunction)
  dim3 grid;
  dim3 block;
  size_t sharedMem = 0;
  void** args = nullptr; ///< the node's copy of its arguments, one pointer per parameter
  /// In the body of a while conditional node (at any depth): it may run any number of times in one
  /// graph launch.
  bool repeats = false;
  /// In the body of an if or switch conditional node: it may not run at all.
  bool conditional = false;
  /// Why the back end cannot run a substitute for this node (it runs as it is), or null. The hook
  /// is still offered the node, so that its profile can say why it has no counts.
  const char* unsubstitutable = nullptr;
};

/// What a graph launch runs for one of its kernel nodes instead: another function of the device,
/// with the node's own `parameters` arguments and then one more, whose bytes are `appended`.
struct GraphKernelSubstitute {
  void* function = nullptr;
  uint32_t parameters = 0;
  std::vector<std::byte> appended;
};

/// Offered each kernel node of a graph launch before the launch is enqueued (the instrumentation,
/// through the runtime). It must not enqueue work itself: the executable graph is locked.
class GraphLaunchHook {
public:
  virtual ~GraphLaunchHook() = default;
  /// What the launch runs for `node` instead, or nullopt for the node as it is.
  virtual std::optional<GraphKernelSubstitute> kernelNode(const GraphKernelNode& node) = 0;
  /// The back end could not put the substitute kernelNode() gave for `node` in place: the node
  /// runs as it is, for `reason`.
  virtual void substituteRefused(const GraphKernelNode& node, const std::string& reason) = 0;
  /// Nonzero when kernelNode() gives the same substitutes at every launch made with this value
  /// (a plan of the instrumentation, for the executable graph's GraphExec::kernelNodeState()): the
  /// back end may leave them in place after the launch, and offer no node at all to a later
  /// launch with the same plan while they still are. 0: the substitutes are for this launch only.
  virtual uint64_t plan() const { return 0; }
};

/// A CUDA graph of a device (cudaGraph_t: the CUgraph itself on the driver). Nodes are handles
/// (cudaGraphNode_t) that name their graph; the calls on single nodes are the Graphs area's.
///
/// Every node reaches the device in the generic cudaGraphNodeParams form; in kernel node
/// parameters `kernel.func` is the device's function (the API layer translates the application's
/// host stubs and cudaKernel_t handles both ways).
class Graph {
public:
  explicit Graph(cudaGraph_t handle) : handle_(handle) {}
  virtual ~Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  cudaGraph_t handle() const { return handle_; }

  virtual cudaError_t clone(Graph** clone) = 0;
  /// Adds a node after `dependencies`; outputs of node creation (a mem-alloc node's address, a
  /// conditional node's body graphs) are written back into `params`.
  virtual cudaError_t addNode(cudaGraphNode_t* node, const cudaGraphNode_t* dependencies,
                              const cudaGraphEdgeData* edges, size_t count,
                              cudaGraphNodeParams* params) = 0;
  /// Topology queries follow the Runtime API's two-call protocol (null array: count only).
  virtual cudaError_t nodes(cudaGraphNode_t* nodes, size_t* count, bool rootsOnly) = 0;
  virtual cudaError_t edges(cudaGraphNode_t* from, cudaGraphNode_t* to, cudaGraphEdgeData* edges,
                            size_t* count) = 0;
  virtual cudaError_t changeDependencies(const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                         const cudaGraphEdgeData* edges, size_t count,
                                         bool add) = 0;
  /// This graph is a clone: its node that was cloned from `node`.
  virtual cudaError_t findClonedNode(cudaGraphNode_t node, cudaGraphNode_t* cloned) = 0;
  virtual cudaError_t createConditionalHandle(cudaGraphConditionalHandle* handle,
                                              unsigned int defaultValue, unsigned int flags) = 0;
  virtual cudaError_t instantiate(cudaGraphInstantiateParams* params, GraphExec** exec) = 0;
  /// cudaGraphDebugDotPrint.
  virtual cudaError_t print(const char* path, unsigned int flags) = 0;
  /// cudaGraphRetainUserObject (count > 0) and cudaGraphReleaseUserObject (count < 0).
  virtual cudaError_t changeUserObject(cudaUserObject_t object, int count, unsigned int flags) = 0;

private:
  const cudaGraph_t handle_;
};

/// A new value for GraphExec::kernelNodeState: unique in the process, whatever the back end, so
/// that what was kept for one executable graph never matches another that got its handle later.
inline uint64_t newKernelNodeState() {
  static std::atomic<uint64_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed) + 1;
}

/// An instantiated graph (cudaGraphExec_t).
class GraphExec {
public:
  explicit GraphExec(cudaGraphExec_t handle) : handle_(handle) {}
  virtual ~GraphExec() = default;
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;

  cudaGraphExec_t handle() const { return handle_; }

  virtual cudaError_t launch(Stream& stream) = 0;
  /// Whether launchOffering() offers the hook each kernel node; a back end that does not (yet)
  /// runs its graphs' kernel nodes as they are.
  virtual bool offersKernelNodes() const { return false; }
  /// A number that changes whenever what the kernel nodes run may have changed (node parameters,
  /// an update, a node enabled or disabled), unique across the process's executable graphs: a
  /// GraphLaunchHook::plan made for one value holds for that executable graph while it stays.
  /// nullopt: the back end does not keep substitutes across launches.
  virtual std::optional<uint64_t> kernelNodeState() const { return std::nullopt; }
  /// A launch whose kernel nodes are offered to `hook` first (when offersKernelNodes()).
  virtual cudaError_t launchOffering(Stream& stream, GraphLaunchHook& /*hook*/) {
    return launch(stream);
  }
  virtual cudaError_t upload(Stream& stream) = 0;
  virtual cudaError_t flags(unsigned long long* flags) = 0;
  /// cudaGraphExecUpdate: takes `graph`'s parameters when the topology allows it.
  virtual cudaError_t update(Graph& graph, cudaGraphExecUpdateResultInfo* info) = 0;
  /// The parameters of the node instantiated from `node` (a node of the template graph).
  virtual cudaError_t setNodeParams(cudaGraphNode_t node, cudaGraphNodeParams* params) = 0;
  virtual cudaError_t setNodeEnabled(cudaGraphNode_t node, unsigned int enabled) = 0;
  virtual cudaError_t nodeEnabled(cudaGraphNode_t node, unsigned int* enabled) = 0;

private:
  const cudaGraphExec_t handle_;
};

/// A device's graphs and executable graphs, the calls on single nodes, user objects and the memory
/// of graph allocations.
class Graphs {
public:
  virtual ~Graphs() = default;

  virtual cudaError_t create(unsigned int flags, Graph** graph) = 0;
  virtual cudaError_t destroy(Graph& graph) = 0;
  virtual cudaError_t destroy(GraphExec& exec) = 0;

  // --- Nodes ---------------------------------------------------------------------------------
  virtual cudaError_t nodeParams(cudaGraphNode_t node, cudaGraphNodeParams* params) = 0;
  virtual cudaError_t setNodeParams(cudaGraphNode_t node, cudaGraphNodeParams* params) = 0;
  virtual cudaError_t nodeType(cudaGraphNode_t node, cudaGraphNodeType* type) = 0;
  /// The dependencies (or, with `dependents`, the dependents) of a node, two-call protocol.
  virtual cudaError_t neighbours(cudaGraphNode_t node, cudaGraphNode_t* nodes,
                                 cudaGraphEdgeData* edges, size_t* count, bool dependents) = 0;
  virtual cudaError_t destroyNode(cudaGraphNode_t node) = 0;
  virtual cudaError_t kernelNodeAttribute(cudaGraphNode_t node, cudaLaunchAttributeID id,
                                          cudaLaunchAttributeValue* value) = 0;
  virtual cudaError_t setKernelNodeAttribute(cudaGraphNode_t node, cudaLaunchAttributeID id,
                                             const cudaLaunchAttributeValue* value) = 0;
  virtual cudaError_t copyKernelNodeAttributes(cudaGraphNode_t destination,
                                               cudaGraphNode_t source) = 0;

  // --- User objects --------------------------------------------------------------------------
  virtual cudaError_t createUserObject(cudaUserObject_t* object, void* pointer,
                                       cudaHostFn_t destructor, unsigned int count,
                                       unsigned int flags) = 0;
  /// cudaUserObjectRetain (+count) and cudaUserObjectRelease (-count).
  virtual cudaError_t changeUserObjectReferences(cudaUserObject_t object, int count) = 0;

  // --- Memory of graph allocations (cudaDeviceGetGraphMemAttribute & co.) ---------------------
  virtual cudaError_t memoryAttribute(cudaGraphMemAttributeType /*attribute*/, void* /*value*/,
                                      bool /*set*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t trimMemory() { return cudaErrorNotSupported; }

  Graph* find(cudaGraph_t handle) {
    if (Graph* graph = graphs_.find(handle))
      return graph;
    return adopt(handle);
  }
  GraphExec* find(cudaGraphExec_t handle) {
    if (GraphExec* exec = execs_.find(handle))
      return exec;
    return adopt(handle);
  }

protected:
  /// Handles the tables do not know (see Streams::adopt): the driver's graphs made by capture,
  /// cloned, embedded in nodes or made through the driver API.
  virtual Graph* adopt(cudaGraph_t /*handle*/) { return nullptr; }
  virtual GraphExec* adopt(cudaGraphExec_t /*handle*/) { return nullptr; }

  HandleTable<Graph> graphs_;
  HandleTable<GraphExec> execs_;
};

} // namespace ocelot::runtime
