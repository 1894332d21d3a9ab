#pragma once

#include "runtime/core/DeviceOperation.h"
#include "runtime/core/Graph.h"
#include "runtime/core/LaunchSite.h"

#include <atomic>
#include <cstdint>
#include <driver_types.h>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace ocelot::runtime {

class Logger;
class ModulePipeline;
namespace instrumentation {
class ApiCallLog;
class NvtxRanges;
} // namespace instrumentation

/// One graph launch as the interceptor sees it (LaunchInterceptor::graphLaunch): the runtime offers
/// it each kernel node of a registered kernel before the launch is enqueued, and says when the
/// launch was enqueued (or failed to be).
class GraphLaunchObserver {
public:
  virtual ~GraphLaunchObserver() = default;
  /// A kernel node of a registered kernel (`site.params` has the node's configuration, the
  /// launching stream and the original function): what the launch runs instead, or nullopt. It
  /// must not enqueue work: the executable graph is locked.
  virtual std::optional<GraphKernelSubstitute> kernelNode(const LaunchSite& site,
                                                          const GraphKernelNode& node) = 0;
  /// The substitute kernelNode() gave for `node` (a GraphKernelNode::node) could not be put in
  /// place: the node runs as it is, for `reason`.
  virtual void substituteRefused(uint64_t node, const std::string& reason) = 0;
  /// After the launch was enqueued on the stream (`result` cudaSuccess) or refused.
  virtual void launched(cudaError_t result) = 0;
  /// See GraphLaunchHook::plan: nonzero when the substitutes are the same at every launch made
  /// with this value, so that the back end may keep them in place.
  virtual uint64_t plan() const { return 0; }
};

/// The one way a layer above the core (the instrumentation, runtime/instrumentation) takes part in
/// launches: the runtime offers it each launch of a registered kernel and tells it about device
/// resets. The core knows nothing else about it, so it never depends on what is above it.
class LaunchInterceptor {
public:
  virtual ~LaunchInterceptor() = default;

  /// Whether the interceptor wants launches now (reads its configuration the first time).
  virtual bool active() = 0;
  /// The next process-wide launch number (every launch the runtime offers takes one).
  virtual uint64_t nextLaunchId() = 0;
  /// Handles the launch: its result, or nullopt when the runtime should launch it as usual.
  virtual std::optional<cudaError_t> launch(const LaunchSite& site) = 0;
  /// Before a device reset, and after it (`afterReset`): drop what the reset destroys.
  virtual void forgetDevice(int ordinal, bool afterReset) = 0;
  /// Before a module loaded through the driver API is unloaded: drop what was made from it (after
  /// the launches still on their way); false when that wait timed out.
  virtual bool unloadRegistration(uint64_t id) = 0;
  /// A graph was launched while active whose kernel nodes are not offered one by one (the back end
  /// cannot substitute them).
  virtual void graphLaunched() = 0;
  /// A launch of executable graph `graph` on `stream` while active, whose kernel nodes the runtime
  /// offers one by one: what observes it, or null when the graph runs as it is. `state` is the
  /// executable graph's GraphExec::kernelNodeState().
  virtual std::unique_ptr<GraphLaunchObserver> graphLaunch(Device& /*device*/, int /*ordinal*/,
                                                           Stream& /*stream*/, uint64_t /*graph*/,
                                                           std::optional<uint64_t> /*state*/) {
    return nullptr;
  }
  /// cudaGraphExecDestroy of executable graph `graph`: drop what was kept for its launches.
  virtual void graphExecDestroyed(uint64_t /*graph*/) {}
  /// Runs `run` (one copy or memset on `stream`), timed when host measures are on; returns what
  /// `run` returned.
  virtual cudaError_t timeOperation(Device& device, int ordinal, Stream& stream,
                                    instrumentation::DeviceOperation::Kind kind, const char* name,
                                    uint64_t bytes, const std::function<cudaError_t()>& run) = 0;
  /// A launch of a kernel Ocelot did not load, made by `launch`: its result when the interceptor
  /// ran it, nullopt when the caller should launch it as usual.
  virtual std::optional<cudaError_t> launchForeign(Device& device, int ordinal,
                                                   const std::string& kernelName,
                                                   const LaunchParams& params,
                                                   const std::function<cudaError_t()>& launch,
                                                   const std::string& reason) = 0;

protected:
  LaunchInterceptor() = default;
  LaunchInterceptor(const LaunchInterceptor&) = default;
  LaunchInterceptor& operator=(const LaunchInterceptor&) = default;
};

/// What the runtime hands the interceptor it creates: its logger, its module pipeline (so that
/// instrumented modules start from the PTX the others do) and the flag that keeps the launch path
/// at one relaxed load: the interceptor keeps it set while it wants no launches.
struct InterceptorServices {
  const Logger& logger;
  const ModulePipeline& pipeline;
  std::atomic<bool>* idle;
  const instrumentation::ApiCallLog* apiCalls; ///< the runtime's record of API calls
  const instrumentation::NvtxRanges* nvtx;     ///< the application's NVTX ranges
};

/// Creates the runtime's interceptor when the first launch (or reset) needs it: lazily, because
/// the instrumentation starts a thread and reads its configuration only when it is used.
using LaunchInterceptorFactory =
    std::function<std::shared_ptr<LaunchInterceptor>(const InterceptorServices& services)>;

} // namespace ocelot::runtime
