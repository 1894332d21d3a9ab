#include "runtime/driverapi/RuntimeBridgeLookup.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <string>
#include <type_traits>
#include <vector>

namespace ocelot::runtime::driverapi {
namespace {

namespace fs = std::filesystem;

constexpr const char* kEntryPoint = "ocelot_runtime_bridge";
constexpr const char* kUnavailable = "Ocelot's runtime (libcudart.so.13) was not found by Ocelot's "
                                     "libcuda.so.1";

/// The bridge a loaded library exports, for this shim's ABI; null for NVIDIA's libcudart (which
/// has no such entry point) and for an Ocelot of another ABI.
const OcelotRuntimeBridge* bridgeOf(void* symbol) {
  if (symbol == nullptr)
    return nullptr;
  const OcelotRuntimeBridge* (*entry)(unsigned) = nullptr;
  static_assert(sizeof entry == sizeof symbol);
  __builtin_memcpy(&entry, &symbol, sizeof entry);
  const OcelotRuntimeBridge* bridge = entry(kOcelotRuntimeBridgeAbi);
  if (bridge == nullptr || bridge->abiVersion != kOcelotRuntimeBridgeAbi ||
      bridge->size != sizeof(OcelotRuntimeBridge))
    return nullptr;
  return bridge;
}

/// The folder of this library (the shim) as the process loaded it.
fs::path ownFolder() {
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&ownFolder), &info) == 0 || info.dli_fname == nullptr)
    return {};
  std::error_code ignored;
  return fs::absolute(info.dli_fname, ignored).parent_path();
}

/// Where Ocelot's libcudart.so.13 lies when the process does not hold it yet: the folder
/// `ocelot run` was told ($OCELOT_CUDART_DIR), then the one above the shim's (a build tree's
/// runtime/ and runtime/driverapi/, an installation's lib/ and lib/driverapi/).
std::vector<fs::path> candidates() {
  std::vector<fs::path> paths;
  if (const char* dir = std::getenv("OCELOT_CUDART_DIR"); dir != nullptr && *dir != '\0')
    paths.push_back(fs::path(dir) / "libcudart.so.13");
  if (fs::path folder = ownFolder(); !folder.empty())
    paths.push_back(folder.parent_path() / "libcudart.so.13");
  return paths;
}

/// Every call fails as the runtime's calls do before it is initialized.
template <class Function> struct Unavailable;
template <class Result, class... Arguments> struct Unavailable<Result (*)(Arguments...)> {
  static Result call(Arguments...) {
    if constexpr (std::is_same_v<Result, cudaError_t>)
      return cudaErrorInitializationError;
    else
      return kUnavailable; // cudaGetErrorString
  }
};

const OcelotRuntimeBridge& unavailable() {
  static const OcelotRuntimeBridge bridge = [] {
    OcelotRuntimeBridge table{};
    table.abiVersion = kOcelotRuntimeBridgeAbi;
    table.size = sizeof table;
#define OCELOT_BRIDGE_CUDA(name) table.name = &Unavailable<decltype(&::name)>::call;
#include "runtime/api/RuntimeBridgeCalls.def"
    table.initialize = [] {};
    table.moduleLoad = [](const void*, const char*, void***, void**) {
      return cudaErrorInitializationError;
    };
    table.moduleUnload = [](void**) { return cudaErrorInitializationError; };
    table.moduleFunction = [](void**, const char*, const void**, void**) {
      return cudaErrorInitializationError;
    };
    table.moduleGlobal = [](void**, const char*, void**, size_t*) {
      return cudaErrorInitializationError;
    };
    table.moduleFunctionName = [](const void*) -> const char* { return nullptr; };
    table.launchForeign = [](const char* (*)(void*), dim3, dim3, size_t, cudaStream_t,
                             cudaError_t (*)(void*), void*, const char*) { return false; };
    table.warn = [](const char* message) { std::fprintf(stderr, "ocelot[warn]: %s\n", message); };
    return table;
  }();
  return bridge;
}

} // namespace

const OcelotRuntimeBridge& findRuntimeBridge() {
  // 1. An Ocelot libcudart.so.13 the process holds: in the global scope, or loaded locally under
  //    the soname (a Python extension's dependency). NVIDIA's, loaded first, answers neither.
  if (const OcelotRuntimeBridge* bridge = bridgeOf(::dlsym(RTLD_DEFAULT, kEntryPoint)))
    return *bridge;
  if (void* loaded = ::dlopen("libcudart.so.13", RTLD_NOW | RTLD_NOLOAD)) {
    if (const OcelotRuntimeBridge* bridge = bridgeOf(::dlsym(loaded, kEntryPoint)))
      return *bridge; // the handle stays open: the runtime lives as long as the process
    ::dlclose(loaded);
  }
  // 2. Ocelot's libcudart.so.13 by absolute path, kept out of the global scope, where the
  //    application's own libcudart.so.13 (NVIDIA's) keeps answering the application.
  std::string looked = std::string("no ") + kEntryPoint + " in the process";
  for (const fs::path& path : candidates()) {
    void* library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      const char* reason = ::dlerror();
      looked += std::string("; ") + (reason != nullptr ? reason : path.string() + ": not loaded");
      continue;
    }
    if (const OcelotRuntimeBridge* bridge = bridgeOf(::dlsym(library, kEntryPoint)))
      return *bridge;
    looked += "; " + path.string() + " is no Ocelot runtime of this build";
    ::dlclose(library);
  }
  std::fprintf(stderr,
               "ocelot[warn]: %s (%s); its calls fail with CUDA_ERROR_NOT_INITIALIZED (set "
               "OCELOT_CUDART_DIR to the folder of Ocelot's libcudart.so.13)\n",
               kUnavailable, looked.c_str());
  return unavailable();
}

} // namespace ocelot::runtime::driverapi
