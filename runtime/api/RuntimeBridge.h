#pragma once

// The one entry point through which Ocelot's libcuda.so.1 (runtime/driverapi) reaches Ocelot's
// runtime (docs/driver-api.md, "How the shim finds Ocelot's runtime"). The shim imports nothing
// from libcudart.so.13 by symbol: a process may already hold NVIDIA's libcudart.so.13 (PyTorch
// loads the one of its wheel), and a library of the same soname would satisfy such imports with
// NVIDIA's functions, or fail to load the shim at all. Both libraries come from one build, so the
// table is plain C++ types; the version number and the size guard against a mismatched pair.

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

extern "C" {

/// Ocelot's runtime as the shim uses it.
struct OcelotRuntimeBridge {
  unsigned abiVersion; ///< kOcelotRuntimeBridgeAbi of the libcudart that filled it
  std::size_t size;    ///< sizeof(OcelotRuntimeBridge) there

  // The CUDA Runtime API functions of Ocelot's libcudart (RuntimeBridgeCalls.def).
#define OCELOT_BRIDGE_CUDA(name) decltype(&::name) name;
#include "runtime/api/RuntimeBridgeCalls.def"

  // The runtime's driver-API module methods (Runtime::moduleLoad & co., runtime/core/Runtime.h),
  // on the process's runtime. `device` is the module or function as the current device loaded it
  // (the CUmodule / CUfunction on NVIDIA's driver).
  /// Creates the process's runtime (Runtime::process()) if it is not yet.
  void (*initialize)();
  cudaError_t (*moduleLoad)(const void* image, const char* origin, void*** module, void** device);
  cudaError_t (*moduleUnload)(void** module);
  cudaError_t (*moduleFunction)(void** module, const char* name, const void** function,
                                void** device);
  cudaError_t (*moduleGlobal)(void** module, const char* name, void** address, size_t* bytes);
  const char* (*moduleFunctionName)(const void* function);
  /// Runtime::launchForeign: whether the runtime made (and profiled) the launch by calling
  /// `launch(context)`; false when the caller must launch it itself. `kernelName(context)` is
  /// asked only for a launch the runtime profiles.
  bool (*launchForeign)(const char* (*kernelName)(void* context), dim3 grid, dim3 block,
                        size_t sharedMem, cudaStream_t stream, cudaError_t (*launch)(void* context),
                        void* context, const char* reason);
  /// A warning through the runtime's logger (OCELOT_LOG).
  void (*warn)(const char* message);
  /// Runtime::directLaunchTarget: the function NVIDIA's driver may launch directly for the stand-in
  /// `function` on the current device, while `*instrumentationIdle` holds and `*directLaunchEpoch`
  /// is unchanged (the shim's direct launches, docs/driver-api.md).
  bool (*directLaunchTarget)(const void* function, void** device);
  const std::atomic<bool>* instrumentationIdle;
  const std::atomic<std::uint64_t>* directLaunchEpoch;
};

/// The bridge of this libcudart.so.13 for `abiVersion`, or null when it speaks another one (or
/// cannot find its own functions). Exported from Ocelot's libcudart.so.13 (version node OCELOT_1).
const OcelotRuntimeBridge* ocelot_runtime_bridge(unsigned abiVersion);

} // extern "C"

/// The table's layout version; a change to OcelotRuntimeBridge changes it.
inline constexpr unsigned kOcelotRuntimeBridgeAbi = 3;
