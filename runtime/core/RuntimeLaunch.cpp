// Runtime: kernel launches, from <<<...>>> (__cudaPushCallConfiguration,
// __cudaPopCallConfiguration,
// __cudaGetKernel, __cudaLaunchKernel) and from cudaLaunchKernel.

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

cudaError_t Runtime::getKernel(cudaKernel_t* kernel, const void* hostFunction) {
  if (kernel == nullptr)
    return cudaErrorInvalidValue;
  const RegisteredFunction* function = registry_.findFunction(hostFunction);
  if (function == nullptr)
    return cudaErrorInvalidDeviceFunction;
  // Ocelot's kernel handles are its registration records; they are valid in every context.
  *kernel = static_cast<cudaKernel_t>(const_cast<void*>(Registry::kernelHandle(*function)));
  return cudaSuccess;
}

cudaError_t Runtime::launchKernel(const void* hostFunction, dim3 grid, dim3 block, void** args,
                                  size_t sharedMem, cudaStream_t stream) {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  const RegisteredFunction* function = registry_.findFunction(hostFunction);
  if (function == nullptr)
    return cudaErrorInvalidDeviceFunction;
  return launch(*function, grid, block, args, sharedMem, stream);
}

cudaError_t Runtime::launchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                                  size_t sharedMem, cudaStream_t stream) {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  const RegisteredFunction* function = registry_.findKernel(kernel);
  if (function == nullptr)
    return cudaErrorInvalidResourceHandle;
  return launch(*function, grid, block, args, sharedMem, stream);
}

cudaError_t Runtime::launch(const RegisteredFunction& function, dim3 grid, dim3 block, void** args,
                            size_t sharedMem, cudaStream_t stream) {
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
    return cudaErrorInvalidConfiguration;
  Device* device = nullptr;
  LoadedModule* module = nullptr;
  if (cudaError_t error = moduleOnCurrentDevice(*function.owner, &device, &module);
      error != cudaSuccess)
    return error;
  DeviceFunction handle = nullptr;
  if (cudaError_t error = module->function(*device, function.deviceName, &handle);
      error != cudaSuccess)
    return error == cudaErrorSymbolNotFound ? cudaErrorInvalidDeviceFunction : error;
  return deviceResult(device->launch({handle, grid, block, sharedMem, stream, args}));
}

cudaError_t Runtime::moduleOnCurrentDevice(const FatbinaryRegistration& registration,
                                           Device** device, LoadedModule** module) {
  int ordinal = 0;
  if (cudaError_t error = currentDevice(device, &ordinal); error != cudaSuccess)
    return error;
  return modules_.get(registration, ordinal, **device, module);
}

} // namespace ocelot::runtime
