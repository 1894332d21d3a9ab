#pragma once

#include "runtime/core/Graph.h"
#include "runtime/driver/DriverApi.h"
#include "runtime/driver/DriverExecKernelNodes.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>

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
///
/// One instantiated by Ocelot knows its kernel nodes (DriverExecKernelNodes) and offers them at
/// launches: a substitute runs through cuGraphExecKernelNodeSetParams. A launch whose hook has a
/// plan (GraphLaunchHook::plan) leaves the substitutes in place, and the next launch with the same
/// plan offers nothing and makes one driver call (cuGraphLaunch); any other launch puts the nodes'
/// own parameters back first. A launch without a plan, or one whose substitutes took another way
/// (a child graph node, an update), puts them back once the launch is enqueued (the driver copies
/// an executable graph's parameters at launch). It stops offering when what it knows may be wrong:
/// its template graph's node was destroyed (the template's nodes name the executable graph's; the
/// template graph itself is kept alive for it, DriverGraphs::destroy), a child graph node was given
/// new parameters, or an update it could not follow.
class DriverGraphExec final : public GraphExec {
public:
  DriverGraphExec(DriverDevice& device, cudaGraphExec_t exec);

  /// Just instantiated from `graph` with `flags` (cudaGraphInstantiateFlags): reads its kernel
  /// nodes.
  void instantiatedFrom(CUgraph graph, unsigned long long flags);
  /// Before cudaGraphExecDestroy: the nodes running a plan's substitutes get their own parameters
  /// back, so that the executable graph ends as the application made it.
  void restoreBeforeDestroy();
  /// A node of the template graph is being destroyed.
  void nodeDestroyed(CUgraphNode node);
  /// A graph or node (`handle`) is being changed: if it is part of the template, the template no
  /// longer holds what the executable graph runs.
  void templateChanged(const void* handle);
  /// cudaGraphExecDestroy: lets go of the template graph.
  void destroyed();

  cudaError_t launch(Stream& stream) override;
  bool offersKernelNodes() const override;
  std::optional<uint64_t> kernelNodeState() const override;
  cudaError_t launchOffering(Stream& stream, GraphLaunchHook& hook) override;
  cudaError_t upload(Stream& stream) override;
  cudaError_t flags(unsigned long long* flags) override;
  cudaError_t update(Graph& graph, cudaGraphExecUpdateResultInfo* info) override;
  cudaError_t setNodeParams(cudaGraphNode_t node, cudaGraphNodeParams* params) override;
  cudaError_t setNodeEnabled(cudaGraphNode_t node, unsigned int enabled) override;
  cudaError_t nodeEnabled(cudaGraphNode_t node, unsigned int* enabled) override;

private:
  /// Stops offering kernel nodes (what they run is no longer known for sure).
  void forgetKernelNodes();
  /// What the kernel nodes run may have changed: a new kernelNodeState(), and no plan in place.
  void kernelNodesChanged();
  /// Puts back the own parameters of the nodes that run a plan's substitutes.
  void restorePlan();
  /// Puts back the parameters of nodes a launch could not restore.
  void restorePending();
  /// Runs `entries` (nodes of top-level child graph `child`, see DriverExecKernelNodes) through
  /// the child graph node, for the next launch.
  struct Substituted;
  CUresult substituteChild(size_t child, const std::vector<Substituted>& entries);
  /// cuGraphExecUpdate from the template graph whose kernel nodes hold the executable graph's
  /// parameters, or `instead` for some (the template keeps its own parameters).
  CUresult updateFromTemplate(
      const std::map<const DriverExecKernelNodes::Node*, const CUDA_KERNEL_NODE_PARAMS*>& instead);

  DriverDevice& device_;
  const DriverApi& api_;
  /// Launches and the calls that change the executable graph, one at a time: a launch sets and
  /// puts back node parameters.
  mutable std::mutex mutex_;
  CUgraph template_ = nullptr;
  /// Null when the executable graph's kernel nodes are not known (made outside Ocelot's
  /// cudaGraphInstantiate, or forgotten).
  std::unique_ptr<DriverExecKernelNodes> kernelNodes_;
  /// Nodes still running a substitute because putting their parameters back failed.
  std::vector<CUgraphNode> unrestored_;
  std::vector<size_t> unrestoredChildren_; ///< indices into kernelNodes_->children()
  /// The template holds what the executable graph runs, but for the kernel nodes' parameters we
  /// keep: an update from it (with those put in) changes nothing else.
  bool templateIsView_ = false;
  bool unrestoredTemplate_ = false; ///< an update with substitutes was not undone yet
  std::atomic<uint64_t> state_;     ///< kernelNodeState()
  /// Whether substitutes may stay in place: not in a graph the device can launch itself
  /// (cudaGraphInstantiateFlagDeviceLaunch), whose launches Ocelot never sees.
  bool keepsSubstitutes_ = false;
  /// The plan whose substitutes the nodes in planNodes_ run (0: none in place), and those nodes.
  uint64_t plan_ = 0;
  std::vector<CUgraphNode> planNodes_;
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

  /// The conditional node `node` as DriverGraph::addNode made it, or nullopt.
  std::optional<DriverExecKernelNodes::Conditional> conditional(CUgraphNode node) const;
  void addedConditional(CUgraphNode node, DriverExecKernelNodes::Conditional conditional);

  /// An executable graph offering kernel nodes names them by `graph`'s nodes: cudaGraphDestroy of
  /// `graph` is put off until every such executable graph released it.
  void retainTemplate(CUgraph graph);
  /// Tells every executable graph that graph or node `handle` is being changed.
  void templateChanged(const void* handle);
  void releaseTemplate(CUgraph graph);

  /// The graph or executable graph of a driver handle, wrapped if it is new.
  Graph* wrap(cudaGraph_t handle) { return adopt(handle); }
  GraphExec* wrap(cudaGraphExec_t handle) { return adopt(handle); }

protected:
  Graph* adopt(cudaGraph_t handle) override;
  GraphExec* adopt(cudaGraphExec_t handle) override;

private:
  DriverDevice& device_;
  const DriverApi& api_;
  std::mutex templatesMutex_;
  std::map<CUgraph, size_t> templateUsers_;
  std::set<CUgraph> orphanedTemplates_; ///< destroyed by the application, kept for its execs
  mutable std::mutex conditionalsMutex_;
  std::map<CUgraphNode, DriverExecKernelNodes::Conditional> conditionals_;
};

} // namespace ocelot::runtime::driver
