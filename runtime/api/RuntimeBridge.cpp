// ocelot_runtime_bridge: Ocelot's runtime as Ocelot's libcuda.so.1 reaches it (RuntimeBridge.h).

#include "runtime/api/RuntimeBridge.h"

#include "runtime/core/LaunchParams.h"
#include "runtime/core/Runtime.h"

#include <cstring>
#include <dlfcn.h>
#include <string>

namespace ocelot::runtime::api {
namespace {

Runtime& processRuntime() {
  return Runtime::process();
}

/// This library's handle, for dlsym on its own definitions.
void* ownHandle() {
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&processRuntime), &info) == 0 || info.dli_fname == nullptr)
    return nullptr;
  return ::dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD); // kept: this library stays loaded
}

/// This library's own definition of an exported function. Not `&::cudaMalloc`: this library's
/// references to its exported symbols bind through the process's global scope first, which holds
/// NVIDIA's libcudart.so.13 when the shim loaded this one next to it (PyTorch's case). dlsym on
/// the library's own handle searches it before anything else.
template <class Function> bool resolveOwn(void* handle, const char* name, Function* function) {
  void* address = handle != nullptr ? ::dlsym(handle, name) : nullptr;
  static_assert(sizeof address == sizeof *function);
  std::memcpy(function, &address, sizeof address);
  return address != nullptr;
}

bool launchForeign(const char* (*kernelName)(void* context), dim3 grid, dim3 block,
                   size_t sharedMem, cudaStream_t stream, cudaError_t (*launch)(void* context),
                   void* context, const char* reason) {
  LaunchParams params;
  params.grid = grid;
  params.block = block;
  params.sharedMem = sharedMem;
  return processRuntime()
      .launchForeign([&] { return kernelName(context); }, params, stream,
                     [&] { return launch(context); }, reason)
      .has_value();
}

OcelotRuntimeBridge* makeBridge() {
  auto* bridge = new OcelotRuntimeBridge{}; // lives as long as the process, like the runtime
  bridge->abiVersion = kOcelotRuntimeBridgeAbi;
  bridge->size = sizeof(OcelotRuntimeBridge);
  void* handle = ownHandle();
  bool complete = true;
#define OCELOT_BRIDGE_CUDA(name) complete = resolveOwn(handle, #name, &bridge->name) && complete;
#include "runtime/api/RuntimeBridgeCalls.def"
  if (!complete) {
    processRuntime().logger().warn(
        "ocelot_runtime_bridge: this libcudart.so.13 cannot find its own CUDA Runtime API "
        "functions; Ocelot's libcuda.so.1 cannot use it");
    delete bridge;
    return nullptr;
  }
  bridge->initialize = [] { processRuntime(); };
  bridge->moduleLoad = [](const void* image, const char* origin, void*** module, void** device) {
    return processRuntime().moduleLoad(image, origin, module, device);
  };
  bridge->moduleUnload = [](void** module) { return processRuntime().moduleUnload(module); };
  bridge->moduleFunction = [](void** module, const char* name, const void** function,
                              void** device) {
    return processRuntime().moduleFunction(module, name, function, device);
  };
  bridge->moduleGlobal = [](void** module, const char* name, void** address, size_t* bytes) {
    return processRuntime().moduleGlobal(module, name, address, bytes);
  };
  bridge->moduleFunctionName = [](const void* function) {
    return processRuntime().moduleFunctionName(function);
  };
  bridge->launchForeign = &launchForeign;
  bridge->warn = [](const char* message) { processRuntime().logger().warn(message); };
  bridge->directLaunchTarget = [](const void* function, void** device) {
    return processRuntime().directLaunchTarget(function, device);
  };
  bridge->instrumentationIdle = &processRuntime().instrumentationIdle();
  bridge->directLaunchEpoch = &processRuntime().directLaunchEpoch();
  return bridge;
}

} // namespace
} // namespace ocelot::runtime::api

extern "C" __attribute__((visibility("default"))) const OcelotRuntimeBridge*
ocelot_runtime_bridge(unsigned abiVersion) {
  if (abiVersion != kOcelotRuntimeBridgeAbi)
    return nullptr;
  static const OcelotRuntimeBridge* const bridge = ocelot::runtime::api::makeBridge();
  return bridge;
}
