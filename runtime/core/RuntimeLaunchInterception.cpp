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

void Runtime::noteGraphLaunch() {
  if (instrumentationIdle_.load(std::memory_order_relaxed))
    return;
  if (LaunchInterceptor* interceptor = launchInterceptor(); interceptor && interceptor->active())
    interceptor->graphLaunched();
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
