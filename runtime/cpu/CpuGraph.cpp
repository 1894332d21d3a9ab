// A graph of the CPU device: what the application does with one graph (cudaGraph_t). Every call
// takes the graphs' mutex (CpuGraphs), which guards all graphs, nodes and captures.

#include "runtime/cpu/CpuGraph.h"

#include "runtime/cpu/CpuGraphExec.h"

#include <algorithm>
#include <cstdio>

namespace ocelot::runtime::cpu {
namespace {

constexpr unsigned long long kInstantiateFlags =
    cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload |
    cudaGraphInstantiateFlagDeviceLaunch | cudaGraphInstantiateFlagUseNodePriority;

bool defaultEdge(const cudaGraphEdgeData& edge) {
  return edge.from_port == 0 && edge.to_port == 0 && edge.type == 0;
}

} // namespace

CpuGraph::CpuGraph(CpuGraphs& graphs, GraphBody& body, std::unique_ptr<GraphBody> owned)
    : Graph(body.handle()), graphs_(graphs), body_(body), owned_(std::move(owned)) {}

cudaError_t CpuGraph::clone(Graph** clone) {
  std::lock_guard lock(graphs_.mutex());
  std::unique_ptr<GraphBody> copy = cloneBody(body_, false);
  copy->owner = nullptr;
  graphs_.retainUserObjects(*copy);
  *clone = &graphs_.own(std::move(copy));
  return cudaSuccess;
}

cudaError_t CpuGraph::addNode(cudaGraphNode_t* node, const cudaGraphNode_t* dependencies,
                              const cudaGraphEdgeData* edges, size_t count,
                              cudaGraphNodeParams* params) {
  std::lock_guard lock(graphs_.mutex());
  for (size_t i = 0; i < count; ++i)
    if (GraphNode* dependency = graphs_.node(dependencies[i]);
        dependency == nullptr || dependency->graph != &body_)
      return cudaErrorInvalidValue;
  std::unique_ptr<GraphNode> made;
  if (cudaError_t error = graphs_.makeNode(body_, *params, &made); error != cudaSuccess)
    return error;
  GraphNode* inserted = nullptr;
  if (cudaError_t error =
          graphs_.insertNode(body_, std::move(made), dependencies, edges, count, &inserted);
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

cudaError_t CpuGraph::nodes(cudaGraphNode_t* nodes, size_t* count, bool rootsOnly) {
  std::lock_guard lock(graphs_.mutex());
  std::vector<cudaGraphNode_t> listed;
  for (const auto& node : body_.nodes)
    if (!rootsOnly || node->dependencies.empty())
      listed.push_back(node->handle());
  answerList(listed, nodes, count);
  return cudaSuccess;
}

cudaError_t CpuGraph::edges(cudaGraphNode_t* from, cudaGraphNode_t* to, cudaGraphEdgeData* edges,
                            size_t* count) {
  std::lock_guard lock(graphs_.mutex());
  std::vector<cudaGraphNode_t> sources, targets;
  std::vector<cudaGraphEdgeData> data;
  for (const auto& node : body_.nodes)
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

cudaError_t CpuGraph::changeDependencies(const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                         const cudaGraphEdgeData* edges, size_t count, bool add) {
  std::lock_guard lock(graphs_.mutex());
  // Every edge is checked before any changes: a failed call leaves the graph as it was.
  std::vector<std::pair<GraphNode*, GraphNode*>> pairs;
  for (size_t i = 0; i < count; ++i) {
    GraphNode* source = graphs_.node(from[i]);
    GraphNode* target = graphs_.node(to[i]);
    if (source == nullptr || target == nullptr || source->graph != &body_ ||
        target->graph != &body_ || source == target)
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

cudaError_t CpuGraph::findClonedNode(cudaGraphNode_t handle, cudaGraphNode_t* cloned) {
  std::lock_guard lock(graphs_.mutex());
  GraphNode* node = graphs_.node(handle);
  if (node == nullptr)
    return cudaErrorInvalidValue;
  GraphNode* found = nullptr;
  forEachBody(body_, [&](GraphBody& each) {
    for (const auto& candidate : each.nodes)
      if (candidate->origin == node->id)
        found = candidate.get();
  });
  if (found == nullptr)
    return cudaErrorInvalidValue;
  *cloned = found->handle();
  return cudaSuccess;
}

cudaError_t CpuGraph::createConditionalHandle(cudaGraphConditionalHandle* handle,
                                              unsigned int defaultValue, unsigned int flags) {
  std::lock_guard lock(graphs_.mutex());
  ConditionalHandle created;
  created.handle = graphs_.nextConditionalHandle();
  created.defaultValue = defaultValue;
  created.flags = flags;
  body_.handles.push_back(created);
  *handle = created.handle;
  return cudaSuccess;
}

cudaError_t CpuGraph::instantiate(cudaGraphInstantiateParams* params, GraphExec** exec) {
  const unsigned long long flags = params != nullptr ? params->flags : 0;
  auto report = [&](cudaGraphInstantiateResult result) {
    if (params != nullptr)
      params->result_out = result;
  };
  std::lock_guard lock(graphs_.mutex());
  if ((flags & ~kInstantiateFlags) != 0 ||
      ((flags & cudaGraphInstantiateFlagDeviceLaunch) != 0 &&
       (flags & cudaGraphInstantiateFlagAutoFreeOnLaunch) != 0)) {
    report(cudaGraphInstantiateError);
    return cudaErrorInvalidValue;
  }
  std::unique_ptr<CpuGraphExec> created;
  cudaGraphInstantiateResult result = cudaGraphInstantiateSuccess;
  cudaError_t error = CpuGraphExec::instantiate(graphs_, body_, flags, &created, &result);
  report(result);
  if (params != nullptr)
    params->errNode_out = nullptr;
  if (error != cudaSuccess)
    return error;
  graphs_.retainUserObjects(*created->snapshot()->graph);
  *exec = graphs_.own(std::move(created));
  return cudaSuccess;
}

cudaError_t CpuGraph::print(const char* path, unsigned int flags) {
  std::string text;
  {
    std::lock_guard lock(graphs_.mutex());
    text = dotText(body_, (flags & cudaGraphDebugDotFlagsVerbose) != 0);
  }
  std::FILE* out = std::fopen(path, "w");
  if (out == nullptr)
    return cudaErrorOperatingSystem;
  const bool written = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  return std::fclose(out) == 0 && written ? cudaSuccess : cudaErrorOperatingSystem;
}

cudaError_t CpuGraph::changeUserObject(cudaUserObject_t object, int count, unsigned int flags) {
  std::lock_guard lock(graphs_.mutex());
  auto it = graphs_.userObjects_.find(object);
  if (it == graphs_.userObjects_.end())
    return cudaErrorInvalidValue;
  if (count > 0) {
    body_.userObjects[object] += static_cast<unsigned int>(count);
    // cudaGraphUserObjectMove hands the caller's references over instead of taking new ones.
    if ((flags & cudaGraphUserObjectMove) == 0)
      it->second->references += static_cast<unsigned int>(count);
    return cudaSuccess;
  }
  const auto released = static_cast<unsigned int>(-count);
  auto held = body_.userObjects.find(object);
  if (held == body_.userObjects.end() || held->second < released)
    return cudaErrorInvalidValue;
  if ((held->second -= released) == 0)
    body_.userObjects.erase(held);
  graphs_.releaseUserObject(object, released);
  return cudaSuccess;
}

} // namespace ocelot::runtime::cpu
