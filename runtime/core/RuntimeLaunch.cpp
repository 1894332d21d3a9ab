// Runtime: kernel launches, from <<<...>>> (__cudaPushCallConfiguration,
// __cudaPopCallConfiguration, __cudaGetKernel, __cudaLaunchKernel), from cudaLaunchKernel,
// cudaLaunchKernelExC and cudaLaunchCooperativeKernel, and the resolution of what an application
// calls a kernel to the device's function.

#include "runtime/core/Runtime.h"

namespace ocelot::runtime {

unsigned int Runtime::pushCallConfiguration(dim3 grid, dim3 block, size_t sharedMem,
                                            cudaStream_t stream) {
  thread().callConfigurations.push_back({grid, block, sharedMem, stream});
  return 0;
}

cudaError_t Runtime::popCallConfiguration(dim3* grid, dim3* block, size_t* sharedMem,
                                          void* stream) {
  auto& stack = thread().callConfigurations;
  if (stack.empty())
    return cudaErrorMissingConfiguration;
  CallConfiguration configuration = stack.back();
  stack.pop_back();
  if (grid != nullptr)
    *grid = configuration.grid;
  if (block != nullptr)
    *block = configuration.block;
  if (sharedMem != nullptr)
    *sharedMem = configuration.sharedMem;
  // host_runtime.h passes the address of a cudaStream_t as `void*`.
  if (stream != nullptr)
    *static_cast<cudaStream_t*>(stream) = configuration.stream;
  return cudaSuccess;
}

cudaError_t Runtime::launchKernel(const void* hostFunction, dim3 grid, dim3 block, void** args,
                                  size_t sharedMem, cudaStream_t stream) {
  LaunchParams params;
  params.grid = grid;
  params.block = block;
  params.sharedMem = sharedMem;
  params.stream = stream;
  params.args = args;
  return launch(hostFunction, params);
}

cudaError_t Runtime::launchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                                  size_t sharedMem, cudaStream_t stream) {
  LaunchParams params;
  params.grid = grid;
  params.block = block;
  params.sharedMem = sharedMem;
  params.stream = stream;
  params.args = args;
  return launch(kernel, params);
}

cudaError_t Runtime::launchCooperativeKernel(const void* function, dim3 grid, dim3 block,
                                             void** args, size_t sharedMem, cudaStream_t stream) {
  LaunchParams params;
  params.grid = grid;
  params.block = block;
  params.sharedMem = sharedMem;
  params.stream = stream;
  params.args = args;
  params.cooperative = true;
  return launch(function, params);
}

cudaError_t Runtime::launchKernelEx(const cudaLaunchConfig_t* config, const void* function,
                                    void** args, bool perThreadStream) {
  if (config == nullptr)
    return cudaErrorInvalidValue;
  if (config->numAttrs != 0 && config->attrs == nullptr)
    return cudaErrorInvalidValue;
  LaunchParams params;
  params.grid = config->gridDim;
  params.block = config->blockDim;
  params.sharedMem = config->dynamicSmemBytes;
  params.stream =
      perThreadStream && config->stream == nullptr ? cudaStreamPerThread : config->stream;
  params.args = args;
  params.attributes = config->numAttrs != 0 ? config->attrs : nullptr;
  params.attributeCount = config->numAttrs;
  return launch(function, params);
}

// The launch path of every launch API: no allocation and no lock once a kernel has been launched
// on a device before (the function is cached in its registration record, found through the
// registry's per-thread cache). The instrumentation framework hooks in here: it may swap
// `params.function` for an instrumented variant and append its hidden parameter to `params.args`.
cudaError_t Runtime::launch(const void* function, LaunchParams params) {
  Device* device = nullptr;
  int ordinal = 0;
  if (cudaError_t error = currentDevice(&device, &ordinal); error != cudaSuccess)
    return error;
  if (cudaError_t error = resolveFunction(function, *device, ordinal, &params.function);
      error != cudaSuccess)
    return error;
  if (cudaError_t error =
          launchLimits_[static_cast<size_t>(ordinal)].check(params.grid, params.block);
      error != cudaSuccess)
    return error;
  if (auto handled = launchInstrumented(function, *device, ordinal, params))
    return deviceResult(*handled);
  return deviceResult(device->launch(params));
}

cudaError_t Runtime::resolveFunction(const void* function, Device& device, int ordinal,
                                     DeviceFunction* resolved) {
  if (function == nullptr)
    return cudaErrorInvalidDeviceFunction;
  const RegisteredFunction* registered = registry_.findLaunchable(function);
  if (registered == nullptr) {
    if (!kernelHandles_.isLibraryKernel(function))
      return cudaErrorInvalidResourceHandle;
    cudaKernel_t kernel = static_cast<cudaKernel_t>(const_cast<void*>(function));
    if (cudaError_t error = device.kernelFunction(resolved, kernel); error != cudaSuccess)
      return deviceResult(error);
    kernelHandles_.remember(*resolved, ordinal, function);
    return cudaSuccess;
  }
  bool cached = ordinal < RegisteredFunction::kCachedDevices;
  if (cached) {
    *resolved =
        registered->deviceFunctions[static_cast<size_t>(ordinal)].load(std::memory_order_acquire);
    if (*resolved != nullptr)
      return cudaSuccess;
  }
  LoadedModule* module = nullptr;
  if (cudaError_t error = modules_.get(*registered->owner, ordinal, device, &module);
      error != cudaSuccess)
    return error;
  if (cudaError_t error = module->function(device, registered->deviceName, resolved);
      error != cudaSuccess)
    return error == cudaErrorSymbolNotFound ? cudaErrorInvalidDeviceFunction : error;
  kernelHandles_.remember(*resolved, ordinal, registered->hostFunction);
  if (cached)
    registered->deviceFunctions[static_cast<size_t>(ordinal)].store(*resolved,
                                                                    std::memory_order_release);
  return cudaSuccess;
}

cudaError_t Runtime::functionOnCurrentDevice(const void* function, Device** device,
                                             DeviceFunction* resolved) {
  int ordinal = 0;
  if (cudaError_t error = currentDevice(device, &ordinal); error != cudaSuccess)
    return error;
  return resolveFunction(function, **device, ordinal, resolved);
}

cudaError_t Runtime::moduleOnCurrentDevice(const FatbinaryRegistration& registration,
                                           Device** device, LoadedModule** module) {
  int ordinal = 0;
  if (cudaError_t error = currentDevice(device, &ordinal); error != cudaSuccess)
    return error;
  return modules_.get(registration, ordinal, **device, module);
}

} // namespace ocelot::runtime
