// Libraries on a GPU (cudaLibrary_t / cudaKernel_t are the driver's CUlibrary / CUkernel).
#include "runtime/driver/DriverLibraries.h"

namespace ocelot::runtime::driver {
namespace {

CUkernel toDriver(cudaKernel_t kernel) {
  return reinterpret_cast<CUkernel>(kernel);
}

CUlibrary toDriver(cudaLibrary_t library) {
  return reinterpret_cast<CUlibrary>(library);
}

} // namespace

cudaError_t DriverLibraries::load(const void* image, const char* file, cudaJitOption* jitOptions,
                                  void** jitValues, unsigned int jitCount,
                                  cudaLibraryOption* libraryOptions, void** libraryValues,
                                  unsigned int libraryCount, cudaLibrary_t* library) {
  // cudaJitOption / cudaLibraryOption number their options as CUjit_option / CUlibraryOption.
  auto* options = reinterpret_cast<CUjit_option*>(jitOptions);
  auto* libraryOptionList = reinterpret_cast<CUlibraryOption*>(libraryOptions);
  CUlibrary loaded = nullptr;
  CUresult result = file != nullptr
                        ? invoke(api_.libraryLoadFromFile, &loaded, file, options, jitValues,
                                 jitCount, libraryOptionList, libraryValues, libraryCount)
                        : invoke(api_.libraryLoadData, &loaded, image, options, jitValues, jitCount,
                                 libraryOptionList, libraryValues, libraryCount);
  if (result == CUDA_SUCCESS)
    *library = reinterpret_cast<cudaLibrary_t>(loaded);
  return toCudaError(result);
}

cudaError_t DriverLibraries::unload(cudaLibrary_t library) {
  return toCudaError(invoke(api_.libraryUnload, toDriver(library)));
}

cudaError_t DriverLibraries::kernel(cudaLibrary_t library, const char* name, cudaKernel_t* kernel) {
  CUkernel found = nullptr;
  CUresult result = invoke(api_.libraryGetKernel, &found, toDriver(library), name);
  if (result == CUDA_SUCCESS)
    *kernel = reinterpret_cast<cudaKernel_t>(found);
  return toCudaError(result);
}

cudaError_t DriverLibraries::kernelCount(cudaLibrary_t library, unsigned int* count) {
  return toCudaError(invoke(api_.libraryGetKernelCount, count, toDriver(library)));
}

cudaError_t DriverLibraries::kernels(cudaLibrary_t library, cudaKernel_t* kernels,
                                     unsigned int count) {
  return toCudaError(invoke(api_.libraryEnumerateKernels, reinterpret_cast<CUkernel*>(kernels),
                            count, toDriver(library)));
}

cudaError_t DriverLibraries::global(cudaLibrary_t library, const char* name, bool managed,
                                    void** address, size_t* bytes) {
  CUdeviceptr found = 0;
  size_t size = 0;
  CUresult result = managed ? invoke(api_.libraryGetManaged, &found, &size, toDriver(library), name)
                            : invoke(api_.libraryGetGlobal, &found, &size, toDriver(library), name);
  if (result != CUDA_SUCCESS)
    return toCudaError(result);
  if (address != nullptr)
    *address = reinterpret_cast<void*>(found);
  if (bytes != nullptr)
    *bytes = size;
  return cudaSuccess;
}

cudaError_t DriverLibraries::unifiedFunction(cudaLibrary_t library, const char* name,
                                             void** function) {
  return toCudaError(invoke(api_.libraryGetUnifiedFunction, function, toDriver(library), name));
}

cudaError_t DriverLibraries::kernelFunction(cudaKernel_t kernel, DeviceFunction* function) {
  // The function of a context-independent kernel in the current (this device's) context.
  CUfunction found = nullptr;
  CUresult result = invoke(api_.kernelGetFunction, &found, toDriver(kernel));
  if (result == CUDA_SUCCESS)
    *function = found;
  return toCudaError(result);
}

cudaError_t DriverLibraries::kernelName(cudaKernel_t kernel, const char** name) {
  return toCudaError(invoke(api_.kernelGetName, name, toDriver(kernel)));
}

} // namespace ocelot::runtime::driver
