#pragma once

#include "runtime/core/Library.h"

namespace ocelot::runtime::cpu {

class CpuDevice;

/// Libraries on the CPU device: a library is a module loaded from a PTX image, and its
/// cudaKernel_t handles are the device's DeviceFunction handles, so launching one needs no
/// translation.
class CpuLibraries final : public Libraries {
public:
  explicit CpuLibraries(CpuDevice& device) : device_(device) {}

  cudaError_t load(const void* image, const char* file, cudaJitOption* jitOptions, void** jitValues,
                   unsigned int jitCount, cudaLibraryOption* libraryOptions, void** libraryValues,
                   unsigned int libraryCount, cudaLibrary_t* library) override;
  cudaError_t unload(cudaLibrary_t library) override;
  cudaError_t kernel(cudaLibrary_t library, const char* name, cudaKernel_t* kernel) override;
  cudaError_t kernelCount(cudaLibrary_t library, unsigned int* count) override;
  cudaError_t kernels(cudaLibrary_t library, cudaKernel_t* kernels, unsigned int count) override;
  cudaError_t global(cudaLibrary_t library, const char* name, bool managed, void** address,
                     size_t* bytes) override;
  cudaError_t kernelFunction(cudaKernel_t kernel, DeviceFunction* function) override;
  cudaError_t kernelName(cudaKernel_t kernel, const char** name) override;

private:
  CpuDevice& device_;
};

} // namespace ocelot::runtime::cpu
