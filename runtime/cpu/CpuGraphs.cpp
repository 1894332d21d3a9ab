// CpuGraphs: the CPU device's graphs and executable graphs, the calls on single nodes, and user
// objects. Node handles name no graph: they are checked against the nodes of every graph the device
// handed out (top-level ones and those embedded in nodes).

#include "runtime/cpu/CpuDevice.h"
#include "runtime/cpu/CpuGraph.h"
#include "runtime/cpu/CpuGraphExec.h"

#include <algorithm>
#include <cstring>

namespace ocelot::runtime::cpu {

// --- Graphs and their registration --------------------------------------------------------------

void CpuGraphs::add(GraphBody& body) {
  forEachBody(body, [this](GraphBody& each) {
    if (graphs_.find(each.handle()) == nullptr)
      graphs_.insert(each.handle(), std::make_unique<CpuGraph>(*this, each, nullptr));
    for (const auto& node : each.nodes)
      nodes_.insert(node.get());
  });
}

void CpuGraphs::forget(GraphBody& body) {
  forEachBody(body, [this, &body](GraphBody& each) {
    for (const auto& node : each.nodes)
      nodes_.erase(node.get());
    // The top-level graph's object owns `body`: it goes last (see destroyTopLevel).
    if (&each != &body || each.owner != nullptr)
      graphs_.remove(each.handle());
  });
}

CpuGraph& CpuGraphs::own(std::unique_ptr<GraphBody> body) {
  GraphBody& raw = *body;
  auto* graph =
      graphs_.insert(raw.handle(), std::make_unique<CpuGraph>(*this, raw, std::move(body)));
  add(raw);
  return *graph;
}

GraphExec* CpuGraphs::own(std::unique_ptr<CpuGraphExec> exec) {
  const cudaGraphExec_t handle = exec->handle();
  return execs_.insert(handle, std::move(exec));
}

void CpuGraphs::destroyTopLevel(GraphBody& body) {
  forget(body);
  graphs_.remove(body.handle());
}

GraphNode* CpuGraphs::node(cudaGraphNode_t handle) {
  auto* node = reinterpret_cast<GraphNode*>(handle);
  return nodes_.count(node) != 0 ? node : nullptr;
}

bool CpuGraphs::isAllocation(void* pointer) {
  std::lock_guard lock(allocationsMutex_);
  return allocations_.count(pointer) != 0;
}

cudaError_t CpuGraphs::create(unsigned int flags, Graph** graph) {
  if (flags != 0)
    return cudaErrorInvalidValue;
  std::lock_guard lock(mutex_);
  *graph = &own(std::make_unique<GraphBody>());
  return cudaSuccess;
}

cudaError_t CpuGraphs::destroy(Graph& graph) {
  std::lock_guard lock(mutex_);
  auto& cpuGraph = static_cast<CpuGraph&>(graph);
  // Child graphs and conditional bodies belong to their nodes.
  if (!cpuGraph.topLevel() || captures_.capturesInto(&cpuGraph.body()))
    return cudaErrorInvalidValue;
  releaseUserObjects(cpuGraph.body());
  destroyTopLevel(cpuGraph.body());
  return cudaSuccess;
}

cudaError_t CpuGraphs::destroy(GraphExec& exec) {
  std::lock_guard lock(mutex_);
  // Launches still queued hold what they run; only the handle goes now.
  releaseUserObjects(*static_cast<CpuGraphExec&>(exec).snapshot()->graph);
  execs_.remove(exec.handle());
  return cudaSuccess;
}

void CpuGraphs::reset() {
  std::lock_guard lock(mutex_);
  execs_.clear();
  graphs_.clear();
  nodes_.clear();
  userObjects_.clear();
  captures_.clear();
}

// --- Nodes --------------------------------------------------------------------------------------

cudaError_t CpuGraphs::nodeParams(cudaGraphNode_t handle, cudaGraphNodeParams* params) {
  std::lock_guard lock(mutex_);
  GraphNode* found = node(handle);
  if (found == nullptr)
    return cudaErrorInvalidValue;
  *params = found->params;
  return cudaSuccess;
}

cudaError_t CpuGraphs::setNodeParams(cudaGraphNode_t handle, cudaGraphNodeParams* params) {
  std::lock_guard lock(mutex_);
  GraphNode* target = node(handle);
  if (target == nullptr || params->type != target->type())
    return cudaErrorInvalidValue;
  // Allocation, free and conditional nodes keep the parameters they were created with.
  if (target->type() == cudaGraphNodeTypeMemAlloc || target->type() == cudaGraphNodeTypeMemFree ||
      target->type() == cudaGraphNodeTypeConditional)
    return cudaErrorInvalidValue;
  std::unique_ptr<GraphNode> made;
  if (cudaError_t error = makeNode(*target->graph, *params, &made); error != cudaSuccess)
    return error;
  if (target->child)
    forget(*target->child);
  target->params = made->params;
  target->arguments = made->arguments;
  target->copy = made->copy;
  if (made->child) {
    target->child = std::move(made->child);
    target->child->owner = target;
    add(*target->child);
  }
  target->rebind();
  return cudaSuccess;
}

cudaError_t CpuGraphs::nodeType(cudaGraphNode_t handle, cudaGraphNodeType* type) {
  std::lock_guard lock(mutex_);
  GraphNode* found = node(handle);
  if (found == nullptr)
    return cudaErrorInvalidValue;
  *type = found->type();
  return cudaSuccess;
}

cudaError_t CpuGraphs::neighbours(cudaGraphNode_t handle, cudaGraphNode_t* nodes,
                                  cudaGraphEdgeData* edges, size_t* count, bool dependents) {
  std::lock_guard lock(mutex_);
  GraphNode* found = node(handle);
  if (found == nullptr)
    return cudaErrorInvalidValue;
  std::vector<cudaGraphNode_t> listed;
  std::vector<cudaGraphEdgeData> data;
  if (dependents) {
    for (GraphNode* dependent : found->dependents) {
      listed.push_back(dependent->handle());
      auto at = std::find(dependent->dependencies.begin(), dependent->dependencies.end(), found);
      data.push_back(dependent->edges[static_cast<size_t>(at - dependent->dependencies.begin())]);
    }
  } else {
    for (GraphNode* dependency : found->dependencies)
      listed.push_back(dependency->handle());
    data = found->edges;
  }
  const size_t requested = *count;
  answerList(listed, nodes, count);
  if (nodes == nullptr)
    return cudaSuccess;
  if (edges != nullptr) {
    size_t same = requested;
    answerList(data, edges, &same);
  } else if (!std::all_of(data.begin(), data.end(), [](const cudaGraphEdgeData& edge) {
               return edge.from_port == 0 && edge.to_port == 0 && edge.type == 0;
             })) {
    return cudaErrorLossyQuery;
  }
  return cudaSuccess;
}

cudaError_t CpuGraphs::destroyNode(cudaGraphNode_t handle) {
  std::lock_guard lock(mutex_);
  GraphNode* found = node(handle);
  if (found == nullptr)
    return cudaErrorInvalidValue;
  if (found->child)
    forget(*found->child);
  for (const auto& body : found->bodies)
    forget(*body);
  nodes_.erase(found);
  removeNode(found);
  return cudaSuccess;
}

cudaError_t CpuGraphs::kernelNodeAttribute(cudaGraphNode_t handle, cudaLaunchAttributeID id,
                                           cudaLaunchAttributeValue* value) {
  std::lock_guard lock(mutex_);
  GraphNode* found = node(handle);
  if (found == nullptr || found->type() != cudaGraphNodeTypeKernel)
    return cudaErrorInvalidValue;
  std::memset(value, 0, sizeof *value);
  if (auto it = found->attributes.find(id); it != found->attributes.end())
    *value = it->second;
  return cudaSuccess;
}

cudaError_t CpuGraphs::setKernelNodeAttribute(cudaGraphNode_t handle, cudaLaunchAttributeID id,
                                              const cudaLaunchAttributeValue* value) {
  std::lock_guard lock(mutex_);
  GraphNode* found = node(handle);
  if (found == nullptr || found->type() != cudaGraphNodeTypeKernel)
    return cudaErrorInvalidValue;
  found->attributes[id] = *value;
  return cudaSuccess;
}

cudaError_t CpuGraphs::copyKernelNodeAttributes(cudaGraphNode_t destination,
                                                cudaGraphNode_t source) {
  std::lock_guard lock(mutex_);
  GraphNode* to = node(destination);
  GraphNode* from = node(source);
  if (to == nullptr || from == nullptr || to->type() != cudaGraphNodeTypeKernel ||
      from->type() != cudaGraphNodeTypeKernel)
    return cudaErrorInvalidValue;
  to->attributes = from->attributes;
  return cudaSuccess;
}

// --- User objects -------------------------------------------------------------------------------

void CpuGraphs::retainUserObjects(const GraphBody& graph) {
  for (const auto& [object, count] : graph.userObjects)
    if (auto it = userObjects_.find(object); it != userObjects_.end())
      it->second->references += count;
}

void CpuGraphs::releaseUserObjects(const GraphBody& graph) {
  for (const auto& [object, count] : graph.userObjects)
    releaseUserObject(static_cast<cudaUserObject_t>(object), count);
}

void CpuGraphs::releaseUserObject(cudaUserObject_t object, unsigned int count) {
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

cudaError_t CpuGraphs::createUserObject(cudaUserObject_t* object, void* pointer,
                                        cudaHostFn_t destructor, unsigned int count, unsigned int) {
  auto created = std::make_unique<UserObject>();
  created->pointer = pointer;
  created->destroy = destructor;
  created->references = count;
  std::lock_guard lock(mutex_);
  *object = reinterpret_cast<cudaUserObject_t>(created.get());
  userObjects_[created.get()] = std::move(created);
  return cudaSuccess;
}

cudaError_t CpuGraphs::changeUserObjectReferences(cudaUserObject_t object, int count) {
  std::lock_guard lock(mutex_);
  auto it = userObjects_.find(object);
  if (it == userObjects_.end())
    return cudaErrorInvalidValue;
  if (count > 0)
    it->second->references += static_cast<unsigned int>(count);
  else
    releaseUserObject(object, static_cast<unsigned int>(-count));
  return cudaSuccess;
}

} // namespace ocelot::runtime::cpu
