#include "runtime/cpu/GraphExecutor.h"

#include <algorithm>
#include <cstring>
#include <deque>

namespace ocelot::runtime::cpu {

/// The conditional values of a launch: the executable graph's, which launches share one at a
/// time. Kernels set them from several workers at once.
class ExecutableGraph::LaunchValues final : public ConditionalValues {
public:
  LaunchValues(std::map<unsigned long long, unsigned int>& values, std::mutex& mutex)
      : values_(values), mutex_(mutex) {}
  void set(uint64_t handle, uint32_t value) override {
    std::lock_guard lock(mutex_);
    values_[handle] = value;
  }
  unsigned int get(unsigned long long handle) {
    std::lock_guard lock(mutex_);
    auto it = values_.find(handle);
    return it != values_.end() ? it->second : 0;
  }

private:
  std::map<unsigned long long, unsigned int>& values_;
  std::mutex& mutex_;
};

namespace {

/// Run orders of `graph` and of every graph embedded in it; false on a cycle.
bool orderAll(GraphBody& graph, std::map<const GraphBody*, std::vector<GraphNode*>>* orders) {
  bool ok = true;
  forEachBody(graph, [&](GraphBody& each) {
    auto order = topologicalOrder(each);
    if (!order)
      ok = false;
    else
      (*orders)[&each] = std::move(*order);
  });
  return ok;
}

std::vector<GraphNode*> exitNodes(const GraphBody& graph) {
  std::vector<GraphNode*> exits;
  for (const auto& node : graph.nodes)
    if (node->dependents.empty())
      exits.push_back(node.get());
  return exits;
}

void fail(cudaGraphExecUpdateResultInfo* info, cudaGraphExecUpdateResult result,
          const GraphNode* node, const GraphNode* from = nullptr) {
  info->result = result;
  info->errorNode = node != nullptr ? const_cast<GraphNode*>(node)->handle() : nullptr;
  info->errorFromNode = from != nullptr ? const_cast<GraphNode*>(from)->handle() : nullptr;
}

bool sameMemset(const cudaMemsetParamsV2& a, const cudaMemsetParamsV2& b) {
  return a.pitch == b.pitch && a.elementSize == b.elementSize && a.width == b.width &&
         a.height == b.height;
}

/// Pairs `next`'s nodes with `mine`'s (cudaGraphExecUpdate's rules) and checks that each pair may
/// be updated; on success `pairs` maps every node of `mine` (nested graphs included) to its
/// partner in `next`.
bool pairGraphs(const GraphBody& next, GraphBody& mine,
                std::map<GraphNode*, const GraphNode*>* pairs,
                std::vector<std::pair<const GraphBody*, GraphBody*>>* graphs,
                cudaGraphExecUpdateResultInfo* info) {
  graphs->emplace_back(&next, &mine);
  if (next.nodes.size() != mine.nodes.size()) {
    fail(info, cudaGraphExecUpdateErrorTopologyChanged, nullptr);
    return false;
  }
  const std::vector<GraphNode*> nextExits = exitNodes(next), myExits = exitNodes(mine);
  if (nextExits.size() != myExits.size()) {
    fail(info, cudaGraphExecUpdateErrorTopologyChanged,
         nextExits.size() > myExits.size() ? nextExits[myExits.size()] : nullptr);
    return false;
  }
  std::map<const GraphNode*, GraphNode*> partnerOfNext;
  std::map<const GraphNode*, const GraphNode*> partnerOfMine;
  std::deque<std::pair<const GraphNode*, GraphNode*>> work;
  for (size_t i = 0; i < nextExits.size(); ++i) {
    partnerOfNext[nextExits[i]] = myExits[i];
    partnerOfMine[myExits[i]] = nextExits[i];
    work.emplace_back(nextExits[i], myExits[i]);
  }
  while (!work.empty()) {
    auto [n, m] = work.front();
    work.pop_front();
    if (n->dependencies.size() != m->dependencies.size()) {
      fail(info, cudaGraphExecUpdateErrorTopologyChanged, n);
      return false;
    }
    for (size_t i = 0; i < n->dependencies.size(); ++i) {
      const GraphNode* dn = n->dependencies[i];
      GraphNode* dm = m->dependencies[i];
      auto known = partnerOfNext.find(dn);
      auto taken = partnerOfMine.find(dm);
      if (known != partnerOfNext.end() || taken != partnerOfMine.end()) {
        if (known == partnerOfNext.end() || known->second != dm) {
          fail(info, cudaGraphExecUpdateErrorTopologyChanged, n, dn);
          return false;
        }
        continue;
      }
      partnerOfNext[dn] = dm;
      partnerOfMine[dm] = dn;
      work.emplace_back(dn, dm);
    }
  }
  if (partnerOfMine.size() != mine.nodes.size()) {
    fail(info, cudaGraphExecUpdateErrorTopologyChanged, nullptr);
    return false;
  }
  // Per-node rules, in the executable graph's node order.
  for (const auto& owned : mine.nodes) {
    GraphNode* m = owned.get();
    const GraphNode* n = partnerOfMine[m];
    (*pairs)[m] = n;
    if (n->type() != m->type()) {
      fail(info, cudaGraphExecUpdateErrorNodeTypeChanged, n);
      return false;
    }
    switch (m->type()) {
    case cudaGraphNodeTypeMemset:
      // 2D fills may change only address and value.
      if ((m->params.memset.height > 1 || n->params.memset.height > 1) &&
          !sameMemset(m->params.memset, n->params.memset)) {
        fail(info, cudaGraphExecUpdateErrorParametersChanged, n);
        return false;
      }
      break;
    case cudaGraphNodeTypeMemcpy:
      // The memory type of either side (array or linear memory) may not change.
      if ((m->copy.source.array == nullptr) != (n->copy.source.array == nullptr) ||
          (m->copy.destination.array == nullptr) != (n->copy.destination.array == nullptr)) {
        fail(info, cudaGraphExecUpdateErrorParametersChanged, n);
        return false;
      }
      break;
    case cudaGraphNodeTypeMemAlloc:
      if (m->params.alloc.bytesize != n->params.alloc.bytesize) {
        fail(info, cudaGraphExecUpdateErrorParametersChanged, n);
        return false;
      }
      break;
    case cudaGraphNodeTypeMemFree:
      if (m->params.free.dptr != n->params.free.dptr) {
        fail(info, cudaGraphExecUpdateErrorParametersChanged, n);
        return false;
      }
      break;
    case cudaGraphNodeTypeGraph:
      if (!pairGraphs(*n->child, *m->child, pairs, graphs, info))
        return false;
      break;
    case cudaGraphNodeTypeConditional:
      if (m->params.conditional.type != n->params.conditional.type ||
          m->params.conditional.size != n->params.conditional.size) {
        fail(info, cudaGraphExecUpdateErrorParametersChanged, n);
        return false;
      }
      for (size_t b = 0; b < m->bodies.size(); ++b)
        if (!pairGraphs(*n->bodies[b], *m->bodies[b], pairs, graphs, info))
          return false;
      break;
    case cudaGraphNodeTypeExtSemaphoreSignal:
    case cudaGraphNodeTypeExtSemaphoreWait:
      fail(info, cudaGraphExecUpdateErrorNotSupported, n);
      return false;
    default:
      break;
    }
  }
  return true;
}

/// Copies the parameters of `next` into the paired executable node `mine`.
void takeParameters(GraphNode& mine, const GraphNode& next) {
  switch (mine.type()) {
  case cudaGraphNodeTypeGraph:
  case cudaGraphNodeTypeMemAlloc:
    // Child graphs are paired node by node; an allocation keeps its address.
    break;
  case cudaGraphNodeTypeConditional:
    // The bodies are paired node by node; their kernels now set the new graph's handle.
    mine.params.conditional.handle = next.params.conditional.handle;
    break;
  default:
    mine.params = next.params;
    mine.arguments = next.arguments;
    mine.attributes = next.attributes;
    mine.copy = next.copy;
    break;
  }
  mine.rebind();
}

} // namespace

cudaError_t ExecutableGraph::instantiate(const GraphBody& graph, unsigned long long flags,
                                         std::unique_ptr<ExecutableGraph>* exec,
                                         cudaGraphInstantiateResult* result) {
  auto snapshot = std::make_shared<ExecSnapshot>();
  snapshot->graph = cloneBody(graph, false);
  if (!orderAll(*snapshot->graph, &snapshot->orders)) {
    *result = cudaGraphInstantiateInvalidStructure;
    return cudaErrorInvalidValue;
  }
  auto created = std::make_unique<ExecutableGraph>();
  created->flags_ = flags;
  forEachBody(*snapshot->graph, [&](GraphBody& each) {
    for (const ConditionalHandle& handle : each.handles)
      created->values_[handle.handle] = handle.defaultValue;
  });
  created->snapshot_ = std::move(snapshot);
  *exec = std::move(created);
  *result = cudaGraphInstantiateSuccess;
  return cudaSuccess;
}

std::shared_ptr<const ExecSnapshot> ExecutableGraph::snapshot() const {
  std::lock_guard lock(mutex_);
  return snapshot_;
}

cudaError_t ExecutableGraph::edit(uint64_t templateId,
                                  const std::function<cudaError_t(GraphNode&)>& change) {
  std::lock_guard lock(mutex_);
  auto next = std::make_shared<ExecSnapshot>();
  next->graph = cloneBody(*snapshot_->graph, true);
  GraphNode* target = nullptr;
  forEachBody(*next->graph, [&](GraphBody& each) {
    for (const auto& node : each.nodes)
      if (node->origin == templateId)
        target = node.get();
  });
  if (target == nullptr)
    return cudaErrorInvalidValue;
  if (cudaError_t error = change(*target); error != cudaSuccess)
    return error;
  orderAll(*next->graph, &next->orders);
  snapshot_ = std::move(next);
  return cudaSuccess;
}

cudaError_t ExecutableGraph::read(uint64_t templateId,
                                  const std::function<void(const GraphNode&)>& look) const {
  std::shared_ptr<const ExecSnapshot> current = snapshot();
  const GraphNode* found = nullptr;
  forEachBody(*current->graph, [&](GraphBody& each) {
    for (const auto& node : each.nodes)
      if (node->origin == templateId)
        found = node.get();
  });
  if (found == nullptr)
    return cudaErrorInvalidValue;
  look(*found);
  return cudaSuccess;
}

cudaError_t ExecutableGraph::update(const GraphBody& graph, cudaGraphExecUpdateResultInfo* info) {
  std::lock_guard lock(mutex_);
  auto next = std::make_shared<ExecSnapshot>();
  next->graph = cloneBody(*snapshot_->graph, true);
  std::map<GraphNode*, const GraphNode*> pairs;
  std::vector<std::pair<const GraphBody*, GraphBody*>> graphs;
  fail(info, cudaGraphExecUpdateSuccess, nullptr);
  if (!pairGraphs(graph, *next->graph, &pairs, &graphs, info))
    return cudaErrorGraphExecUpdateFailure;
  for (auto [mine, theirs] : pairs)
    takeParameters(*mine, *theirs);
  // Conditional handles, their defaults and flags are the new graph's from now on; a handle
  // keeps the value it had when the paired graph had one at the same position.
  std::lock_guard values(valuesMutex_);
  std::map<unsigned long long, unsigned int> kept;
  for (auto [theirs, mine] : graphs) {
    for (size_t i = 0; i < theirs->handles.size(); ++i) {
      const ConditionalHandle& handle = theirs->handles[i];
      auto old = i < mine->handles.size() ? values_.find(mine->handles[i].handle) : values_.end();
      kept[handle.handle] = old != values_.end() ? old->second : handle.defaultValue;
    }
    mine->handles = theirs->handles;
  }
  values_ = std::move(kept);
  orderAll(*next->graph, &next->orders);
  snapshot_ = std::move(next);
  return cudaSuccess;
}

CompletionPtr ExecutableGraph::exchangeLastLaunch(CompletionPtr launch) {
  std::lock_guard lock(mutex_);
  std::swap(lastLaunch_, launch);
  return launch;
}

void ExecutableGraph::run(const ExecSnapshot& snapshot, GraphWork& work,
                          const std::map<uint64_t, CompletionPtr>& records) {
  {
    std::lock_guard lock(valuesMutex_);
    forEachBody(*snapshot.graph, [&](GraphBody& each) {
      for (const ConditionalHandle& handle : each.handles)
        if ((handle.flags & cudaGraphCondAssignDefault) != 0)
          values_[handle.handle] = handle.defaultValue;
    });
  }
  LaunchValues values(values_, valuesMutex_);
  runGraph(snapshot, *snapshot.graph, work, records, values);
  for (const auto& [node, record] : records)
    record->complete();
}

void ExecutableGraph::runGraph(const ExecSnapshot& snapshot, const GraphBody& graph,
                               GraphWork& work, const std::map<uint64_t, CompletionPtr>& records,
                               LaunchValues& values) {
  auto order = snapshot.orders.find(&graph);
  if (order == snapshot.orders.end())
    return;
  for (const GraphNode* node : order->second) {
    if (work.faulted())
      return;
    switch (node->type()) {
    case cudaGraphNodeTypeKernel:
      if (node->enabled)
        work.kernel(*node, values);
      break;
    case cudaGraphNodeTypeMemcpy:
      if (node->enabled)
        work.copy(*node);
      break;
    case cudaGraphNodeTypeMemset:
      if (node->enabled)
        work.fill(*node);
      break;
    case cudaGraphNodeTypeHost:
      work.host(*node);
      break;
    case cudaGraphNodeTypeGraph:
      runGraph(snapshot, *node->child, work, records, values);
      break;
    case cudaGraphNodeTypeEventRecord:
      if (auto it = records.find(node->id); it != records.end())
        it->second->complete();
      break;
    case cudaGraphNodeTypeWaitEvent:
      work.waitEvent(node->params.eventWait.event);
      break;
    case cudaGraphNodeTypeConditional: {
      const cudaConditionalNodeParams& conditional = node->params.conditional;
      const size_t bodies = node->bodies.size();
      if (conditional.type == cudaGraphCondTypeWhile) {
        while (bodies != 0 && values.get(conditional.handle) != 0 && !work.faulted())
          runGraph(snapshot, *node->bodies[0], work, records, values);
      } else if (conditional.type == cudaGraphCondTypeIf) {
        const unsigned int value = values.get(conditional.handle);
        if (value != 0 && bodies >= 1)
          runGraph(snapshot, *node->bodies[0], work, records, values);
        else if (value == 0 && bodies >= 2)
          runGraph(snapshot, *node->bodies[1], work, records, values);
      } else if (conditional.type == cudaGraphCondTypeSwitch) {
        const unsigned int value = values.get(conditional.handle);
        if (value < bodies)
          runGraph(snapshot, *node->bodies[value], work, records, values);
      }
      break;
    }
    default:
      // Empty nodes, mem-alloc (the memory exists from the node's creation) and mem-free nodes
      // (released with the graph) do nothing when they run.
      break;
    }
  }
}

} // namespace ocelot::runtime::cpu
