#pragma once

#include "runtime/core/Graph.h"
#include "runtime/cpu/GraphBody.h"
#include "runtime/cpu/StreamCapture.h"

#include <map>
#include <memory>
#include <mutex>
#include <set>

namespace ocelot::runtime::cpu {

class CpuDevice;
class CpuGraphExec;
class CpuGraphs;

/// A graph of the CPU device as the application sees it (cudaGraph_t): a top-level graph, which
/// owns its body, or the child graph of a node or a conditional body, whose body its node owns. The
/// handle is the body's address.
class CpuGraph final : public Graph {
public:
  CpuGraph(CpuGraphs& graphs, GraphBody& body, std::unique_ptr<GraphBody> owned);

  GraphBody& body() { return body_; }
  bool topLevel() const { return owned_ != nullptr; }

  cudaError_t clone(Graph** clone) override;
  cudaError_t addNode(cudaGraphNode_t* node, const cudaGraphNode_t* dependencies,
                      const cudaGraphEdgeData* edges, size_t count,
                      cudaGraphNodeParams* params) override;
  cudaError_t nodes(cudaGraphNode_t* nodes, size_t* count, bool rootsOnly) override;
  cudaError_t edges(cudaGraphNode_t* from, cudaGraphNode_t* to, cudaGraphEdgeData* edges,
                    size_t* count) override;
  cudaError_t changeDependencies(const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                 const cudaGraphEdgeData* edges, size_t count, bool add) override;
  cudaError_t findClonedNode(cudaGraphNode_t node, cudaGraphNode_t* cloned) override;
  cudaError_t createConditionalHandle(cudaGraphConditionalHandle* handle, unsigned int defaultValue,
                                      unsigned int flags) override;
  cudaError_t instantiate(cudaGraphInstantiateParams* params, GraphExec** exec) override;
  cudaError_t print(const char* path, unsigned int flags) override;
  cudaError_t changeUserObject(cudaUserObject_t object, int count, unsigned int flags) override;

private:
  friend class CpuGraphExec;

  CpuGraphs& graphs_;
  GraphBody& body_;
  std::unique_ptr<GraphBody> owned_;
};

/// The CPU device's graphs, executable graphs, nodes, user objects and stream captures. One
/// recursive mutex guards them all (capture adds nodes to graphs; node handles name no graph):
/// the graph objects, the capture state of the streams and the nodes of every graph.
///
/// Handles are checked against the tables, so a stale or foreign handle gives cudaErrorInvalidValue
/// instead of undefined behaviour.
class CpuGraphs final : public Graphs {
public:
  explicit CpuGraphs(CpuDevice& device) : device_(device) {}

  cudaError_t create(unsigned int flags, Graph** graph) override;
  cudaError_t destroy(Graph& graph) override;
  cudaError_t destroy(GraphExec& exec) override;
  cudaError_t nodeParams(cudaGraphNode_t node, cudaGraphNodeParams* params) override;
  cudaError_t setNodeParams(cudaGraphNode_t node, cudaGraphNodeParams* params) override;
  cudaError_t nodeType(cudaGraphNode_t node, cudaGraphNodeType* type) override;
  cudaError_t neighbours(cudaGraphNode_t node, cudaGraphNode_t* nodes, cudaGraphEdgeData* edges,
                         size_t* count, bool dependents) override;
  cudaError_t destroyNode(cudaGraphNode_t node) override;
  cudaError_t kernelNodeAttribute(cudaGraphNode_t node, cudaLaunchAttributeID id,
                                  cudaLaunchAttributeValue* value) override;
  cudaError_t setKernelNodeAttribute(cudaGraphNode_t node, cudaLaunchAttributeID id,
                                     const cudaLaunchAttributeValue* value) override;
  cudaError_t copyKernelNodeAttributes(cudaGraphNode_t destination,
                                       cudaGraphNode_t source) override;
  cudaError_t createUserObject(cudaUserObject_t* object, void* pointer, cudaHostFn_t destructor,
                               unsigned int count, unsigned int flags) override;
  cudaError_t changeUserObjectReferences(cudaUserObject_t object, int count) override;

  // --- What the device's objects share -----------------------------------------------------
  CpuDevice& device() { return device_; }
  std::recursive_mutex& mutex() { return mutex_; }
  CaptureRegistry& captures() { return captures_; }
  /// A graph (top-level or embedded) or a node the device handed out (null when it has none).
  CpuGraph* graph(cudaGraph_t handle) { return static_cast<CpuGraph*>(graphs_.find(handle)); }
  GraphNode* node(cudaGraphNode_t handle);
  /// Takes a new top-level graph (with everything embedded in it) into the tables.
  CpuGraph& own(std::unique_ptr<GraphBody> body);
  /// Takes a new executable graph into the table.
  GraphExec* own(std::unique_ptr<CpuGraphExec> exec);
  /// Destroys a top-level graph (an abandoned capture's, a temporary copy).
  void destroyTopLevel(GraphBody& body);
  /// A node made from `params` (validated, arguments copied, bodies created); not yet in a graph
  /// (CpuGraphNodes.cpp).
  cudaError_t makeNode(GraphBody& graph, const cudaGraphNodeParams& params,
                       std::unique_ptr<GraphNode>* node);
  /// Adds `node` to `graph` after `dependencies` (all checked to be nodes of `graph`).
  cudaError_t insertNode(GraphBody& graph, std::unique_ptr<GraphNode> node,
                         const cudaGraphNode_t* dependencies, const cudaGraphEdgeData* edges,
                         size_t count, GraphNode** inserted);
  /// The references `graph` holds on user objects, taken or given back.
  void retainUserObjects(const GraphBody& graph);
  void releaseUserObjects(const GraphBody& graph);
  unsigned long long nextConditionalHandle() { return nextConditionalHandle_++; }
  /// Whether `pointer` is the memory of a mem-alloc node (released with its graph).
  bool isAllocation(void* pointer);
  /// A device reset: every graph, executable graph, user object and capture goes.
  void reset();

private:
  friend class CpuGraph;
  struct UserObject {
    void* pointer = nullptr;
    cudaHostFn_t destroy = nullptr;
    unsigned int references = 0;
  };

  /// Registers (or forgets) an embedded graph with its nodes and nested graphs.
  void add(GraphBody& body);
  void forget(GraphBody& body);
  void releaseUserObject(cudaUserObject_t object, unsigned int count);

  CpuDevice& device_;
  std::recursive_mutex mutex_;
  std::set<const GraphNode*> nodes_;
  std::map<void*, std::unique_ptr<UserObject>> userObjects_;
  CaptureRegistry captures_;
  unsigned long long nextConditionalHandle_ = 1;
  /// Memory of mem-alloc nodes: owned by their graphs, so cudaFree of it does nothing.
  std::mutex allocationsMutex_;
  std::set<void*> allocations_;
};

} // namespace ocelot::runtime::cpu
