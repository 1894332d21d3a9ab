#include "runtime/driver/DriverPlatform.h"

namespace ocelot::runtime::driver {

PlatformResult DriverPlatform::create(const char* library) {
  auto api = DriverApi::load(library);
  if (!api)
    return {nullptr, api.error().error, api.error().driverVersion, api.error().reason};
  int version = (*api)->version;

  if (CUresult result = (*api)->init(0); result != CUDA_SUCCESS) {
    const char* name = nullptr;
    (*api)->getErrorName(result, &name);
    return {nullptr, toCudaError(result), version,
            std::string("cuInit failed: ") + (name != nullptr ? name : "unknown error")};
  }
  int count = 0;
  if (CUresult result = (*api)->deviceGetCount(&count); result != CUDA_SUCCESS)
    return {nullptr, toCudaError(result), version, "cuDeviceGetCount failed"};
  if (count == 0)
    return {nullptr, cudaErrorNoDevice, version, "the driver reports no GPU"};

  std::unique_ptr<DriverPlatform> platform(new DriverPlatform(std::move(*api)));
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice device = 0;
    if (CUresult result = platform->api_->deviceGet(&device, ordinal); result != CUDA_SUCCESS)
      return {nullptr, toCudaError(result), version,
              "cuDeviceGet(" + std::to_string(ordinal) + ") failed"};
    platform->devices_.push_back(std::make_unique<DriverDevice>(*platform->api_, device));
  }
  return {std::move(platform), cudaSuccess, version, {}};
}

cudaError_t DriverPlatform::driverEntryPoint(const char* symbol, void** function, int cudaVersion,
                                             unsigned long long flags,
                                             cudaDriverEntryPointQueryResult* status) {
  // The flags (default, legacy stream, per-thread stream) and the query results are numbered alike
  // in both APIs. A symbol the driver does not have is a status, not an error: the call succeeds
  // with a null function, as with NVIDIA's runtime.
  CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  *function = nullptr;
  CUresult result = api_->getProcAddress(symbol, function, cudaVersion, flags, &found);
  *status = static_cast<cudaDriverEntryPointQueryResult>(found);
  if (result == CUDA_ERROR_NOT_FOUND || found != CU_GET_PROC_ADDRESS_SUCCESS) {
    *function = nullptr;
    return cudaSuccess;
  }
  return toCudaError(result);
}

// cudaLogLevel and CUlogLevel number the levels alike, so the application's callback has the type
// the driver calls; the handles and iterators are the same types in both APIs.
cudaError_t DriverPlatform::logsRegisterCallback(cudaLogsCallback_t callback, void* userData,
                                                 cudaLogsCallbackHandle* handle) {
  return toCudaError(invoke(api_->logsRegisterCallback, reinterpret_cast<CUlogsCallback>(callback),
                            userData, handle));
}

cudaError_t DriverPlatform::logsUnregisterCallback(cudaLogsCallbackHandle handle) {
  return toCudaError(invoke(api_->logsUnregisterCallback, handle));
}

cudaError_t DriverPlatform::logsCurrent(cudaLogIterator* iterator, unsigned int flags) {
  return toCudaError(invoke(api_->logsCurrent, iterator, flags));
}

cudaError_t DriverPlatform::logsDumpToFile(cudaLogIterator* iterator, const char* path,
                                           unsigned int flags) {
  return toCudaError(invoke(api_->logsDumpToFile, iterator, path, flags));
}

cudaError_t DriverPlatform::logsDumpToMemory(cudaLogIterator* iterator, char* buffer, size_t* size,
                                             unsigned int flags) {
  return toCudaError(invoke(api_->logsDumpToMemory, iterator, buffer, size, flags));
}

void registerPlatform(PlatformRegistry& backends) {
  backends.add("gpu", [] { return DriverPlatform::create(); });
}

} // namespace ocelot::runtime::driver
