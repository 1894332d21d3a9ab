#include "runtime/cpu/GraphBody.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <deque>

namespace ocelot::runtime::cpu {

GraphNode::GraphNode() {
  static std::atomic<uint64_t> next{1};
  id = next.fetch_add(1, std::memory_order_relaxed);
}

KernelArguments::KernelArguments(std::vector<std::byte> bytes, std::vector<size_t> offsets)
    : bytes_(std::move(bytes)), offsets_(std::move(offsets)) {
  for (size_t offset : offsets_)
    pointers_.push_back(bytes_.data() + offset);
}

KernelArguments& KernelArguments::operator=(const KernelArguments& other) {
  if (this == &other)
    return *this;
  bytes_ = other.bytes_;
  offsets_ = other.offsets_;
  pointers_.clear();
  for (size_t offset : offsets_)
    pointers_.push_back(bytes_.data() + offset);
  return *this;
}

void GraphNode::rebind() {
  switch (params.type) {
  case cudaGraphNodeTypeKernel:
    params.kernel.kernelParams = arguments.pointers();
    params.kernel.extra = nullptr; // `extra` was unpacked into the arguments
    break;
  case cudaGraphNodeTypeGraph:
    params.graph.graph = child ? child->handle() : nullptr;
    break;
  case cudaGraphNodeTypeConditional:
    bodyHandles.clear();
    for (const auto& body : bodies)
      bodyHandles.push_back(body->handle());
    params.conditional.phGraph_out = bodyHandles.data();
    break;
  case cudaGraphNodeTypeMemAlloc:
    if (allocation)
      params.alloc.dptr = allocation->pointer;
    break;
  default:
    break;
  }
}

const GraphBody& GraphBody::root() const {
  const GraphBody* graph = this;
  while (graph->owner != nullptr)
    graph = graph->owner->graph;
  return *graph;
}

const ConditionalHandle* GraphBody::findHandle(unsigned long long handle) const {
  for (const GraphBody* graph = this; graph != nullptr;
       graph = graph->owner != nullptr ? graph->owner->graph : nullptr)
    for (const ConditionalHandle& candidate : graph->handles)
      if (candidate.handle == handle)
        return &candidate;
  return nullptr;
}

std::unique_ptr<GraphBody> cloneBody(const GraphBody& graph, bool keepOrigins) {
  auto copy = std::make_unique<GraphBody>();
  copy->handles = graph.handles;
  copy->userObjects = graph.userObjects;
  std::map<const GraphNode*, GraphNode*> mapped;
  for (const auto& node : graph.nodes) {
    auto twin = std::make_unique<GraphNode>();
    twin->graph = copy.get();
    twin->params = node->params;
    twin->arguments = node->arguments;
    twin->attributes = node->attributes;
    twin->copy = node->copy;
    twin->allocation = node->allocation;
    twin->enabled = node->enabled;
    twin->edges = node->edges;
    twin->origin = keepOrigins ? node->origin : node->id;
    if (node->child) {
      twin->child = cloneBody(*node->child, keepOrigins);
      twin->child->owner = twin.get();
    }
    for (const auto& body : node->bodies) {
      twin->bodies.push_back(cloneBody(*body, keepOrigins));
      twin->bodies.back()->owner = twin.get();
    }
    twin->rebind();
    mapped[node.get()] = twin.get();
    copy->nodes.push_back(std::move(twin));
  }
  for (const auto& node : graph.nodes) {
    GraphNode* twin = mapped[node.get()];
    for (GraphNode* dependency : node->dependencies)
      twin->dependencies.push_back(mapped[dependency]);
    for (GraphNode* dependent : node->dependents)
      twin->dependents.push_back(mapped[dependent]);
  }
  return copy;
}

std::optional<std::vector<GraphNode*>> topologicalOrder(const GraphBody& graph) {
  // Kahn's algorithm, taking ready nodes in creation order so that independent nodes run in the
  // order the application added them.
  std::map<const GraphNode*, size_t> waiting;
  std::deque<GraphNode*> ready;
  for (const auto& node : graph.nodes) {
    waiting[node.get()] = node->dependencies.size();
    if (node->dependencies.empty())
      ready.push_back(node.get());
  }
  std::vector<GraphNode*> order;
  while (!ready.empty()) {
    GraphNode* node = ready.front();
    ready.pop_front();
    order.push_back(node);
    for (GraphNode* dependent : node->dependents)
      if (--waiting[dependent] == 0)
        ready.push_back(dependent);
  }
  if (order.size() != graph.nodes.size())
    return std::nullopt;
  return order;
}

void removeNode(GraphNode* node) {
  GraphBody& graph = *node->graph;
  for (GraphNode* dependency : node->dependencies) {
    auto& list = dependency->dependents;
    list.erase(std::remove(list.begin(), list.end(), node), list.end());
  }
  for (GraphNode* dependent : node->dependents) {
    for (size_t i = dependent->dependencies.size(); i-- > 0;)
      if (dependent->dependencies[i] == node) {
        dependent->dependencies.erase(dependent->dependencies.begin() + static_cast<long>(i));
        dependent->edges.erase(dependent->edges.begin() + static_cast<long>(i));
      }
  }
  auto it = std::find_if(graph.nodes.begin(), graph.nodes.end(),
                         [node](const auto& owned) { return owned.get() == node; });
  if (it != graph.nodes.end())
    graph.nodes.erase(it);
}

void forEachBody(GraphBody& graph, const std::function<void(GraphBody&)>& visit) {
  visit(graph);
  for (const auto& node : graph.nodes) {
    if (node->child)
      forEachBody(*node->child, visit);
    for (const auto& body : node->bodies)
      forEachBody(*body, visit);
  }
}

namespace {

const char* typeName(cudaGraphNodeType type) {
  switch (type) {
  case cudaGraphNodeTypeKernel:
    return "KERNEL";
  case cudaGraphNodeTypeMemcpy:
    return "MEMCPY";
  case cudaGraphNodeTypeMemset:
    return "MEMSET";
  case cudaGraphNodeTypeHost:
    return "HOST";
  case cudaGraphNodeTypeGraph:
    return "GRAPH";
  case cudaGraphNodeTypeEmpty:
    return "EMPTY";
  case cudaGraphNodeTypeWaitEvent:
    return "WAIT_EVENT";
  case cudaGraphNodeTypeEventRecord:
    return "EVENT_RECORD";
  case cudaGraphNodeTypeMemAlloc:
    return "MEM_ALLOC";
  case cudaGraphNodeTypeMemFree:
    return "MEM_FREE";
  case cudaGraphNodeTypeConditional:
    return "CONDITIONAL";
  default:
    return "OTHER";
  }
}

void dotGraph(const GraphBody& graph, const std::string& prefix, bool verbose, std::string* out) {
  std::map<const GraphNode*, size_t> index;
  for (size_t i = 0; i < graph.nodes.size(); ++i)
    index[graph.nodes[i].get()] = i;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const GraphNode& node = *graph.nodes[i];
    const std::string name = prefix + "node_" + std::to_string(i);
    std::string label = typeName(node.type());
    if (verbose && node.type() == cudaGraphNodeTypeKernel) {
      char geometry[128];
      std::snprintf(geometry, sizeof geometry, "\\ngrid (%u,%u,%u) block (%u,%u,%u)",
                    node.params.kernel.gridDim.x, node.params.kernel.gridDim.y,
                    node.params.kernel.gridDim.z, node.params.kernel.blockDim.x,
                    node.params.kernel.blockDim.y, node.params.kernel.blockDim.z);
      label += geometry;
    }
    *out += "\t\"" + name + "\" [label=\"" + label + "\"];\n";
    for (const GraphNode* dependency : node.dependencies)
      *out += "\t\"" + prefix + "node_" + std::to_string(index[dependency]) + "\" -> \"" + name +
              "\";\n";
    if (node.child) {
      *out += "\tsubgraph \"cluster_" + name + "\" {\n\tlabel=\"" + name + "\";\n";
      dotGraph(*node.child, name + "_", verbose, out);
      *out += "\t}\n";
    }
    for (size_t b = 0; b < node.bodies.size(); ++b) {
      const std::string body = name + "_body" + std::to_string(b);
      *out += "\tsubgraph \"cluster_" + body + "\" {\n\tlabel=\"" + body + "\";\n";
      dotGraph(*node.bodies[b], body + "_", verbose, out);
      *out += "\t}\n";
    }
  }
}

} // namespace

std::string dotText(const GraphBody& graph, bool verbose) {
  std::string text = "digraph dot {\n\tcompound=true;\n";
  dotGraph(graph, "", verbose, &text);
  text += "}\n";
  return text;
}

} // namespace ocelot::runtime::cpu
