// The runtime's side of launch interception: the one hook in the launch path. What intercepts
// (the instrumentation: instrumented modules, buffers, readback, profiles) is in
// runtime/instrumentation, which installs itself through setLaunchInterceptorFactory.

#include "runtime/core/Runtime.h"

namespace ocelot::runtime {

void Runtime::setLaunchInterceptorFactory(LaunchInterceptorFactory factory) {
  interceptorFactory_ = std::move(factory);
}

LaunchInterceptor* Runtime::launchInterceptor() {
  std::call_once(interceptorOnce_, [this] {
    if (interceptorFactory_)
      interceptor_ = interceptorFactory_(
          InterceptorServices{logger_, pipeline_, &instrumentationIdle_, &apiCalls_, &nvtx_});
  });
  return interceptor_.get();
}

void Runtime::forgetInstrumentation(int ordinal, bool afterReset) {
  if (LaunchInterceptor* interceptor = launchInterceptor())
    interceptor->forgetDevice(ordinal, afterReset);
}

cudaError_t Runtime::timeOperation(Device& device, int ordinal, Stream& stream,
                                   instrumentation::DeviceOperation::Kind kind, const char* name,
                                   uint64_t bytes, const std::function<cudaError_t()>& run) {
  LaunchInterceptor* interceptor = launchInterceptor();
  return interceptor != nullptr
             ? interceptor->timeOperation(device, ordinal, stream, kind, name, bytes, run)
             : run();
}

namespace {

/// Offers each kernel node of one graph launch to `offer` (the runtime's resolution of the node's
/// kernel, then the interceptor's observer), and tells `refused` of substitutes the back end could
/// not put in place.
class OfferedKernelNodes final : public GraphLaunchHook {
public:
  using Offer = std::function<std::optional<GraphKernelSubstitute>(const GraphKernelNode&)>;
  using Refused = std::function<void(const GraphKernelNode&, const std::string&)>;
  OfferedKernelNodes(Offer offer, Refused refused, uint64_t plan)
      : offer_(std::move(offer)), refused_(std::move(refused)), plan_(plan) {}
  std::optional<GraphKernelSubstitute> kernelNode(const GraphKernelNode& node) override {
    return offer_(node);
  }
  void substituteRefused(const GraphKernelNode& node, const std::string& reason) override {
    refused_(node, reason);
  }
  uint64_t plan() const override { return plan_; }

private:
  Offer offer_;
  Refused refused_;
  const uint64_t plan_;
};

} // namespace

cudaError_t Runtime::launchGraph(GraphExec& exec, Stream& stream, Device& device, int ordinal) {
  if (instrumentationIdle_.load(std::memory_order_relaxed))
    return exec.launch(stream);
  LaunchInterceptor* interceptor = launchInterceptor();
  if (interceptor == nullptr || !interceptor->active())
    return exec.launch(stream);
  // A graph launched into a stream being captured becomes a node of the captured graph: its
  // kernel nodes are offered when that graph is launched.
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (stream.captureStatus(&capture) == cudaSuccess && capture != cudaStreamCaptureStatusNone)
    return exec.launch(stream);
  std::unique_ptr<GraphLaunchObserver> observer =
      exec.offersKernelNodes() ? interceptor->graphLaunch(device, ordinal, stream,
                                                          reinterpret_cast<uint64_t>(exec.handle()),
                                                          exec.kernelNodeState())
                               : nullptr;
  if (observer == nullptr) {
    cudaError_t result = exec.launch(stream);
    if (result == cudaSuccess)
      interceptor->graphLaunched();
    return result;
  }
  OfferedKernelNodes hook(
      [&](const GraphKernelNode& node) -> std::optional<GraphKernelSubstitute> {
        // Only kernels the application registered have PTX Ocelot can instrument (as for launches).
        const void* origin = kernelHandles_.origin(node.function);
        const RegisteredFunction* registered =
            origin != nullptr ? registry_.findLaunchable(origin) : nullptr;
        if (registered == nullptr || registered->owner == nullptr)
          return std::nullopt;
        LoadedModule* module = nullptr;
        if (modules_.get(*registered->owner, ordinal, device, &module) != cudaSuccess)
          return std::nullopt;
        LaunchParams params;
        params.function = node.function;
        params.grid = node.grid;
        params.block = node.block;
        params.sharedMem = node.sharedMem;
        params.stream = &stream;
        params.args = node.args;
        LaunchSite site{
            device,           ordinal, *registered->owner,         registered->deviceName,
            module->handle(), params,  interceptor->nextLaunchId()};
        return observer->kernelNode(site, node);
      },
      [&](const GraphKernelNode& node, const std::string& reason) {
        observer->substituteRefused(node.node, reason);
      },
      observer->plan());
  cudaError_t result = exec.launchOffering(stream, hook);
  observer->launched(result);
  return result;
}

void Runtime::forgetGraphExec(GraphExec& exec) {
  if (LaunchInterceptor* interceptor = launchInterceptor())
    interceptor->graphExecDestroyed(reinterpret_cast<uint64_t>(exec.handle()));
}

void Runtime::forgetDriverModule(uint64_t registrationId) {
  if (LaunchInterceptor* interceptor = launchInterceptor())
    interceptor->unloadRegistration(registrationId);
}

std::optional<cudaError_t> Runtime::launchInstrumented(const void* function, Device& device,
                                                       int ordinal, const LaunchParams& params) {
  LaunchInterceptor* interceptor = launchInterceptor();
  if (interceptor == nullptr) {
    instrumentationIdle_.store(true, std::memory_order_relaxed); // nothing will ever intercept
    return std::nullopt;
  }
  if (!interceptor->active() && !hostMeasures_) // one atomic load once configured
    return std::nullopt;
  // Only kernels the application registered have PTX Ocelot can instrument; library kernels
  // (cudaLibrary_t) run as they are.
  const RegisteredFunction* registered = registry_.findLaunchable(function);
  if (registered == nullptr || registered->owner == nullptr)
    return std::nullopt;
  LoadedModule* module = nullptr;
  if (modules_.get(*registered->owner, ordinal, device, &module) != cudaSuccess)
    return std::nullopt; // the normal path reports the error
  LaunchSite site{device,           ordinal, *registered->owner,         registered->deviceName,
                  module->handle(), params,  interceptor->nextLaunchId()};
  return interceptor->launch(site);
}

} // namespace ocelot::runtime
