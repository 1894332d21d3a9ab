#pragma once

#include "runtime/core/CopyRegion.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <driver_types.h>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ocelot::runtime::cpu {

struct GraphBody;

/// Device memory of a mem-alloc node. The address is fixed when the node is created (kernels
/// captured after cudaMallocAsync already hold it), so it is allocated then and released when the
/// last graph, clone or executable graph holding the node is gone.
struct GraphAllocation {
  void* pointer = nullptr;
  size_t bytes = 0;
  std::function<void(void*)> release;
  GraphAllocation() = default;
  GraphAllocation(const GraphAllocation&) = delete;
  GraphAllocation& operator=(const GraphAllocation&) = delete;
  ~GraphAllocation() {
    if (release)
      release(pointer);
  }
};

/// A kernel node's arguments, copied when the node is created or its parameters are set (as CUDA
/// copies them): every parameter's bytes, and a pointer to each as kernelParams reports them.
class KernelArguments {
public:
  KernelArguments() = default;
  KernelArguments(std::vector<std::byte> bytes, std::vector<size_t> offsets);
  KernelArguments(const KernelArguments& other) { *this = other; }
  KernelArguments& operator=(const KernelArguments& other);
  /// One pointer per parameter (null when the kernel has none).
  void** pointers() { return pointers_.empty() ? nullptr : pointers_.data(); }

private:
  std::vector<std::byte> bytes_;
  std::vector<size_t> offsets_;
  std::vector<void*> pointers_;
};

/// A conditional handle (cudaGraphConditionalHandleCreate) and how each launch initializes it.
struct ConditionalHandle {
  unsigned long long handle = 0;
  unsigned int defaultValue = 0;
  unsigned int flags = 0;
};

/// A node of a CPU-device graph. `params` is what the node reports (cudaGraphNodeGetParams);
/// pointers in it refer to storage the node owns (the copied kernel arguments, the embedded child
/// graph, the conditional bodies), rebound by rebind() whenever a node is copied.
struct GraphNode {
  GraphBody* graph = nullptr;
  cudaGraphNodeParams params = {};
  KernelArguments arguments;                          ///< kernel nodes
  std::map<int, cudaLaunchAttributeValue> attributes; ///< kernel nodes: set attributes
  CopyRegion copy;                                    ///< memcpy nodes, resolved
  std::unique_ptr<GraphBody> child;                   ///< child-graph nodes: an own copy
  std::vector<std::unique_ptr<GraphBody>> bodies;     ///< conditional nodes
  std::vector<cudaGraph_t> bodyHandles;               ///< what phGraph_out points at
  std::shared_ptr<GraphAllocation> allocation;        ///< mem-alloc nodes
  std::vector<GraphNode*> dependencies;               ///< in the order they were added
  std::vector<cudaGraphEdgeData> edges;               ///< parallel to dependencies
  std::vector<GraphNode*> dependents;                 ///< in the order they were added
  uint64_t id = 0;     ///< unique for the life of the process (handles may be reused)
  uint64_t origin = 0; ///< id of the node this one was cloned or instantiated from
  bool enabled = true; ///< executable graphs: cudaGraphNodeSetEnabled

  GraphNode();

  cudaGraphNodeType type() const { return params.type; }
  cudaGraphNode_t handle() { return reinterpret_cast<cudaGraphNode_t>(this); }
  /// Points `params` back at this node's own storage.
  void rebind();
};

/// A CPU-device graph: nodes in creation order (the order queries report them in), the
/// conditional handles created on it, and its user-object references.
struct GraphBody {
  std::vector<std::unique_ptr<GraphNode>> nodes;
  GraphNode* owner = nullptr; ///< child and body graphs: the node that embeds it
  std::vector<ConditionalHandle> handles;
  std::map<void*, unsigned int> userObjects; ///< user object -> references the graph holds

  cudaGraph_t handle() { return reinterpret_cast<cudaGraph_t>(this); }
  /// The graph at the top of the embedding chain.
  const GraphBody& root() const;
  /// The conditional handle if it was created on this graph or one that embeds it.
  const ConditionalHandle* findHandle(unsigned long long handle) const;
};

/// A deep copy of `graph`. Each copied node's origin is the node it was copied from, or with
/// `keepOrigins` that node's own origin (copies of executable graphs keep naming the template's
/// nodes).
std::unique_ptr<GraphBody> cloneBody(const GraphBody& graph, bool keepOrigins);

/// The nodes of `graph` in an order that respects every edge, or nothing when there is a cycle.
std::optional<std::vector<GraphNode*>> topologicalOrder(const GraphBody& graph);

/// Removes `node` and its edges from its graph (the node is destroyed).
void removeNode(GraphNode* node);

/// Calls `visit` on `graph` and every graph embedded in it (child graphs, conditional bodies).
void forEachBody(GraphBody& graph, const std::function<void(GraphBody&)>& visit);

/// Graphviz text for cudaGraphDebugDotPrint.
std::string dotText(const GraphBody& graph, bool verbose);

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

} // namespace ocelot::runtime::cpu
