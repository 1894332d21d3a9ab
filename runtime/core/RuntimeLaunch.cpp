// Runtime: kernel launches, from <<<...>>> (__cudaPushCallConfiguration and
// __cudaPopCallConfiguration are inline in Runtime.h; __cudaGetKernel, __cudaLaunchKernel), from
// cudaLaunchKernel, cudaLaunchKernelExC and cudaLaunchCooperativeKernel, and the resolution of what
// an application calls a kernel to the device's function.

#include "runtime/core/Library.h"
#include "runtime/core/Runtime.h"

namespace ocelot::runtime {

cudaError_t Runtime::launchKernel(const void* hostFunction, dim3 grid, dim3 block, void** args,
                                  size_t sharedMem, cudaStream_t stream) {
  LaunchParams params;
  params.grid = grid;
  params.block = block;
  params.sharedMem = sharedMem;
  params.args = args;
  return launch(hostFunction, params, stream);
}

cudaError_t Runtime::launchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                                  size_t sharedMem, cudaStream_t stream) {
  LaunchParams params;
  params.grid = grid;
  params.block = block;
  params.sharedMem = sharedMem;
  params.args = args;
  return launch(kernel, params, stream);
}

// The launch path of every launch API. Once a kernel has been launched on a device, a launch takes
// no lock, allocates nothing and reaches its per-thread state (current device, kernel lookups)
// through one thread-local access: the kernel's registration record comes from the thread's cache
// and holds the device function, and the stream comes from the thread's cache of stream lookups.
// The instrumentation framework hooks in here: it may swap `params.function` for an instrumented
// variant and append its hidden parameter to `params.args`.
cudaError_t Runtime::launch(const void* function, LaunchParams& params, cudaStream_t stream) {
  ThreadState& state = thread();
  Device* device = nullptr;
  int ordinal = 0;
  if (cudaError_t error = currentDevice(state, &device, &ordinal); error != cudaSuccess)
    return error;
  const RegisteredFunction* registered =
      function != nullptr ? registry_.findLaunchable(function, state.launchCache) : nullptr;
  if (registered != nullptr && ordinal < RegisteredFunction::kCachedDevices)
    params.function =
        registered->deviceFunctions[static_cast<size_t>(ordinal)].load(std::memory_order_acquire);
  if (params.function == nullptr) // first launch on the device, or not a registered kernel
    if (cudaError_t error = resolveFunction(function, *device, ordinal, &params.function);
        error != cudaSuccess)
      return error;
  if (cudaError_t error =
          launchLimits_[static_cast<size_t>(ordinal)].check(params.grid, params.block);
      error != cudaSuccess)
    return error;
  // The thread's cache answers without a lock once the thread has used the stream.
  Stream* queue = device->streams().find(stream, state.streamCache);
  if (queue == nullptr) [[unlikely]]
    return cudaErrorInvalidResourceHandle;
  params.stream = queue;
  // While no instrumentor is active the framework keeps this flag set: one relaxed load.
  if (!instrumentationIdle_.load(std::memory_order_relaxed))
    if (auto handled = launchInstrumented(function, *device, ordinal, params))
      return deviceResult(*handled);
  cudaError_t result = device->launch(params);
  return result == cudaSuccess ? result : deviceResult(result);
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
    if (device.libraries() == nullptr)
      return cudaErrorNotSupported;
    if (cudaError_t error = device.libraries()->kernelFunction(kernel, resolved);
        error != cudaSuccess)
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
      error != cudaSuccess) {
    if (error != cudaErrorSymbolNotFound)
      return error;
    // The error code alone does not say which kernel is missing: say it once per kernel.
    std::lock_guard lock(unsupportedMutex_);
    if (unsupportedReported_.insert("missing kernel " + registered->deviceName).second)
      logger_.warn("kernel " + registered->deviceName + " was registered by the application but " +
                   "its module's code on device " + std::to_string(ordinal) + " has no entry of " +
                   "that name (renamed or removed from the PTX?); its launches fail with " +
                   "cudaErrorInvalidDeviceFunction");
    return cudaErrorInvalidDeviceFunction;
  }
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

cudaError_t Runtime::streamOn(Device& device, cudaStream_t handle, Stream** stream) {
  *stream = device.streams().find(handle);
  return *stream != nullptr ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

} // namespace ocelot::runtime
