#include "runtime/driver/DriverDevice.h"

#include "runtime/core/ErrorTable.h"
#include "runtime/driver/DriverConversions.h"

#include <array>
#include <cstdint>

namespace ocelot::runtime::driver {
namespace {

/// JIT options that capture the driver's error log (the one line Ocelot logs when a module it built
/// does not load should say why).
class JitErrorLog {
public:
  static constexpr unsigned kOptionCount = 2;

  CUjit_option* options() { return options_.data(); }
  void** values() { return values_.data(); }
  std::string text() const { return std::string(buffer_.data()); }

private:
  std::array<char, 4096> buffer_{};
  std::array<CUjit_option, kOptionCount> options_{CU_JIT_ERROR_LOG_BUFFER,
                                                  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  std::array<void*, kOptionCount> values_{
      buffer_.data(), reinterpret_cast<void*>(static_cast<uintptr_t>(buffer_.size()))};
};

} // namespace

DriverDevice::DriverDevice(const DriverApi& api, CUdevice device)
    : api_(api), device_(device), streams_(api), events_(api), hostMemory_(api), memoryPools_(api),
      managedMemory_(api), copies_(api, *this), ipc_(api), graphs_(*this), arrays_(api, device),
      textures_(api, device), externalResources_(api), kernelFunctions_(api), libraries_(api),
      peers_(*this) {
  areas_.streams = &streams_;
  areas_.events = &events_;
  areas_.hostMemory = &hostMemory_;
  areas_.memoryPools = &memoryPools_;
  areas_.managedMemory = &managedMemory_;
  areas_.copies = &copies_;
  areas_.ipc = &ipc_;
  areas_.graphs = &graphs_;
  areas_.arrays = &arrays_;
  areas_.textures = &textures_;
  areas_.externalResources = &externalResources_;
  areas_.functions = &kernelFunctions_;
  areas_.libraries = &libraries_;
  areas_.peers = &peers_;
  char name[256] = {};
  if (api_.deviceGetName(name, sizeof name, device_) == CUDA_SUCCESS)
    name_ = name;
  api_.deviceGetAttribute(&capability_.major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                          device_);
  api_.deviceGetAttribute(&capability_.minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                          device_);
}

cudaError_t DriverDevice::attribute(cudaDeviceAttr attribute, int* value) {
  // cudaDeviceAttr and CUdevice_attribute number their attributes alike.
  return toCudaError(
      api_.deviceGetAttribute(value, static_cast<CUdevice_attribute>(attribute), device_));
}

cudaError_t DriverDevice::memoryInfo(size_t* free, size_t* total) {
  return toCudaError(api_.memGetInfo(free, total));
}

// After an unrecoverable fault (an illegal address, say) and cudaDeviceReset, some GPUs cannot
// make a new context: the H200 with driver 580 answers cuDevicePrimaryCtxRetain with the fault's
// own error (CUDA_ERROR_ILLEGAL_ADDRESS) from then on. NVIDIA's runtime reports that as
// cudaErrorDevicesUnavailable for every later call that needs the device (seen on the lent H200,
// 2026-11-27), not as the old context's error, which cudaDeviceReset is documented to clear.
cudaError_t DriverDevice::contextCreationError(CUresult result) {
  cudaError_t error = toCudaError(result);
  return isStickyError(error) ? cudaErrorDevicesUnavailable : error;
}

cudaError_t DriverDevice::activate() {
  CUcontext context = context_.load(std::memory_order_acquire);
  if (context == nullptr) {
    std::lock_guard lock(contextMutex_);
    context = context_.load(std::memory_order_relaxed);
    if (context == nullptr) {
      if (CUresult result = api_.primaryCtxRetain(&context, device_); result != CUDA_SUCCESS)
        return contextCreationError(result);
      context_.store(context, std::memory_order_release);
    }
  }
  CUcontext current = nullptr;
  if (CUresult result = api_.ctxGetCurrent(&current); result != CUDA_SUCCESS)
    return toCudaError(result);
  return current == context ? cudaSuccess : toCudaError(api_.ctxSetCurrent(context));
}

cudaError_t DriverDevice::synchronize() {
  // CUDA 13's cuCtxSynchronize waits for the context it is given.
  CUcontext context = nullptr;
  if (cudaError_t error = primaryContext(&context); error != cudaSuccess)
    return error;
  return toCudaError(api_.ctxSynchronize(context));
}

cudaError_t DriverDevice::reset() {
  std::lock_guard lock(contextMutex_);
  CUresult result = api_.primaryCtxReset(device_);
  flagsSet_.store(false);
  // The reset destroyed the context's state; the next activate() retains it afresh.
  if (context_.exchange(nullptr) != nullptr)
    api_.primaryCtxRelease(device_);
  return toCudaError(result);
}

cudaError_t DriverDevice::allocate(void** pointer, size_t bytes) {
  CUdeviceptr address = 0;
  CUresult result = api_.memAlloc(&address, bytes);
  if (result == CUDA_SUCCESS)
    *pointer = reinterpret_cast<void*>(address);
  return toCudaError(result);
}

cudaError_t DriverDevice::free(void* pointer) {
  return toCudaError(api_.memFree(toDevicePointer(pointer)));
}

cudaError_t DriverDevice::copy(void* destination, const void* source, size_t bytes, Stream& stream,
                               bool async) {
  return copies_.copy(destination, source, bytes, stream, async);
}

cudaError_t DriverDevice::fill(void* destination, unsigned char value, size_t bytes, Stream& stream,
                               bool async) {
  return copies_.fill(destination, value, bytes, stream, async);
}

cudaError_t DriverDevice::allocatePitch(void** pointer, size_t* pitch, size_t width,
                                        size_t height) {
  // The element size only bounds the pitch's alignment; 16 bytes (the largest the driver takes)
  // gives rows that suit every element type, as cudaMallocPitch promises.
  CUdeviceptr found = 0;
  CUresult result = invoke(api_.memAllocPitch, &found, pitch, width, height, 16u);
  if (result == CUDA_SUCCESS)
    *pointer = reinterpret_cast<void*>(found);
  return toCudaError(result);
}

cudaError_t DriverDevice::checkCopyKind(const void* destination, const void* source, int kind) {
  // Ocelot copies with the unified cuMemcpy, which takes any address the driver does not know for
  // pageable host memory and copies it on the host: a never-allocated or freed pointer named as a
  // device side would crash the process. NVIDIA's runtime refuses it (cudaErrorInvalidValue), so
  // a side the kind says is device memory must be memory the driver knows (device, page-locked or
  // managed).
  auto known = [&](const void* pointer) {
    unsigned int memoryType = 0;
    int managed = 0;
    std::array<CUpointer_attribute, 2> names{CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                             CU_POINTER_ATTRIBUTE_IS_MANAGED};
    std::array<void*, 2> values{&memoryType, &managed};
    if (invoke(api_.pointerGetAttributes, static_cast<unsigned int>(names.size()), names.data(),
               values.data(), toDevicePointer(pointer)) != CUDA_SUCCESS)
      return true; // cannot tell: the copy decides
    return memoryType != 0 || managed != 0;
  };
  const bool toDevice = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  const bool fromDevice = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if ((toDevice && !known(destination)) || (fromDevice && !known(source)))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

cudaError_t DriverDevice::pointerAttributes(cudaPointerAttributes* attributes,
                                            const void* pointer) {
  // cuPointerGetAttributes (unlike the singular form) answers null values for memory the driver
  // does not know instead of failing, which is what cudaPointerGetAttributes reports too.
  unsigned int memoryType = 0;
  int ordinal = -2;
  CUdeviceptr devicePointer = 0;
  void* hostPointer = nullptr;
  int managed = 0;
  std::array<CUpointer_attribute, 5> names{
      CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
      CU_POINTER_ATTRIBUTE_DEVICE_POINTER, CU_POINTER_ATTRIBUTE_HOST_POINTER,
      CU_POINTER_ATTRIBUTE_IS_MANAGED};
  std::array<void*, 5> values{&memoryType, &ordinal, &devicePointer, &hostPointer, &managed};
  CUresult result = invoke(api_.pointerGetAttributes, static_cast<unsigned int>(names.size()),
                           names.data(), values.data(), toDevicePointer(pointer));
  if (result != CUDA_SUCCESS)
    return toCudaError(result);
  *attributes = cudaPointerAttributes{};
  if (managed != 0) {
    attributes->type = cudaMemoryTypeManaged;
  } else if (memoryType == CU_MEMORYTYPE_DEVICE) {
    attributes->type = cudaMemoryTypeDevice;
  } else if (memoryType == CU_MEMORYTYPE_HOST) {
    attributes->type = cudaMemoryTypeHost;
  } else {
    attributes->type = cudaMemoryTypeUnregistered;
    attributes->device = -2;
    attributes->hostPointer = const_cast<void*>(pointer);
    return cudaSuccess;
  }
  attributes->device = ordinal;
  attributes->devicePointer = reinterpret_cast<void*>(devicePointer);
  attributes->hostPointer = attributes->type == cudaMemoryTypeDevice ? nullptr : hostPointer;
  return cudaSuccess;
}

cudaError_t DriverDevice::loadPtx(const std::string& ptx, CUmodule* module, std::string* log) {
  JitErrorLog errors;
  CUresult result = api_.moduleLoadDataEx(module, ptx.c_str(), JitErrorLog::kOptionCount,
                                          errors.options(), errors.values());
  if (result != CUDA_SUCCESS && log != nullptr)
    *log = errors.text();
  return toCudaError(result);
}

cudaError_t DriverDevice::linkPtx(const std::vector<std::string>& units, CUmodule* module,
                                  std::string* log) {
  JitErrorLog errors;
  CUlinkState link = nullptr;
  if (CUresult result =
          api_.linkCreate(JitErrorLog::kOptionCount, errors.options(), errors.values(), &link);
      result != CUDA_SUCCESS)
    return toCudaError(result);
  CUresult result = CUDA_SUCCESS;
  for (size_t i = 0; i < units.size() && result == CUDA_SUCCESS; ++i) {
    std::string name = "unit" + std::to_string(i) + ".ptx";
    // cuLinkAddData wants the text with its terminating NUL.
    result = api_.linkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(units[i].c_str()),
                              units[i].size() + 1, name.c_str(), 0, nullptr, nullptr);
  }
  void* cubin = nullptr;
  size_t cubinSize = 0;
  if (result == CUDA_SUCCESS)
    result = api_.linkComplete(link, &cubin, &cubinSize);
  // The linked cubin belongs to the link state: load it before destroying that.
  if (result == CUDA_SUCCESS)
    result = api_.moduleLoadData(module, cubin);
  if (result != CUDA_SUCCESS && log != nullptr)
    *log = errors.text();
  api_.linkDestroy(link);
  return toCudaError(result);
}

cudaError_t DriverDevice::loadModule(const ModuleImage& image, DeviceModule* module,
                                     std::string* log) {
  CUmodule loaded = nullptr;
  cudaError_t error = cudaErrorInvalidValue;
  switch (image.form) {
  case ModuleImage::Form::Ptx:
    error =
        image.ptx.size() == 1 ? loadPtx(image.ptx.front(), &loaded, log) : cudaErrorInvalidValue;
    break;
  case ModuleImage::Form::LinkedPtx:
    error = linkPtx(image.ptx, &loaded, log);
    break;
  case ModuleImage::Form::Original:
    // The driver reads fatbinary containers and cubins itself and picks what suits the GPU.
    error = toCudaError(api_.moduleLoadData(&loaded, image.original.data()));
    break;
  }
  if (error == cudaSuccess)
    *module = loaded;
  return error;
}

cudaError_t DriverDevice::unloadModule(DeviceModule module) {
  return toCudaError(api_.moduleUnload(static_cast<CUmodule>(module)));
}

cudaError_t DriverDevice::function(DeviceModule module, const char* name,
                                   DeviceFunction* function) {
  CUfunction found = nullptr;
  CUresult result = api_.moduleGetFunction(&found, static_cast<CUmodule>(module), name);
  if (result != CUDA_SUCCESS)
    return toCudaError(result);
  // Under lazy loading (CUDA's default) the function's code would load at its first launch, and
  // loading waits for the device to go idle: a first launch queued behind a kernel that waits for
  // the host would never start. Ocelot looks functions up ahead of launches, so it loads them here.
  if (api_.funcLoad != nullptr)
    api_.funcLoad(found);
  *function = found;
  return cudaSuccess;
}

cudaError_t DriverDevice::global(DeviceModule module, const char* name, void** address,
                                 size_t* bytes) {
  CUdeviceptr found = 0;
  size_t size = 0;
  CUresult result = api_.moduleGetGlobal(&found, &size, static_cast<CUmodule>(module), name);
  if (result != CUDA_SUCCESS)
    return toCudaError(result);
  if (address != nullptr)
    *address = reinterpret_cast<void*>(found);
  if (bytes != nullptr)
    *bytes = size;
  return cudaSuccess;
}

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

cudaError_t DriverDevice::launch(const LaunchParams& params) {
  // Launch attributes (clusters, priorities, cooperative grids...) need cuLaunchKernelEx; a plain
  // launch keeps the cheapest path.
  if (params.attributeCount != 0 || params.cooperative) {
    std::vector<CUlaunchAttribute> storage;
    CUlaunchConfig config = toLaunchConfig(params, &storage);
    return toCudaError(invoke(api_.launchKernelEx, &config,
                              static_cast<CUfunction>(params.function), params.args, nullptr));
  }
  return toCudaError(api_.launchKernel(static_cast<CUfunction>(params.function), params.grid.x,
                                       params.grid.y, params.grid.z, params.block.x, params.block.y,
                                       params.block.z, static_cast<unsigned int>(params.sharedMem),
                                       params.stream->handle(), params.args, nullptr));
}

} // namespace ocelot::runtime::driver
