// An executable graph of the CPU device: launches, uploads, updates and the parameters of its
// nodes. What a launch runs each node with is GraphRunner's.

#include "runtime/cpu/CpuGraphExec.h"

#include "runtime/cpu/CpuDevice.h"
#include "runtime/cpu/CpuGraph.h"

namespace ocelot::runtime::cpu {
namespace {

/// What a launch runs instead of some of its kernel nodes (the snapshot's nodes).
using Substitutes = std::map<const GraphNode*, GraphKernelSubstitute>;

/// The node kinds an executable graph can disable, and whose parameters can be read back.
bool switchable(const GraphNode& node) {
  return node.type() == cudaGraphNodeTypeKernel || node.type() == cudaGraphNodeTypeMemcpy ||
         node.type() == cudaGraphNodeTypeMemset;
}

/// What a graph launch runs each node with, on the launching stream's thread.
class GraphRunner final : public GraphWork {
public:
  /// `waits`: the record each event of a wait-event node had when the graph was launched;
  /// `substitutes`: what runs instead of some kernel nodes (the instrumentation's kernels).
  GraphRunner(CpuDevice& device, const std::map<cudaEvent_t, CompletionPtr>& waits,
              const Substitutes& substitutes)
      : device_(device), waits_(waits), substitutes_(substitutes) {}
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
    void* function = kernel.func;
    void** arguments = const_cast<GraphNode&>(node).arguments.pointers();
    std::vector<void*> substituted;
    if (auto it = substitutes_.find(&node); it != substitutes_.end()) {
      // The node's own arguments, then the substitute's appended one.
      const GraphKernelSubstitute& substitute = it->second;
      function = substitute.function;
      substituted.assign(arguments, arguments + substitute.parameters);
      substituted.push_back(const_cast<std::byte*>(substitute.appended.data()));
      arguments = substituted.data();
    }
    CpuDevice::PreparedLaunch launch;
    // Nodes were validated when added; a kernel that cannot run now (its module unloaded) is
    // skipped like work after a fault.
    if (device_.prepareLaunch(function, kernel.gridDim, kernel.blockDim, kernel.sharedMemBytes,
                              arguments, attributes.data(),
                              static_cast<unsigned int>(attributes.size()), false,
                              &launch) != cudaSuccess)
      return;
    device_.runLaunch(launch, &conditionals);
  }
  void copy(const GraphNode& node) override { device_.cpuCopies().runCopy3D(node.copy); }
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
  const Substitutes& substitutes_;
};

/// Offers `hook` every kernel node of `graph` and the graphs embedded in it, with whether a
/// conditional body around it may run it several times or not at all; collects the substitutes.
void offerKernelNodes(const GraphBody& graph, GraphLaunchHook& hook, bool repeats, bool conditional,
                      Substitutes& substitutes) {
  for (const auto& node : graph.nodes) {
    switch (node->type()) {
    case cudaGraphNodeTypeKernel: {
      const cudaKernelNodeParamsV2& kernel = node->params.kernel;
      GraphKernelNode offered;
      offered.node = node->origin != 0 ? node->origin : node->id;
      offered.function = kernel.func;
      offered.grid = kernel.gridDim;
      offered.block = kernel.blockDim;
      offered.sharedMem = kernel.sharedMemBytes;
      offered.args = node->arguments.pointers();
      offered.repeats = repeats;
      offered.conditional = conditional;
      if (!node->enabled)
        break; // a disabled node does not run
      if (std::optional<GraphKernelSubstitute> substitute = hook.kernelNode(offered))
        substitutes.emplace(node.get(), std::move(*substitute));
      break;
    }
    case cudaGraphNodeTypeGraph:
      if (node->child)
        offerKernelNodes(*node->child, hook, repeats, conditional, substitutes);
      break;
    case cudaGraphNodeTypeConditional: {
      const bool loop = node->params.conditional.type == cudaGraphCondTypeWhile;
      for (const auto& body : node->bodies)
        offerKernelNodes(*body, hook, repeats || loop, conditional || !loop, substitutes);
      break;
    }
    default:
      break;
    }
  }
}

} // namespace

CpuGraphExec::CpuGraphExec(CpuGraphs& graphs, std::shared_ptr<ExecutableGraph> executable)
    : GraphExec(reinterpret_cast<cudaGraphExec_t>(this)), graphs_(graphs),
      executable_(std::move(executable)) {}

cudaError_t CpuGraphExec::instantiate(CpuGraphs& graphs, const GraphBody& graph,
                                      unsigned long long flags, std::unique_ptr<CpuGraphExec>* exec,
                                      cudaGraphInstantiateResult* result) {
  std::unique_ptr<ExecutableGraph> executable;
  if (cudaError_t error = ExecutableGraph::instantiate(graph, flags, &executable, result);
      error != cudaSuccess)
    return error;
  *exec = std::make_unique<CpuGraphExec>(graphs, std::move(executable));
  return cudaSuccess;
}

cudaError_t CpuGraphExec::launch(Stream& queue) {
  return launchWith(queue, nullptr);
}

cudaError_t CpuGraphExec::launchOffering(Stream& queue, GraphLaunchHook& hook) {
  return launchWith(queue, &hook);
}

cudaError_t CpuGraphExec::launchWith(Stream& queue, GraphLaunchHook* hook) {
  auto& stream = static_cast<CpuStream&>(queue);
  CpuDevice& device = graphs_.device();
  if (cudaError_t error = device.sticky(); error != cudaSuccess)
    return error;
  std::lock_guard lock(graphs_.mutex());
  std::shared_ptr<const ExecSnapshot> snapshot = executable_->snapshot();
  if (stream.capturing()) {
    // Captured as a child-graph node holding a copy of the executable graph.
    CpuGraph& copy = graphs_.own(cloneBody(*snapshot->graph, false));
    copy.body().userObjects.clear();
    cudaGraphNodeParams params = {};
    params.type = cudaGraphNodeTypeGraph;
    params.graph.graph = copy.handle();
    cudaError_t error = stream.capture(params);
    graphs_.destroyTopLevel(copy.body());
    return error;
  }
  if (cudaError_t error = stream.checkLegacyDuringCapture(); error != cudaSuccess)
    return error;
  // Event-record nodes: the events refer to this launch from now on, and complete as the nodes
  // run.
  auto records = std::make_shared<std::map<uint64_t, CompletionPtr>>();
  auto waits = std::make_shared<std::map<cudaEvent_t, CompletionPtr>>();
  CpuEvents& events = device.cpuEvents();
  forEachBody(*snapshot->graph, [&](GraphBody& each) {
    for (const auto& node : each.nodes)
      if (node->type() == cudaGraphNodeTypeWaitEvent)
        if (CpuEvent* event = events.find(node->params.eventWait.event))
          (*waits)[node->params.eventWait.event] = event->latest().done;
  });
  forEachBody(*snapshot->graph, [&](GraphBody& each) {
    for (const auto& node : each.nodes)
      if (node->type() == cudaGraphNodeTypeEventRecord)
        if (CpuEvent* event = events.find(node->params.eventRecord.event)) {
          auto record = std::make_shared<Completion>(device.cpuStreams().progress());
          (*records)[node->id] = record;
          event->recorded(record);
        }
  });
  auto substitutes = std::make_shared<Substitutes>();
  if (hook != nullptr)
    offerKernelNodes(*snapshot->graph, *hook, false, false, *substitutes);
  // Launches of one executable graph run one after the other, whatever their streams.
  CompletionPtr previous = executable_->exchangeLastLaunch(nullptr);
  // Not skipped after a fault: the graph skips its nodes itself and still completes its records.
  CompletionPtr done = stream.enqueue(
      [&device, executable = executable_, snapshot, records, waits, substitutes] {
        GraphRunner runner(device, *waits, *substitutes);
        executable->run(*snapshot, runner, *records);
      },
      {previous}, true);
  executable_->exchangeLastLaunch(done);
  return cudaSuccess;
}

cudaError_t CpuGraphExec::upload(Stream&) {
  // Nothing to upload: the executable graph already is in (host) memory.
  return graphs_.device().sticky();
}

cudaError_t CpuGraphExec::flags(unsigned long long* flags) {
  *flags = executable_->flags();
  return cudaSuccess;
}

cudaError_t CpuGraphExec::update(Graph& graph, cudaGraphExecUpdateResultInfo* info) {
  std::lock_guard lock(graphs_.mutex());
  cudaError_t result = executable_->update(static_cast<CpuGraph&>(graph).body(), info);
  if (result == cudaSuccess)
    state_.store(newKernelNodeState(), std::memory_order_relaxed);
  return result;
}

cudaError_t CpuGraphExec::setNodeParams(cudaGraphNode_t handle, cudaGraphNodeParams* params) {
  std::lock_guard lock(graphs_.mutex());
  GraphNode* node = graphs_.node(handle);
  if (node == nullptr || params->type != node->type())
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
  if (cudaError_t error = graphs_.makeNode(*node->graph, *params, &made); error != cudaSuccess)
    return error;
  cudaError_t result = executable_->edit(node->id, [&](GraphNode& target) {
    target.params = made->params;
    target.arguments = made->arguments;
    target.copy = made->copy;
    target.rebind();
    return cudaSuccess;
  });
  if (result == cudaSuccess)
    state_.store(newKernelNodeState(), std::memory_order_relaxed);
  return result;
}

cudaError_t CpuGraphExec::setNodeEnabled(cudaGraphNode_t handle, unsigned int enabled) {
  std::lock_guard lock(graphs_.mutex());
  GraphNode* node = graphs_.node(handle);
  if (node == nullptr)
    return cudaErrorInvalidValue;
  cudaError_t result = executable_->edit(node->id, [enabled](GraphNode& target) {
    // Only kernel, memcpy and memset nodes can be disabled.
    if (!switchable(target))
      return cudaErrorInvalidValue;
    target.enabled = enabled != 0;
    return cudaSuccess;
  });
  if (result == cudaSuccess)
    state_.store(newKernelNodeState(), std::memory_order_relaxed);
  return result;
}

cudaError_t CpuGraphExec::nodeEnabled(cudaGraphNode_t handle, unsigned int* enabled) {
  std::lock_guard lock(graphs_.mutex());
  GraphNode* node = graphs_.node(handle);
  if (node == nullptr)
    return cudaErrorInvalidValue;
  cudaError_t result = cudaSuccess;
  cudaError_t found = executable_->read(node->id, [&](const GraphNode& target) {
    if (!switchable(target))
      result = cudaErrorInvalidValue;
    else
      *enabled = target.enabled ? 1 : 0;
  });
  return found != cudaSuccess ? found : result;
}

} // namespace ocelot::runtime::cpu
