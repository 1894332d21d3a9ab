#include "runtime/driver/DriverDevice.h"

#include <array>
#include <cstdint>

namespace ocelot::runtime::driver {
namespace {

CUdeviceptr devicePointer(const void* pointer) {
  return reinterpret_cast<CUdeviceptr>(pointer);
}

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
    : api_(api), device_(device), streams_(api), events_(api) {
  areas_.streams = &streams_;
  areas_.events = &events_;
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

cudaError_t DriverDevice::activate() {
  CUcontext context = context_.load(std::memory_order_acquire);
  if (context == nullptr) {
    std::lock_guard lock(contextMutex_);
    context = context_.load(std::memory_order_relaxed);
    if (context == nullptr) {
      if (CUresult result = api_.primaryCtxRetain(&context, device_); result != CUDA_SUCCESS)
        return toCudaError(result);
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
  return toCudaError(api_.memFree(devicePointer(pointer)));
}

cudaError_t DriverDevice::copy(void* destination, const void* source, size_t bytes, Stream& queue,
                               bool async) {
  const cudaStream_t stream = queue.handle();
  CUdeviceptr to = devicePointer(destination), from = devicePointer(source);
  if (async)
    return toCudaError(api_.memcpyAsync(to, from, bytes, stream));
  if (stream == cudaStreamPerThread) {
    // A synchronous copy under per-thread default stream semantics (cudaMemcpy_ptds).
    if (CUresult result = api_.memcpyAsync(to, from, bytes, stream); result != CUDA_SUCCESS)
      return toCudaError(result);
    return toCudaError(api_.streamSynchronize(stream));
  }
  return toCudaError(api_.memcpy(to, from, bytes));
}

cudaError_t DriverDevice::fill(void* destination, unsigned char value, size_t bytes, Stream& queue,
                               bool async) {
  const cudaStream_t stream = queue.handle();
  CUdeviceptr to = devicePointer(destination);
  if (async)
    return toCudaError(api_.memsetD8Async(to, value, bytes, stream));
  if (stream == cudaStreamPerThread) {
    if (CUresult result = api_.memsetD8Async(to, value, bytes, stream); result != CUDA_SUCCESS)
      return toCudaError(result);
    return toCudaError(api_.streamSynchronize(stream));
  }
  return toCudaError(api_.memsetD8(to, value, bytes));
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
