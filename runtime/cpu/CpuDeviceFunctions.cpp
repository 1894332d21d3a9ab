// The CPU device's kernels: function attributes, parameter layout, occupancy (an sm_90
// multiprocessor's limits), and libraries the application loads itself.

#include "runtime/cpu/CpuDevice.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace ocelot::runtime::cpu {

// An sm_90 multiprocessor's occupancy limits, which this device reports and models (attribute()).
constexpr int kSmWarps = 64;  // 2048 threads
constexpr int kSmBlocks = 32; // CTAs
constexpr size_t kSharedPerSm = 228 * 1024;
constexpr size_t kReservedSharedPerBlock = 1024;
constexpr size_t kSharedGranularity = 128;

namespace {

size_t roundUp(size_t value, size_t unit) {
  return (value + unit - 1) / unit * unit;
}

} // namespace

cudaError_t CpuDevice::functionAttributes(cudaFuncAttributes* attributes, DeviceFunction function) {
  Function* entry = findFunction(function);
  if (entry == nullptr)
    return cudaErrorInvalidDeviceFunction;
  auto kernel = entry->module->kernel(entry->name);
  std::memset(attributes, 0, sizeof *attributes);
  attributes->maxThreadsPerBlock = 1024;
  attributes->ptxVersion = 90;
  attributes->binaryVersion = 90;
  attributes->preferredShmemCarveout = entry->carveout;
  attributes->maxDynamicSharedSizeBytes = entry->maxDynamicShared;
  if (kernel) {
    const DecodedKernel& k = **kernel;
    if (entry->maxDynamicShared < 0)
      attributes->maxDynamicSharedSizeBytes =
          static_cast<int>(48 * 1024 - std::min<uint32_t>(k.staticSharedSize, 48 * 1024));
    attributes->sharedSizeBytes = k.staticSharedSize;
    attributes->localSizeBytes = k.staticStackSize;
    attributes->numRegs = static_cast<int>(std::min<uint32_t>(
        k.functions.empty() ? 0 : k.functions[0].rowEnd - k.functions[0].rowBegin, 255));
    attributes->constSizeBytes = 0;
    if (k.maxThreadsPerBlock != 0)
      attributes->maxThreadsPerBlock = static_cast<int>(k.maxThreadsPerBlock);
    attributes->clusterDimMustBeSet = k.clusterRequired ? 1 : 0;
    attributes->requiredClusterWidth = static_cast<int>(k.requiredCluster[0]);
    attributes->requiredClusterHeight = static_cast<int>(k.requiredCluster[1]);
    attributes->requiredClusterDepth = static_cast<int>(k.requiredCluster[2]);
  }
  return cudaSuccess;
}

cudaError_t CpuDevice::setFunctionAttribute(DeviceFunction function, cudaFuncAttribute attribute,
                                            int value) {
  std::lock_guard lock(mutex_);
  auto it = functions_.find(function);
  if (it == functions_.end())
    return cudaErrorInvalidDeviceFunction;
  if (attribute == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || value > 227 * 1024)
      return cudaErrorInvalidValue;
    it->second->maxDynamicShared = value;
  } else if (attribute == cudaFuncAttributePreferredSharedMemoryCarveout) {
    if (value < -1 || value > 100)
      return cudaErrorInvalidValue;
    it->second->carveout = value;
  }
  return cudaSuccess;
}

cudaError_t CpuDevice::setFunctionCacheConfig(DeviceFunction function, cudaFuncCache) {
  std::lock_guard lock(mutex_);
  return functions_.count(function) ? cudaSuccess : cudaErrorInvalidDeviceFunction;
}

cudaError_t CpuDevice::maxActiveBlocks(int* blocks, DeviceFunction function, int blockSize,
                                       size_t sharedMem, unsigned int) {
  cudaFuncAttributes attributes;
  if (cudaError_t error = functionAttributes(&attributes, function); error != cudaSuccess)
    return error;
  // The device reports an sm_90 multiprocessor's limits (attribute()), and occupancy follows the
  // same rules with them: warps per SM, CTAs per SM, and shared memory per SM with 1 KiB reserved
  // per CTA. Registers are host memory here and never limit. A block larger than the kernel allows,
  // or more dynamic shared memory than it may use, fits 0 times, as on a GPU.
  if (blockSize <= 0 || blockSize > attributes.maxThreadsPerBlock ||
      sharedMem > static_cast<size_t>(std::max(attributes.maxDynamicSharedSizeBytes, 0))) {
    *blocks = 0;
    return cudaSuccess;
  }
  const int warps = (blockSize + 31) / 32;
  const int byThreads = kSmWarps / warps;
  const size_t shared =
      roundUp(sharedMem + attributes.sharedSizeBytes, kSharedGranularity) + kReservedSharedPerBlock;
  const int byShared = static_cast<int>(kSharedPerSm / shared);
  *blocks = std::max(0, std::min({byThreads, byShared, kSmBlocks}));
  return cudaSuccess;
}

cudaError_t CpuDevice::functionParameter(DeviceFunction function, size_t index, size_t* offset,
                                         size_t* size) {
  Function* entry = findFunction(function);
  if (entry == nullptr)
    return cudaErrorInvalidDeviceFunction;
  auto kernel = entry->module->kernel(entry->name);
  if (!kernel)
    return cudaErrorInvalidDeviceFunction;
  const DecodedKernel& k = **kernel;
  if (index >= k.parameterOffsets.size())
    return cudaErrorInvalidValue;
  if (offset != nullptr)
    *offset = k.parameterOffsets[index];
  if (size != nullptr)
    *size = k.parameterSizes[index];
  return cudaSuccess;
}

cudaError_t CpuDevice::availableDynamicSharedMemory(size_t* bytes, DeviceFunction function,
                                                    int blocks, int blockSize) {
  cudaFuncAttributes attributes;
  if (cudaError_t error = functionAttributes(&attributes, function); error != cudaSuccess)
    return error;
  if (blocks <= 0 || blockSize <= 0 || blockSize > attributes.maxThreadsPerBlock ||
      blocks * ((blockSize + 31) / 32) > kSmWarps || blocks > kSmBlocks) {
    *bytes = 0;
    return cudaSuccess;
  }
  // An equal share of the SM's shared memory in allocation units (as the driver computes it: the
  // per-CTA reservation is not taken off here), less static shared memory, capped by what the
  // kernel may use dynamically.
  const size_t share = kSharedPerSm / static_cast<size_t>(blocks) / 256 * 256;
  const size_t fixed = attributes.sharedSizeBytes;
  const size_t limit = static_cast<size_t>(std::max(attributes.maxDynamicSharedSizeBytes, 0));
  *bytes = std::min(limit, share > fixed ? share - fixed : 0);
  return cudaSuccess;
}

// --- Libraries ----------------------------------------------------------------------------------
// A library is a module loaded from a PTX image; its cudaKernel_t handles are the device's
// DeviceFunction handles, so launching one needs no translation.

cudaError_t CpuDevice::loadLibrary(cudaLibrary_t* library, const void* image, const char* file,
                                   cudaJitOption*, void**, unsigned int, cudaLibraryOption*, void**,
                                   unsigned int) {
  std::string text;
  if (image != nullptr) {
    text = static_cast<const char*>(image);
  } else {
    std::FILE* in = std::fopen(file, "rb");
    if (in == nullptr)
      return cudaErrorFileNotFound;
    char buffer[4096];
    for (size_t got; (got = std::fread(buffer, 1, sizeof buffer, in)) != 0;)
      text.append(buffer, got);
    std::fclose(in);
  }
  if (text.find(".version") == std::string::npos) {
    // Not PTX (a cubin, a fatbinary, garbage): like the driver's lazy loading, the load itself
    // succeeds and using the library fails.
    auto placeholder = std::make_unique<char>();
    *library = reinterpret_cast<cudaLibrary_t>(placeholder.get());
    std::lock_guard lock(mutex_);
    unusableLibraries_[placeholder.get()] = std::move(placeholder);
    return cudaSuccess;
  }
  ModuleImage moduleImage;
  moduleImage.form = ModuleImage::Form::Ptx;
  moduleImage.ptx = {std::move(text)};
  moduleImage.label = "library";
  DeviceModule module = nullptr;
  std::string log;
  if (cudaError_t error = loadModule(moduleImage, &module, &log); error != cudaSuccess) {
    std::fprintf(stderr, "ocelot: %s\n", log.c_str());
    return error;
  }
  *library = static_cast<cudaLibrary_t>(module);
  return cudaSuccess;
}

cudaError_t CpuDevice::unloadLibrary(cudaLibrary_t library) {
  {
    std::lock_guard lock(mutex_);
    if (unusableLibraries_.erase(library) != 0)
      return cudaSuccess;
  }
  return unloadModule(library);
}

cudaError_t CpuDevice::libraryKernel(cudaKernel_t* kernel, cudaLibrary_t library,
                                     const char* name) {
  DeviceFunction handle = nullptr;
  if (cudaError_t error = function(library, name, &handle); error != cudaSuccess)
    return error;
  *kernel = static_cast<cudaKernel_t>(handle);
  return cudaSuccess;
}

cudaError_t CpuDevice::libraryKernelCount(unsigned int* count, cudaLibrary_t library) {
  std::lock_guard lock(mutex_);
  auto it = modules_.find(static_cast<CpuModule*>(static_cast<void*>(library)));
  if (it == modules_.end())
    return cudaErrorInvalidResourceHandle;
  unsigned int kernels = 0;
  for (const ModuleFunction& function : it->second->functions())
    kernels += function.function->isEntry() ? 1 : 0;
  *count = kernels;
  return cudaSuccess;
}

cudaError_t CpuDevice::libraryKernels(cudaKernel_t* kernels, unsigned int count,
                                      cudaLibrary_t library) {
  std::vector<std::string> names;
  {
    std::lock_guard lock(mutex_);
    auto it = modules_.find(static_cast<CpuModule*>(static_cast<void*>(library)));
    if (it == modules_.end())
      return cudaErrorInvalidResourceHandle;
    for (const ModuleFunction& function : it->second->functions())
      if (function.function->isEntry())
        names.emplace_back(function.name);
  }
  for (unsigned int i = 0; i < count && i < names.size(); ++i)
    if (cudaError_t error = libraryKernel(&kernels[i], library, names[i].c_str());
        error != cudaSuccess)
      return error;
  return cudaSuccess;
}

cudaError_t CpuDevice::libraryGlobal(void** address, size_t* bytes, cudaLibrary_t library,
                                     const char* name, bool) {
  return global(library, name, address, bytes);
}

cudaError_t CpuDevice::kernelFunction(DeviceFunction* function, cudaKernel_t kernel) {
  std::lock_guard lock(mutex_);
  if (!functions_.count(kernel))
    return cudaErrorInvalidResourceHandle;
  *function = kernel;
  return cudaSuccess;
}

cudaError_t CpuDevice::kernelName(const char** name, cudaKernel_t kernel) {
  std::lock_guard lock(mutex_);
  auto it = functions_.find(kernel);
  if (it == functions_.end())
    return cudaErrorInvalidResourceHandle;
  *name = it->second->name.c_str();
  return cudaSuccess;
}

} // namespace ocelot::runtime::cpu
