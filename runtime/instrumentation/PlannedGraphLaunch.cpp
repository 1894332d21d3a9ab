// The kernel nodes of a CUDA graph launch, instrumented through a plan kept across the executable
// graph's launches (GraphPlan.h): the substitutes stay in place in the back end, each node's
// results have a fixed place in the plan's device memory, and a launch adds one copy, one fill and
// one event per launch in the application's stream, whatever the number of nodes.

#include "runtime/core/ApiCallLog.h"
#include "runtime/core/ErrorTable.h"
#include "runtime/core/Event.h"
#include "runtime/core/Stream.h"
#include "runtime/instrumentation/InstrumentationFramework.h"

#include <algorithm>
#include <chrono>
#include <unordered_map>

namespace ocelot::runtime::instrumentation {

// --- GraphPlan ----------------------------------------------------------------------------------

GraphPlan::~GraphPlan() {
  for (Block& block : blocks)
    resources.deviceBuffers().release(block.memory);
}

cudaError_t GraphPlan::allocate(uint64_t size, void** device, uint64_t* hostOffset) {
  const uint64_t aligned = ResultRing::aligned(size);
  if (blocks.empty() || blocks.back().used + aligned > blocks.back().memory.capacity) {
    // A new block, zeroed before any kernel can write into it (on Ocelot's own stream: nothing may
    // be enqueued in the application's while the executable graph is being launched). No device
    // reset may free Ocelot's stream meanwhile.
    const DeviceResources::Use use = resources.use();
    if (!use)
      return cudaErrorNotReady;
    Block block;
    if (cudaError_t error =
            resources.deviceBuffers().acquire(std::max(kBlockBytes, aligned), &block.memory);
        error != cudaSuccess)
      return error;
    if (cudaError_t error = resources.zero(block.memory.pointer, block.memory.capacity);
        error != cudaSuccess) {
      resources.deviceBuffers().release(block.memory);
      return error;
    }
    block.hostOffset = bytes;
    blocks.push_back(block);
  }
  Block& block = blocks.back();
  *device = static_cast<std::byte*>(block.memory.pointer) + block.used;
  *hostOffset = block.hostOffset + block.used;
  block.used += aligned;
  bytes += aligned;
  return cudaSuccess;
}

// --- The observer -------------------------------------------------------------------------------

/// One graph launch through a plan: at the plan's first launch it makes each selected node's part
/// of the plan as the node is offered (select, describe, module, the node's results in the plan's
/// memory); later launches hand out the plan's substitutes where the back end offers the nodes
/// again, and nothing where it kept them in place.
class InstrumentationFramework::PlannedGraphLaunch final : public GraphLaunchObserver {
public:
  PlannedGraphLaunch(InstrumentationFramework& framework, Device& device, int ordinal,
                     Stream& stream, uint64_t graph, uint64_t graphLaunch,
                     std::shared_ptr<const ActiveList> active, std::shared_ptr<GraphState> state,
                     std::unique_lock<std::mutex> launching, std::shared_ptr<GraphPlan> plan,
                     bool building)
      : framework_(framework), device_(device), ordinal_(ordinal), stream_(stream), graph_(graph),
        graphLaunch_(graphLaunch), active_(std::move(active)), state_(std::move(state)),
        launching_(std::move(launching)), plan_(std::move(plan)), building_(building) {}

  uint64_t plan() const override { return plan_->id; }

  std::optional<GraphKernelSubstitute> kernelNode(const LaunchSite& site,
                                                  const GraphKernelNode& node) override {
    if (building_)
      return add(site, node);
    const GraphPlan::Node* planned = plan_->find(node.node, occurrences_[node.node]++);
    if (planned == nullptr || !planned->instrumented)
      return std::nullopt;
    if (planned->function != node.function || !same(planned->grid, node.grid) ||
        !same(planned->block, node.block) || planned->sharedMem != node.sharedMem) {
      // Changed between the plan's state and this launch (another thread set the node's
      // parameters meanwhile): as it is, this once.
      refused_.emplace_back(node.node, "its parameters changed while the graph was launched");
      return std::nullopt;
    }
    return planned->substitute;
  }

  void substituteRefused(uint64_t node, const std::string& reason) override {
    refused_.emplace_back(node, reason);
  }

  void launched(cudaError_t result) override {
    InstrumentationFramework& framework = framework_;
    DeviceResources& pool = plan_->resources;
    LaunchInfo info;
    info.device = ordinal_;
    info.stream = reinterpret_cast<uint64_t>(stream_.handle());
    if (framework.nvtx_ != nullptr && framework.nvtx_->attached())
      info.nvtxRanges = framework.nvtx_->launchStack();
    std::unique_ptr<PendingLaunch> record =
        framework.newPending(device_, ordinal_, std::move(info), *active_);
    record->generation = plan_->generation;
    GraphPlanLaunch launch;
    launch.plan = plan_;
    launch.graph = graph_;
    launch.launch = graphLaunch_;
    launch.firstLaunchId =
        framework.launchIds_.fetch_add(plan_->nodes.size(), std::memory_order_relaxed) + 1;
    {
      // The kernels' launch indices for all nodes at once: one map entry per kernel, not per node.
      std::lock_guard lock(framework.launchIndexMutex_);
      for (const auto& [name, count] : plan_->kernels) {
        // A block of `count` consecutive indices (launching threads count without the lock).
        auto& launches = framework.kernelNames_[name].launches;
        launch.kernelLaunchBases.push_back(launches.fetch_add(count, std::memory_order_relaxed) +
                                           1);
      }
    }
    launch.refused = std::move(refused_);
    if (result != cudaSuccess) {
      // No node ran: the plan's memory is still zero, and each node's profile says so.
      record->launchFailed = true;
      record->outcome = result;
      record->graphPlan = std::move(launch);
      framework.worker_.begin();
      framework.worker_.completeHere(std::move(record));
      return;
    }
    // Every node's results to the host in one copy per block, and the blocks zero again for the
    // next launch, in the launch's stream; no device reset may free them meanwhile (one that
    // began since destroyed the graph with them: each node's profile reports the disturbance).
    Device& device = device_;
    // Backpressure: when the profile worker is behind by more than the plan's share of host
    // copies, this thread waits for it (the application's streams never do) rather than the
    // launch's results being dropped. Before taking a Use: a reset waiting for uses must not wait
    // for this thread while it waits for the worker.
    if (plan_->bytes > 0 && backlogged())
      framework.worker_.flush(std::chrono::seconds(30));
    const DeviceResources::Use use = pool.use();
    if (!use) {
      record->outcome = cudaErrorNotReady;
      record->graphPlan = std::move(launch);
      state_->plan.reset();
      framework.worker_.begin();
      framework.worker_.completeHere(std::move(record));
      return;
    }
    if (plan_->bytes > 0) {
      if (backlogged()) {
        // Still behind after waiting for the worker (30 s): the results are dropped, and say so.
        launch.resultsLost = "the host copies of earlier launches of the graph were still "
                             "waiting for their profiles after 30 s: this launch's results were "
                             "not kept";
        framework.logOnce(
            "graph-backlog",
            "instrumentation: graph launches came faster than their profiles were made "
            "for 30 s: some launches' results are not kept");
      } else {
        cudaError_t error = pool.stagingBuffers().acquire(plan_->bytes, &launch.staging);
        if (error == cudaSuccess)
          plan_->stagingOut.fetch_add(plan_->bytes, std::memory_order_relaxed);
        auto* host = static_cast<std::byte*>(launch.staging.pointer);
        for (const GraphPlan::Block& block : plan_->blocks)
          if (error == cudaSuccess)
            error = device.copy(host + block.hostOffset, block.memory.pointer, block.used, stream_,
                                true);
        if (error != cudaSuccess)
          record->outcome = error; // the host copy is not the launch's: never reported
      }
      for (const GraphPlan::Block& block : plan_->blocks)
        if (device.fill(block.memory.pointer, 0, block.used, stream_, true) != cudaSuccess) {
          // The blocks may not be zero at the next launch: that one makes a new plan.
          state_->plan.reset();
          break;
        }
    }
    record->graphPlan = std::move(launch);
    state_->launchedBefore = true;
    state_->lastDoneGeneration = record->generation;
    Event* done = pool.acquireEvent(false);
    if (done != nullptr && done->record(stream_, 0) == cudaSuccess) {
      record->done = done;
      state_->lastDone = done;
      state_->lastStream = stream_.handle();
      state_->lastThread = hostThreadNumber();
      framework.worker_.begin();
      framework.worker_.push(std::move(record));
      return;
    }
    pool.releaseEvent(done, record->generation);
    // No event to order a later launch on another stream by: that one synchronizes this stream.
    state_->lastDone = nullptr;
    state_->lastStream = nullptr;
    framework.enqueueCompletion(stream_, std::move(record));
  }

private:
  static bool same(const dim3& a, const dim3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
  /// Whether the host copies of this plan's launches not yet made into profiles are at the cap.
  bool backlogged() const {
    return plan_->stagingOut.load(std::memory_order_relaxed) + plan_->bytes >
           std::max(framework_.graphBacklogBytes_.load(std::memory_order_relaxed),
                    2 * plan_->bytes);
  }

  /// The plan's first launch: `node`'s part of the plan (select -> describe -> module -> its
  /// results in the plan's memory), and its substitute.
  std::optional<GraphKernelSubstitute> add(const LaunchSite& site, const GraphKernelNode& node) {
    InstrumentationFramework& framework = framework_;
    std::unique_ptr<PendingLaunch> pending = framework.select(site, *active_, false);
    if (!pending)
      return std::nullopt; // not selected: the node runs as it is, without a profile
    GraphPlan::Node planned;
    planned.node = node.node;
    planned.function = node.function;
    planned.grid = node.grid;
    planned.block = node.block;
    planned.sharedMem = node.sharedMem;
    Step<GraphKernelSubstitute> substitute = instrument(site, node, *pending, planned);
    planned.info = std::move(pending->info);
    planned.notes = std::move(pending->notes);
    if (!substitute) {
      planned.instrumented = false;
      planned.slots.clear();
      planned.clockSlot.reset();
      planned.module.reset();
      planned.notes.push_back(substitute.error().note);
    } else {
      planned.instrumented = true;
      if (node.conditional)
        planned.notes.push_back("a kernel node in the body of an if or switch conditional node: "
                                "where the body did not run, its results are empty");
      planned.substitute = *substitute;
    }
    // Its kernel's launch indices come with the plan's launches.
    auto kernel = std::find_if(plan_->kernels.begin(), plan_->kernels.end(),
                               [&](const auto& k) { return k.first == planned.info.kernelName; });
    if (kernel == plan_->kernels.end())
      kernel = plan_->kernels.insert(kernel, {planned.info.kernelName, 0});
    planned.kernel = static_cast<size_t>(kernel - plan_->kernels.begin());
    planned.rank = kernel->second++;
    plan_->byNode[planned.node].push_back(plan_->nodes.size());
    plan_->nodes.push_back(std::move(planned));
    if (!substitute)
      return std::nullopt;
    return std::move(*substitute);
  }

  /// describe -> module -> the node's results in the plan's memory: its instrumented kernel and
  /// the hidden parameter (pointers into that memory, the same at every launch).
  Step<GraphKernelSubstitute> instrument(const LaunchSite& site, const GraphKernelNode& node,
                                         PendingLaunch& pending, GraphPlan::Node& planned) {
    InstrumentationFramework& framework = framework_;
    if (node.unsubstitutable != nullptr)
      return Fallback{node.unsubstitutable};
    if (node.repeats)
      return Fallback{"a kernel node in the body of a while conditional node: it may run several "
                      "times in one graph launch, and its results are per graph launch"};
    auto target = framework.describe(site, *active_, pending);
    if (!target)
      return target.error();
    auto kernel = framework.module(site, *target, pending);
    if (!kernel)
      return kernel.error();
    // initialize: what each instrumentor needs for the node (as buffers() does for a launch).
    const uint32_t unit = target->kernel->unit;
    uint64_t bytes = 0;
    for (uint32_t s = 0; s < target->slots().size(); ++s) {
      GraphPlan::Slot slot;
      slot.instrumentor = target->slots()[s].instrumentor;
      slot.state = &kernel->module->state(unit, s);
      BufferRequest request;
      try {
        request = slot.instrumentor->initialize(*slot.state, pending.info);
      } catch (const std::exception& e) {
        return Fallback{std::string(slot.instrumentor->name()) + " initialize: " + e.what()};
      }
      if (request.fill != 0)
        return Fallback{"an instrumentor wants its buffer filled with other than zero, which a "
                        "graph node's cannot be"};
      slot.bytes = std::max<uint64_t>(request.bytes, 8);
      slot.offset = bytes;
      bytes += ResultRing::aligned(slot.bytes);
      if (slot.instrumentor == framework.launchClock_)
        planned.clockSlot = s;
      planned.slots.push_back(std::move(slot));
    }
    void* base = nullptr;
    if (cudaError_t error = plan_->allocate(bytes, &base, &planned.offset); error != cudaSuccess)
      return Fallback{"no device memory for the graph's results (" + std::string(errorName(error)) +
                      ")"};
    planned.module = kernel->module;
    std::vector<uint64_t> parameter;
    for (const GraphPlan::Slot& slot : planned.slots)
      parameter.push_back(reinterpret_cast<uint64_t>(static_cast<std::byte*>(base) + slot.offset));
    parameter.push_back(0); // no completion word: the graph's launch has its event
    mirrorAttributes(site.device, site.params, kernel->function);
    GraphKernelSubstitute substitute;
    substitute.function = kernel->function;
    substitute.parameters = target->kernel->parameters;
    const auto* raw = reinterpret_cast<const std::byte*>(parameter.data());
    substitute.appended.assign(raw, raw + parameter.size() * sizeof(uint64_t));
    return substitute;
  }

  InstrumentationFramework& framework_;
  Device& device_;
  const int ordinal_;
  Stream& stream_;
  const uint64_t graph_;
  const uint64_t graphLaunch_;
  const std::shared_ptr<const ActiveList> active_;
  const std::shared_ptr<GraphState> state_;
  /// The executable graph's launches through its plan, one at a time (the plan's memory).
  std::unique_lock<std::mutex> launching_;
  const std::shared_ptr<GraphPlan> plan_;
  const bool building_;
  std::vector<std::pair<uint64_t, std::string>> refused_;
  std::unordered_map<uint64_t, size_t> occurrences_; ///< of each node id offered so far
};

std::unique_ptr<GraphLaunchObserver> InstrumentationFramework::plannedGraphLaunch(
    Device& device, int ordinal, Stream& stream, uint64_t graph, uint64_t graphLaunch,
    std::shared_ptr<const ActiveList> active, uint64_t state) {
  DeviceResources& pool = resources(device, ordinal);
  if (pool.resetting())
    return nullptr; // a device reset is under way: launch by launch, disturbed
  std::shared_ptr<GraphState> graphState;
  {
    std::lock_guard lock(graphStatesMutex_);
    auto& slot = graphStates_[graph];
    if (!slot)
      slot = std::make_shared<GraphState>();
    graphState = slot;
  }
  std::unique_lock launching(graphState->launching);
  PlanKey key{state, active, currentSelection(), pool.generation(), modules_.generation(), ordinal};
  bool building = false;
  if (!graphState->plan || !(graphState->key == key)) {
    graphState->plan = std::make_shared<GraphPlan>(pool, planIds_.fetch_add(1) + 1);
    graphState->plan->generation = key.generation;
    graphState->key = std::move(key);
    building = true;
  }
  std::shared_ptr<GraphPlan> plan = graphState->plan;
  // The last launch's copy and fill ran in another stream: this launch must not write the plan's
  // memory before they did. (A launch of an earlier device generation left nothing to wait for.)
  const bool sameStream =
      graphState->lastStream == stream.handle() &&
      (stream.handle() != cudaStreamPerThread || graphState->lastThread == hostThreadNumber());
  if (graphState->launchedBefore && !sameStream &&
      graphState->lastDoneGeneration == pool.generation()) {
    if (graphState->lastDone == nullptr ||
        stream.waitEvent(*graphState->lastDone, 0) != cudaSuccess)
      device.synchronize();
  }
  return std::make_unique<PlannedGraphLaunch>(*this, device, ordinal, stream, graph, graphLaunch,
                                              std::move(active), std::move(graphState),
                                              std::move(launching), std::move(plan), building);
}

void InstrumentationFramework::graphExecDestroyed(uint64_t graph) {
  std::shared_ptr<GraphState> state;
  {
    std::lock_guard lock(graphStatesMutex_);
    auto found = graphStates_.find(graph);
    if (found == graphStates_.end())
      return;
    state = std::move(found->second);
    graphStates_.erase(found);
  }
  std::lock_guard launching(state->launching); // a launch on another thread finishes first
  state->plan.reset(); // its memory goes back once the launches still on their way completed
}

void InstrumentationFramework::forgetGraphPlans(int ordinal) {
  std::lock_guard lock(graphStatesMutex_);
  for (auto& [graph, state] : graphStates_) {
    // A launch in progress keeps its plan: it was made for the old generation, and the next launch
    // makes a new one anyway (never waited for here: the reset may hold what that launch needs).
    std::unique_lock launching(state->launching, std::try_to_lock);
    if (!launching || state->key.ordinal != ordinal)
      continue;
    state->plan.reset();
    state->launchedBefore = false;
    state->lastDone = nullptr;
    state->lastStream = nullptr;
  }
}

// --- Completion ---------------------------------------------------------------------------------

void InstrumentationFramework::completePlanLaunch(std::unique_ptr<PendingLaunch> record) {
  // One profile per node of the plan, each from its part of the launch's host copy.
  GraphPlanLaunch& launch = *record->graphPlan;
  const GraphPlan& plan = *launch.plan;
  const auto* host = static_cast<const std::byte*>(launch.staging.pointer);
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    const GraphPlan::Node& node = plan.nodes[i];
    auto pending = std::make_unique<PendingLaunch>();
    pending->device = record->device;
    pending->resources = record->resources;
    pending->generation = record->generation;
    pending->info = node.info;
    pending->info.launchId = launch.firstLaunchId + i;
    pending->info.kernelLaunchIndex = launch.kernelLaunchBases[node.kernel] + node.rank;
    pending->info.stream = record->info.stream;
    pending->info.nvtxRanges = record->info.nvtxRanges;
    pending->info.graphNode = GraphNodeLaunch{launch.graph, node.node, launch.launch};
    pending->instrumentors = record->instrumentors;
    pending->notes = node.notes;
    pending->instrumented = node.instrumented && !record->launchFailed;
    pending->launchFailed = record->launchFailed;
    pending->outcome = record->outcome;
    pending->enqueuedNs = record->enqueuedNs;
    pending->hostThread = record->hostThread;
    pending->callPath = record->callPath;
    pending->resultsLost = launch.resultsLost;
    if (pending->instrumented) {
      auto refused = std::find_if(launch.refused.begin(), launch.refused.end(),
                                  [&](const auto& r) { return r.first == node.node; });
      if (refused != launch.refused.end()) {
        pending->instrumented = false;
        pending->notes.push_back("the graph ran this kernel node uninstrumented: " +
                                 refused->second);
      }
    }
    if (pending->instrumented) {
      pending->module = node.module;
      pending->clockSlot = node.clockSlot;
      for (const GraphPlan::Slot& slot : node.slots) {
        PendingLaunch::Slot each;
        each.instrumentor = slot.instrumentor;
        each.state = slot.state;
        each.offset = slot.offset;
        each.bytes = slot.bytes;
        pending->slots.push_back(std::move(each));
      }
      pending->hostResults = host != nullptr ? host + node.offset : nullptr;
      if (pending->hostResults == nullptr && pending->outcome == cudaSuccess &&
          pending->resultsLost.empty())
        pending->outcome = cudaErrorMemoryAllocation; // no host copy: nothing to report
    }
    complete(std::move(pending));
  }
  if (launch.staging.pointer != nullptr) {
    record->resources->stagingBuffers().release(launch.staging);
    plan.stagingOut.fetch_sub(plan.bytes, std::memory_order_relaxed);
  }
  record->graphPlan.reset();
  release(*record);
}

} // namespace ocelot::runtime::instrumentation
