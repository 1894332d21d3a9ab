// Runtime: modules the application loads through the driver API (cuModuleLoadData,
// cuModuleLoadFatBinary, cuLibraryLoadData, reached through Ocelot's libcuda.so.1). Each becomes a
// registration like a fatbinary the application registered, with a stand-in host stub per kernel,
// so that launches, the module pipeline and the instrumentation treat both alike.

#include "runtime/core/DriverModuleImage.h"
#include "runtime/core/Runtime.h"
#include "runtime/fatbin/Format.h"

#include <map>

namespace ocelot::runtime {

/// What the runtime keeps for a module beside its registration: the copied image the
/// registration's unit points into, and one stand-in host stub per kernel looked up.
struct Runtime::DriverModule {
  DriverModuleImage image;
  std::map<std::string, std::unique_ptr<char>, std::less<>> stubs;
};

cudaError_t Runtime::moduleLoad(const void* image, const char* origin, void*** handle,
                                DeviceModule* deviceModule) {
  if (image == nullptr || handle == nullptr)
    return cudaErrorInvalidValue;
  Device* device = nullptr;
  int ordinal = 0;
  if (cudaError_t error = currentDevice(&device, &ordinal); error != cudaSuccess)
    return error;
  const std::string call = origin != nullptr ? origin : "driver API";
  auto read = readDriverModuleImage(image);
  if (!read) {
    logger_.warn(call + ": " + read.error());
    return cudaErrorInvalidKernelImage; // CUDA_ERROR_INVALID_IMAGE
  }
  auto module = std::make_shared<DriverModule>();
  module->image = std::move(*read);

  auto registration = std::make_unique<FatbinaryRegistration>();
  registration->wrapperAddress = image;
  registration->wrapperVersion = fatbin::format::kWrapperVersion;
  registration->imagePath = call + " " + module->image.kind;
  registration->mainUnits.push_back(
      FatbinaryUnit{std::span<const std::byte>(*module->image.bytes), module->image.container});
  FatbinaryRegistration& added = registry_.addFatbinary(std::move(registration));
  void** registered = added.handle();
  const bool hasPtx = module->image.hasPtx;
  {
    std::lock_guard lock(driverModulesMutex_);
    driverModules_[registered] = module;
  }
  registerFatBinaryEnd(registered); // OCELOT_DUMP_PTX sees it like any registration

  LoadedModule* loaded = nullptr;
  cudaError_t error = modules_.get(added, ordinal, *device, &loaded);
  if (error != cudaSuccess) {
    // The module cache has said why (one line per attempt).
    unregisterFatBinary(registered);
    std::lock_guard lock(driverModulesMutex_);
    driverModules_.erase(registered);
    // Code without PTX that the device cannot load is code for another architecture.
    return !hasPtx && error == cudaErrorInvalidPtx ? cudaErrorNoKernelImageForDevice : error;
  }
  logger_.debug(ModulePipeline::label(added) + ": loaded through " + call);
  *handle = registered;
  if (deviceModule != nullptr)
    *deviceModule = loaded->handle();
  return cudaSuccess;
}

cudaError_t Runtime::moduleUnload(void** handle) {
  std::shared_ptr<DriverModule> module;
  {
    std::lock_guard lock(driverModulesMutex_);
    auto it = driverModules_.find(handle);
    if (it == driverModules_.end())
      return cudaErrorInvalidResourceHandle;
    module = it->second;
    driverModules_.erase(it);
    // The shim's direct launches of its functions end before the module goes.
    directLaunchEpoch_.fetch_add(1, std::memory_order_acq_rel);
    for (const auto& [name, stub] : module->stubs)
      driverFunctionNames_.erase(stub.get());
  }
  FatbinaryRegistration* registration = registry_.findFatbinary(handle);
  if (registration != nullptr)
    forgetDriverModule(registration->id);
  // Drops the kernels from the registry (launch caches included) and unloads the module; the
  // image goes last, with `module`, since the registration points into it.
  unregisterFatBinary(handle);
  return cudaSuccess;
}

cudaError_t Runtime::driverModuleOnCurrentDevice(void** handle, Device** device,
                                                 LoadedModule** loaded) {
  FatbinaryRegistration* registration = registry_.findFatbinary(handle);
  if (registration == nullptr) // unloaded by another thread since the caller looked
    return cudaErrorInvalidResourceHandle;
  return moduleOnCurrentDevice(*registration, device, loaded);
}

cudaError_t Runtime::moduleFunction(void** handle, const char* name, const void** function,
                                    DeviceFunction* deviceFunction) {
  if (name == nullptr || function == nullptr)
    return cudaErrorInvalidValue;
  std::shared_ptr<DriverModule> module;
  {
    std::lock_guard lock(driverModulesMutex_);
    auto it = driverModules_.find(handle);
    if (it == driverModules_.end())
      return cudaErrorInvalidResourceHandle;
    module = it->second;
    if (auto stub = module->stubs.find(name); stub != module->stubs.end() && !deviceFunction) {
      *function = stub->second.get();
      return cudaSuccess;
    }
  }
  Device* device = nullptr;
  LoadedModule* loaded = nullptr;
  if (cudaError_t error = driverModuleOnCurrentDevice(handle, &device, &loaded);
      error != cudaSuccess)
    return error;
  DeviceFunction resolved = nullptr;
  if (cudaError_t error = loaded->function(*device, name, &resolved); error != cudaSuccess)
    return error == cudaErrorInvalidDeviceFunction ? cudaErrorSymbolNotFound : error;

  std::lock_guard lock(driverModulesMutex_);
  auto [stub, inserted] = module->stubs.try_emplace(name, nullptr);
  if (inserted) {
    // The stub's address is all that matters: launches look the kernel up by it.
    stub->second = std::make_unique<char>();
    if (!registry_.addFunction(handle, stub->second.get(), name)) {
      module->stubs.erase(stub);
      return cudaErrorInvalidResourceHandle;
    }
    driverFunctionNames_[stub->second.get()] = name;
  }
  *function = stub->second.get();
  if (deviceFunction != nullptr)
    *deviceFunction = resolved;
  return cudaSuccess;
}

cudaError_t Runtime::moduleGlobal(void** handle, const char* name, void** address, size_t* bytes) {
  if (name == nullptr)
    return cudaErrorInvalidValue;
  {
    std::lock_guard lock(driverModulesMutex_);
    if (!driverModules_.contains(handle))
      return cudaErrorInvalidResourceHandle;
  }
  Device* device = nullptr;
  LoadedModule* loaded = nullptr;
  if (cudaError_t error = driverModuleOnCurrentDevice(handle, &device, &loaded);
      error != cudaSuccess)
    return error;
  void* storage = nullptr;
  size_t size = 0;
  if (cudaError_t error = device->global(loaded->handle(), name, &storage, &size);
      error != cudaSuccess)
    return error == cudaErrorInvalidSymbol ? cudaErrorSymbolNotFound : deviceResult(error);
  if (address != nullptr)
    *address = storage;
  if (bytes != nullptr)
    *bytes = size;
  return cudaSuccess;
}

bool Runtime::directLaunchTarget(const void* stub, DeviceFunction* deviceFunction) {
  if (!instrumentationIdle_.load(std::memory_order_relaxed))
    return false;
  ThreadState& state = thread();
  Device* device = nullptr;
  int ordinal = 0;
  if (currentDevice(state, &device, &ordinal) != cudaSuccess || device->runsIr() ||
      ordinal >= RegisteredFunction::kCachedDevices)
    return false;
  const RegisteredFunction* registered = registry_.findLaunchable(stub, state.launchCache);
  if (registered == nullptr)
    return false;
  *deviceFunction =
      registered->deviceFunctions[static_cast<size_t>(ordinal)].load(std::memory_order_acquire);
  return *deviceFunction != nullptr;
}

const char* Runtime::moduleFunctionName(const void* function) {
  std::lock_guard lock(driverModulesMutex_);
  auto it = driverFunctionNames_.find(function);
  return it != driverFunctionNames_.end() ? it->second.c_str() : nullptr;
}

std::optional<cudaError_t> Runtime::launchForeign(const char* kernelName, LaunchParams& params,
                                                  cudaStream_t stream,
                                                  const std::function<cudaError_t()>& launch,
                                                  const char* reason) {
  return launchForeign([kernelName] { return kernelName; }, params, stream, launch, reason);
}

std::optional<cudaError_t> Runtime::launchForeign(const std::function<const char*()>& kernelName,
                                                  LaunchParams& params, cudaStream_t stream,
                                                  const std::function<cudaError_t()>& launch,
                                                  const char* reason) {
  // While no instrumentor is active the framework keeps this flag set: one relaxed load.
  if (instrumentationIdle_.load(std::memory_order_relaxed))
    return std::nullopt;
  LaunchInterceptor* interceptor = launchInterceptor();
  if (interceptor == nullptr || !interceptor->active()) // reads its configuration the first time
    return std::nullopt;
  Device* device = nullptr;
  int ordinal = 0;
  if (currentDevice(&device, &ordinal) != cudaSuccess)
    return std::nullopt;
  Stream* queue = device->streams().find(stream);
  if (queue == nullptr)
    return std::nullopt;
  params.stream = queue;
  const char* name = kernelName();
  return interceptor->launchForeign(*device, ordinal, name != nullptr ? name : "(unnamed kernel)",
                                    params, launch, reason != nullptr ? reason : "");
}

} // namespace ocelot::runtime
