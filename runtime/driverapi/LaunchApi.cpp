// Ocelot's libcuda.so.1: launches. A function from a module the shim loaded launches through
// Ocelot's runtime by its stand-in host stub, exactly like a kernel the application registered
// (instrumentation included). On a GPU, a function the shim never saw (from a module loaded before
// the shim was in front, or through an entry point it does not intercept) goes to NVIDIA's driver
// unchanged, and is logged once as launched outside Ocelot's view.

#include "runtime/driverapi/DirectLaunch.h"
#include "runtime/driverapi/DriverShim.h"

#include <atomic>
#include <cstdint>
#include <vector>

using namespace ocelot::runtime::driverapi;

namespace {

cudaStream_t stream(CUstream handle) {
  return reinterpret_cast<cudaStream_t>(handle);
}

/// The kernel's parameters as a pointer per parameter: `params` as given, or pointers into the
/// buffer that `extra` passes (CU_LAUNCH_PARAM_BUFFER_POINTER), laid out as the kernel declares.
CUresult arguments(const void* stub, void** params, void** extra, std::vector<void*>* storage,
                   void*** args) {
  if (params != nullptr || extra == nullptr) {
    if (params != nullptr && extra != nullptr)
      return CUDA_ERROR_INVALID_VALUE;
    *args = params;
    return CUDA_SUCCESS;
  }
  char* buffer = nullptr;
  size_t size = 0;
  for (void** option = extra; *option != CU_LAUNCH_PARAM_END; option += 2) {
    if (option[0] == CU_LAUNCH_PARAM_BUFFER_POINTER)
      buffer = static_cast<char*>(option[1]);
    else if (option[0] == CU_LAUNCH_PARAM_BUFFER_SIZE && option[1] != nullptr)
      size = *static_cast<size_t*>(option[1]);
    else
      return CUDA_ERROR_INVALID_VALUE;
  }
  if (buffer == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  for (size_t index = 0;; ++index) {
    size_t offset = 0, bytes = 0;
    if (runtimeCalls().cudaFuncGetParamInfo(stub, index, &offset, &bytes) != cudaSuccess)
      break;
    if (offset + bytes > size)
      return CUDA_ERROR_INVALID_VALUE;
    storage->push_back(buffer + offset);
  }
  // The probe past the last parameter is not the application's error.
  runtimeCalls().cudaGetLastError();
  *args = storage->data();
  return CUDA_SUCCESS;
}

/// The name of a function from a module Ocelot did not load, as NVIDIA's driver knows it.
const char* foreignName(RealDriver& real, CUfunction function) {
  static const auto functionName = OCELOT_REAL_FUNCTION(real, cuFuncGetName);
  static const auto kernelName = OCELOT_REAL_FUNCTION(real, cuKernelGetName);
  const char* name = nullptr;
  if (functionName != nullptr && functionName(&name, function) == CUDA_SUCCESS && name != nullptr)
    return name;
  if (kernelName != nullptr &&
      kernelName(&name, reinterpret_cast<CUkernel>(function)) == CUDA_SUCCESS && name != nullptr)
    return name;
  return "(kernel outside Ocelot's modules)";
}

constexpr const char* kForeignReason =
    "launched outside Ocelot's modules (a library's kernel, or a module loaded before Ocelot's "
    "libcuda.so.1 was in front): it runs as it came, not instrumented";

/// On a GPU, a launch of a function the shim does not know through NVIDIA's driver, profiled by
/// the runtime while an instrumentor is active. `forward` makes the launch and returns its result.
template <class Forward>
CUresult launchForeign(CUfunction function, dim3 grid, dim3 block, unsigned int sharedMem,
                       CUstream queue, Forward forward) {
  struct Launch {
    Forward& forward;
    RealDriver& real;
    CUfunction function;
    CUresult launched = CUDA_SUCCESS;
  } launch{forward, *shim().real(), function};
  auto call = [](void* context) {
    auto& self = *static_cast<Launch*>(context);
    self.launched = self.forward();
    return self.launched == CUDA_SUCCESS ? cudaSuccess : cudaErrorLaunchFailure;
  };
  auto name = [](void* context) {
    auto& self = *static_cast<Launch*>(context);
    return foreignName(self.real, self.function);
  };
  if (runtimeCalls().launchForeign(name, grid, block, sharedMem, stream(queue), call, &launch,
                                   kForeignReason))
    return launch.launched;
  return forward();
}

/// The stand-in of a function, or why it cannot launch through Ocelot. `warned` is the calling
/// API's: the warning is built once per API, not on every launch of a library's kernel (PyTorch
/// launches only those).
const void* stubOf(CUfunction function, const char* call, std::atomic<bool>& warned) {
  const void* stub = shim().stub(function);
  if (stub != nullptr)
    shim().followDriverContext();
  else if (shim().real() != nullptr && !warned.exchange(true, std::memory_order_relaxed))
    shim().warnOnce(
        std::string(call) +
        ": a kernel from a module Ocelot did not load runs as it came "
        "(not instrumented; profiled with its GPU time while an instrumentor is active)");
  return stub;
}

} // namespace

extern "C" {

CUresult CUDAAPI cuLaunchKernel(CUfunction function, unsigned int gridX, unsigned int gridY,
                                unsigned int gridZ, unsigned int blockX, unsigned int blockY,
                                unsigned int blockZ, unsigned int sharedMem, CUstream queue,
                                void** params, void** extra) {
  if (CUfunction direct = DirectLaunch::target(function)) {
    static const auto launch = OCELOT_REAL_FUNCTION(*shim().real(), cuLaunchKernel);
    return launch(direct, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedMem, queue, params,
                  extra);
  }
  static std::atomic<bool> warned{false};
  const void* stub = stubOf(function, "cuLaunchKernel", warned);
  if (stub == nullptr) {
    if (RealDriver* real = shim().real()) {
      static const auto forward = OCELOT_REAL_FUNCTION(*real, cuLaunchKernel);
      return launchForeign(function, dim3(gridX, gridY, gridZ), dim3(blockX, blockY, blockZ),
                           sharedMem, queue, [&] {
                             return forward(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                                            sharedMem, queue, params, extra);
                           });
    }
    return CUDA_ERROR_INVALID_HANDLE;
  }
  std::vector<void*> storage;
  void** args = nullptr;
  if (CUresult error = arguments(stub, params, extra, &storage, &args); error != CUDA_SUCCESS)
    return error;
  const CUresult result = DriverShim::result(
      runtimeCalls().cudaLaunchKernel(stub, dim3(gridX, gridY, gridZ), dim3(blockX, blockY, blockZ),
                                      args, sharedMem, stream(queue)));
  if (result == CUDA_SUCCESS)
    DirectLaunch::remember(function, stub);
  return result;
}

CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction function, void** params,
                                  void** extra) {
  if (config == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUfunction direct = DirectLaunch::target(function)) {
    static const auto launch = OCELOT_REAL_FUNCTION(*shim().real(), cuLaunchKernelEx);
    return launch(config, direct, params, extra);
  }
  static std::atomic<bool> warned{false};
  const void* stub = stubOf(function, "cuLaunchKernelEx", warned);
  if (stub == nullptr) {
    if (RealDriver* real = shim().real()) {
      static const auto forward = OCELOT_REAL_FUNCTION(*real, cuLaunchKernelEx);
      return launchForeign(function, dim3(config->gridDimX, config->gridDimY, config->gridDimZ),
                           dim3(config->blockDimX, config->blockDimY, config->blockDimZ),
                           config->sharedMemBytes, config->hStream,
                           [&] { return forward(config, function, params, extra); });
    }
    return CUDA_ERROR_INVALID_HANDLE;
  }
  std::vector<void*> storage;
  void** args = nullptr;
  if (CUresult error = arguments(stub, params, extra, &storage, &args); error != CUDA_SUCCESS)
    return error;
  // CUlaunchAttribute and cudaLaunchAttribute share their layout and identifiers.
  static_assert(sizeof(CUlaunchAttribute) == sizeof(cudaLaunchAttribute));
  cudaLaunchConfig_t launch{};
  launch.gridDim = dim3(config->gridDimX, config->gridDimY, config->gridDimZ);
  launch.blockDim = dim3(config->blockDimX, config->blockDimY, config->blockDimZ);
  launch.dynamicSmemBytes = config->sharedMemBytes;
  launch.stream = stream(config->hStream);
  launch.attrs = reinterpret_cast<cudaLaunchAttribute*>(config->attrs);
  launch.numAttrs = config->numAttrs;
  const CUresult result =
      DriverShim::result(runtimeCalls().cudaLaunchKernelExC(&launch, stub, args));
  if (result == CUDA_SUCCESS)
    DirectLaunch::remember(function, stub);
  return result;
}

CUresult CUDAAPI cuLaunchCooperativeKernel(CUfunction function, unsigned int gridX,
                                           unsigned int gridY, unsigned int gridZ,
                                           unsigned int blockX, unsigned int blockY,
                                           unsigned int blockZ, unsigned int sharedMem,
                                           CUstream queue, void** params) {
  static std::atomic<bool> warned{false};
  const void* stub = stubOf(function, "cuLaunchCooperativeKernel", warned);
  if (stub == nullptr) {
    OCELOT_FORWARD(cuLaunchCooperativeKernel, function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                   sharedMem, queue, params);
    return CUDA_ERROR_INVALID_HANDLE;
  }
  return DriverShim::result(runtimeCalls().cudaLaunchCooperativeKernel(
      stub, dim3(gridX, gridY, gridZ), dim3(blockX, blockY, blockZ), params, sharedMem,
      stream(queue)));
}

// The per-thread default stream variants (what code compiled with
// CUDA_API_PER_THREAD_DEFAULT_STREAM calls): the null stream is the thread's own.
CUresult CUDAAPI cuLaunchKernel_ptsz(CUfunction function, unsigned int gridX, unsigned int gridY,
                                     unsigned int gridZ, unsigned int blockX, unsigned int blockY,
                                     unsigned int blockZ, unsigned int sharedMem, CUstream queue,
                                     void** params, void** extra) {
  return cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedMem,
                        queue != nullptr ? queue : CU_STREAM_PER_THREAD, params, extra);
}

CUresult CUDAAPI cuLaunchKernelEx_ptsz(const CUlaunchConfig* config, CUfunction function,
                                       void** params, void** extra) {
  if (config == nullptr || config->hStream != nullptr)
    return cuLaunchKernelEx(config, function, params, extra);
  CUlaunchConfig perThread = *config;
  perThread.hStream = CU_STREAM_PER_THREAD;
  return cuLaunchKernelEx(&perThread, function, params, extra);
}

CUresult CUDAAPI cuLaunchCooperativeKernel_ptsz(CUfunction function, unsigned int gridX,
                                                unsigned int gridY, unsigned int gridZ,
                                                unsigned int blockX, unsigned int blockY,
                                                unsigned int blockZ, unsigned int sharedMem,
                                                CUstream queue, void** params) {
  return cuLaunchCooperativeKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedMem,
                                   queue != nullptr ? queue : CU_STREAM_PER_THREAD, params);
}

} // extern "C"
