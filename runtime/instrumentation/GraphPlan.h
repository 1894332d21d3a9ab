#pragma once

#include "ocelot/Instrumentor.h"
#include "ocelot/LaunchInfo.h"
#include "runtime/core/Graph.h"
#include "runtime/instrumentation/BufferPool.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ocelot::runtime::instrumentation {

class DeviceResources;
class LoadedInstrumentation;

/// The instrumented kernel nodes of one executable graph, made at its first launch for one state
/// of its nodes (GraphExec::kernelNodeState), one list of active instrumentors and one selection:
/// each node's instrumented kernel and the substitute that runs it, whose hidden parameter points
/// at a fixed part of the plan's device memory (`blocks`, zero between launches). The back end
/// keeps the substitutes in place across launches (GraphLaunchHook::plan); after each launch one
/// copy per block brings every node's results to the host and one fill per block zeroes them
/// again, in the launch's stream, and the profile worker splits the copy into one profile per
/// node (InstrumentationFramework::completePlanLaunch).
struct GraphPlan {
  struct Slot {
    std::shared_ptr<const PTXInstrumentor> instrumentor;
    const InstrumentorModuleState* state = nullptr;
    uint64_t offset = 0; ///< in the node's results
    uint64_t bytes = 0;
  };
  /// A kernel node the selection chose, instrumented or not (then `notes` say why).
  struct Node {
    uint64_t node = 0;
    /// The node as it was offered: a launch that offers it otherwise (its parameters changed
    /// while the launch was made) does not get the substitute.
    void* function = nullptr;
    dim3 grid, block;
    size_t sharedMem = 0;
    LaunchInfo info; ///< what every launch of the node shares (kernel, configuration, device)
    std::vector<std::string> notes;
    bool instrumented = false;
    std::shared_ptr<LoadedInstrumentation> module;
    std::vector<Slot> slots;
    std::optional<uint32_t> clockSlot;
    uint64_t offset = 0; ///< of its results in a launch's host copy
    GraphKernelSubstitute substitute;
    /// Its kernel's entry in `kernels` and its rank among the plan's nodes of that kernel: its
    /// kernelLaunchIndex in a launch is that entry's base plus the rank.
    size_t kernel = 0;
    uint64_t rank = 0;
  };
  /// One device allocation holding the results of consecutive nodes.
  struct Block {
    BufferPool::Block memory;
    uint64_t used = 0;
    uint64_t hostOffset = 0; ///< where its used part lands in a launch's host copy
  };
  /// Bigger blocks than most graphs need (a bbcount node takes a few hundred bytes): one copy and
  /// one fill per launch for them.
  static constexpr uint64_t kBlockBytes = 1ull << 20;
  /// The pinned host copies of launches whose profiles the worker has not made yet, at most (but
  /// two launches' always): past it a launch's results are not copied, and its profiles say so,
  /// since waiting for the worker would hold the application's thread.
  static constexpr uint64_t kMaxStagingBytes = 64ull << 20;

  GraphPlan(DeviceResources& pool, uint64_t planId) : resources(pool), id(planId) {}
  GraphPlan(const GraphPlan&) = delete;
  GraphPlan& operator=(const GraphPlan&) = delete;
  ~GraphPlan(); ///< its blocks go back to the device's pool

  /// `bytes` of zeroed device memory for one node's results (and where they land in the host
  /// copy), or the error that prevented it.
  cudaError_t allocate(uint64_t bytes, void** device, uint64_t* hostOffset);

  /// The `occurrence`-th node offered with id `node` (a back end may offer one id more than once
  /// in a launch, as for a graph embedded twice), or null.
  const Node* find(uint64_t node, size_t occurrence) const {
    auto found = byNode.find(node);
    if (found == byNode.end() || occurrence >= found->second.size())
      return nullptr;
    return &nodes[found->second[occurrence]];
  }

  DeviceResources& resources;
  const uint64_t id;       ///< the GraphLaunchHook::plan value: unique in the process
  uint64_t generation = 0; ///< DeviceResources::generation() when it was made
  std::vector<Node> nodes;
  std::unordered_map<uint64_t, std::vector<size_t>> byNode; ///< in the order they were offered
  std::vector<Block> blocks;
  uint64_t bytes = 0; ///< a launch's host copy
  /// The kernel names of the nodes, each with its count in the plan.
  std::vector<std::pair<std::string, uint64_t>> kernels;
  /// Host copies taken and not yet given back (bytes).
  mutable std::atomic<uint64_t> stagingOut{0};
};

/// One launch of a graph plan, as its PendingLaunch carries it to the profile worker.
struct GraphPlanLaunch {
  std::shared_ptr<const GraphPlan> plan;
  uint64_t graph = 0, launch = 0;
  uint64_t firstLaunchId = 0; ///< the plan's nodes take this and the following launch numbers
  std::vector<uint64_t> kernelLaunchBases; ///< by GraphPlan::kernels entry
  /// Nodes the back end ran as they are in this launch, and why.
  std::vector<std::pair<uint64_t, std::string>> refused;
  BufferPool::Block staging; ///< the host copy of the plan's blocks
  std::string resultsLost;   ///< why there is no host copy (too many waiting), or empty
};

} // namespace ocelot::runtime::instrumentation
