// DriverDevice: function attributes, occupancy and the libraries applications load themselves
// (cudaLibrary_t / cudaKernel_t are the driver's CUlibrary / CUkernel).
#include "runtime/driver/DriverDevice.h"

#include <array>
#include <vector>

namespace ocelot::runtime::driver {
namespace {

CUfunction toDriver(DeviceFunction function) {
  return static_cast<CUfunction>(function);
}

CUkernel toDriver(cudaKernel_t kernel) {
  return reinterpret_cast<CUkernel>(kernel);
}

CUlibrary toDriver(cudaLibrary_t library) {
  return reinterpret_cast<CUlibrary>(library);
}

} // namespace

/// The driver's launch configuration for LaunchParams; cudaLaunchAttribute and CUlaunchAttribute
/// have the same layout and numbering. `storage` holds the attributes the configuration points to.
CUlaunchConfig toLaunchConfig(const LaunchParams& params, std::vector<CUlaunchAttribute>* storage) {
  static_assert(sizeof(cudaLaunchAttribute) == sizeof(CUlaunchAttribute));
  CUlaunchConfig config{};
  config.gridDimX = params.grid.x;
  config.gridDimY = params.grid.y;
  config.gridDimZ = params.grid.z;
  config.blockDimX = params.block.x;
  config.blockDimY = params.block.y;
  config.blockDimZ = params.block.z;
  config.sharedMemBytes = static_cast<unsigned int>(params.sharedMem);
  config.hStream = params.stream->handle();
  const auto* attributes = reinterpret_cast<const CUlaunchAttribute*>(params.attributes);
  storage->assign(attributes, attributes + (attributes != nullptr ? params.attributeCount : 0));
  if (params.cooperative) {
    CUlaunchAttribute cooperative{};
    cooperative.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    cooperative.value.cooperative = 1;
    storage->push_back(cooperative);
  }
  config.attrs = storage->data();
  config.numAttrs = static_cast<unsigned int>(storage->size());
  return config;
}

cudaError_t DriverDevice::functionAttributes(cudaFuncAttributes* attributes,
                                             DeviceFunction function) {
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

cudaError_t DriverDevice::setFunctionAttribute(DeviceFunction function, cudaFuncAttribute attribute,
                                               int value) {
  // cudaFuncAttribute and CUfunction_attribute number the settable attributes alike.
  return toCudaError(invoke(api_.funcSetAttribute, toDriver(function),
                            static_cast<CUfunction_attribute>(attribute), value));
}

cudaError_t DriverDevice::setFunctionCacheConfig(DeviceFunction function, cudaFuncCache config) {
  return toCudaError(
      invoke(api_.funcSetCacheConfig, toDriver(function), static_cast<CUfunc_cache>(config)));
}

cudaError_t DriverDevice::functionParameter(DeviceFunction function, size_t index, size_t* offset,
                                            size_t* size) {
  return toCudaError(invoke(api_.funcGetParamInfo, toDriver(function), index, offset, size));
}

cudaError_t DriverDevice::maxActiveBlocks(int* blocks, DeviceFunction function, int blockSize,
                                          size_t sharedMem, unsigned int flags) {
  return toCudaError(invoke(api_.occupancyMaxActiveBlocksPerMultiprocessorWithFlags, blocks,
                            toDriver(function), blockSize, sharedMem, flags));
}

cudaError_t DriverDevice::availableDynamicSharedMemory(size_t* bytes, DeviceFunction function,
                                                       int blocks, int blockSize) {
  return toCudaError(invoke(api_.occupancyAvailableDynamicSMemPerBlock, bytes, toDriver(function),
                            blocks, blockSize));
}

cudaError_t DriverDevice::maxPotentialClusterSize(int* size, const LaunchParams& params) {
  std::vector<CUlaunchAttribute> storage;
  CUlaunchConfig config = toLaunchConfig(params, &storage);
  return toCudaError(
      invoke(api_.occupancyMaxPotentialClusterSize, size, toDriver(params.function), &config));
}

cudaError_t DriverDevice::maxActiveClusters(int* clusters, const LaunchParams& params) {
  std::vector<CUlaunchAttribute> storage;
  CUlaunchConfig config = toLaunchConfig(params, &storage);
  return toCudaError(
      invoke(api_.occupancyMaxActiveClusters, clusters, toDriver(params.function), &config));
}

cudaError_t DriverDevice::loadLibrary(cudaLibrary_t* library, const void* image, const char* file,
                                      cudaJitOption* jitOptions, void** jitValues,
                                      unsigned int jitCount, cudaLibraryOption* libraryOptions,
                                      void** libraryValues, unsigned int libraryCount) {
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

cudaError_t DriverDevice::unloadLibrary(cudaLibrary_t library) {
  return toCudaError(invoke(api_.libraryUnload, toDriver(library)));
}

cudaError_t DriverDevice::libraryKernel(cudaKernel_t* kernel, cudaLibrary_t library,
                                        const char* name) {
  CUkernel found = nullptr;
  CUresult result = invoke(api_.libraryGetKernel, &found, toDriver(library), name);
  if (result == CUDA_SUCCESS)
    *kernel = reinterpret_cast<cudaKernel_t>(found);
  return toCudaError(result);
}

cudaError_t DriverDevice::libraryKernelCount(unsigned int* count, cudaLibrary_t library) {
  return toCudaError(invoke(api_.libraryGetKernelCount, count, toDriver(library)));
}

cudaError_t DriverDevice::libraryKernels(cudaKernel_t* kernels, unsigned int count,
                                         cudaLibrary_t library) {
  return toCudaError(invoke(api_.libraryEnumerateKernels, reinterpret_cast<CUkernel*>(kernels),
                            count, toDriver(library)));
}

cudaError_t DriverDevice::libraryGlobal(void** address, size_t* bytes, cudaLibrary_t library,
                                        const char* name, bool managed) {
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

cudaError_t DriverDevice::libraryUnifiedFunction(void** function, cudaLibrary_t library,
                                                 const char* name) {
  return toCudaError(invoke(api_.libraryGetUnifiedFunction, function, toDriver(library), name));
}

cudaError_t DriverDevice::kernelFunction(DeviceFunction* function, cudaKernel_t kernel) {
  // The function of a context-independent kernel in the current (this device's) context.
  CUfunction found = nullptr;
  CUresult result = invoke(api_.kernelGetFunction, &found, toDriver(kernel));
  if (result == CUDA_SUCCESS)
    *function = found;
  return toCudaError(result);
}

cudaError_t DriverDevice::kernelName(const char** name, cudaKernel_t kernel) {
  return toCudaError(invoke(api_.kernelGetName, name, toDriver(kernel)));
}

} // namespace ocelot::runtime::driver
