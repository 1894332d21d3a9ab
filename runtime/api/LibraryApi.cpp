// The CUDA Runtime API: library management (CUDART_LIBRARY) and the runtime's export table.
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Implemented functions forward to ocelot::runtime::Runtime; the
// others return notImplemented(__func__), which logs the name once and returns
// cudaErrorNotSupported.

#include "runtime/api/ApiBoundary.h"

#include <cuda_runtime_api.h>

using namespace ocelot::runtime::api;

extern "C" {

cudaError_t CUDARTAPI cudaGetExportTable(const void** /*ppExportTable*/,
                                         const cudaUUID_t* /*pExportTableId*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaKernelSetAttributeForDevice(cudaKernel_t kernel,
                                                      enum cudaFuncAttribute attr, int value,
                                                      int device) {
  return call(
      [&] { return runtime().kernelSetAttributeForDevice(kernel, raw(attr), value, device); });
}

cudaError_t CUDARTAPI cudaLibraryEnumerateKernels(cudaKernel_t* kernels, unsigned int numKernels,
                                                  cudaLibrary_t lib) {
  return call([&] { return runtime().libraryEnumerateKernels(kernels, numKernels, lib); });
}

cudaError_t CUDARTAPI cudaLibraryGetGlobal(void** dptr, size_t* bytes, cudaLibrary_t library,
                                           const char* name) {
  return call([&] { return runtime().libraryGetGlobal(dptr, bytes, library, name, false); });
}

cudaError_t CUDARTAPI cudaLibraryGetKernel(cudaKernel_t* pKernel, cudaLibrary_t library,
                                           const char* name) {
  return call([&] { return runtime().libraryGetKernel(pKernel, library, name); });
}

cudaError_t CUDARTAPI cudaLibraryGetKernelCount(unsigned int* count, cudaLibrary_t lib) {
  return call([&] { return runtime().libraryGetKernelCount(count, lib); });
}

cudaError_t CUDARTAPI cudaLibraryGetManaged(void** dptr, size_t* bytes, cudaLibrary_t library,
                                            const char* name) {
  return call([&] { return runtime().libraryGetGlobal(dptr, bytes, library, name, true); });
}

cudaError_t CUDARTAPI cudaLibraryGetUnifiedFunction(void** fptr, cudaLibrary_t library,
                                                    const char* symbol) {
  return call([&] { return runtime().libraryGetUnifiedFunction(fptr, library, symbol); });
}

cudaError_t CUDARTAPI cudaLibraryLoadData(cudaLibrary_t* library, const void* code,
                                          enum cudaJitOption* jitOptions, void** jitOptionsValues,
                                          unsigned int numJitOptions,
                                          enum cudaLibraryOption* libraryOptions,
                                          void** libraryOptionValues,
                                          unsigned int numLibraryOptions) {
  return call([&] {
    return runtime().libraryLoad(library, code, nullptr, jitOptions, jitOptionsValues,
                                 numJitOptions, libraryOptions, libraryOptionValues,
                                 numLibraryOptions);
  });
}

cudaError_t CUDARTAPI cudaLibraryLoadFromFile(cudaLibrary_t* library, const char* fileName,
                                              enum cudaJitOption* jitOptions,
                                              void** jitOptionsValues, unsigned int numJitOptions,
                                              enum cudaLibraryOption* libraryOptions,
                                              void** libraryOptionValues,
                                              unsigned int numLibraryOptions) {
  return call([&] {
    return runtime().libraryLoad(library, nullptr, fileName, jitOptions, jitOptionsValues,
                                 numJitOptions, libraryOptions, libraryOptionValues,
                                 numLibraryOptions);
  });
}

cudaError_t CUDARTAPI cudaLibraryUnload(cudaLibrary_t library) {
  return call([&] { return runtime().libraryUnload(library); });
}

} // extern "C"
