#pragma once

#include "runtime/fatbin/Expected.h"

#include <cuda.h>

#include <driver_types.h>
#include <memory>
#include <string>

namespace ocelot::runtime::driver {

/// The CUDA driver functions Ocelot uses, resolved from libcuda.so.1 through cuGetProcAddress for
/// the CUDA 13.0 ABI. Each member has exactly the type cuda.h declares, so calls are type-checked;
/// the member names drop the `cu` prefix because cuda.h #defines many of those names to their
/// versioned symbols (cuMemAlloc is cuMemAlloc_v2).
struct DriverApi {
  // Initialization and devices
  decltype(&::cuInit) init = nullptr;
  decltype(&::cuDriverGetVersion) driverGetVersion = nullptr;
  decltype(&::cuGetErrorName) getErrorName = nullptr;
  decltype(&::cuDeviceGetCount) deviceGetCount = nullptr;
  decltype(&::cuDeviceGet) deviceGet = nullptr;
  decltype(&::cuDeviceGetName) deviceGetName = nullptr;
  decltype(&::cuDeviceGetAttribute) deviceGetAttribute = nullptr;
  decltype(&::cuDeviceTotalMem) deviceTotalMem = nullptr;
  // Contexts
  decltype(&::cuDevicePrimaryCtxRetain) primaryCtxRetain = nullptr;
  decltype(&::cuDevicePrimaryCtxRelease) primaryCtxRelease = nullptr;
  decltype(&::cuDevicePrimaryCtxReset) primaryCtxReset = nullptr;
  decltype(&::cuCtxGetCurrent) ctxGetCurrent = nullptr;
  decltype(&::cuCtxSetCurrent) ctxSetCurrent = nullptr;
  decltype(&::cuCtxSynchronize) ctxSynchronize = nullptr;
  // Memory
  decltype(&::cuMemAlloc) memAlloc = nullptr;
  decltype(&::cuMemFree) memFree = nullptr;
  decltype(&::cuMemGetInfo) memGetInfo = nullptr;
  decltype(&::cuMemcpy) memcpy = nullptr;
  decltype(&::cuMemcpyAsync) memcpyAsync = nullptr;
  decltype(&::cuMemsetD8) memsetD8 = nullptr;
  decltype(&::cuMemsetD8Async) memsetD8Async = nullptr;
  // Modules and linking
  decltype(&::cuModuleLoadData) moduleLoadData = nullptr;
  decltype(&::cuModuleLoadDataEx) moduleLoadDataEx = nullptr;
  decltype(&::cuModuleUnload) moduleUnload = nullptr;
  decltype(&::cuModuleGetFunction) moduleGetFunction = nullptr;
  decltype(&::cuModuleGetGlobal) moduleGetGlobal = nullptr;
  decltype(&::cuLinkCreate) linkCreate = nullptr;
  decltype(&::cuLinkAddData) linkAddData = nullptr;
  decltype(&::cuLinkComplete) linkComplete = nullptr;
  decltype(&::cuLinkDestroy) linkDestroy = nullptr;
  // Execution, streams, events
  decltype(&::cuLaunchKernel) launchKernel = nullptr;
  decltype(&::cuStreamCreateWithPriority) streamCreateWithPriority = nullptr;
  decltype(&::cuStreamDestroy) streamDestroy = nullptr;
  decltype(&::cuStreamSynchronize) streamSynchronize = nullptr;
  decltype(&::cuStreamQuery) streamQuery = nullptr;
  decltype(&::cuStreamWaitEvent) streamWaitEvent = nullptr;
  decltype(&::cuEventCreate) eventCreate = nullptr;
  decltype(&::cuEventDestroy) eventDestroy = nullptr;
  decltype(&::cuEventRecord) eventRecord = nullptr;
  decltype(&::cuEventSynchronize) eventSynchronize = nullptr;
  decltype(&::cuEventQuery) eventQuery = nullptr;
  decltype(&::cuEventElapsedTime) eventElapsedTime = nullptr;

  /// The driver's version (cuDriverGetVersion), also when it is too old to be used.
  int version = 0;

  DriverApi() = default;
  DriverApi(const DriverApi&) = delete;
  DriverApi& operator=(const DriverApi&) = delete;
  ~DriverApi();

  /// The CUDA version whose ABI Ocelot asks the driver for.
  static constexpr int kCudaVersion = 13000;

  /// Why the driver could not be used. `error` is what the Runtime API reports for it (as NVIDIA's
  /// runtime does: cudaErrorInsufficientDriver for a missing, old or incomplete driver).
  struct LoadError {
    cudaError_t error = cudaErrorInsufficientDriver;
    int driverVersion = 0; ///< 0 when there is no driver at all
    std::string reason;
  };

  /// dlopen()s `library` and resolves every function. Never throws on a missing or broken driver.
  static Expected<std::unique_ptr<DriverApi>, LoadError> load(const char* library = "libcuda.so.1");

private:
  void* library_ = nullptr;
};

/// The cudaError_t for a driver result: CUDA keeps the numbering of both in step, so a code the
/// Runtime API also defines maps to itself and anything else to cudaErrorUnknown.
cudaError_t toCudaError(CUresult result);

} // namespace ocelot::runtime::driver
