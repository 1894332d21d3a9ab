#pragma once

#include "runtime/core/Graph.h"
#include "runtime/driver/DriverApi.h"

namespace ocelot::runtime::driver {

class DriverDevice;

/// A graph of a GPU: the CUgraph is the handle (cudaGraphNode_t and cudaUserObject_t are the
/// driver's too).
class DriverGraph final : public Graph {
public:
  DriverGraph(DriverDevice& device, cudaGraph_t graph);

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
  DriverDevice& device_;
  const DriverApi& api_;
};

/// An executable graph of a GPU: the CUgraphExec is the handle.
class DriverGraphExec final : public GraphExec {
public:
  DriverGraphExec(DriverDevice& device, cudaGraphExec_t exec);

  cudaError_t launch(Stream& stream) override;
  cudaError_t upload(Stream& stream) override;
  cudaError_t flags(unsigned long long* flags) override;
  cudaError_t update(Graph& graph, cudaGraphExecUpdateResultInfo* info) override;
  cudaError_t setNodeParams(cudaGraphNode_t node, cudaGraphNodeParams* params) override;
  cudaError_t setNodeEnabled(cudaGraphNode_t node, unsigned int enabled) override;
  cudaError_t nodeEnabled(cudaGraphNode_t node, unsigned int* enabled) override;

private:
  DriverDevice& device_;
  const DriverApi& api_;
};

/// A GPU's graphs, executable graphs, nodes, user objects and graph memory. Graphs the tables do
/// not know (made by capture, cloned by the driver, embedded in nodes, made through the driver
/// API) are wrapped when first seen.
class DriverGraphs final : public Graphs {
public:
  explicit DriverGraphs(DriverDevice& device);

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
  cudaError_t memoryAttribute(cudaGraphMemAttributeType attribute, void* value, bool set) override;
  cudaError_t trimMemory() override;

  /// The graph or executable graph of a driver handle, wrapped if it is new.
  Graph* wrap(cudaGraph_t handle) { return adopt(handle); }
  GraphExec* wrap(cudaGraphExec_t handle) { return adopt(handle); }

protected:
  Graph* adopt(cudaGraph_t handle) override;
  GraphExec* adopt(cudaGraphExec_t handle) override;

private:
  DriverDevice& device_;
  const DriverApi& api_;
};

} // namespace ocelot::runtime::driver
