// The CUDA Runtime API: library management (CUDART_LIBRARY).
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

cudaError_t CUDARTAPI cudaKernelSetAttributeForDevice(cudaKernel_t /*kernel*/,
                                                      enum cudaFuncAttribute /*attr*/,
                                                      int /*value*/, int /*device*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaLibraryEnumerateKernels(cudaKernel_t* /*kernels*/,
                                                  unsigned int /*numKernels*/,
                                                  cudaLibrary_t /*lib*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaLibraryGetGlobal(void** /*dptr*/, size_t* /*bytes*/,
                                           cudaLibrary_t /*library*/, const char* /*name*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaLibraryGetKernel(cudaKernel_t* /*pKernel*/, cudaLibrary_t /*library*/,
                                           const char* /*name*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaLibraryGetKernelCount(unsigned int* /*count*/, cudaLibrary_t /*lib*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaLibraryGetManaged(void** /*dptr*/, size_t* /*bytes*/,
                                            cudaLibrary_t /*library*/, const char* /*name*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaLibraryGetUnifiedFunction(void** /*fptr*/, cudaLibrary_t /*library*/,
                                                    const char* /*symbol*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaLibraryLoadData(cudaLibrary_t* /*library*/, const void* /*code*/,
                                          enum cudaJitOption* /*jitOptions*/,
                                          void** /*jitOptionsValues*/,
                                          unsigned int /*numJitOptions*/,
                                          enum cudaLibraryOption* /*libraryOptions*/,
                                          void** /*libraryOptionValues*/,
                                          unsigned int /*numLibraryOptions*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaLibraryLoadFromFile(cudaLibrary_t* /*library*/, const char* /*fileName*/,
                                              enum cudaJitOption* /*jitOptions*/,
                                              void** /*jitOptionsValues*/,
                                              unsigned int /*numJitOptions*/,
                                              enum cudaLibraryOption* /*libraryOptions*/,
                                              void** /*libraryOptionValues*/,
                                              unsigned int /*numLibraryOptions*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaLibraryUnload(cudaLibrary_t /*library*/) {
  return notImplemented(__func__);
}

} // extern "C"
