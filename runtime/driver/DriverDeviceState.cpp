// DriverDevice: identity and the primary context's flags, limits and caches.
#include "runtime/driver/DriverConversions.h"
#include "runtime/driver/DriverDevice.h"

namespace ocelot::runtime::driver {

cudaError_t DriverDevice::primaryContext(CUcontext* context) {
  *context = context_.load(std::memory_order_acquire);
  if (*context != nullptr)
    return cudaSuccess;
  std::lock_guard lock(contextMutex_);
  *context = context_.load(std::memory_order_relaxed);
  if (*context == nullptr) {
    if (CUresult result = api_.primaryCtxRetain(context, device_); result != CUDA_SUCCESS)
      return toCudaError(result);
    context_.store(*context, std::memory_order_release);
  }
  return cudaSuccess;
}

cudaError_t DriverDevice::uuid(cudaUUID_t* uuid) {
  return toCudaError(invoke(api_.deviceGetUuid, uuid, device_));
}

cudaError_t DriverDevice::totalMemory(size_t* bytes) {
  return toCudaError(api_.deviceTotalMem(bytes, device_));
}

cudaError_t DriverDevice::setFlags(unsigned int flags) {
  // The driver rejects the (deprecated) CU_CTX_MAP_HOST bit; host memory is always mappable, and
  // NVIDIA's runtime reports cudaDeviceMapHost with the flags set (0xc for BlockingSync) until
  // cudaDeviceReset, after which the flags and the report are 0 again.
  CUresult result = invoke(api_.primaryCtxSetFlags, device_, flags & ~cudaDeviceMapHost);
  if (result == CUDA_SUCCESS)
    flagsSet_.store(true);
  return toCudaError(result);
}

cudaError_t DriverDevice::flags(unsigned int* flags) {
  unsigned int contextFlags = 0;
  int active = 0;
  CUresult result = invoke(api_.primaryCtxGetState, device_, &contextFlags, &active);
  if (result == CUDA_SUCCESS)
    *flags = contextFlags | (flagsSet_.load() ? cudaDeviceMapHost : 0u);
  return toCudaError(result);
}

cudaError_t DriverDevice::limit(cudaLimit limit, size_t* value) {
  // cudaLimit and CUlimit number the limits alike.
  return toCudaError(invoke(api_.ctxGetLimit, value, static_cast<CUlimit>(limit)));
}

cudaError_t DriverDevice::setLimit(cudaLimit limit, size_t value) {
  return toCudaError(invoke(api_.ctxSetLimit, static_cast<CUlimit>(limit), value));
}

cudaError_t DriverDevice::cacheConfig(cudaFuncCache* config) {
  CUfunc_cache cache{};
  CUresult result = invoke(api_.ctxGetCacheConfig, &cache);
  if (result == CUDA_SUCCESS)
    *config = static_cast<cudaFuncCache>(cache);
  return toCudaError(result);
}

cudaError_t DriverDevice::setCacheConfig(cudaFuncCache config) {
  return toCudaError(invoke(api_.ctxSetCacheConfig, static_cast<CUfunc_cache>(config)));
}

cudaError_t DriverDevice::resetPersistingL2Cache() {
  return toCudaError(invoke(api_.ctxResetPersistingL2Cache));
}

cudaError_t DriverDevice::flushRemoteWrites(cudaFlushGPUDirectRDMAWritesTarget target,
                                            cudaFlushGPUDirectRDMAWritesScope scope) {
  return toCudaError(invoke(api_.flushGPUDirectRDMAWrites,
                            static_cast<CUflushGPUDirectRDMAWritesTarget>(target),
                            static_cast<CUflushGPUDirectRDMAWritesScope>(scope)));
}

cudaError_t DriverDevice::profilerControl(bool start) {
  return toCudaError(start ? invoke(api_.profilerStart) : invoke(api_.profilerStop));
}

} // namespace ocelot::runtime::driver
