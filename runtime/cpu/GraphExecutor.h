#pragma once

#include "runtime/cpu/GraphBody.h"
#include "runtime/cpu/LaunchServices.h"
#include "runtime/cpu/StreamQueue.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace ocelot::runtime::cpu {

/// What running a graph needs from the device: each node kind's work, run on the launching
/// stream's thread.
class GraphWork {
public:
  virtual ~GraphWork() = default;
  /// A kernel fault made the device unusable: the remaining nodes are skipped.
  virtual bool faulted() = 0;
  virtual void kernel(const GraphNode& node, ConditionalValues& conditionals) = 0;
  virtual void copy(const GraphNode& node) = 0;
  virtual void fill(const GraphNode& node) = 0;
  virtual void host(const GraphNode& node) = 0;
  virtual void waitEvent(cudaEvent_t event) = 0;
};

/// An executable graph's nodes as one launch sees them: a copy of the template graph whose nodes
/// name their template nodes (GraphNode::origin), with the run order of every graph in it.
/// Snapshots never change once published; parameter changes publish a new one, so launches
/// already queued keep the parameters they were launched with.
struct ExecSnapshot {
  std::unique_ptr<GraphBody> graph;
  std::map<const GraphBody*, std::vector<GraphNode*>> orders;
};

/// What an instantiated graph of the CPU device runs (CpuGraphExec is its handle): the snapshots of
/// its nodes, its conditional values and its last launch. Shared with the launches queued in
/// streams, which keep running what they were launched with after cudaGraphExecDestroy.
class ExecutableGraph {
public:
  /// Instantiates `graph`: a copy whose every graph (child graphs and conditional bodies
  /// included) has a run order. A cycle fails with cudaErrorInvalidValue and
  /// cudaGraphInstantiateInvalidStructure.
  static cudaError_t instantiate(const GraphBody& graph, unsigned long long flags,
                                 std::unique_ptr<ExecutableGraph>* exec,
                                 cudaGraphInstantiateResult* result);

  unsigned long long flags() const { return flags_; }
  std::shared_ptr<const ExecSnapshot> snapshot() const;

  /// Changes the node instantiated from template node `templateId` in a new snapshot.
  /// cudaErrorInvalidValue when the executable graph has no such node or `change` refuses.
  cudaError_t edit(uint64_t templateId, const std::function<cudaError_t(GraphNode&)>& change);
  /// Reads the node instantiated from `templateId`.
  cudaError_t read(uint64_t templateId, const std::function<void(const GraphNode&)>& look) const;

  /// cudaGraphExecUpdate: pairs `graph`'s nodes with the executable graph's as CUDA does (exit
  /// nodes in order, then dependencies in edge order) and copies their parameters when the
  /// topology and every node allow it. Nothing changes when it fails.
  cudaError_t update(const GraphBody& graph, cudaGraphExecUpdateResultInfo* info);

  /// One launch, on the calling (stream) thread. `records` holds the completion of each
  /// event-record node (made when the launch was queued); they all complete by the end.
  void run(const ExecSnapshot& snapshot, GraphWork& work,
           const std::map<uint64_t, CompletionPtr>& records);

  /// Launches of one executable graph run one after the other: each waits for the previous one.
  CompletionPtr exchangeLastLaunch(CompletionPtr launch);

private:
  class LaunchValues;
  void runGraph(const ExecSnapshot& snapshot, const GraphBody& graph, GraphWork& work,
                const std::map<uint64_t, CompletionPtr>& records, LaunchValues& values);

  unsigned long long flags_ = 0;
  mutable std::mutex mutex_;
  std::shared_ptr<const ExecSnapshot> snapshot_;
  /// Conditional values that persist between launches (handles without
  /// cudaGraphCondAssignDefault keep what the last launch set).
  std::mutex valuesMutex_;
  std::map<unsigned long long, unsigned int> values_;
  CompletionPtr lastLaunch_;
};

} // namespace ocelot::runtime::cpu
