// CpuDevice: CUDA graphs. Graphs, nodes and executable graphs are the device's own objects
// (CpuGraph.h, GraphExecutor.h); their handles are checked against the registry, so a stale or
// foreign handle gives cudaErrorInvalidValue instead of undefined behaviour. A graph launch is one
// stream operation that runs the executable graph's nodes in dependency order on the stream's
// thread.

#include "runtime/core/CopyRegion.h"
#include "runtime/cpu/CpuDevice.h"
#include "runtime/cpu/TextureObjects.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace ocelot::runtime::cpu {
namespace {

constexpr unsigned long long kInstantiateFlags =
    cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload |
    cudaGraphInstantiateFlagDeviceLaunch | cudaGraphInstantiateFlagUseNodePriority;

/// The Runtime API's two-call protocol for lists: no array asks for the count; otherwise up to
/// *count entries are written, the rest of the array is cleared and *count becomes the number
/// written.
template <class T> void answerList(const std::vector<T>& items, T* out, size_t* count) {
  if (out == nullptr) {
    *count = items.size();
    return;
  }
  const size_t written = std::min(*count, items.size());
  std::copy(items.begin(), items.begin() + static_cast<long>(written), out);
  std::fill(out + written, out + *count, T{});
  *count = written;
}

bool defaultEdge(const cudaGraphEdgeData& edge) {
  return edge.from_port == 0 && edge.to_port == 0 && edge.type == 0;
}

bool validConditional(const cudaConditionalNodeParams& params) {
  switch (params.type) {
  case cudaGraphCondTypeIf:
    return params.size == 1 || params.size == 2;
  case cudaGraphCondTypeWhile:
    return params.size == 1;
  case cudaGraphCondTypeSwitch:
    return params.size >= 1;
  default:
    return false;
  }
}

} // namespace

/// What a graph launch runs each node with.
class CpuDevice::GraphRunner final : public GraphWork {
public:
  /// `waits`: the record each event of a wait-event node had when the graph was launched.
  GraphRunner(CpuDevice& device, const std::map<cudaEvent_t, CompletionPtr>& waits)
      : device_(device), waits_(waits) {}
  bool faulted() override { return device_.faulted(); }
  void kernel(const GraphNode& node, ConditionalValues& conditionals) override {
    std::vector<cudaLaunchAttribute> attributes;
    for (const auto& [id, value] : node.attributes) {
      cudaLaunchAttribute attribute = {};
      attribute.id = static_cast<cudaLaunchAttributeID>(id);
      attribute.val = value;
      attributes.push_back(attribute);
    }
    const cudaKernelNodeParamsV2& kernel = node.params.kernel;
    PreparedLaunch launch;
    // Nodes were validated when added; a kernel that cannot run now (its module unloaded) is
    // skipped like work after a fault.
    if (device_.prepareLaunch(kernel.func, kernel.gridDim, kernel.blockDim, kernel.sharedMemBytes,
                              const_cast<GraphNode&>(node).arguments.pointers(), attributes.data(),
                              static_cast<unsigned int>(attributes.size()), false,
                              &launch) != cudaSuccess)
      return;
    device_.runLaunch(launch, &conditionals);
  }
  void copy(const GraphNode& node) override { device_.copies_.runCopy3D(node.copy); }
  void fill(const GraphNode& node) override { CpuCopies::runMemset(node.params.memset); }
  void host(const GraphNode& node) override {
    device_.flushOutput();
    node.params.host.fn(node.params.host.userData);
  }
  void waitEvent(cudaEvent_t event) override {
    // Like cudaStreamWaitEvent, the wait is for the record made before the graph was launched.
    if (auto it = waits_.find(event); it != waits_.end() && it->second != nullptr)
      it->second->wait();
  }

private:
  CpuDevice& device_;
  const std::map<cudaEvent_t, CompletionPtr>& waits_;
};

// --- Node parameters ----------------------------------------------------------------------------

cudaError_t CpuDevice::makeNode(Graph& graph, const cudaGraphNodeParams& params,
                                std::unique_ptr<GraphNode>* node) {
  auto made = std::make_unique<GraphNode>();
  made->graph = &graph;
  made->params = params;
  switch (params.type) {
  case cudaGraphNodeTypeKernel: {
    const cudaKernelNodeParamsV2& kernel = params.kernel;
    const uint64_t threads = uint64_t{kernel.blockDim.x} * kernel.blockDim.y * kernel.blockDim.z;
    if (threads == 0 || kernel.gridDim.x == 0 || kernel.gridDim.y == 0 || kernel.gridDim.z == 0)
      return cudaErrorInvalidValue;
    std::vector<size_t> offsets, sizes;
    if (cudaError_t error = parameterLayout(kernel.func, &offsets, &sizes); error != cudaSuccess)
      return error;
    size_t bytes = 0;
    for (size_t i = 0; i < offsets.size(); ++i)
      bytes = std::max(bytes, offsets[i] + sizes[i]);
    std::vector<std::byte> values(bytes);
    if (kernel.kernelParams != nullptr) {
      for (size_t i = 0; i < offsets.size(); ++i)
        if (kernel.kernelParams[i] != nullptr)
          std::memcpy(values.data() + offsets[i], kernel.kernelParams[i], sizes[i]);
    } else if (kernel.extra != nullptr) {
      // CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE pairs up to CU_LAUNCH_PARAM_END: the parameter
      // buffer laid out as the kernel expects.
      const void* buffer = nullptr;
      size_t size = 0;
      for (void** entry = kernel.extra; *entry != nullptr; entry += 2) {
        if (*entry == reinterpret_cast<void*>(1))
          buffer = entry[1];
        else if (*entry == reinterpret_cast<void*>(2) && entry[1] != nullptr)
          size = *static_cast<const size_t*>(entry[1]);
        else
          return cudaErrorInvalidValue;
      }
      if (buffer == nullptr || size < bytes)
        return cudaErrorInvalidValue;
      std::memcpy(values.data(), buffer, bytes);
    } else if (!offsets.empty()) {
      return cudaErrorInvalidValue;
    }
    made->arguments = KernelArguments(std::move(values), offsets);
    break;
  }
  case cudaGraphNodeTypeMemcpy: {
    int kind = 0;
    std::memcpy(&kind, &params.memcpy.copyParams.kind, sizeof kind);
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
      return cudaErrorInvalidValue;
    if (cudaError_t error = copyRegionOf(params.memcpy.copyParams, *this, &made->copy);
        error != cudaSuccess)
      return error;
    break;
  }
  case cudaGraphNodeTypeMemset: {
    const cudaMemsetParamsV2& fill = params.memset;
    if (fill.dst == nullptr ||
        (fill.elementSize != 1 && fill.elementSize != 2 && fill.elementSize != 4) ||
        (fill.height > 1 && fill.pitch < fill.width * fill.elementSize))
      return cudaErrorInvalidValue;
    break;
  }
  case cudaGraphNodeTypeHost:
    if (params.host.fn == nullptr)
      return cudaErrorInvalidValue;
    break;
  case cudaGraphNodeTypeGraph: {
    Graph* child = graphs_.graph(params.graph.graph);
    if (child == nullptr)
      return cudaErrorInvalidValue;
    // A child graph cannot own memory (CUDA refuses mem-alloc and mem-free nodes in one).
    bool allocates = false;
    forEachGraph(*child, [&](Graph& each) {
      for (const auto& inner : each.nodes)
        allocates = allocates || inner->type() == cudaGraphNodeTypeMemAlloc ||
                    inner->type() == cudaGraphNodeTypeMemFree;
    });
    if (allocates)
      return cudaErrorNotSupported;
    made->child = cpu::cloneGraph(*child, false);
    made->child->owner = made.get();
    made->child->userObjects.clear();
    break;
  }
  case cudaGraphNodeTypeEventRecord:
  case cudaGraphNodeTypeWaitEvent:
    if (events_.find(params.type == cudaGraphNodeTypeEventRecord
                         ? params.eventRecord.event
                         : params.eventWait.event) == nullptr)
      return cudaErrorInvalidValue;
    break;
  case cudaGraphNodeTypeMemAlloc: {
    const cudaMemAllocNodeParamsV2& alloc = params.alloc;
    if (alloc.bytesize == 0 || alloc.poolProps.allocType != cudaMemAllocationTypePinned ||
        alloc.poolProps.location.type != cudaMemLocationTypeDevice ||
        alloc.poolProps.location.id != 0)
      return cudaErrorInvalidValue;
    void* memory = memory_->allocate(alloc.bytesize, DeviceMemory::Kind::Device);
    if (memory == nullptr)
      return cudaErrorMemoryAllocation;
    made->allocation = std::make_shared<GraphAllocation>();
    made->allocation->pointer = memory;
    made->allocation->bytes = alloc.bytesize;
    made->allocation->release = [this](void* pointer) {
      std::lock_guard lock(mutex_);
      graphAllocations_.erase(pointer);
      memory_->release(pointer);
    };
    std::lock_guard lock(mutex_);
    graphAllocations_.insert(memory);
    break;
  }
  case cudaGraphNodeTypeMemFree: {
    {
      std::lock_guard lock(mutex_);
      if (graphAllocations_.count(params.free.dptr) == 0)
        return cudaErrorInvalidValue;
    }
    for (const auto& other : graph.root().nodes)
      if (other->type() == cudaGraphNodeTypeMemFree && other->params.free.dptr == params.free.dptr)
        return cudaErrorInvalidValue; // freed twice in one graph
    break;
  }
  case cudaGraphNodeTypeConditional: {
    if (graph.findHandle(params.conditional.handle) == nullptr ||
        !validConditional(params.conditional))
      return cudaErrorInvalidValue;
    for (unsigned int i = 0; i < params.conditional.size; ++i) {
      made->bodies.push_back(std::make_unique<Graph>());
      made->bodies.back()->owner = made.get();
    }
    break;
  }
  case cudaGraphNodeTypeEmpty:
    break;
  case cudaGraphNodeTypeExtSemaphoreSignal:
  case cudaGraphNodeTypeExtSemaphoreWait:
    return cudaErrorNotSupported;
  default:
    return cudaErrorInvalidValue;
  }
  made->rebind();
  *node = std::move(made);
  return cudaSuccess;
}

cudaError_t CpuDevice::insertNode(Graph& graph, std::unique_ptr<GraphNode> node,
                                  const cudaGraphNode_t* dependencies,
                                  const cudaGraphEdgeData* edges, size_t count,
                                  GraphNode** inserted) {
  std::vector<GraphNode*> before;
  for (size_t i = 0; i < count; ++i) {
    GraphNode* dependency = graphs_.node(dependencies[i]);
    if (dependency == nullptr || dependency->graph != &graph ||
        std::find(before.begin(), before.end(), dependency) != before.end())
      return cudaErrorInvalidValue;
    before.push_back(dependency);
  }
  GraphNode* raw = node.get();
  for (size_t i = 0; i < count; ++i) {
    raw->dependencies.push_back(before[i]);
    raw->edges.push_back(edges != nullptr ? edges[i] : cudaGraphEdgeData{});
    before[i]->dependents.push_back(raw);
  }
  graph.nodes.push_back(std::move(node));
  graphs_.addNode(raw);
  if (raw->child)
    graphs_.add(*raw->child);
  for (const auto& body : raw->bodies)
    graphs_.add(*body);
  *inserted = raw;
  return cudaSuccess;
}

// --- User objects -------------------------------------------------------------------------------

void CpuDevice::retainUserObjects(const Graph& graph) {
  for (const auto& [object, count] : graph.userObjects)
    if (auto it = userObjects_.find(object); it != userObjects_.end())
      it->second->references += count;
}

void CpuDevice::releaseUserObjects(const Graph& graph) {
  for (const auto& [object, count] : graph.userObjects)
    releaseUserObject(static_cast<cudaUserObject_t>(object), count);
}

void CpuDevice::releaseUserObject(cudaUserObject_t object, unsigned int count) {
  auto it = userObjects_.find(object);
  if (it == userObjects_.end())
    return;
  UserObject& user = *it->second;
  user.references -= std::min(count, user.references);
  if (user.references != 0)
    return;
  // The destructor may not call CUDA (as in CUDA), so it runs here, under the graph lock.
  user.destroy(user.pointer);
  userObjects_.erase(it);
}

cudaError_t CpuDevice::createUserObject(cudaUserObject_t* object, void* pointer,
                                        cudaHostFn_t destroy, unsigned int count, unsigned int) {
  auto created = std::make_unique<UserObject>();
  created->pointer = pointer;
  created->destroy = destroy;
  created->references = count;
  std::lock_guard lock(graphMutex_);
  *object = reinterpret_cast<cudaUserObject_t>(created.get());
  userObjects_[created.get()] = std::move(created);
  return cudaSuccess;
}

cudaError_t CpuDevice::changeUserObjectReferences(cudaUserObject_t object, int count) {
  std::lock_guard lock(graphMutex_);
  auto it = userObjects_.find(object);
  if (it == userObjects_.end())
    return cudaErrorInvalidValue;
  if (count > 0)
    it->second->references += static_cast<unsigned int>(count);
  else
    releaseUserObject(object, static_cast<unsigned int>(-count));
  return cudaSuccess;
}

cudaError_t CpuDevice::changeGraphUserObject(cudaGraph_t handle, cudaUserObject_t object, int count,
                                             unsigned int flags) {
  std::lock_guard lock(graphMutex_);
  Graph* graph = graphs_.graph(handle);
  auto it = userObjects_.find(object);
  if (graph == nullptr || it == userObjects_.end())
    return cudaErrorInvalidValue;
  if (count > 0) {
    graph->userObjects[object] += static_cast<unsigned int>(count);
    // cudaGraphUserObjectMove hands the caller's references over instead of taking new ones.
    if ((flags & cudaGraphUserObjectMove) == 0)
      it->second->references += static_cast<unsigned int>(count);
    return cudaSuccess;
  }
  const auto released = static_cast<unsigned int>(-count);
  auto held = graph->userObjects.find(object);
  if (held == graph->userObjects.end() || held->second < released)
    return cudaErrorInvalidValue;
  if ((held->second -= released) == 0)
    graph->userObjects.erase(held);
  releaseUserObject(object, released);
  return cudaSuccess;
}

// --- Graphs and nodes ---------------------------------------------------------------------------

cudaError_t CpuDevice::createGraph(cudaGraph_t* graph, unsigned int flags) {
  if (flags != 0)
    return cudaErrorInvalidValue;
  std::lock_guard lock(graphMutex_);
  *graph = graphs_.adopt(std::make_unique<Graph>())->handle();
  return cudaSuccess;
}

cudaError_t CpuDevice::destroyGraph(cudaGraph_t handle) {
  std::lock_guard lock(graphMutex_);
  Graph* graph = graphs_.graph(handle);
  // Child graphs and conditional bodies belong to their nodes.
  if (graph == nullptr || !graphs_.topLevel(graph) || captures_.capturesInto(graph))
    return cudaErrorInvalidValue;
  releaseUserObjects(*graph);
  graphs_.destroy(graph);
  return cudaSuccess;
}

cudaError_t CpuDevice::cloneGraph(cudaGraph_t* clone, cudaGraph_t handle) {
  std::lock_guard lock(graphMutex_);
  Graph* graph = graphs_.graph(handle);
  if (graph == nullptr)
    return cudaErrorInvalidValue;
  std::unique_ptr<Graph> copy = cpu::cloneGraph(*graph, false);
  copy->owner = nullptr;
  retainUserObjects(*copy);
  *clone = graphs_.adopt(std::move(copy))->handle();
  return cudaSuccess;
}

cudaError_t CpuDevice::addGraphNode(cudaGraphNode_t* node, cudaGraph_t handle,
                                    const cudaGraphNode_t* dependencies,
                                    const cudaGraphEdgeData* edges, size_t count,
                                    cudaGraphNodeParams* params) {
  std::lock_guard lock(graphMutex_);
  Graph* graph = graphs_.graph(handle);
  if (graph == nullptr)
    return cudaErrorInvalidValue;
  for (size_t i = 0; i < count; ++i)
    if (GraphNode* dependency = graphs_.node(dependencies[i]);
        dependency == nullptr || dependency->graph != graph)
      return cudaErrorInvalidValue;
  std::unique_ptr<GraphNode> made;
  if (cudaError_t error = makeNode(*graph, *params, &made); error != cudaSuccess)
    return error;
  GraphNode* inserted = nullptr;
  if (cudaError_t error =
          insertNode(*graph, std::move(made), dependencies, edges, count, &inserted);
      error != cudaSuccess)
    return error;
  // What node creation hands back: the allocation's address, the conditional bodies.
  if (params->type == cudaGraphNodeTypeMemAlloc)
    params->alloc.dptr = inserted->params.alloc.dptr;
  if (params->type == cudaGraphNodeTypeConditional)
    params->conditional.phGraph_out = inserted->params.conditional.phGraph_out;
  *node = inserted->handle();
  return cudaSuccess;
}

cudaError_t CpuDevice::graphNodeParams(cudaGraphNode_t handle, cudaGraphNodeParams* params) {
  std::lock_guard lock(graphMutex_);
  GraphNode* node = graphs_.node(handle);
  if (node == nullptr)
    return cudaErrorInvalidValue;
  *params = node->params;
  return cudaSuccess;
}

cudaError_t CpuDevice::setGraphNodeParams(cudaGraphNode_t handle, cudaGraphNodeParams* params) {
  std::lock_guard lock(graphMutex_);
  GraphNode* node = graphs_.node(handle);
  if (node == nullptr || params->type != node->type())
    return cudaErrorInvalidValue;
  // Allocation, free and conditional nodes keep the parameters they were created with.
  if (node->type() == cudaGraphNodeTypeMemAlloc || node->type() == cudaGraphNodeTypeMemFree ||
      node->type() == cudaGraphNodeTypeConditional)
    return cudaErrorInvalidValue;
  std::unique_ptr<GraphNode> made;
  if (cudaError_t error = makeNode(*node->graph, *params, &made); error != cudaSuccess)
    return error;
  if (node->child)
    graphs_.forget(*node->child);
  node->params = made->params;
  node->arguments = made->arguments;
  node->copy = made->copy;
  if (made->child) {
    node->child = std::move(made->child);
    node->child->owner = node;
    graphs_.add(*node->child);
  }
  node->rebind();
  return cudaSuccess;
}

cudaError_t CpuDevice::setExecNodeParams(cudaGraphExec_t execHandle, cudaGraphNode_t handle,
                                         cudaGraphNodeParams* params) {
  std::lock_guard lock(graphMutex_);
  auto exec = execs_.find(execHandle);
  GraphNode* node = graphs_.node(handle);
  if (exec == execs_.end() || node == nullptr || params->type != node->type())
    return cudaErrorInvalidValue;
  switch (node->type()) {
  case cudaGraphNodeTypeKernel:
  case cudaGraphNodeTypeMemcpy:
  case cudaGraphNodeTypeMemset:
  case cudaGraphNodeTypeHost:
  case cudaGraphNodeTypeEventRecord:
  case cudaGraphNodeTypeWaitEvent:
    break;
  default:
    // Child graphs change through cudaGraphExecChildGraphNodeSetParams' topology rules; the
    // others cannot change in an executable graph.
    return cudaErrorInvalidValue;
  }
  std::unique_ptr<GraphNode> made;
  if (cudaError_t error = makeNode(*node->graph, *params, &made); error != cudaSuccess)
    return error;
  return exec->second->edit(node->id, [&](GraphNode& target) {
    target.params = made->params;
    target.arguments = made->arguments;
    target.copy = made->copy;
    target.rebind();
    return cudaSuccess;
  });
}

cudaError_t CpuDevice::graphNodeType(cudaGraphNode_t handle, cudaGraphNodeType* type) {
  std::lock_guard lock(graphMutex_);
  GraphNode* node = graphs_.node(handle);
  if (node == nullptr)
    return cudaErrorInvalidValue;
  *type = node->type();
  return cudaSuccess;
}

cudaError_t CpuDevice::graphNodes(cudaGraph_t handle, cudaGraphNode_t* nodes, size_t* count,
                                  bool rootsOnly) {
  std::lock_guard lock(graphMutex_);
  Graph* graph = graphs_.graph(handle);
  if (graph == nullptr)
    return cudaErrorInvalidValue;
  std::vector<cudaGraphNode_t> listed;
  for (const auto& node : graph->nodes)
    if (!rootsOnly || node->dependencies.empty())
      listed.push_back(node->handle());
  answerList(listed, nodes, count);
  return cudaSuccess;
}

cudaError_t CpuDevice::graphEdges(cudaGraph_t handle, cudaGraphNode_t* from, cudaGraphNode_t* to,
                                  cudaGraphEdgeData* edges, size_t* count) {
  std::lock_guard lock(graphMutex_);
  Graph* graph = graphs_.graph(handle);
  if (graph == nullptr)
    return cudaErrorInvalidValue;
  std::vector<cudaGraphNode_t> sources, targets;
  std::vector<cudaGraphEdgeData> data;
  for (const auto& node : graph->nodes)
    for (size_t i = 0; i < node->dependencies.size(); ++i) {
      sources.push_back(node->dependencies[i]->handle());
      targets.push_back(node->handle());
      data.push_back(node->edges[i]);
    }
  if (from == nullptr) {
    *count = sources.size();
    return cudaSuccess;
  }
  const size_t requested = *count;
  answerList(sources, from, count);
  size_t same = requested;
  answerList(targets, to, &same);
  if (edges != nullptr) {
    same = requested;
    answerList(data, edges, &same);
  } else if (!std::all_of(data.begin(), data.end(), defaultEdge)) {
    return cudaErrorLossyQuery; // edge data the caller did not ask for would be lost
  }
  return cudaSuccess;
}

cudaError_t CpuDevice::graphNodeNeighbours(cudaGraphNode_t handle, cudaGraphNode_t* nodes,
                                           cudaGraphEdgeData* edges, size_t* count,
                                           bool dependents) {
  std::lock_guard lock(graphMutex_);
  GraphNode* node = graphs_.node(handle);
  if (node == nullptr)
    return cudaErrorInvalidValue;
  std::vector<cudaGraphNode_t> listed;
  std::vector<cudaGraphEdgeData> data;
  if (dependents) {
    for (GraphNode* dependent : node->dependents) {
      listed.push_back(dependent->handle());
      auto at = std::find(dependent->dependencies.begin(), dependent->dependencies.end(), node);
      data.push_back(dependent->edges[static_cast<size_t>(at - dependent->dependencies.begin())]);
    }
  } else {
    for (GraphNode* dependency : node->dependencies)
      listed.push_back(dependency->handle());
    data = node->edges;
  }
  const size_t requested = *count;
  answerList(listed, nodes, count);
  if (nodes == nullptr)
    return cudaSuccess;
  if (edges != nullptr) {
    size_t same = requested;
    answerList(data, edges, &same);
  } else if (!std::all_of(data.begin(), data.end(), defaultEdge)) {
    return cudaErrorLossyQuery;
  }
  return cudaSuccess;
}

cudaError_t CpuDevice::changeGraphDependencies(cudaGraph_t handle, const cudaGraphNode_t* from,
                                               const cudaGraphNode_t* to,
                                               const cudaGraphEdgeData* edges, size_t count,
                                               bool add) {
  std::lock_guard lock(graphMutex_);
  Graph* graph = graphs_.graph(handle);
  if (graph == nullptr)
    return cudaErrorInvalidValue;
  // Every edge is checked before any changes: a failed call leaves the graph as it was.
  std::vector<std::pair<GraphNode*, GraphNode*>> pairs;
  for (size_t i = 0; i < count; ++i) {
    GraphNode* source = graphs_.node(from[i]);
    GraphNode* target = graphs_.node(to[i]);
    if (source == nullptr || target == nullptr || source->graph != graph ||
        target->graph != graph || source == target)
      return cudaErrorInvalidValue;
    const bool exists = std::find(target->dependencies.begin(), target->dependencies.end(),
                                  source) != target->dependencies.end();
    const bool repeated =
        std::find(pairs.begin(), pairs.end(), std::make_pair(source, target)) != pairs.end();
    if (exists == add || repeated)
      return cudaErrorInvalidValue;
    pairs.emplace_back(source, target);
  }
  for (size_t i = 0; i < pairs.size(); ++i) {
    auto [source, target] = pairs[i];
    if (add) {
      target->dependencies.push_back(source);
      target->edges.push_back(edges != nullptr ? edges[i] : cudaGraphEdgeData{});
      source->dependents.push_back(target);
      continue;
    }
    auto at = std::find(target->dependencies.begin(), target->dependencies.end(), source);
    target->edges.erase(target->edges.begin() + (at - target->dependencies.begin()));
    target->dependencies.erase(at);
    source->dependents.erase(
        std::find(source->dependents.begin(), source->dependents.end(), target));
  }
  return cudaSuccess;
}

cudaError_t CpuDevice::destroyGraphNode(cudaGraphNode_t handle) {
  std::lock_guard lock(graphMutex_);
  GraphNode* node = graphs_.node(handle);
  if (node == nullptr)
    return cudaErrorInvalidValue;
  if (node->child)
    graphs_.forget(*node->child);
  for (const auto& body : node->bodies)
    graphs_.forget(*body);
  graphs_.forgetNode(node);
  removeNode(node);
  return cudaSuccess;
}

cudaError_t CpuDevice::findInClone(cudaGraphNode_t* clonedNode, cudaGraphNode_t handle,
                                   cudaGraph_t cloneHandle) {
  std::lock_guard lock(graphMutex_);
  GraphNode* node = graphs_.node(handle);
  Graph* clone = graphs_.graph(cloneHandle);
  if (node == nullptr || clone == nullptr)
    return cudaErrorInvalidValue;
  GraphNode* found = nullptr;
  forEachGraph(*clone, [&](Graph& each) {
    for (const auto& candidate : each.nodes)
      if (candidate->origin == node->id)
        found = candidate.get();
  });
  if (found == nullptr)
    return cudaErrorInvalidValue;
  *clonedNode = found->handle();
  return cudaSuccess;
}

cudaError_t CpuDevice::setGraphNodeEnabled(cudaGraphExec_t execHandle, cudaGraphNode_t handle,
                                           unsigned int enabled) {
  std::lock_guard lock(graphMutex_);
  auto exec = execs_.find(execHandle);
  GraphNode* node = graphs_.node(handle);
  if (exec == execs_.end() || node == nullptr)
    return cudaErrorInvalidValue;
  return exec->second->edit(node->id, [enabled](GraphNode& target) {
    // Only kernel, memcpy and memset nodes can be disabled.
    if (target.type() != cudaGraphNodeTypeKernel && target.type() != cudaGraphNodeTypeMemcpy &&
        target.type() != cudaGraphNodeTypeMemset)
      return cudaErrorInvalidValue;
    target.enabled = enabled != 0;
    return cudaSuccess;
  });
}

cudaError_t CpuDevice::graphNodeEnabled(cudaGraphExec_t execHandle, cudaGraphNode_t handle,
                                        unsigned int* enabled) {
  std::lock_guard lock(graphMutex_);
  auto exec = execs_.find(execHandle);
  GraphNode* node = graphs_.node(handle);
  if (exec == execs_.end() || node == nullptr)
    return cudaErrorInvalidValue;
  cudaError_t result = cudaSuccess;
  cudaError_t found = exec->second->read(node->id, [&](const GraphNode& target) {
    if (target.type() != cudaGraphNodeTypeKernel && target.type() != cudaGraphNodeTypeMemcpy &&
        target.type() != cudaGraphNodeTypeMemset)
      result = cudaErrorInvalidValue;
    else
      *enabled = target.enabled ? 1 : 0;
  });
  return found != cudaSuccess ? found : result;
}

cudaError_t CpuDevice::kernelNodeAttribute(cudaGraphNode_t handle, cudaLaunchAttributeID id,
                                           cudaLaunchAttributeValue* value) {
  std::lock_guard lock(graphMutex_);
  GraphNode* node = graphs_.node(handle);
  if (node == nullptr || node->type() != cudaGraphNodeTypeKernel)
    return cudaErrorInvalidValue;
  std::memset(value, 0, sizeof *value);
  if (auto it = node->attributes.find(id); it != node->attributes.end())
    *value = it->second;
  return cudaSuccess;
}

cudaError_t CpuDevice::setKernelNodeAttribute(cudaGraphNode_t handle, cudaLaunchAttributeID id,
                                              const cudaLaunchAttributeValue* value) {
  std::lock_guard lock(graphMutex_);
  GraphNode* node = graphs_.node(handle);
  if (node == nullptr || node->type() != cudaGraphNodeTypeKernel)
    return cudaErrorInvalidValue;
  node->attributes[id] = *value;
  return cudaSuccess;
}

cudaError_t CpuDevice::copyKernelNodeAttributes(cudaGraphNode_t destination,
                                                cudaGraphNode_t source) {
  std::lock_guard lock(graphMutex_);
  GraphNode* to = graphs_.node(destination);
  GraphNode* from = graphs_.node(source);
  if (to == nullptr || from == nullptr || to->type() != cudaGraphNodeTypeKernel ||
      from->type() != cudaGraphNodeTypeKernel)
    return cudaErrorInvalidValue;
  to->attributes = from->attributes;
  return cudaSuccess;
}

cudaError_t CpuDevice::createConditionalHandle(cudaGraphConditionalHandle* handle,
                                               cudaGraph_t graphHandle, unsigned int defaultValue,
                                               unsigned int flags) {
  std::lock_guard lock(graphMutex_);
  Graph* graph = graphs_.graph(graphHandle);
  if (graph == nullptr)
    return cudaErrorInvalidValue;
  ConditionalHandle created;
  created.handle = nextConditionalHandle_++;
  created.defaultValue = defaultValue;
  created.flags = flags;
  graph->handles.push_back(created);
  *handle = created.handle;
  return cudaSuccess;
}

cudaError_t CpuDevice::printGraph(cudaGraph_t handle, const char* path, unsigned int flags) {
  std::string text;
  {
    std::lock_guard lock(graphMutex_);
    Graph* graph = graphs_.graph(handle);
    if (graph == nullptr)
      return cudaErrorInvalidValue;
    text = dotText(*graph, (flags & cudaGraphDebugDotFlagsVerbose) != 0);
  }
  std::FILE* out = std::fopen(path, "w");
  if (out == nullptr)
    return cudaErrorOperatingSystem;
  const bool written = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  return std::fclose(out) == 0 && written ? cudaSuccess : cudaErrorOperatingSystem;
}

// --- Executable graphs
// ----------------------------------------------------------------------------

cudaError_t CpuDevice::instantiateGraph(cudaGraphExec_t* exec, cudaGraph_t handle,
                                        cudaGraphInstantiateParams* params) {
  const unsigned long long flags = params != nullptr ? params->flags : 0;
  auto report = [&](cudaGraphInstantiateResult result) {
    if (params != nullptr)
      params->result_out = result;
  };
  std::lock_guard lock(graphMutex_);
  Graph* graph = graphs_.graph(handle);
  if (graph == nullptr || (flags & ~kInstantiateFlags) != 0 ||
      ((flags & cudaGraphInstantiateFlagDeviceLaunch) != 0 &&
       (flags & cudaGraphInstantiateFlagAutoFreeOnLaunch) != 0)) {
    report(cudaGraphInstantiateError);
    return cudaErrorInvalidValue;
  }
  std::unique_ptr<GraphExec> created;
  cudaGraphInstantiateResult result = cudaGraphInstantiateSuccess;
  cudaError_t error = GraphExec::instantiate(*graph, flags, &created, &result);
  report(result);
  if (params != nullptr)
    params->errNode_out = nullptr;
  if (error != cudaSuccess)
    return error;
  retainUserObjects(*created->snapshot()->graph);
  *exec = reinterpret_cast<cudaGraphExec_t>(created.get());
  execs_[created.get()] = std::move(created);
  return cudaSuccess;
}

cudaError_t CpuDevice::destroyGraphExec(cudaGraphExec_t exec) {
  std::lock_guard lock(graphMutex_);
  auto it = execs_.find(exec);
  if (it == execs_.end())
    return cudaErrorInvalidValue;
  // Launches still queued hold the executable graph; only the handle goes now.
  releaseUserObjects(*it->second->snapshot()->graph);
  execs_.erase(it);
  return cudaSuccess;
}

cudaError_t CpuDevice::graphExecFlags(cudaGraphExec_t exec, unsigned long long* flags) {
  std::lock_guard lock(graphMutex_);
  auto it = execs_.find(exec);
  if (it == execs_.end())
    return cudaErrorInvalidValue;
  *flags = it->second->flags();
  return cudaSuccess;
}

cudaError_t CpuDevice::updateGraphExec(cudaGraphExec_t exec, cudaGraph_t handle,
                                       cudaGraphExecUpdateResultInfo* info) {
  std::lock_guard lock(graphMutex_);
  auto it = execs_.find(exec);
  Graph* graph = graphs_.graph(handle);
  if (it == execs_.end() || graph == nullptr) {
    info->result = cudaGraphExecUpdateError;
    info->errorNode = info->errorFromNode = nullptr;
    return cudaErrorInvalidValue;
  }
  return it->second->update(*graph, info);
}

cudaError_t CpuDevice::launchGraph(cudaGraphExec_t execHandle, Stream& queue) {
  auto& stream = static_cast<CpuStream&>(queue);
  if (cudaError_t error = sticky(); error != cudaSuccess)
    return error;
  std::lock_guard lock(graphMutex_);
  auto it = execs_.find(execHandle);
  if (it == execs_.end())
    return cudaErrorInvalidValue;
  std::shared_ptr<GraphExec> exec = it->second;
  std::shared_ptr<const ExecSnapshot> snapshot = exec->snapshot();
  if (stream.capturing()) {
    // Captured as a child-graph node holding a copy of the executable graph.
    Graph* copy = graphs_.adopt(cpu::cloneGraph(*snapshot->graph, false));
    copy->userObjects.clear();
    cudaGraphNodeParams params = {};
    params.type = cudaGraphNodeTypeGraph;
    params.graph.graph = copy->handle();
    cudaError_t error = stream.capture(params);
    graphs_.destroy(copy);
    return error;
  }
  if (cudaError_t error = stream.checkLegacyDuringCapture(); error != cudaSuccess)
    return error;
  // Event-record nodes: the events refer to this launch from now on, and complete as the nodes
  // run.
  auto records = std::make_shared<std::map<uint64_t, CompletionPtr>>();
  auto waits = std::make_shared<std::map<cudaEvent_t, CompletionPtr>>();
  forEachGraph(*snapshot->graph, [&](Graph& each) {
    for (const auto& node : each.nodes)
      if (node->type() == cudaGraphNodeTypeWaitEvent)
        if (CpuEvent* event = events_.find(node->params.eventWait.event))
          (*waits)[node->params.eventWait.event] = event->latest().done;
  });
  forEachGraph(*snapshot->graph, [&](Graph& each) {
    for (const auto& node : each.nodes)
      if (node->type() == cudaGraphNodeTypeEventRecord)
        if (CpuEvent* event = events_.find(node->params.eventRecord.event)) {
          auto record = std::make_shared<Completion>(streams_.progress());
          (*records)[node->id] = record;
          event->recorded(record);
        }
  });
  // Launches of one executable graph run one after the other, whatever their streams.
  CompletionPtr previous = exec->exchangeLastLaunch(nullptr);
  // Not skipped after a fault: the graph skips its nodes itself and still completes its records.
  CompletionPtr done = stream.enqueue(
      [this, exec, snapshot, records, waits] {
        GraphRunner runner(*this, *waits);
        exec->run(*snapshot, runner, *records);
      },
      {previous}, true);
  exec->exchangeLastLaunch(done);
  return cudaSuccess;
}

cudaError_t CpuDevice::uploadGraph(cudaGraphExec_t exec, Stream&) {
  std::lock_guard lock(graphMutex_);
  // Nothing to upload: the executable graph already is in (host) memory.
  return execs_.count(exec) != 0 ? sticky() : cudaErrorInvalidValue;
}

} // namespace ocelot::runtime::cpu
