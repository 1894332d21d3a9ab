#pragma once

#include "support/Expected.h"

#include <cuda.h>
#include <cudaProfiler.h>

#include <driver_types.h>
#include <memory>
#include <string>
#include <utility>

namespace ocelot::runtime::driver {

/// The CUDA driver functions Ocelot uses, resolved from libcuda.so.1 through cuGetProcAddress for
/// the CUDA 13.0 ABI. Each member has exactly the type cuda.h declares, so calls are type-checked;
/// the member names drop the `cu` prefix because cuda.h #defines many of those names to their
/// versioned symbols (cuMemAlloc is cuMemAlloc_v2). The list is DriverFunctions.def.
struct DriverApi {
#define OCELOT_DRIVER_REQUIRED(member, cuName) decltype(&::cuName) member = nullptr;
#define OCELOT_DRIVER_OPTIONAL(member, cuName) decltype(&::cuName) member = nullptr;
#define OCELOT_DRIVER_REQUIRED_AS(member, cuName, declaration)                                     \
  decltype(&::declaration) member = nullptr;
#include "runtime/driver/DriverFunctions.def"

  /// The driver's cuGetProcAddress_v2 (cudaGetDriverEntryPoint hands out what it finds).
  decltype(&::cuGetProcAddress) getProcAddress = nullptr;

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
  static support::Expected<std::unique_ptr<DriverApi>, LoadError>
  load(const char* library = "libcuda.so.1");

private:
  void* library_ = nullptr;
};

/// Calls an optional driver function: a driver that lacks it answers CUDA_ERROR_NOT_SUPPORTED,
/// which the Runtime API reports as cudaErrorNotSupported.
template <class Function, class... Arguments>
CUresult invoke(Function function, Arguments&&... arguments) {
  return function != nullptr ? function(std::forward<Arguments>(arguments)...)
                             : CUDA_ERROR_NOT_SUPPORTED;
}

/// The cudaError_t for a driver failure: CUDA keeps the numbering of both in step, so a code the
/// Runtime API also defines maps to itself and anything else to cudaErrorUnknown.
cudaError_t failureToCudaError(CUresult result);
/// The cudaError_t for any driver result. Inline, success first: every launch passes its result
/// through here, and only failures need the table lookup.
inline cudaError_t toCudaError(CUresult result) {
  return result == CUDA_SUCCESS ? cudaSuccess : failureToCudaError(result);
}

} // namespace ocelot::runtime::driver
