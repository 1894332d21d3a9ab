#pragma once

#include "runtime/core/Library.h"
#include "runtime/driver/DriverApi.h"

namespace ocelot::runtime::driver {

/// Libraries on a GPU: cudaLibrary_t / cudaKernel_t are the driver's CUlibrary / CUkernel.
class DriverLibraries final : public Libraries {
public:
  explicit DriverLibraries(const DriverApi& api) : api_(api) {}

  cudaError_t load(const void* image, const char* file, cudaJitOption* jitOptions, void** jitValues,
                   unsigned int jitCount, cudaLibraryOption* libraryOptions, void** libraryValues,
                   unsigned int libraryCount, cudaLibrary_t* library) override;
  cudaError_t unload(cudaLibrary_t library) override;
  cudaError_t kernel(cudaLibrary_t library, const char* name, cudaKernel_t* kernel) override;
  cudaError_t kernelCount(cudaLibrary_t library, unsigned int* count) override;
  cudaError_t kernels(cudaLibrary_t library, cudaKernel_t* kernels, unsigned int count) override;
  cudaError_t global(cudaLibrary_t library, const char* name, bool managed, void** address,
                     size_t* bytes) override;
  cudaError_t unifiedFunction(cudaLibrary_t library, const char* name, void** function) override;
  cudaError_t kernelFunction(cudaKernel_t kernel, DeviceFunction* function) override;
  cudaError_t kernelName(cudaKernel_t kernel, const char** name) override;

private:
  const DriverApi& api_;
};

} // namespace ocelot::runtime::driver
