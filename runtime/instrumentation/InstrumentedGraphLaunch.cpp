// The kernel nodes of a CUDA graph launch, instrumented launch by launch where the back end keeps
// no substitutes (PlannedGraphLaunch.cpp where it does): the launch path's steps (select,
// describe, module, buffers) for each node the runtime offers, the node's instrumented kernel as
// its substitute for this launch, and one completion per node after the graph.

#include "runtime/core/Event.h"
#include "runtime/core/Stream.h"
#include "runtime/instrumentation/InstrumentationFramework.h"

namespace ocelot::runtime::instrumentation {

/// One graph launch: the PendingLaunch of each selected node, completed once the launch was
/// enqueued (an event after the graph, polled by the profile worker) or refused.
class InstrumentationFramework::InstrumentedGraphLaunch final : public GraphLaunchObserver {
public:
  InstrumentedGraphLaunch(InstrumentationFramework& framework, Stream& stream, uint64_t graph,
                          uint64_t graphLaunch, std::shared_ptr<const ActiveList> active)
      : framework_(framework), stream_(stream), graph_(graph), graphLaunch_(graphLaunch),
        active_(std::move(active)) {}

  std::optional<GraphKernelSubstitute> kernelNode(const LaunchSite& site,
                                                  const GraphKernelNode& node) override {
    std::unique_ptr<PendingLaunch> pending = framework_.select(site, *active_);
    if (!pending)
      return std::nullopt; // not selected: the node runs as it is, without a profile
    pending->info.graphNode = GraphNodeLaunch{graph_, node.node, graphLaunch_};
    if (node.unsubstitutable != nullptr) {
      // The back end runs this node as it is: its profile says so and why.
      pending->instrumented = false;
      pending->notes.emplace_back(node.unsubstitutable);
      nodes_.push_back(std::move(pending));
      return std::nullopt;
    }
    Step<GraphKernelSubstitute> substitute = instrument(site, node, *pending);
    if (!substitute) {
      framework_.release(*pending);
      pending->instrumented = false;
      pending->notes.push_back(substitute.error().note);
      nodes_.push_back(std::move(pending));
      return std::nullopt;
    }
    pending->instrumented = true;
    if (node.conditional)
      pending->notes.push_back("a kernel node in the body of an if or switch conditional node: "
                               "where the body did not run, its results are empty");
    nodes_.push_back(std::move(pending));
    return std::move(*substitute);
  }

  void substituteRefused(uint64_t node, const std::string& reason) override {
    // The node runs as it is: no counts, its buffers go back, and its profile says why.
    for (auto& pending : nodes_)
      if (pending->instrumented && pending->info.graphNode &&
          pending->info.graphNode->node == node) {
        framework_.release(*pending);
        pending->instrumented = false;
        pending->notes.push_back("the graph ran this kernel node uninstrumented: " + reason);
      }
  }

  void launched(cudaError_t result) override {
    for (auto& pending : nodes_) {
      if (result != cudaSuccess) {
        // The graph was not launched: no node ran, and each profile says so.
        framework_.release(*pending);
        pending->instrumented = false;
        pending->launchFailed = true;
        pending->outcome = result;
        framework_.worker_.begin();
        framework_.worker_.completeHere(std::move(pending));
        continue;
      }
      // An event after the graph: its results are complete once it has fired. The node's GPU
      // time is its kernel's own clock (instrumentors/LaunchClock.h).
      DeviceResources& pool = *pending->resources;
      pending->end = pool.acquireEvent(false);
      if (pending->end != nullptr && pending->end->record(stream_, 0) != cudaSuccess) {
        pool.releaseEvent(pending->end, pending->generation);
        pending->end = nullptr;
      }
      framework_.enqueueCompletion(stream_, std::move(pending));
    }
    nodes_.clear();
  }

private:
  /// describe -> module -> buffers for one node: its instrumented kernel and the hidden parameter
  /// (pointers into a chunk of the result ring of its own).
  Step<GraphKernelSubstitute> instrument(const LaunchSite& site, const GraphKernelNode& node,
                                         PendingLaunch& pending) {
    if (node.repeats)
      return Fallback{"a kernel node in the body of a while conditional node: it may run several "
                      "times in one graph launch, and its results are per graph launch"};
    auto target = framework_.describe(site, *active_, pending);
    if (!target)
      return target.error();
    auto kernel = framework_.module(site, *target, pending);
    if (!kernel)
      return kernel.error();
    if (auto ready = framework_.buffers(site, *target, *kernel, pending, false); !ready)
      return ready.error();
    mirrorAttributes(site.device, site.params, kernel->function);
    GraphKernelSubstitute substitute;
    substitute.function = kernel->function;
    substitute.parameters = target->kernel->parameters;
    const auto* bytes = reinterpret_cast<const std::byte*>(pending.parameter.data());
    substitute.appended.assign(bytes, bytes + pending.parameter.size() * sizeof(uint64_t));
    return substitute;
  }

  InstrumentationFramework& framework_;
  Stream& stream_;
  const uint64_t graph_;
  const uint64_t graphLaunch_;
  const std::shared_ptr<const ActiveList> active_;
  std::vector<std::unique_ptr<PendingLaunch>> nodes_;
};

std::unique_ptr<GraphLaunchObserver>
InstrumentationFramework::graphLaunch(Device& device, int ordinal, Stream& stream, uint64_t graph,
                                      std::optional<uint64_t> state) {
  std::shared_ptr<const ActiveList> active = activeList();
  if (active->empty())
    return nullptr;
  uint64_t graphLaunch = 0;
  {
    std::lock_guard lock(launchIndexMutex_);
    graphLaunch = ++graphLaunches_[graph];
  }
  // Through a plan where the back end keeps substitutes; not with --nvtx-include, whose ranges
  // select each launch anew.
  if (state && nvtxInclude_.empty())
    if (auto planned =
            plannedGraphLaunch(device, ordinal, stream, graph, graphLaunch, active, *state))
      return planned;
  return std::make_unique<InstrumentedGraphLaunch>(*this, stream, graph, graphLaunch,
                                                   std::move(active));
}

} // namespace ocelot::runtime::instrumentation
