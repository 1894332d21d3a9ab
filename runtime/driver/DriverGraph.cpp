// A GPU's graphs: cudaGraph_t, cudaGraphNode_t, cudaGraphExec_t and cudaUserObject_t are the
// driver's handles. Node parameters go through DriverGraphNodes.
#include "runtime/driver/DriverGraph.h"

#include "runtime/core/ErrorTable.h"
#include "runtime/core/Stream.h"
#include "runtime/driver/DriverDevice.h"
#include "runtime/driver/DriverGraphNodes.h"

#include <map>
#include <memory>
#include <string>

namespace ocelot::runtime::driver {
namespace {

static_assert(sizeof(cudaGraphInstantiateParams) == sizeof(CUDA_GRAPH_INSTANTIATE_PARAMS));
static_assert(sizeof(cudaGraphExecUpdateResultInfo) == sizeof(CUgraphExecUpdateResultInfo));

} // namespace

// --- DriverGraph --------------------------------------------------------------------------------

DriverGraph::DriverGraph(DriverDevice& device, cudaGraph_t graph)
    : Graph(graph), device_(device), api_(device.api()) {}

cudaError_t DriverGraph::clone(Graph** clone) {
  cudaGraph_t copy = nullptr;
  if (CUresult result = invoke(api_.graphClone, &copy, handle()); result != CUDA_SUCCESS)
    return toCudaError(result);
  *clone = device_.driverGraphs().wrap(copy);
  return cudaSuccess;
}

cudaError_t DriverGraph::addNode(cudaGraphNode_t* node, const cudaGraphNode_t* dependencies,
                                 const cudaGraphEdgeData* edges, size_t count,
                                 cudaGraphNodeParams* params) {
  CUgraphNodeParams driverParams;
  if (cudaError_t error = toDriverNodeParams(device_, *params, &driverParams); error != cudaSuccess)
    return error;
  device_.driverGraphs().templateChanged(handle());
  CUresult result = invoke(api_.graphAddNode, node, handle(), dependencies,
                           reinterpret_cast<const CUgraphEdgeData*>(edges), count, &driverParams);
  // Outputs of node creation: the bodies the driver created for a conditional node, and the
  // address it reserved for a mem-alloc node (without it the application's next node, a copy into
  // that memory, named a null pointer: issue 14 bug 1 on the GPU).
  if (result == CUDA_SUCCESS && params->type == cudaGraphNodeTypeConditional) {
    params->conditional.phGraph_out = driverParams.conditional.phGraph_out;
    // Kept for executable graphs to find the kernel nodes in the bodies (the driver cannot
    // report a conditional node's parameters).
    DriverExecKernelNodes::Conditional conditional;
    conditional.type = driverParams.conditional.type;
    conditional.bodies.assign(driverParams.conditional.phGraph_out,
                              driverParams.conditional.phGraph_out + driverParams.conditional.size);
    device_.driverGraphs().addedConditional(*node, std::move(conditional));
  }
  if (result == CUDA_SUCCESS && params->type == cudaGraphNodeTypeMemAlloc)
    params->alloc.dptr = reinterpret_cast<void*>(driverParams.alloc.dptr);
  return toCudaError(result);
}

cudaError_t DriverGraph::nodes(cudaGraphNode_t* nodes, size_t* count, bool rootsOnly) {
  return toCudaError(rootsOnly ? invoke(api_.graphGetRootNodes, handle(), nodes, count)
                               : invoke(api_.graphGetNodes, handle(), nodes, count));
}

cudaError_t DriverGraph::edges(cudaGraphNode_t* from, cudaGraphNode_t* to, cudaGraphEdgeData* edges,
                               size_t* count) {
  return toCudaError(invoke(api_.graphGetEdges, handle(), from, to,
                            reinterpret_cast<CUgraphEdgeData*>(edges), count));
}

cudaError_t DriverGraph::changeDependencies(const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                            const cudaGraphEdgeData* edges, size_t count,
                                            bool add) {
  device_.driverGraphs().templateChanged(handle());
  const auto* driverEdges = reinterpret_cast<const CUgraphEdgeData*>(edges);
  return toCudaError(
      add ? invoke(api_.graphAddDependencies, handle(), from, to, driverEdges, count)
          : invoke(api_.graphRemoveDependencies, handle(), from, to, driverEdges, count));
}

cudaError_t DriverGraph::findClonedNode(cudaGraphNode_t node, cudaGraphNode_t* cloned) {
  return toCudaError(invoke(api_.graphNodeFindInClone, cloned, node, handle()));
}

cudaError_t DriverGraph::createConditionalHandle(cudaGraphConditionalHandle* handle,
                                                 unsigned int defaultValue, unsigned int flags) {
  CUcontext context = nullptr;
  if (cudaError_t error = device_.primaryContext(&context); error != cudaSuccess)
    return error;
  // The two APIs spell the 64-bit handle with different integer types.
  CUgraphConditionalHandle created = 0;
  CUresult result = invoke(api_.graphConditionalHandleCreate, &created, this->handle(), context,
                           defaultValue, flags);
  if (result == CUDA_SUCCESS)
    *handle = created;
  return toCudaError(result);
}

cudaError_t DriverGraph::instantiate(cudaGraphInstantiateParams* params, GraphExec** exec) {
  cudaGraphExec_t created = nullptr;
  CUresult result = params == nullptr
                        ? invoke(api_.graphInstantiateWithFlags, &created, handle(), 0ULL)
                        : invoke(api_.graphInstantiateWithParams, &created, handle(),
                                 reinterpret_cast<CUDA_GRAPH_INSTANTIATE_PARAMS*>(params));
  if (result != CUDA_SUCCESS)
    return toCudaError(result);
  *exec = device_.driverGraphs().wrap(created);
  static_cast<DriverGraphExec*>(*exec)->instantiatedFrom(handle(),
                                                         params == nullptr ? 0 : params->flags);
  return cudaSuccess;
}

cudaError_t DriverGraph::print(const char* path, unsigned int flags) {
  return toCudaError(invoke(api_.graphDebugDotPrint, handle(), path, flags));
}

cudaError_t DriverGraph::changeUserObject(cudaUserObject_t object, int count, unsigned int flags) {
  return toCudaError(count >= 0 ? invoke(api_.graphRetainUserObject, handle(), object,
                                         static_cast<unsigned int>(count), flags)
                                : invoke(api_.graphReleaseUserObject, handle(), object,
                                         static_cast<unsigned int>(-count)));
}

// --- DriverGraphExec ----------------------------------------------------------------------------

DriverGraphExec::DriverGraphExec(DriverDevice& device, cudaGraphExec_t exec)
    : GraphExec(exec), device_(device), api_(device.api()), state_(newKernelNodeState()) {}

void DriverGraphExec::instantiatedFrom(CUgraph graph, unsigned long long flags) {
  auto nodes = std::make_unique<DriverExecKernelNodes>();
  DriverGraphs& graphs = device_.driverGraphs();
  CUresult result = DriverExecKernelNodes::collect(
      api_, graph, [&graphs](CUgraphNode node) { return graphs.conditional(node); }, nodes.get());
  if (result != CUDA_SUCCESS)
    return;
  graphs.retainTemplate(graph);
  std::lock_guard lock(mutex_);
  template_ = graph;
  kernelNodes_ = std::move(nodes);
  templateIsView_ = true;
  keepsSubstitutes_ = (flags & cudaGraphInstantiateFlagDeviceLaunch) == 0;
  kernelNodesChanged();
}

void DriverGraphExec::restoreBeforeDestroy() {
  std::lock_guard lock(mutex_);
  restorePlan();
}

void DriverGraphExec::kernelNodesChanged() {
  state_.store(newKernelNodeState(), std::memory_order_relaxed);
  plan_ = 0; // its nodes keep running substitutes until a launch puts them back (restorePlan)
}

void DriverGraphExec::restorePlan() {
  plan_ = 0;
  if (planNodes_.empty())
    return;
  if (kernelNodes_) {
    std::set<CUgraphNode> substituted(planNodes_.begin(), planNodes_.end());
    for (DriverExecKernelNodes::Node& known : kernelNodes_->nodes())
      if (substituted.count(known.node) != 0 &&
          api_.graphExecKernelNodeSetParams(handle(), known.node, &known.params) != CUDA_SUCCESS)
        unrestored_.push_back(known.node);
  }
  planNodes_.clear();
}

void DriverGraphExec::templateChanged(const void* handle) {
  std::lock_guard lock(mutex_);
  if (kernelNodes_ && kernelNodes_->walked(handle))
    templateIsView_ = false;
}

void DriverGraphExec::destroyed() {
  std::lock_guard lock(mutex_);
  forgetKernelNodes();
}

void DriverGraphExec::nodeDestroyed(CUgraphNode node) {
  std::lock_guard lock(mutex_);
  // The node's handle no longer names the executable graph's node.
  if (kernelNodes_ && kernelNodes_->contains(node))
    forgetKernelNodes();
}

void DriverGraphExec::forgetKernelNodes() {
  // The launch then runs as it is and the instrumentation counts it as a graph launch whose nodes
  // were not offered.
  restorePlan();
  restorePending();
  kernelNodesChanged();
  kernelNodes_.reset();
  templateIsView_ = false;
  if (template_ != nullptr)
    device_.driverGraphs().releaseTemplate(template_);
  template_ = nullptr;
}

cudaError_t DriverGraphExec::launch(Stream& stream) {
  std::lock_guard lock(mutex_);
  restorePlan(); // a launch without the plan runs the application's kernels
  restorePending();
  return toCudaError(invoke(api_.graphLaunch, handle(), stream.handle()));
}

bool DriverGraphExec::offersKernelNodes() const {
  std::lock_guard lock(mutex_);
  return kernelNodes_ != nullptr && api_.graphExecKernelNodeSetParams != nullptr;
}

std::optional<uint64_t> DriverGraphExec::kernelNodeState() const {
  std::lock_guard lock(mutex_);
  if (!keepsSubstitutes_ || kernelNodes_ == nullptr)
    return std::nullopt;
  return state_.load(std::memory_order_relaxed);
}

namespace {

GraphKernelNode offered(DriverExecKernelNodes::Node& node) {
  GraphKernelNode offer;
  offer.node = reinterpret_cast<uint64_t>(node.node);
  offer.function = node.params.func;
  offer.grid = dim3(node.params.gridDimX, node.params.gridDimY, node.params.gridDimZ);
  offer.block = dim3(node.params.blockDimX, node.params.blockDimY, node.params.blockDimZ);
  offer.sharedMem = node.params.sharedMemBytes;
  offer.args = node.argumentPointers.data();
  offer.repeats = node.repeats;
  offer.conditional = node.conditional;
  offer.unsubstitutable = node.unsubstitutable;
  return offer;
}

std::string driverError(const char* call, CUresult result) {
  return std::string(call) + " failed (" + errorName(toCudaError(result)) + ")";
}

} // namespace

/// A kernel node running a substitute in this launch: the parameters it was set to (they must
/// outlive the call that sets them).
struct DriverGraphExec::Substituted {
  DriverExecKernelNodes::Node* node = nullptr;
  GraphKernelNode offer;
  GraphKernelSubstitute substitute;
  std::vector<void*> arguments;
  CUDA_KERNEL_NODE_PARAMS params{};
  CUresult direct = CUDA_SUCCESS; ///< what cuGraphExecKernelNodeSetParams answered
};

cudaError_t DriverGraphExec::launchOffering(Stream& stream, GraphLaunchHook& hook) {
  std::lock_guard lock(mutex_);
  const uint64_t plan = keepsSubstitutes_ ? hook.plan() : 0;
  // The plan's substitutes are in place (nothing changed since a launch set them): one driver call.
  if (plan != 0 && plan == plan_ && unrestored_.empty() && unrestoredChildren_.empty() &&
      !unrestoredTemplate_)
    return toCudaError(invoke(api_.graphLaunch, handle(), stream.handle()));
  restorePlan();
  restorePending();
  if (!kernelNodes_ || api_.graphExecKernelNodeSetParams == nullptr)
    return toCudaError(invoke(api_.graphLaunch, handle(), stream.handle()));
  // Substitutes the driver took node by node, those it took through a child graph node, and those
  // it refused so far (with why).
  std::vector<Substituted> substituted;
  std::map<size_t, std::vector<Substituted>> throughChild;
  std::vector<std::pair<Substituted, std::string>> refused;
  for (DriverExecKernelNodes::Node& node : kernelNodes_->nodes()) {
    if (!node.enabled)
      continue; // a disabled node does not run
    GraphKernelNode offer = offered(node);
    std::optional<GraphKernelSubstitute> substitute = hook.kernelNode(offer);
    if (!substitute)
      continue;
    if (substitute->parameters > node.argumentPointers.size()) {
      hook.substituteRefused(offer, "the instrumented kernel takes more of the node's arguments "
                                    "than the node has");
      continue;
    }
    Substituted entry;
    entry.node = &node;
    entry.offer = offer;
    entry.substitute = std::move(*substitute);
    entry.arguments.assign(node.argumentPointers.begin(),
                           node.argumentPointers.begin() + entry.substitute.parameters);
    entry.arguments.push_back(entry.substitute.appended.data());
    entry.params = node.params;
    entry.params.func = static_cast<CUfunction>(entry.substitute.function);
    entry.params.kernelParams = entry.arguments.data();
    entry.params.extra = nullptr;
    entry.params.kern = nullptr;
    entry.params.ctx = nullptr;
    CUresult direct = api_.graphExecKernelNodeSetParams(handle(), node.node, &entry.params);
    if (direct == CUDA_SUCCESS)
      substituted.push_back(std::move(entry));
    else if (node.child != DriverExecKernelNodes::kNoChild)
      throughChild[node.child].push_back(std::move(entry));
    else // the node keeps its own parameters: the driver did not take these
      refused.emplace_back(std::move(entry), driverError("cuGraphExecKernelNodeSetParams", direct));
  }
  std::vector<size_t> children;
  for (auto& [child, entries] : throughChild) {
    if (CUresult result = substituteChild(child, entries); result != CUDA_SUCCESS) {
      for (Substituted& entry : entries)
        refused.emplace_back(std::move(entry),
                             "cuGraphExecKernelNodeSetParams and, through its child graph node, " +
                                 driverError("cuGraphExecChildGraphNodeSetParams", result));
      entries.clear(); // refused now holds them
      continue;
    }
    children.push_back(child);
  }
  // What the driver would not change one node at a time (nodes in conditional bodies) it may take
  // as an update from the template graph holding the substitutes.
  bool updated = false;
  if (!refused.empty()) {
    CUresult result = CUDA_ERROR_NOT_SUPPORTED;
    if (templateIsView_) {
      std::map<const DriverExecKernelNodes::Node*, const CUDA_KERNEL_NODE_PARAMS*> instead;
      for (const Substituted& entry : substituted)
        instead[entry.node] = &entry.params;
      for (const auto& [child, entries] : throughChild)
        for (const Substituted& entry : entries)
          instead[entry.node] = &entry.params;
      for (const auto& [entry, why] : refused)
        instead[entry.node] = &entry.params;
      result = updateFromTemplate(instead);
    }
    updated = result == CUDA_SUCCESS;
    for (const auto& [entry, why] : refused)
      if (!updated)
        hook.substituteRefused(
            entry.offer, why + (templateIsView_ ? ", and as an update from the template graph " +
                                                      driverError("cuGraphExecUpdate", result)
                                                : std::string()));
  }
  CUresult launched = invoke(api_.graphLaunch, handle(), stream.handle());
  // A plan's substitutes, each taken node by node, stay in place for its next launch (a refused
  // one would not be offered again to say so: then none stays).
  if (plan != 0 && launched == CUDA_SUCCESS && refused.empty() && throughChild.empty() &&
      !substituted.empty()) {
    plan_ = plan;
    for (Substituted& entry : substituted)
      planNodes_.push_back(entry.node->node);
    return cudaSuccess;
  }
  // Every substituted node gets its own parameters back, launched or not: the launch took its
  // copy of the substitutes, and later launches must run the application's kernels.
  if (updated && updateFromTemplate({}) != CUDA_SUCCESS)
    unrestoredTemplate_ = true;
  for (Substituted& entry : substituted)
    if (api_.graphExecKernelNodeSetParams(handle(), entry.node->node, &entry.node->params) !=
        CUDA_SUCCESS)
      unrestored_.push_back(entry.node->node);
  for (size_t child : children) {
    const DriverExecKernelNodes::Child& known = kernelNodes_->children()[child];
    if (invoke(api_.graphExecChildGraphNodeSetParams, handle(), known.node, known.view) !=
        CUDA_SUCCESS)
      unrestoredChildren_.push_back(child);
  }
  return toCudaError(launched);
}

CUresult DriverGraphExec::updateFromTemplate(
    const std::map<const DriverExecKernelNodes::Node*, const CUDA_KERNEL_NODE_PARAMS*>& instead) {
  // Only while the template holds what the executable graph runs, but for the kernel nodes we
  // keep (templateIsView_): the update takes every node's parameters from the template. Its kernel
  // nodes get the executable graph's parameters (or `instead`) for the update and their own back
  // right after it.
  if (!templateIsView_ || template_ == nullptr || api_.graphExecUpdate == nullptr ||
      api_.graphKernelNodeSetParams == nullptr || api_.graphKernelNodeGetParams == nullptr)
    return CUDA_ERROR_NOT_SUPPORTED;
  std::vector<DriverExecKernelNodes::Node> own;
  for (DriverExecKernelNodes::Node& node : kernelNodes_->nodes()) {
    if (node.unsubstitutable != nullptr)
      continue; // its parameters are the template's (templateIsView_)
    CUDA_KERNEL_NODE_PARAMS params{};
    if (CUresult result = api_.graphKernelNodeGetParams(node.node, &params); result != CUDA_SUCCESS)
      return result;
    own.push_back(DriverExecKernelNodes::copy(api_, node.node, params));
    if (own.back().unsubstitutable != nullptr)
      return CUDA_ERROR_NOT_SUPPORTED; // could not be put back
  }
  CUresult result = CUDA_SUCCESS;
  size_t set = 0;
  for (DriverExecKernelNodes::Node& node : kernelNodes_->nodes()) {
    if (node.unsubstitutable != nullptr)
      continue;
    auto substitute = instead.find(&node);
    result = api_.graphKernelNodeSetParams(
        node.node, substitute != instead.end() ? substitute->second : &node.params);
    if (result != CUDA_SUCCESS)
      break;
    ++set;
  }
  if (result == CUDA_SUCCESS) {
    CUgraphExecUpdateResultInfo info{};
    result = api_.graphExecUpdate(handle(), template_, &info);
  }
  // The template's own parameters back, whatever happened.
  for (size_t index = 0; index < set; ++index)
    api_.graphKernelNodeSetParams(own[index].node, &own[index].params);
  return result;
}

CUresult DriverGraphExec::substituteChild(size_t child, const std::vector<Substituted>& entries) {
  // A copy of the child graph as the executable graph runs it, with the substitutes in place,
  // given to the child graph node for this launch (the driver copies its parameters).
  const DriverExecKernelNodes::Child& known = kernelNodes_->children()[child];
  CUgraph copy = nullptr;
  if (CUresult result = invoke(api_.graphClone, &copy, known.view); result != CUDA_SUCCESS)
    return result;
  CUresult result = CUDA_SUCCESS;
  for (const Substituted& entry : entries) {
    CUgraphNode node = nullptr;
    result = invoke(api_.graphNodeFindInClone, &node, entry.node->viewNode, copy);
    if (result == CUDA_SUCCESS)
      result = invoke(api_.graphKernelNodeSetParams, node, &entry.params);
    if (result != CUDA_SUCCESS)
      break;
  }
  if (result == CUDA_SUCCESS)
    result = invoke(api_.graphExecChildGraphNodeSetParams, handle(), known.node, copy);
  invoke(api_.graphDestroy, copy);
  return result;
}

void DriverGraphExec::restorePending() {
  // Nodes a launch could not put back (a transient driver failure): tried again before anything
  // else uses the executable graph, so that no launch runs a stale substitute knowingly.
  if (!kernelNodes_)
    return;
  if (unrestoredTemplate_ && updateFromTemplate({}) == CUDA_SUCCESS)
    unrestoredTemplate_ = false;
  std::vector<CUgraphNode> still;
  for (CUgraphNode node : unrestored_)
    for (DriverExecKernelNodes::Node& known : kernelNodes_->nodes())
      if (known.node == node &&
          api_.graphExecKernelNodeSetParams(handle(), node, &known.params) != CUDA_SUCCESS)
        still.push_back(node);
  unrestored_ = std::move(still);
  std::vector<size_t> stillChildren;
  for (size_t child : unrestoredChildren_) {
    const DriverExecKernelNodes::Child& known = kernelNodes_->children()[child];
    if (invoke(api_.graphExecChildGraphNodeSetParams, handle(), known.node, known.view) !=
        CUDA_SUCCESS)
      stillChildren.push_back(child);
  }
  unrestoredChildren_ = std::move(stillChildren);
}

cudaError_t DriverGraphExec::upload(Stream& stream) {
  return toCudaError(invoke(api_.graphUpload, handle(), stream.handle()));
}

cudaError_t DriverGraphExec::flags(unsigned long long* flags) {
  cuuint64_t driverFlags = 0;
  CUresult result = invoke(api_.graphExecGetFlags, handle(), &driverFlags);
  if (result == CUDA_SUCCESS)
    *flags = driverFlags;
  return toCudaError(result);
}

cudaError_t DriverGraphExec::update(Graph& graph, cudaGraphExecUpdateResultInfo* info) {
  std::lock_guard lock(mutex_);
  CUresult result = invoke(api_.graphExecUpdate, handle(), graph.handle(),
                           reinterpret_cast<CUgraphExecUpdateResultInfo*>(info));
  if (result == CUDA_SUCCESS && kernelNodes_) {
    kernelNodesChanged();
    // Every node now runs with `graph`'s parameters, not the template's.
    templateIsView_ = graph.handle() == template_;
    DriverGraphs& graphs = device_.driverGraphs();
    if (!kernelNodes_->update(api_, graph.handle(),
                              [&graphs](CUgraphNode node) { return graphs.conditional(node); }))
      forgetKernelNodes(); // an update whose nodes Ocelot could not pair with its own
  }
  return toCudaError(result);
}

cudaError_t DriverGraphExec::setNodeParams(cudaGraphNode_t node, cudaGraphNodeParams* params) {
  CUgraphNodeParams driverParams;
  if (cudaError_t error = toDriverNodeParams(device_, *params, &driverParams); error != cudaSuccess)
    return error;
  std::lock_guard lock(mutex_);
  CUresult result = invoke(api_.graphExecNodeSetParams, handle(), node, &driverParams);
  if (result != CUDA_SUCCESS || !kernelNodes_)
    return toCudaError(result);
  kernelNodesChanged();
  if (params->type == cudaGraphNodeTypeKernel) {
    const CUDA_KERNEL_NODE_PARAMS_v3& set = driverParams.kernel;
    CUDA_KERNEL_NODE_PARAMS kernel{};
    kernel.func = set.func;
    kernel.gridDimX = set.gridDimX;
    kernel.gridDimY = set.gridDimY;
    kernel.gridDimZ = set.gridDimZ;
    kernel.blockDimX = set.blockDimX;
    kernel.blockDimY = set.blockDimY;
    kernel.blockDimZ = set.blockDimZ;
    kernel.sharedMemBytes = set.sharedMemBytes;
    kernel.kernelParams = set.kernelParams;
    kernel.extra = set.extra;
    kernel.kern = set.kern;
    kernel.ctx = set.ctx;
    // A kernel node whose parameters we do not keep now differs from the template.
    if (!kernelNodes_->setParams(api_, node, kernel) || !kernelNodes_->substitutable(node))
      templateIsView_ = false;
  } else if (params->type == cudaGraphNodeTypeGraph) {
    // The kernel nodes inside now run with the new child graph's parameters.
    forgetKernelNodes();
  } else {
    templateIsView_ = false; // a node we do not keep now differs from the template
  }
  return cudaSuccess;
}

cudaError_t DriverGraphExec::setNodeEnabled(cudaGraphNode_t node, unsigned int enabled) {
  std::lock_guard lock(mutex_);
  CUresult result = invoke(api_.graphNodeSetEnabled, handle(), node, enabled);
  if (result == CUDA_SUCCESS && kernelNodes_) {
    kernelNodesChanged();
    kernelNodes_->setEnabled(node, enabled != 0);
    // Whether an update brings a disabled node back is not documented: no updates from then on.
    if (enabled == 0)
      templateIsView_ = false;
  }
  return toCudaError(result);
}

cudaError_t DriverGraphExec::nodeEnabled(cudaGraphNode_t node, unsigned int* enabled) {
  return toCudaError(invoke(api_.graphNodeGetEnabled, handle(), node, enabled));
}

// --- DriverGraphs -------------------------------------------------------------------------------

DriverGraphs::DriverGraphs(DriverDevice& device) : device_(device), api_(device.api()) {}

cudaError_t DriverGraphs::create(unsigned int flags, Graph** graph) {
  cudaGraph_t created = nullptr;
  if (CUresult result = invoke(api_.graphCreate, &created, flags); result != CUDA_SUCCESS)
    return toCudaError(result);
  *graph = graphs_.insert(created, std::make_unique<DriverGraph>(device_, created));
  return cudaSuccess;
}

cudaError_t DriverGraphs::destroy(Graph& graph) {
  const cudaGraph_t handle = graph.handle();
  {
    // An executable graph that offers its kernel nodes names them by this graph's node handles:
    // the driver's graph lives on, out of the application's reach, until the last such executable
    // graph is done with it (applications commonly destroy a graph right after instantiating it).
    std::lock_guard lock(templatesMutex_);
    if (auto used = templateUsers_.find(handle); used != templateUsers_.end()) {
      orphanedTemplates_.insert(handle);
      graphs_.remove(handle);
      return cudaSuccess;
    }
  }
  cudaError_t result = toCudaError(invoke(api_.graphDestroy, handle));
  graphs_.remove(handle);
  return result;
}

void DriverGraphs::templateChanged(const void* handle) {
  execs_.forEach(
      [handle](GraphExec& exec) { static_cast<DriverGraphExec&>(exec).templateChanged(handle); });
}

void DriverGraphs::retainTemplate(CUgraph graph) {
  std::lock_guard lock(templatesMutex_);
  ++templateUsers_[graph];
}

void DriverGraphs::releaseTemplate(CUgraph graph) {
  std::lock_guard lock(templatesMutex_);
  auto used = templateUsers_.find(graph);
  if (used == templateUsers_.end() || --used->second != 0)
    return;
  templateUsers_.erase(used);
  if (orphanedTemplates_.erase(graph) != 0)
    invoke(api_.graphDestroy, graph);
}

cudaError_t DriverGraphs::destroy(GraphExec& exec) {
  const cudaGraphExec_t handle = exec.handle();
  static_cast<DriverGraphExec&>(exec).restoreBeforeDestroy();
  cudaError_t result = toCudaError(invoke(api_.graphExecDestroy, handle));
  static_cast<DriverGraphExec&>(exec).destroyed();
  execs_.remove(handle);
  return result;
}

cudaError_t DriverGraphs::nodeParams(cudaGraphNode_t node, cudaGraphNodeParams* params) {
  return toRuntimeNodeParams(device_, node, params);
}

cudaError_t DriverGraphs::setNodeParams(cudaGraphNode_t node, cudaGraphNodeParams* params) {
  templateChanged(node);
  CUgraphNodeParams driverParams;
  if (cudaError_t error = toDriverNodeParams(device_, *params, &driverParams); error != cudaSuccess)
    return error;
  return toCudaError(invoke(api_.graphNodeSetParams, node, &driverParams));
}

cudaError_t DriverGraphs::nodeType(cudaGraphNode_t node, cudaGraphNodeType* type) {
  CUgraphNodeType driverType{};
  CUresult result = invoke(api_.graphNodeGetType, node, &driverType);
  if (result == CUDA_SUCCESS)
    *type = static_cast<cudaGraphNodeType>(driverType);
  return toCudaError(result);
}

cudaError_t DriverGraphs::neighbours(cudaGraphNode_t node, cudaGraphNode_t* nodes,
                                     cudaGraphEdgeData* edges, size_t* count, bool dependents) {
  auto* driverEdges = reinterpret_cast<CUgraphEdgeData*>(edges);
  return toCudaError(dependents
                         ? invoke(api_.graphNodeGetDependentNodes, node, nodes, driverEdges, count)
                         : invoke(api_.graphNodeGetDependencies, node, nodes, driverEdges, count));
}

cudaError_t DriverGraphs::destroyNode(cudaGraphNode_t node) {
  execs_.forEach(
      [node](GraphExec& exec) { static_cast<DriverGraphExec&>(exec).nodeDestroyed(node); });
  return toCudaError(invoke(api_.graphDestroyNode, node));
}

cudaError_t DriverGraphs::kernelNodeAttribute(cudaGraphNode_t node, cudaLaunchAttributeID id,
                                              cudaLaunchAttributeValue* value) {
  return toCudaError(invoke(api_.graphKernelNodeGetAttribute, node,
                            static_cast<CUkernelNodeAttrID>(id),
                            reinterpret_cast<CUkernelNodeAttrValue*>(value)));
}

cudaError_t DriverGraphs::setKernelNodeAttribute(cudaGraphNode_t node, cudaLaunchAttributeID id,
                                                 const cudaLaunchAttributeValue* value) {
  templateChanged(node);
  return toCudaError(invoke(api_.graphKernelNodeSetAttribute, node,
                            static_cast<CUkernelNodeAttrID>(id),
                            reinterpret_cast<const CUkernelNodeAttrValue*>(value)));
}

cudaError_t DriverGraphs::copyKernelNodeAttributes(cudaGraphNode_t destination,
                                                   cudaGraphNode_t source) {
  templateChanged(destination);
  return toCudaError(invoke(api_.graphKernelNodeCopyAttributes, destination, source));
}

cudaError_t DriverGraphs::createUserObject(cudaUserObject_t* object, void* pointer,
                                           cudaHostFn_t destructor, unsigned int count,
                                           unsigned int flags) {
  return toCudaError(invoke(api_.userObjectCreate, object, pointer, destructor, count, flags));
}

cudaError_t DriverGraphs::changeUserObjectReferences(cudaUserObject_t object, int count) {
  return toCudaError(
      count >= 0 ? invoke(api_.userObjectRetain, object, static_cast<unsigned int>(count))
                 : invoke(api_.userObjectRelease, object, static_cast<unsigned int>(-count)));
}

cudaError_t DriverGraphs::memoryAttribute(cudaGraphMemAttributeType attribute, void* value,
                                          bool set) {
  auto driverAttribute = static_cast<CUgraphMem_attribute>(attribute);
  if (set)
    return toCudaError(
        invoke(api_.deviceSetGraphMemAttribute, device_.handle(), driverAttribute, value));
  return toCudaError(
      invoke(api_.deviceGetGraphMemAttribute, device_.handle(), driverAttribute, value));
}

cudaError_t DriverGraphs::trimMemory() {
  return toCudaError(invoke(api_.deviceGraphMemTrim, device_.handle()));
}

std::optional<DriverExecKernelNodes::Conditional>
DriverGraphs::conditional(CUgraphNode node) const {
  std::lock_guard lock(conditionalsMutex_);
  auto found = conditionals_.find(node);
  if (found == conditionals_.end())
    return std::nullopt;
  return found->second;
}

void DriverGraphs::addedConditional(CUgraphNode node,
                                    DriverExecKernelNodes::Conditional conditional) {
  std::lock_guard lock(conditionalsMutex_);
  conditionals_[node] = std::move(conditional);
}

Graph* DriverGraphs::adopt(cudaGraph_t handle) {
  return graphs_.findOrInsert(handle,
                              [&] { return std::make_unique<DriverGraph>(device_, handle); });
}

GraphExec* DriverGraphs::adopt(cudaGraphExec_t handle) {
  return execs_.findOrInsert(handle,
                             [&] { return std::make_unique<DriverGraphExec>(device_, handle); });
}

} // namespace ocelot::runtime::driver
