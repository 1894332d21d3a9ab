#pragma once

#include "runtime/core/Graph.h"
#include "runtime/cpu/GraphExecutor.h"

#include <atomic>
#include <memory>

namespace ocelot::runtime::cpu {

class CpuGraphs;

/// An executable graph of the CPU device (cudaGraphExec_t): the handle of an ExecutableGraph,
/// which its queued launches share. A launch is one stream operation that runs the nodes in
/// dependency order on the stream's thread.
class CpuGraphExec final : public GraphExec {
public:
  CpuGraphExec(CpuGraphs& graphs, std::shared_ptr<ExecutableGraph> executable);

  /// Instantiates `graph` (see ExecutableGraph::instantiate).
  static cudaError_t instantiate(CpuGraphs& graphs, const GraphBody& graph,
                                 unsigned long long flags, std::unique_ptr<CpuGraphExec>* exec,
                                 cudaGraphInstantiateResult* result);

  std::shared_ptr<const ExecSnapshot> snapshot() const { return executable_->snapshot(); }

  cudaError_t launch(Stream& stream) override;
  bool offersKernelNodes() const override { return true; }
  /// Offered again at every launch (the substitutes are per launch): changes with an update, node
  /// parameters and a node enabled or disabled.
  std::optional<uint64_t> kernelNodeState() const override {
    return state_.load(std::memory_order_relaxed);
  }
  cudaError_t launchOffering(Stream& stream, GraphLaunchHook& hook) override;
  cudaError_t upload(Stream& stream) override;
  cudaError_t flags(unsigned long long* flags) override;
  cudaError_t update(Graph& graph, cudaGraphExecUpdateResultInfo* info) override;
  cudaError_t setNodeParams(cudaGraphNode_t node, cudaGraphNodeParams* params) override;
  cudaError_t setNodeEnabled(cudaGraphNode_t node, unsigned int enabled) override;
  cudaError_t nodeEnabled(cudaGraphNode_t node, unsigned int* enabled) override;

private:
  cudaError_t launchWith(Stream& stream, GraphLaunchHook* hook);

  CpuGraphs& graphs_;
  std::shared_ptr<ExecutableGraph> executable_;
  std::atomic<uint64_t> state_{newKernelNodeState()};
};

} // namespace ocelot::runtime::cpu
