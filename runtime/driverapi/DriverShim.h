#pragma once

#include "runtime/driverapi/RealDriver.h"
#include "runtime/driverapi/RuntimeBridgeLookup.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ocelot::runtime::driverapi {

/// The state of Ocelot's libcuda.so.1: which way calls go (NVIDIA's driver behind it, or Ocelot's
/// runtime alone on the CPU device), the contexts it hands out on the CPU device, and the
/// translation between the driver API's module handles and the runtime's registrations.
///
/// Handles: a CUmodule (and, on the CPU device, a CUlibrary) and a CUfunction (a CUkernel) are the
/// device's own (the real CUmodule and CUfunction on a GPU, so that calls the shim does not
/// intercept still work); the shim maps them to the runtime's registration of the module and to
/// the stand-in host stub a launch names the kernel by. Streams, events and device pointers are the
/// runtime's, which on a GPU are the driver's own.
class DriverShim {
public:
  static DriverShim& instance();

  /// NVIDIA's driver when the process runs on a GPU through it; null on the CPU device.
  RealDriver* real() const { return real_; }
  /// Ocelot's runtime: its CUDA Runtime API functions and module methods (RuntimeBridge.h).
  const OcelotRuntimeBridge& runtimeCalls() const { return runtime_; }

  /// A runtime result as the driver API's (the enumerations share their numbers where both have a
  /// code; runtime-only codes become the driver's closest one).
  static CUresult result(cudaError_t error);
  /// Logs, once per process, that a driver function is not supported on the CPU device.
  CUresult notSupported(const char* function);
  void warn(const std::string& message) const;
  /// Logs a warning once per process.
  void warnOnce(const std::string& message);
  /// Whether OCELOT_LOG asks for the shim's trace (debug): which entry points cuGetProcAddress
  /// hands out and every call forwarded to NVIDIA's driver that fails, to find which call a
  /// library (cuBLAS, cuDNN, ...) gave up on.
  bool tracing() const { return tracing_; }
  /// Logs a line of that trace (only while tracing()).
  void trace(const std::string& message) const;
  /// `result` of NVIDIA's `function` as the shim forwarded it, traced when it failed.
  CUresult forwarded(const char* function, CUresult result) const {
    if (result != CUDA_SUCCESS && tracing_)
      traceFailure(function, result);
    return result;
  }

  /// On a GPU: makes the runtime's current device the device of the driver's current context
  /// (the application may have switched contexts through the driver API), so that modules load
  /// and kernels launch where the application expects them.
  void followDriverContext() const;

  // --- Contexts on the CPU device: one (primary) context per device -------------------------
  CUcontext context(int ordinal);
  /// The device of a context handed out here, or -1.
  int ordinalOf(CUcontext context) const;

  // --- Modules and functions ------------------------------------------------------------------
  /// A module loaded through the runtime: `module` is the device's handle (the real CUmodule on a
  /// GPU, so that calls the shim does not intercept still work), `registration` the runtime's.
  void addModule(CUmodule module, void** registration);
  /// The runtime's registration of a module the shim loaded, or null.
  void** registration(CUmodule module) const;
  /// Forgets a module and its functions; its registration, or null when it was none of ours.
  void** forgetModule(CUmodule module);
  void addFunction(CUmodule module, CUfunction function, const void* stub);
  /// The runtime's stand-in for a function, or null when the function is no module's of ours.
  const void* stub(CUfunction function) const;
  /// The module of ours a function belongs to, or null.
  CUmodule moduleOf(CUfunction function) const;

private:
  DriverShim();
  void traceFailure(const char* function, CUresult result) const;

  const OcelotRuntimeBridge& runtime_;
  RealDriver* real_ = nullptr;
  bool tracing_ = false;
  std::vector<char> contexts_; ///< their addresses are the CUcontext handles
  mutable std::shared_mutex functionsMutex_;
  std::unordered_map<CUfunction, const void*> stubs_;
  struct Module {
    void** registration = nullptr;
    std::vector<CUfunction> functions;
  };
  std::unordered_map<CUmodule, Module> modules_;
  std::mutex reportedMutex_;
  std::unordered_set<std::string> reported_;
};

/// The shim's state (one function-local static, like the runtime's).
inline DriverShim& shim() {
  return DriverShim::instance();
}

/// Ocelot's runtime as the shim calls it: `runtimeCalls().cudaMalloc(...)`, never `cudaMalloc`
/// by symbol (the process's libcudart.so.13 may be NVIDIA's).
inline const OcelotRuntimeBridge& runtimeCalls() {
  return shim().runtimeCalls();
}

/// `if (RealDriver* real = shim().real()) return forward...`: calls the real driver's `name` with
/// the arguments, resolved once per call site.
#define OCELOT_FORWARD(name, ...)                                                                  \
  if (::ocelot::runtime::driverapi::RealDriver* real =                                             \
          ::ocelot::runtime::driverapi::shim().real())                                             \
    do {                                                                                           \
      static const auto forward = OCELOT_REAL_FUNCTION(*real, name);                               \
      return forward != nullptr                                                                    \
                 ? ::ocelot::runtime::driverapi::shim().forwarded(#name, forward(__VA_ARGS__))     \
                 : CUDA_ERROR_NOT_FOUND;                                                           \
  } while (false)

} // namespace ocelot::runtime::driverapi
