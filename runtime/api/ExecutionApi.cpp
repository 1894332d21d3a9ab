// The CUDA Runtime API: execution control and occupancy (CUDART_EXECUTION, CUDART_OCCUPANCY).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Implemented functions forward to ocelot::runtime::Runtime; the
// others return notImplemented(__func__), which logs the name once and returns
// cudaErrorNotSupported.

#include "runtime/api/ApiBoundary.h"
#include "runtime/api/ExecutionCalls.h"
#include "runtime/api/StreamCalls.h"

#include <cuda_runtime_api.h>

namespace ocelot::runtime::api {

cudaError_t launchCooperativeKernel(const void* function, dim3 grid, dim3 block, void** args,
                                    size_t sharedMem, cudaStream_t stream) {
  return call([&] {
    LaunchParams params;
    params.grid = grid;
    params.block = block;
    params.sharedMem = sharedMem;
    params.args = args;
    params.cooperative = true;
    return runtime().launch(function, params, stream);
  });
}

cudaError_t launchKernelEx(const cudaLaunchConfig_t* config, const void* function, void** args,
                           bool perThreadStream) {
  return call([&] {
    if (config == nullptr)
      return cudaErrorInvalidValue;
    if (config->numAttrs != 0 && config->attrs == nullptr)
      return cudaErrorInvalidValue;
    LaunchParams params;
    params.grid = config->gridDim;
    params.block = config->blockDim;
    params.sharedMem = config->dynamicSmemBytes;
    params.args = args;
    params.attributes = config->numAttrs != 0 ? config->attrs : nullptr;
    params.attributeCount = config->numAttrs;
    cudaStream_t stream =
        perThreadStream && config->stream == nullptr ? cudaStreamPerThread : config->stream;
    return runtime().launch(function, params, stream);
  });
}

} // namespace ocelot::runtime::api

using namespace ocelot::runtime::api;

extern "C" {

cudaError_t CUDARTAPI cudaFuncGetAttributes(struct cudaFuncAttributes* attr, const void* func) {
  return call([&] { return runtime().funcGetAttributes(attr, func); });
}

cudaError_t CUDARTAPI cudaFuncGetName(const char** name, const void* func) {
  return call([&] { return runtime().funcGetName(name, func); });
}

cudaError_t CUDARTAPI cudaFuncGetParamInfo(const void* func, size_t paramIndex, size_t* paramOffset,
                                           size_t* paramSize) {
  return call([&] { return runtime().funcGetParamInfo(func, paramIndex, paramOffset, paramSize); });
}

cudaError_t CUDARTAPI cudaFuncSetAttribute(const void* func, enum cudaFuncAttribute attr,
                                           int value) {
  return call([&] { return runtime().funcSetAttribute(func, raw(attr), value); });
}

cudaError_t CUDARTAPI cudaFuncSetCacheConfig(const void* func, enum cudaFuncCache cacheConfig) {
  return call([&] { return runtime().funcSetCacheConfig(func, raw(cacheConfig)); });
}

cudaError_t CUDARTAPI cudaFuncSetSharedMemConfig(const void* func,
                                                 enum cudaSharedMemConfig config) {
  return call([&] { return runtime().funcSetSharedMemConfig(func, raw(config)); });
}

cudaError_t CUDARTAPI cudaLaunchCooperativeKernel(const void* func, dim3 gridDim, dim3 blockDim,
                                                  void** args, size_t sharedMem,
                                                  cudaStream_t stream) {
  return launchCooperativeKernel(func, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t CUDARTAPI cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  return launchHostFunction(stream, fn, userData);
}

cudaError_t CUDARTAPI cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                       size_t sharedMem, cudaStream_t stream) {
  return call(
      [&] { return runtime().launchKernel(func, gridDim, blockDim, args, sharedMem, stream); });
}

cudaError_t CUDARTAPI cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func,
                                          void** args) {
  return launchKernelEx(config, func, args, false);
}

cudaError_t CUDARTAPI cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize,
                                                                const void* func, int numBlocks,
                                                                int blockSize) {
  return call([&] {
    return runtime().occupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, func, numBlocks,
                                                           blockSize);
  });
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks,
                                                                    const void* func, int blockSize,
                                                                    size_t dynamicSMemSize) {
  return call([&] {
    return runtime().occupancyMaxActiveBlocksPerMultiprocessor(
        numBlocks, func, blockSize, dynamicSMemSize, cudaOccupancyDefault);
  });
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* numBlocks, const void* func, int blockSize, size_t dynamicSMemSize, unsigned int flags) {
  return call([&] {
    return runtime().occupancyMaxActiveBlocksPerMultiprocessor(numBlocks, func, blockSize,
                                                               dynamicSMemSize, flags);
  });
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveClusters(int* numClusters, const void* func,
                                                     const cudaLaunchConfig_t* launchConfig) {
  return call(
      [&] { return runtime().occupancyMaxActiveClusters(numClusters, func, launchConfig); });
}

cudaError_t CUDARTAPI cudaOccupancyMaxPotentialClusterSize(int* clusterSize, const void* func,
                                                           const cudaLaunchConfig_t* launchConfig) {
  return call(
      [&] { return runtime().occupancyMaxPotentialClusterSize(clusterSize, func, launchConfig); });
}

} // extern "C"
