// Runtime: driver entry points, the profiler switches and the memcpy nodes of graphs that copy
// to and from registered variables.

#include "runtime/core/CopyKind.h"
#include "runtime/core/GraphNodeParams.h"
#include "runtime/core/Runtime.h"

namespace ocelot::runtime {

cudaError_t Runtime::getDriverEntryPoint(const char* symbol, void** function, int cudaVersion,
                                         unsigned long long flags,
                                         cudaDriverEntryPointQueryResult* status) {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  if (symbol == nullptr || function == nullptr ||
      flags > (cudaEnableLegacyStream | cudaEnablePerThreadDefaultStream))
    return cudaErrorInvalidValue;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  cudaError_t error =
      platform_.platform->driverEntryPoint(symbol, function, cudaVersion, flags, &found);
  if (status != nullptr)
    *status = found;
  return error;
}

// The error log is the driver's, one per process: no device needs to be current. Flags are
// reserved (zero).
cudaError_t Runtime::logsRegisterCallback(cudaLogsCallback_t callback, void* userData,
                                          cudaLogsCallbackHandle* handle) {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  if (callback == nullptr || handle == nullptr)
    return cudaErrorInvalidValue;
  return platform_.platform->logsRegisterCallback(callback, userData, handle);
}

cudaError_t Runtime::logsUnregisterCallback(cudaLogsCallbackHandle handle) {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  if (handle == nullptr)
    return cudaErrorInvalidValue;
  return platform_.platform->logsUnregisterCallback(handle);
}

cudaError_t Runtime::logsCurrent(cudaLogIterator* iterator, unsigned int flags) {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  if (iterator == nullptr || flags != 0)
    return cudaErrorInvalidValue;
  return platform_.platform->logsCurrent(iterator, flags);
}

cudaError_t Runtime::logsDumpToFile(cudaLogIterator* iterator, const char* path,
                                    unsigned int flags) {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  if (path == nullptr || flags != 0)
    return cudaErrorInvalidValue;
  return platform_.platform->logsDumpToFile(iterator, path, flags);
}

cudaError_t Runtime::logsDumpToMemory(cudaLogIterator* iterator, char* buffer, size_t* size,
                                      unsigned int flags) {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  if (buffer == nullptr || size == nullptr || flags != 0)
    return cudaErrorInvalidValue;
  return platform_.platform->logsDumpToMemory(iterator, buffer, size, flags);
}

cudaError_t Runtime::profilerControl(bool start) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  cudaError_t error = device->profilerControl(start);
  // Without a profiler attached the calls are harmless no-ops, as in NVIDIA's runtime.
  return error == cudaErrorNotSupported ? cudaSuccess : deviceResult(error);
}

cudaError_t Runtime::symbolCopyNodeParams(const void* symbol, void* memory, size_t bytes,
                                          size_t offset, int kind, bool toSymbol,
                                          cudaGraphNodeParams* params) {
  Device* device = nullptr;
  void* address = nullptr;
  size_t size = 0;
  if (cudaError_t error = symbolStorage(symbol, &device, &address, &size); error != cudaSuccess)
    return error;
  bool valid = kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault ||
               kind == (toSymbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
  if (!valid)
    return cudaErrorInvalidMemcpyDirection;
  if (offset > size || bytes > size - offset || memory == nullptr)
    return cudaErrorInvalidValue;
  char* variable = static_cast<char*>(address) + offset;
  *params =
      toSymbol ? graph_params::memcpy1D(variable, memory, bytes, static_cast<cudaMemcpyKind>(kind))
               : graph_params::memcpy1D(memory, variable, bytes, static_cast<cudaMemcpyKind>(kind));
  return cudaSuccess;
}

} // namespace ocelot::runtime
