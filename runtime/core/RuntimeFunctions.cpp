// Runtime: kernels as the application names them (cudaGetFuncBySymbol, cudaFuncGetName, ...),
// their attributes, and occupancy.

#include "runtime/core/Functions.h"
#include "runtime/core/Library.h"
#include "runtime/core/Runtime.h"

namespace ocelot::runtime {
namespace {

bool validFunctionAttribute(int attribute) {
  return attribute >= cudaFuncAttributeMaxDynamicSharedMemorySize &&
         attribute <= cudaFuncAttributeClusterSchedulingPolicyPreference;
}

bool validCacheConfig(int config) {
  return config >= cudaFuncCachePreferNone && config <= cudaFuncCachePreferEqual;
}

LaunchParams launchShape(const cudaLaunchConfig_t& config) {
  LaunchParams params;
  params.grid = config.gridDim;
  params.block = config.blockDim;
  params.sharedMem = config.dynamicSmemBytes;
  params.attributes = config.numAttrs != 0 ? config.attrs : nullptr;
  params.attributeCount = config.numAttrs;
  return params;
}

} // namespace

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

cudaError_t Runtime::getFuncBySymbol(cudaFunction_t* function, const void* symbol) {
  Device* device = nullptr;
  int ordinal = 0;
  if (cudaError_t error = currentDevice(&device, &ordinal); error != cudaSuccess)
    return error;
  if (function == nullptr)
    return cudaErrorInvalidValue;
  // Only the host stubs of registered kernels are symbols here.
  if (symbol == nullptr || registry_.findFunction(symbol) == nullptr)
    return cudaErrorInvalidDeviceFunction;
  DeviceFunction resolved = nullptr;
  if (cudaError_t error = resolveFunction(symbol, *device, ordinal, &resolved);
      error != cudaSuccess)
    return error;
  *function = static_cast<cudaFunction_t>(resolved);
  return cudaSuccess;
}

cudaError_t Runtime::funcGetName(const char** name, const void* function) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (name == nullptr)
    return cudaErrorInvalidValue;
  if (function == nullptr)
    return cudaErrorInvalidDeviceFunction;
  // A registered kernel's name is the one it was registered with; no module needs to load.
  if (const RegisteredFunction* registered = registry_.findLaunchable(function)) {
    *name = registered->deviceName.c_str();
    return cudaSuccess;
  }
  if (!kernelHandles_.isLibraryKernel(function))
    return cudaErrorInvalidResourceHandle;
  Libraries* libraries = device->libraries();
  if (libraries == nullptr)
    return cudaErrorNotSupported;
  return deviceResult(
      libraries->kernelName(static_cast<cudaKernel_t>(const_cast<void*>(function)), name));
}

cudaError_t Runtime::funcGetParamInfo(const void* function, size_t index, size_t* offset,
                                      size_t* size) {
  Device* device = nullptr;
  DeviceFunction resolved = nullptr;
  if (cudaError_t error = functionOnCurrentDevice(function, &device, &resolved);
      error != cudaSuccess)
    return error;
  if (offset == nullptr)
    return cudaErrorInvalidValue;
  Functions* functions = device->functions();
  if (functions == nullptr)
    return cudaErrorNotSupported;
  return deviceResult(functions->parameter(resolved, index, offset, size));
}

cudaError_t Runtime::funcGetAttributes(cudaFuncAttributes* attributes, const void* function) {
  Device* device = nullptr;
  DeviceFunction resolved = nullptr;
  if (cudaError_t error = functionOnCurrentDevice(function, &device, &resolved);
      error != cudaSuccess)
    return error;
  if (attributes == nullptr)
    return cudaErrorInvalidValue;
  Functions* functions = device->functions();
  if (functions == nullptr)
    return cudaErrorNotSupported;
  return deviceResult(functions->attributes(resolved, attributes));
}

cudaError_t Runtime::funcSetAttribute(const void* function, int attribute, int value) {
  Device* device = nullptr;
  DeviceFunction resolved = nullptr;
  if (cudaError_t error = functionOnCurrentDevice(function, &device, &resolved);
      error != cudaSuccess)
    return error;
  if (!validFunctionAttribute(attribute))
    return cudaErrorInvalidValue;
  Functions* functions = device->functions();
  if (functions == nullptr)
    return cudaErrorNotSupported;
  return deviceResult(
      functions->setAttribute(resolved, static_cast<cudaFuncAttribute>(attribute), value));
}

cudaError_t Runtime::funcSetCacheConfig(const void* function, int config) {
  Device* device = nullptr;
  DeviceFunction resolved = nullptr;
  if (cudaError_t error = functionOnCurrentDevice(function, &device, &resolved);
      error != cudaSuccess)
    return error;
  if (!validCacheConfig(config))
    return cudaErrorInvalidValue;
  Functions* functions = device->functions();
  if (functions == nullptr)
    return cudaErrorNotSupported;
  return deviceResult(functions->setCacheConfig(resolved, static_cast<cudaFuncCache>(config)));
}

// Shared-memory bank configuration is fixed since Volta: the call validates and does nothing.
cudaError_t Runtime::funcSetSharedMemConfig(const void* function, int config) {
  Device* device = nullptr;
  DeviceFunction resolved = nullptr;
  if (cudaError_t error = functionOnCurrentDevice(function, &device, &resolved);
      error != cudaSuccess)
    return error;
  if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte)
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

cudaError_t Runtime::kernelSetAttributeForDevice(cudaKernel_t kernel, int attribute, int value,
                                                 int ordinal) {
  Device* target = nullptr;
  if (cudaError_t error = deviceByOrdinal(ordinal, &target); error != cudaSuccess)
    return error;
  Device* current = nullptr;
  if (cudaError_t error = currentDevice(&current); error != cudaSuccess)
    return error;
  if (!validFunctionAttribute(attribute))
    return cudaErrorInvalidValue;
  // The kernel's function on the named device lives in that device's context.
  if (cudaError_t error = target->activate(); error != cudaSuccess)
    return deviceResult(error);
  DeviceFunction resolved = nullptr;
  cudaError_t error = resolveFunction(kernel, *target, ordinal, &resolved);
  if (error == cudaSuccess)
    error = target->functions() == nullptr
                ? cudaErrorNotSupported
                : deviceResult(target->functions()->setAttribute(
                      resolved, static_cast<cudaFuncAttribute>(attribute), value));
  current->activate();
  return error;
}

cudaError_t Runtime::occupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* function,
                                                               int blockSize, size_t sharedMem,
                                                               unsigned int flags) {
  Device* device = nullptr;
  DeviceFunction resolved = nullptr;
  if (cudaError_t error = functionOnCurrentDevice(function, &device, &resolved);
      error != cudaSuccess)
    return error;
  if (blocks == nullptr || blockSize <= 0 ||
      (flags & ~static_cast<unsigned int>(cudaOccupancyDisableCachingOverride)) != 0)
    return cudaErrorInvalidValue;
  Functions* functions = device->functions();
  if (functions == nullptr)
    return cudaErrorNotSupported;
  return deviceResult(functions->maxActiveBlocks(resolved, blockSize, sharedMem, flags, blocks));
}

cudaError_t Runtime::occupancyAvailableDynamicSMemPerBlock(size_t* bytes, const void* function,
                                                           int blocks, int blockSize) {
  Device* device = nullptr;
  DeviceFunction resolved = nullptr;
  if (cudaError_t error = functionOnCurrentDevice(function, &device, &resolved);
      error != cudaSuccess)
    return error;
  if (bytes == nullptr || blocks <= 0 || blockSize <= 0)
    return cudaErrorInvalidValue;
  Functions* functions = device->functions();
  if (functions == nullptr)
    return cudaErrorNotSupported;
  return deviceResult(functions->availableDynamicSharedMemory(resolved, blocks, blockSize, bytes));
}

cudaError_t Runtime::occupancyMaxPotentialClusterSize(int* size, const void* function,
                                                      const cudaLaunchConfig_t* config) {
  Device* device = nullptr;
  DeviceFunction resolved = nullptr;
  if (cudaError_t error = functionOnCurrentDevice(function, &device, &resolved);
      error != cudaSuccess)
    return error;
  if (size == nullptr || config == nullptr || (config->numAttrs != 0 && config->attrs == nullptr))
    return cudaErrorInvalidValue;
  LaunchParams params = launchShape(*config);
  params.function = resolved;
  if (cudaError_t error = streamOn(*device, config->stream, &params.stream); error != cudaSuccess)
    return error;
  Functions* functions = device->functions();
  if (functions == nullptr)
    return cudaErrorNotSupported;
  return deviceResult(functions->maxPotentialClusterSize(params, size));
}

cudaError_t Runtime::occupancyMaxActiveClusters(int* clusters, const void* function,
                                                const cudaLaunchConfig_t* config) {
  Device* device = nullptr;
  DeviceFunction resolved = nullptr;
  if (cudaError_t error = functionOnCurrentDevice(function, &device, &resolved);
      error != cudaSuccess)
    return error;
  if (clusters == nullptr || config == nullptr ||
      (config->numAttrs != 0 && config->attrs == nullptr))
    return cudaErrorInvalidValue;
  LaunchParams params = launchShape(*config);
  params.function = resolved;
  if (cudaError_t error = streamOn(*device, config->stream, &params.stream); error != cudaSuccess)
    return error;
  Functions* functions = device->functions();
  if (functions == nullptr)
    return cudaErrorNotSupported;
  return deviceResult(functions->maxActiveClusters(params, clusters));
}

} // namespace ocelot::runtime
