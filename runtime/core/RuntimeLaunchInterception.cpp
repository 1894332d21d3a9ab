// The runtime's side of the instrumentation framework: the one hook in the launch path. Everything
// else (instrumented modules, buffers, readback, profiles) is in runtime/instrumentation.

#include "runtime/core/Runtime.h"
#include "runtime/instrumentation/InstrumentationFramework.h"

namespace ocelot::runtime {

instrumentation::InstrumentationFramework& Runtime::instrumentation() {
  std::call_once(instrumentationOnce_, [this] {
    instrumentation_ = std::make_shared<instrumentation::InstrumentationFramework>(
        logger_, pipeline_, &instrumentationIdle_, &apiCalls_, &nvtx_);
  });
  return *instrumentation_;
}

void Runtime::forgetInstrumentation(int ordinal, bool afterReset) {
  instrumentation().forgetDevice(ordinal, afterReset);
}

cudaError_t Runtime::timeOperation(Device& device, int ordinal, Stream& stream,
                                   instrumentation::DeviceOperation::Kind kind, const char* name,
                                   uint64_t bytes, const std::function<cudaError_t()>& run) {
  return instrumentation().timeOperation(device, ordinal, stream, kind, name, bytes, run);
}

void Runtime::noteGraphLaunch() {
  if (!instrumentationIdle_.load(std::memory_order_relaxed) && instrumentation().active())
    instrumentation().graphLaunched();
}

std::optional<cudaError_t> Runtime::launchInstrumented(const void* function, Device& device,
                                                       int ordinal, const LaunchParams& params) {
  instrumentation::InstrumentationFramework& framework = instrumentation();
  if (!framework.active() && !hostMeasures_) // one atomic load once configured
    return std::nullopt;
  // Only kernels the application registered have PTX Ocelot can instrument; library kernels
  // (cudaLibrary_t) run as they are.
  const RegisteredFunction* registered = registry_.findLaunchable(function);
  if (registered == nullptr || registered->owner == nullptr)
    return std::nullopt;
  LoadedModule* module = nullptr;
  if (modules_.get(*registered->owner, ordinal, device, &module) != cudaSuccess)
    return std::nullopt; // the normal path reports the error
  instrumentation::LaunchSite site{
      device,           ordinal, *registered->owner,      registered->deviceName,
      module->handle(), params,  framework.nextLaunchId()};
  return framework.launch(site);
}

} // namespace ocelot::runtime
