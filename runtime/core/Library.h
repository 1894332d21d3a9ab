#pragma once

#include "runtime/core/LaunchParams.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <driver_types.h>

namespace ocelot::runtime {

/// Libraries the application loads itself (cudaLibraryLoadData & co.). A library and its kernels
/// are the device's own handles (the driver's CUlibrary and CUkernel), passed through opaquely; the
/// runtime has refused null handles and pointers before it calls these.
class Libraries {
public:
  virtual ~Libraries() = default;

  /// Loads `image` (or, when it is null, `file`) with the driver's JIT and library options.
  virtual cudaError_t load(const void* image, const char* file, cudaJitOption* jitOptions,
                           void** jitValues, unsigned int jitCount,
                           cudaLibraryOption* libraryOptions, void** libraryValues,
                           unsigned int libraryCount, cudaLibrary_t* library) = 0;
  virtual cudaError_t unload(cudaLibrary_t library) = 0;
  virtual cudaError_t kernel(cudaLibrary_t library, const char* name, cudaKernel_t* kernel) = 0;
  virtual cudaError_t kernelCount(cudaLibrary_t library, unsigned int* count) = 0;
  virtual cudaError_t kernels(cudaLibrary_t library, cudaKernel_t* kernels, unsigned int count) = 0;
  /// A .global (managed = false) or .managed variable.
  virtual cudaError_t global(cudaLibrary_t library, const char* name, bool managed, void** address,
                             size_t* bytes) = 0;
  virtual cudaError_t unifiedFunction(cudaLibrary_t /*library*/, const char* /*name*/,
                                      void** /*function*/) {
    return cudaErrorNotSupported;
  }
  /// The function a library kernel launches as on this device.
  virtual cudaError_t kernelFunction(cudaKernel_t kernel, DeviceFunction* function) = 0;
  virtual cudaError_t kernelName(cudaKernel_t kernel, const char** name) = 0;
};

} // namespace ocelot::runtime
