// Ocelot's libcuda.so.1: initialization, versions, error names and cuGetProcAddress, through which
// NVIDIA's static runtimes (inside cuBLAS, cuDNN, ...) and the frameworks find every other entry
// point: it answers with the shim's own functions, so that those callers reach the shim too.

#include "runtime/driverapi/DriverShim.h"

#include <cstring>
#include <string>
#include <string_view>

using namespace ocelot::runtime::driverapi;

namespace {

const char* errorName(CUresult error) {
  switch (static_cast<int>(error)) {
#define OCELOT_CU_RESULT(name, value)                                                              \
  case value:                                                                                      \
    return #name;
#include "runtime/driverapi/CuResults.def"
#undef OCELOT_CU_RESULT
  default:
    return nullptr;
  }
}

struct ShimEntry {
  const char* name;
  void* function;
};

// The shim's functions by the names cuGetProcAddress is asked for.
#define OCELOT_SHIM(cuName) {#cuName, reinterpret_cast<void*>(&cuName)},
#define OCELOT_SHIM_AS(cuName, function) {#cuName, reinterpret_cast<void*>(&function)},
const ShimEntry kShimEntries[] = {
#include "runtime/driverapi/ShimFunctions.def"
};

/// The shim's functions that do Ocelot's work on a GPU too (the others forward there).
bool routedThroughOcelot(std::string_view name) {
  for (std::string_view prefix :
       {"cuModule", "cuLibrary", "cuKernel", "cuLink", "cuLaunch", "cuGetProcAddress"})
    if (name.starts_with(prefix))
      return true;
  return name == "cuFuncGetName";
}

void* shimFunction(std::string_view name) {
  for (const ShimEntry& entry : kShimEntries)
    if (name == entry.name)
      return entry.function;
  return nullptr;
}

} // namespace

extern "C" {
/// CUDA 11.3's cuGetProcAddress, without the status argument, under the symbol NVIDIA's driver
/// still exports it as; cuGetProcAddress("cuGetProcAddress", < 12000) answers with it too. A caller
/// of that version passes four arguments: handing it the five-argument function made the shim
/// (and NVIDIA's driver behind it) write the query's status through whatever the fifth argument
/// register held.
CUresult CUDAAPI ocelotGetProcAddressV11030(const char* symbol, void** function, int cudaVersion,
                                            cuuint64_t flags) __asm__("cuGetProcAddress")
    __attribute__((visibility("default")));

// LaunchApi.cpp (cuda.h declares them only for CUDA_API_PER_THREAD_DEFAULT_STREAM code).
CUresult CUDAAPI cuLaunchKernel_ptsz(CUfunction, unsigned int, unsigned int, unsigned int,
                                     unsigned int, unsigned int, unsigned int, unsigned int,
                                     CUstream, void**, void**);
CUresult CUDAAPI cuLaunchKernelEx_ptsz(const CUlaunchConfig*, CUfunction, void**, void**);
CUresult CUDAAPI cuLaunchCooperativeKernel_ptsz(CUfunction, unsigned int, unsigned int,
                                                unsigned int, unsigned int, unsigned int,
                                                unsigned int, unsigned int, CUstream, void**);

/// Tells Ocelot's own DriverApi (and another copy of this library) that this is not NVIDIA's
/// driver, and where that is: null when the process has none and runs on the CPU device.
__attribute__((visibility("default"))) const char* ocelot_driver_shim_real_driver() {
  RealDriver* real = shim().real();
  return real != nullptr ? real->path().c_str() : nullptr;
}

CUresult CUDAAPI cuInit(unsigned int flags) {
  OCELOT_FORWARD(cuInit, flags);
  if (flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  int count = 0;
  return DriverShim::result(runtimeCalls().cudaGetDeviceCount(&count));
}

CUresult CUDAAPI cuDriverGetVersion(int* version) {
  OCELOT_FORWARD(cuDriverGetVersion, version);
  if (version == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  *version = CUDA_VERSION;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGetErrorName(CUresult error, const char** name) {
  OCELOT_FORWARD(cuGetErrorName, error, name);
  if (name == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  *name = errorName(error);
  return *name != nullptr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char** text) {
  OCELOT_FORWARD(cuGetErrorString, error, text);
  if (text == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  const char* name = errorName(error);
  if (name == nullptr) {
    *text = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
  // Where the runtime has the same code its text is the driver's; else the name says it.
  const char* runtimeText = runtimeCalls().cudaGetErrorString(static_cast<cudaError_t>(error));
  *text = runtimeText != nullptr && std::strstr(runtimeText, "unrecognized") == nullptr
              ? runtimeText
              : name;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGetProcAddress(const char* symbol, void** function, int cudaVersion,
                                  cuuint64_t flags, CUdriverProcAddressQueryResult* status) {
  if (symbol == nullptr || function == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  const std::string_view name(symbol);
  void* own = shimFunction(name);
  // On a GPU the shim answers only for what it routes through Ocelot (modules, libraries,
  // kernels, the linker, launches, this function); everything else is NVIDIA's answer, exact for
  // every CUDA version and per-thread-stream flag.
  if (own != nullptr && shim().real() != nullptr && !routedThroughOcelot(name))
    own = nullptr;
  if (own != nullptr) {
    const bool perThread = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
    if (perThread && name == "cuLaunchKernel")
      own = reinterpret_cast<void*>(&cuLaunchKernel_ptsz);
    else if (perThread && name == "cuLaunchKernelEx")
      own = reinterpret_cast<void*>(&cuLaunchKernelEx_ptsz);
    else if (perThread && name == "cuLaunchCooperativeKernel")
      own = reinterpret_cast<void*>(&cuLaunchCooperativeKernel_ptsz);
    // cuCtxSynchronize changed signature in 13.0: older callers get the old one.
    else if (cudaVersion < 13000 && name == "cuCtxSynchronize")
      own = reinterpret_cast<void*>(&cuCtxSynchronize);
    // cuCtxCreate is cuCtxCreate_v4 (with creation parameters) only from 12.5 on: older callers
    // get NVIDIA's, or nothing on the CPU device.
    else if (cudaVersion < 12050 && name == "cuCtxCreate")
      own = nullptr;
    else if (cudaVersion < 12000 && name == "cuGetProcAddress")
      own = reinterpret_cast<void*>(&ocelotGetProcAddressV11030);
    // Before 3.2, cuModuleGetGlobal took 32-bit device pointers and sizes: NVIDIA's answers that.
    else if (cudaVersion < 3020 && name == "cuModuleGetGlobal")
      own = nullptr;
    // The shim's cuLaunchHostFunc forwards on a GPU; its per-thread-stream variant is NVIDIA's.
    else if (perThread && name == "cuLaunchHostFunc" && shim().real() != nullptr)
      own = nullptr;
    if (own != nullptr) {
      *function = own;
      if (status != nullptr)
        *status = CU_GET_PROC_ADDRESS_SUCCESS;
      if (shim().tracing())
        shim().trace("cuGetProcAddress(" + std::string(name) + ", " + std::to_string(cudaVersion) +
                     ", flags " + std::to_string(flags) + "): Ocelot's");
      return CUDA_SUCCESS;
    }
  }
  // Everything else goes straight to NVIDIA's driver, unchanged.
  if (RealDriver* real = shim().real()) {
    static const auto forward = OCELOT_REAL_FUNCTION(*real, cuGetProcAddress);
    if (forward == nullptr)
      return CUDA_ERROR_NOT_FOUND;
    const CUresult result = forward(symbol, function, cudaVersion, flags, status);
    if (shim().tracing())
      shim().trace("cuGetProcAddress(" + std::string(name) + ", " + std::to_string(cudaVersion) +
                   ", flags " + std::to_string(flags) + "): NVIDIA's" +
                   (result == CUDA_SUCCESS ? "" : " (not found: " + std::to_string(result) + ")"));
    return result;
  }
  *function = nullptr;
  if (status != nullptr)
    *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return CUDA_ERROR_NOT_FOUND;
}

CUresult CUDAAPI ocelotGetProcAddressV11030(const char* symbol, void** function, int cudaVersion,
                                            cuuint64_t flags) {
  return cuGetProcAddress(symbol, function, cudaVersion, flags, nullptr);
}

/// What code compiled with CUDA_API_PER_THREAD_DEFAULT_STREAM calls: the same answers.
CUresult CUDAAPI cuGetProcAddress_v2_ptsz(const char* symbol, void** function, int cudaVersion,
                                          cuuint64_t flags,
                                          CUdriverProcAddressQueryResult* status) {
  return cuGetProcAddress(symbol, function, cudaVersion,
                          flags | CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, status);
}

} // extern "C"
