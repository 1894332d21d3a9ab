// The kernel nodes of a GPU's executable graph and the parameters it runs them with: read from the
// template graph at instantiation, then kept in step with the calls that change the executable
// graph (set params, update, enable), since the driver cannot read them back.
#include "runtime/driver/DriverExecKernelNodes.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace ocelot::runtime::driver {
namespace {

/// Marks the end of a child graph or conditional body in a walk's shape.
constexpr int kBodyEnd = -1;
/// Brackets a node's dependencies (their indices in its graph, in edge order) in a walk's shape.
constexpr int kDependencies = -2;
constexpr int kDependenciesEnd = -3;

/// More parameters than a kernel can have (PTX limits parameter space to 32 KiB): ends the count
/// where a driver kept answering.
constexpr size_t kMaxParameters = 32768;

} // namespace

DriverExecKernelNodes::Node DriverExecKernelNodes::read(const DriverApi& api, CUgraphNode node,
                                                        const CUDA_KERNEL_NODE_PARAMS& params) {
  Node read;
  read.node = node;
  read.params = params;
  read.params.kernelParams = nullptr;
  read.params.extra = nullptr;
  if (params.func == nullptr) {
    read.unsubstitutable = "the node names its kernel as a CUkernel (a library's), not as a "
                           "function of a module Ocelot loaded";
    return read;
  }
  if (params.kernelParams == nullptr) {
    read.unsubstitutable = "the node passes its arguments as one buffer (`extra`), which Ocelot "
                           "cannot extend with the instrumentation's parameter";
    return read;
  }
  if (api.funcGetParamInfo == nullptr) {
    read.unsubstitutable = "the driver cannot tell the kernel's parameter sizes "
                           "(cuFuncGetParamInfo needs a CUDA 12.4 driver)";
    return read;
  }
  // The argument bytes, each at its parameter's offset: the executable graph keeps its own copy,
  // and so must we to put the node back after a substitute ran.
  std::vector<std::pair<size_t, size_t>> layout;
  size_t bytes = 0;
  for (size_t index = 0; index < kMaxParameters; ++index) {
    size_t offset = 0, size = 0;
    if (api.funcGetParamInfo(params.func, index, &offset, &size) != CUDA_SUCCESS)
      break;
    layout.emplace_back(offset, size);
    bytes = std::max(bytes, offset + size);
  }
  read.arguments.resize(bytes);
  for (size_t index = 0; index < layout.size(); ++index) {
    auto [offset, size] = layout[index];
    if (size != 0)
      std::memcpy(read.arguments.data() + offset, params.kernelParams[index], size);
    read.argumentPointers.push_back(read.arguments.data() + offset);
  }
  read.params.kernelParams = read.argumentPointers.data();
  return read;
}

DriverExecKernelNodes::~DriverExecKernelNodes() {
  destroyViews();
}

void DriverExecKernelNodes::destroyViews() {
  for (Child& child : children_)
    if (child.view != nullptr && api_ != nullptr)
      invoke(api_->graphDestroy, child.view);
  children_.clear();
}

CUresult DriverExecKernelNodes::walk(const DriverApi& api, CUgraph graph,
                                     const ConditionalBodies& bodies, bool repeats,
                                     bool conditional, size_t child, DriverExecKernelNodes* out) {

  size_t count = 0;
  if (CUresult result = invoke(api.graphGetNodes, graph, nullptr, &count); result != CUDA_SUCCESS)
    return result;
  std::vector<CUgraphNode> nodes(count);
  if (count != 0)
    if (CUresult result = invoke(api.graphGetNodes, graph, nodes.data(), &count);
        result != CUDA_SUCCESS)
      return result;
  nodes.resize(count);
  out->walked_.insert(graph);
  out->walked_.insert(nodes.begin(), nodes.end());
  std::map<CUgraphNode, int> indices;
  for (CUgraphNode node : nodes)
    indices.emplace(node, static_cast<int>(indices.size()));
  for (CUgraphNode node : nodes) {
    CUgraphNodeType type{};
    if (CUresult result = invoke(api.graphNodeGetType, node, &type); result != CUDA_SUCCESS)
      return result;
    out->shape_.push_back(static_cast<int>(type));
    // The driver pairs an update's nodes by their dependencies in edge order: ours must agree.
    size_t dependencies = 0;
    if (CUresult result =
            invoke(api.graphNodeGetDependencies, node, nullptr, nullptr, &dependencies);
        result != CUDA_SUCCESS)
      return result;
    std::vector<CUgraphNode> from(dependencies);
    if (dependencies != 0)
      if (CUresult result =
              invoke(api.graphNodeGetDependencies, node, from.data(), nullptr, &dependencies);
          result != CUDA_SUCCESS)
        return result;
    from.resize(dependencies);
    out->shape_.push_back(kDependencies);
    for (CUgraphNode dependency : from) {
      auto found = indices.find(dependency);
      out->shape_.push_back(found != indices.end() ? found->second : kDependenciesEnd);
    }
    out->shape_.push_back(kDependenciesEnd);
    switch (type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
      CUDA_KERNEL_NODE_PARAMS params{};
      if (CUresult result = invoke(api.graphKernelNodeGetParams, node, &params);
          result != CUDA_SUCCESS)
        return result;
      Node read = DriverExecKernelNodes::read(api, node, params);
      read.repeats = repeats;
      read.conditional = conditional;
      if (child != kNoChild && out->children_[child].view != nullptr &&
          invoke(api.graphNodeFindInClone, &read.viewNode, node, out->children_[child].view) ==
              CUDA_SUCCESS)
        read.child = child;
      // A disabled node stays disabled in the executable graph until the application enables it.
      out->nodes_.push_back(std::move(read));
      break;
    }
    case CU_GRAPH_NODE_TYPE_GRAPH: {
      CUgraph embedded = nullptr;
      if (CUresult result = invoke(api.graphChildGraphNodeGetGraph, node, &embedded);
          result != CUDA_SUCCESS)
        return result;
      // Kernel nodes directly in a top-level child graph can also be substituted through the whole
      // child graph (DriverGraphExec), from a copy of it as the executable graph runs it.
      size_t inner = kNoChild;
      if (graph == out->root_) {
        Child made;
        made.node = node;
        if (invoke(api.graphClone, &made.view, embedded) != CUDA_SUCCESS)
          made.view = nullptr;
        inner = out->children_.size();
        out->children_.push_back(made);
      }
      if (CUresult result = walk(api, embedded, bodies, repeats, conditional, inner, out);
          result != CUDA_SUCCESS)
        return result;
      out->shape_.push_back(kBodyEnd);
      break;
    }
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: {
      // Bodies Ocelot did not see being made (a conditional node in a cloned or embedded graph)
      // are not walked: their kernel nodes run as they are.
      std::optional<Conditional> known = bodies ? bodies(node) : std::nullopt;
      if (!known)
        break;
      const bool loop = known->type == CU_GRAPH_COND_TYPE_WHILE;
      for (CUgraph body : known->bodies) {
        if (CUresult result =
                walk(api, body, bodies, repeats || loop, conditional || !loop, kNoChild, out);
            result != CUDA_SUCCESS)
          return result;
        out->shape_.push_back(kBodyEnd);
      }
      break;
    }
    default:
      break;
    }
  }
  return CUDA_SUCCESS;
}

CUresult DriverExecKernelNodes::collect(const DriverApi& api, CUgraph graph,
                                        const ConditionalBodies& bodies,
                                        DriverExecKernelNodes* out) {
  out->destroyViews();
  out->nodes_.clear();
  out->shape_.clear();
  out->walked_.clear();
  out->api_ = &api;
  out->root_ = graph;
  return walk(api, graph, bodies, false, false, kNoChild, out);
}

bool DriverExecKernelNodes::update(const DriverApi& api, CUgraph graph,
                                   const ConditionalBodies& bodies) {
  DriverExecKernelNodes updated;
  if (collect(api, graph, bodies, &updated) != CUDA_SUCCESS || updated.shape_ != shape_ ||
      updated.nodes_.size() != nodes_.size())
    return false;
  for (size_t index = 0; index < nodes_.size(); ++index) {
    // Our node handle names the node in the executable graph; the parameters are the update's.
    // Moving keeps the argument buffers where kernelParams points.
    Node& node = nodes_[index];
    Node& from = updated.nodes_[index];
    node.params = from.params;
    node.arguments = std::move(from.arguments);
    node.argumentPointers = std::move(from.argumentPointers);
    node.unsubstitutable = from.unsubstitutable;
    node.child = from.child;
    node.viewNode = from.viewNode;
  }
  // The child graphs as the executable graph now runs them: the update's. Our child nodes keep
  // naming them.
  if (updated.children_.size() != children_.size())
    return false;
  for (size_t index = 0; index < children_.size(); ++index)
    std::swap(children_[index].view, updated.children_[index].view);
  return true;
}

bool DriverExecKernelNodes::setParams(const DriverApi& api, CUgraphNode node,
                                      const CUDA_KERNEL_NODE_PARAMS& params) {
  for (Node& known : nodes_)
    if (known.node == node) {
      Node read = DriverExecKernelNodes::read(api, node, params);
      known.params = read.params;
      known.arguments = std::move(read.arguments);
      known.argumentPointers = std::move(read.argumentPointers);
      known.unsubstitutable = read.unsubstitutable;
      // The child graph's view follows, or the next substitution through it would undo the change;
      // where it cannot, no node of that child is substituted through it any more.
      if (known.child != kNoChild &&
          (known.unsubstitutable != nullptr ||
           invoke(api.graphKernelNodeSetParams, known.viewNode, &known.params) != CUDA_SUCCESS)) {
        const size_t stale = known.child;
        for (Node& other : nodes_)
          if (other.child == stale)
            other.child = kNoChild;
      }
      return true;
    }
  return false;
}

void DriverExecKernelNodes::setEnabled(CUgraphNode node, bool enabled) {
  for (Node& known : nodes_)
    if (known.node == node)
      known.enabled = enabled;
}

bool DriverExecKernelNodes::substitutable(CUgraphNode node) const {
  return std::any_of(nodes_.begin(), nodes_.end(), [node](const Node& known) {
    return known.node == node && known.unsubstitutable == nullptr;
  });
}

bool DriverExecKernelNodes::contains(CUgraphNode node) const {
  return std::any_of(nodes_.begin(), nodes_.end(),
                     [node](const Node& known) { return known.node == node; }) ||
         std::any_of(children_.begin(), children_.end(),
                     [node](const Child& known) { return known.node == node; });
}

} // namespace ocelot::runtime::driver
