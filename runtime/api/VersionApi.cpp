// The CUDA Runtime API: versions, interaction with the driver API and driver entry points
// (CUDART__VERSION, CUDART_DRIVER, CUDART_DRIVER_ENTRY_POINT).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Every function forwards to ocelot::runtime::Runtime.

#include "runtime/api/ApiBoundary.h"

#include <cuda_runtime_api.h>

using namespace ocelot::runtime::api;

extern "C" {

cudaError_t CUDARTAPI cudaDriverGetVersion(int* driverVersion) {
  return call([&] { return runtime().driverGetVersion(driverVersion); });
}

cudaError_t CUDARTAPI cudaGetDriverEntryPoint(const char* symbol, void** funcPtr,
                                              unsigned long long flags,
                                              enum cudaDriverEntryPointQueryResult* driverStatus) {
  // Without a version, the entry point of the CUDA version the runtime implements.
  return call([&] {
    return runtime().getDriverEntryPoint(symbol, funcPtr, CUDART_VERSION, flags, driverStatus);
  });
}

cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion(
    const char* symbol, void** funcPtr, unsigned int cudaVersion, unsigned long long flags,
    enum cudaDriverEntryPointQueryResult* driverStatus) {
  return call([&] {
    return runtime().getDriverEntryPoint(symbol, funcPtr, static_cast<int>(cudaVersion), flags,
                                         driverStatus);
  });
}

cudaError_t CUDARTAPI cudaGetFuncBySymbol(cudaFunction_t* functionPtr, const void* symbolPtr) {
  return call([&] { return runtime().getFuncBySymbol(functionPtr, symbolPtr); });
}

cudaError_t CUDARTAPI cudaGetKernel(cudaKernel_t* kernelPtr, const void* entryFuncAddr) {
  return call([&] { return runtime().getKernel(kernelPtr, entryFuncAddr); });
}

cudaError_t CUDARTAPI cudaRuntimeGetVersion(int* runtimeVersion) {
  return call([&] { return runtime().runtimeGetVersion(runtimeVersion); });
}

} // extern "C"
