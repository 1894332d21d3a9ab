// Kernel functions on a GPU: attributes and occupancy through the driver's CUfunction calls.
#include "runtime/driver/DriverKernelFunctions.h"

#include "runtime/driver/DriverDevice.h"

#include <array>
#include <vector>

namespace ocelot::runtime::driver {
namespace {

CUfunction toDriver(DeviceFunction function) {
  return static_cast<CUfunction>(function);
}

} // namespace

cudaError_t DriverKernelFunctions::attributes(DeviceFunction function,
                                              cudaFuncAttributes* attributes) {
  *attributes = cudaFuncAttributes{};
  auto get = [&](CUfunction_attribute attribute, int* value) {
    return invoke(api_.funcGetAttribute, value, attribute, toDriver(function));
  };
  int shared = 0, constant = 0, local = 0;
  std::array<std::pair<CUfunction_attribute, int*>, 14> fields{{
      {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &shared},
      {CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, &constant},
      {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, &local},
      {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &attributes->maxThreadsPerBlock},
      {CU_FUNC_ATTRIBUTE_NUM_REGS, &attributes->numRegs},
      {CU_FUNC_ATTRIBUTE_PTX_VERSION, &attributes->ptxVersion},
      {CU_FUNC_ATTRIBUTE_BINARY_VERSION, &attributes->binaryVersion},
      {CU_FUNC_ATTRIBUTE_CACHE_MODE_CA, &attributes->cacheModeCA},
      {CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, &attributes->maxDynamicSharedSizeBytes},
      {CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, &attributes->preferredShmemCarveout},
      {CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET, &attributes->clusterDimMustBeSet},
      {CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, &attributes->requiredClusterWidth},
      {CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT, &attributes->requiredClusterHeight},
      {CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH, &attributes->requiredClusterDepth},
  }};
  for (auto [attribute, value] : fields)
    if (CUresult result = get(attribute, value); result != CUDA_SUCCESS)
      return toCudaError(result);
  // Attributes an older driver may lack keep their defaults.
  get(CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE,
      &attributes->clusterSchedulingPolicyPreference);
  get(CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
      &attributes->nonPortableClusterSizeAllowed);
  attributes->sharedSizeBytes = static_cast<size_t>(shared);
  attributes->constSizeBytes = static_cast<size_t>(constant);
  attributes->localSizeBytes = static_cast<size_t>(local);
  return cudaSuccess;
}

cudaError_t DriverKernelFunctions::setAttribute(DeviceFunction function,
                                                cudaFuncAttribute attribute, int value) {
  // cudaFuncAttribute and CUfunction_attribute number the settable attributes alike.
  return toCudaError(invoke(api_.funcSetAttribute, toDriver(function),
                            static_cast<CUfunction_attribute>(attribute), value));
}

cudaError_t DriverKernelFunctions::setCacheConfig(DeviceFunction function, cudaFuncCache config) {
  return toCudaError(
      invoke(api_.funcSetCacheConfig, toDriver(function), static_cast<CUfunc_cache>(config)));
}

cudaError_t DriverKernelFunctions::parameter(DeviceFunction function, size_t index, size_t* offset,
                                             size_t* size) {
  return toCudaError(invoke(api_.funcGetParamInfo, toDriver(function), index, offset, size));
}

cudaError_t DriverKernelFunctions::maxActiveBlocks(DeviceFunction function, int blockSize,
                                                   size_t sharedMem, unsigned int flags,
                                                   int* blocks) {
  return toCudaError(invoke(api_.occupancyMaxActiveBlocksPerMultiprocessorWithFlags, blocks,
                            toDriver(function), blockSize, sharedMem, flags));
}

cudaError_t DriverKernelFunctions::availableDynamicSharedMemory(DeviceFunction function, int blocks,
                                                                int blockSize, size_t* bytes) {
  return toCudaError(invoke(api_.occupancyAvailableDynamicSMemPerBlock, bytes, toDriver(function),
                            blocks, blockSize));
}

cudaError_t DriverKernelFunctions::maxPotentialClusterSize(const LaunchParams& params, int* size) {
  std::vector<CUlaunchAttribute> storage;
  CUlaunchConfig config = toLaunchConfig(params, &storage);
  return toCudaError(
      invoke(api_.occupancyMaxPotentialClusterSize, size, toDriver(params.function), &config));
}

cudaError_t DriverKernelFunctions::maxActiveClusters(const LaunchParams& params, int* clusters) {
  std::vector<CUlaunchAttribute> storage;
  CUlaunchConfig config = toLaunchConfig(params, &storage);
  return toCudaError(
      invoke(api_.occupancyMaxActiveClusters, clusters, toDriver(params.function), &config));
}

} // namespace ocelot::runtime::driver
