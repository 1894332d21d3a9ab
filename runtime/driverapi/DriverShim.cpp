#include "runtime/driverapi/DriverShim.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace ocelot::runtime::driverapi {
namespace {

/// Whether `code` is a CUresult cuda.h declares.
bool isDriverResult(int code) {
  switch (code) {
#define OCELOT_CU_RESULT(name, value)                                                              \
  case value:                                                                                      \
    return true;
#include "runtime/driverapi/CuResults.def"
#undef OCELOT_CU_RESULT
  default:
    return false;
  }
}

/// NVIDIA's driver, when the process is to run on the GPU through it.
RealDriver* gpuDriver() {
  const char* device = std::getenv("OCELOT_DEVICE");
  if (device != nullptr && std::string_view(device) == "cpu")
    return nullptr;
  RealDriver* real = RealDriver::find();
  if (real == nullptr)
    return nullptr;
  auto init = OCELOT_REAL_FUNCTION(*real, cuInit);
  auto count = OCELOT_REAL_FUNCTION(*real, cuDeviceGetCount);
  int devices = 0;
  if (init == nullptr || count == nullptr || init(0) != CUDA_SUCCESS ||
      count(&devices) != CUDA_SUCCESS || devices == 0)
    return nullptr; // a driver without a GPU: Ocelot's runtime runs on the CPU device
  return real;
}

} // namespace

DriverShim& DriverShim::instance() {
  static DriverShim* const shim = new DriverShim(); // never destroyed, like the runtime
  return *shim;
}

/// The runtime first (as when the shim linked it): Ocelot's DriverApi may ask the shim for NVIDIA's
/// driver while the runtime comes up.
DriverShim::DriverShim() : runtime_(findRuntimeBridge()), contexts_(64) {
  runtime_.initialize();
  real_ = gpuDriver();
  const char* level = std::getenv("OCELOT_LOG");
  tracing_ = level != nullptr &&
             (std::string_view(level) == "debug" || std::string_view(level) == "trace");
}

// Straight to stderr, like the runtime's log: the trace must not depend on the runtime's state.
void DriverShim::trace(const std::string& message) const {
  if (tracing_)
    std::fprintf(stderr, "ocelot[debug]: libcuda.so.1: %s\n", message.c_str());
}

void DriverShim::traceFailure(const char* function, CUresult result) const {
  const char* name = nullptr;
  if (real_ != nullptr)
    if (auto errorName = OCELOT_REAL_FUNCTION(*real_, cuGetErrorName))
      errorName(result, &name);
  trace(std::string(function) + " (NVIDIA's) failed: " +
        (name != nullptr ? name : std::to_string(static_cast<int>(result))));
}

CUresult DriverShim::result(cudaError_t error) {
  switch (error) {
  case cudaSuccess:
    return CUDA_SUCCESS;
  // Runtime codes without a driver twin.
  case cudaErrorInvalidDeviceFunction:
  case cudaErrorInvalidResourceHandle:
    return CUDA_ERROR_INVALID_HANDLE;
  case cudaErrorInvalidConfiguration:
  case cudaErrorInvalidPitchValue:
  case cudaErrorInvalidSymbol:
  case cudaErrorInvalidDevicePointer:
  case cudaErrorInvalidMemcpyDirection:
    return CUDA_ERROR_INVALID_VALUE;
  case cudaErrorInsufficientDriver:
  case cudaErrorNoDevice:
    return CUDA_ERROR_NO_DEVICE;
  case cudaErrorMissingConfiguration:
  case cudaErrorInitializationError:
    return CUDA_ERROR_NOT_INITIALIZED;
  case cudaErrorSymbolNotFound:
    return CUDA_ERROR_NOT_FOUND;
  default:
    return isDriverResult(error) ? static_cast<CUresult>(error) : CUDA_ERROR_UNKNOWN;
  }
}

void DriverShim::warn(const std::string& message) const {
  runtime_.warn(message.c_str());
}

void DriverShim::warnOnce(const std::string& message) {
  {
    std::lock_guard lock(reportedMutex_);
    if (!reported_.insert(message).second)
      return;
  }
  warn(message);
}

CUresult DriverShim::notSupported(const char* function) {
  warnOnce(std::string(function) + " is not supported by Ocelot's libcuda.so.1 on the CPU device");
  return CUDA_ERROR_NOT_SUPPORTED;
}

void DriverShim::followDriverContext() const {
  if (real_ == nullptr)
    return;
  static const auto contextDevice = OCELOT_REAL_FUNCTION(*real_, cuCtxGetDevice);
  CUdevice device = 0;
  if (contextDevice == nullptr || contextDevice(&device) != CUDA_SUCCESS)
    return; // no current context: the runtime's own device stays
  int current = -1;
  if (runtime_.cudaGetDevice(&current) == cudaSuccess && current != device)
    runtime_.cudaSetDevice(device);
}

CUcontext DriverShim::context(int ordinal) {
  if (ordinal < 0 || static_cast<size_t>(ordinal) >= contexts_.size())
    return nullptr;
  return reinterpret_cast<CUcontext>(&contexts_[static_cast<size_t>(ordinal)]);
}

int DriverShim::ordinalOf(CUcontext context) const {
  const char* address = reinterpret_cast<const char*>(context);
  if (address < contexts_.data() || address >= contexts_.data() + contexts_.size())
    return -1;
  return static_cast<int>(address - contexts_.data());
}

void DriverShim::addModule(CUmodule module, void** registration) {
  std::unique_lock lock(functionsMutex_);
  modules_[module].registration = registration;
}

void** DriverShim::registration(CUmodule module) const {
  std::shared_lock lock(functionsMutex_);
  auto it = modules_.find(module);
  return it != modules_.end() ? it->second.registration : nullptr;
}

void DriverShim::addFunction(CUmodule module, CUfunction function, const void* stub) {
  std::unique_lock lock(functionsMutex_);
  if (stubs_.emplace(function, stub).second)
    modules_[module].functions.push_back(function);
}

const void* DriverShim::stub(CUfunction function) const {
  std::shared_lock lock(functionsMutex_);
  auto it = stubs_.find(function);
  return it != stubs_.end() ? it->second : nullptr;
}

CUmodule DriverShim::moduleOf(CUfunction function) const {
  std::shared_lock lock(functionsMutex_);
  if (!stubs_.contains(function))
    return nullptr;
  for (const auto& [module, record] : modules_) // rare (cuKernelGetLibrary): no reverse map
    for (CUfunction member : record.functions)
      if (member == function)
        return module;
  return nullptr;
}

void** DriverShim::forgetModule(CUmodule module) {
  std::unique_lock lock(functionsMutex_);
  auto it = modules_.find(module);
  if (it == modules_.end())
    return nullptr;
  for (CUfunction function : it->second.functions)
    stubs_.erase(function);
  void** registration = it->second.registration;
  modules_.erase(it);
  return registration;
}

} // namespace ocelot::runtime::driverapi
