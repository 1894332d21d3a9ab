#pragma once

#include "runtime/driver/DriverApi.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <set>
#include <vector>

namespace ocelot::runtime::driver {

/// The kernel nodes of a GPU's executable graph, with the parameters the executable graph runs each
/// with now (the driver cannot read them back from a CUgraphExec): what a launch offers the
/// instrumentation, and what it puts back after running a substitute.
///
/// Nodes are the template graph's handles (they name their instances in the executable graph), in
/// the order of a walk of the template: its nodes in insertion order, each child graph and
/// conditional body where its node is.
class DriverExecKernelNodes {
public:
  struct Node {
    CUgraphNode node = nullptr;
    /// The executable graph's parameters; `kernelParams` points into `argumentPointers`.
    CUDA_KERNEL_NODE_PARAMS params{};
    std::vector<std::byte> arguments;    ///< the argument bytes at their parameter offsets
    std::vector<void*> argumentPointers; ///< one pointer into `arguments` per parameter
    bool enabled = true;
    bool repeats = false;     ///< in the body of a while conditional node
    bool conditional = false; ///< in the body of an if or switch conditional node
    /// Why the node cannot run a substitute, or null.
    const char* unsubstitutable = nullptr;
    /// Directly in the graph of a top-level child graph node: that node's index in children(),
    /// and this node's counterpart in the child's view. A driver that does not let an executable
    /// graph change such a node alone still takes a whole child graph.
    size_t child = kNoChild;
    CUgraphNode viewNode = nullptr;
  };
  static constexpr size_t kNoChild = static_cast<size_t>(-1);
  /// A top-level child graph node and our copy of the child graph as the executable graph runs it.
  struct Child {
    CUgraphNode node = nullptr;
    CUgraph view = nullptr; ///< owned (cuGraphClone); null where the clone failed
  };
  /// A conditional node of a template graph as it was added (the driver cannot report it).
  struct Conditional {
    CUgraphConditionalNodeType type = CU_GRAPH_COND_TYPE_IF;
    std::vector<CUgraph> bodies;
  };
  /// The conditional node `node` as it was added, or nullopt when it is not known.
  using ConditionalBodies = std::function<std::optional<Conditional>(CUgraphNode)>;

  DriverExecKernelNodes() = default;
  ~DriverExecKernelNodes();
  DriverExecKernelNodes(const DriverExecKernelNodes&) = delete;
  DriverExecKernelNodes& operator=(const DriverExecKernelNodes&) = delete;

  /// Walks `graph` and reads every kernel node's parameters.
  static CUresult collect(const DriverApi& api, CUgraph graph, const ConditionalBodies& bodies,
                          DriverExecKernelNodes* out);

  /// After cudaGraphExecUpdate from `graph`: its kernel nodes' parameters, paired with ours in walk
  /// order. Only where both walks have the same node types and the same dependencies in the same
  /// edge order (what the driver pairs an update's nodes by), else false: the parameters are then
  /// unknown. Graphs of one topology whose independent nodes were added in another order are not
  /// told apart (the driver also pairs those by order).
  bool update(const DriverApi& api, CUgraph graph, const ConditionalBodies& bodies);
  /// After the executable graph's parameters of kernel node `node` were set; false when the node is
  /// not one of ours.
  bool setParams(const DriverApi& api, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS& params);
  void setEnabled(CUgraphNode node, bool enabled);
  /// Whether `node` is one of the kernel nodes or top-level child graph nodes.
  bool contains(CUgraphNode node) const;
  /// Whether `node` is one of the kernel nodes and can run a substitute.
  bool substitutable(CUgraphNode node) const;
  /// Whether the walk visited graph or node `handle`.
  bool walked(const void* handle) const { return walked_.count(handle) != 0; }
  /// A kernel node's parameters with our own copy of its arguments.
  static Node copy(const DriverApi& api, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS& params) {
    return read(api, node, params);
  }

  std::vector<Node>& nodes() { return nodes_; }
  std::vector<Child>& children() { return children_; }

private:
  /// A kernel node's parameters with our own copy of its arguments.
  static Node read(const DriverApi& api, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS& params);
  static CUresult walk(const DriverApi& api, CUgraph graph, const ConditionalBodies& bodies,
                       bool repeats, bool conditional, size_t child, DriverExecKernelNodes* out);
  void destroyViews();

  /// The type and dependencies of every node the walk visited, in order (with a marker where a
  /// body ends): two graphs pair node by node only when these agree.
  std::vector<int> shape_;
  std::vector<Node> nodes_;
  std::vector<Child> children_;
  std::set<const void*> walked_;   ///< the graphs and nodes the walk visited
  const DriverApi* api_ = nullptr; ///< destroys the views
  CUgraph root_ = nullptr;         ///< the graph collect() walked
};

} // namespace ocelot::runtime::driver
