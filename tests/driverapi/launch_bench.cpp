// The driver-API launch overhead with and without Ocelot's libcuda.so.1 (issue 15's bar: <= 1.02x
// on uninstrumented runs). Loads tests/driverapi/kernels.ptx, then times N cuLaunchKernel calls of
// scale_add with n = 0 (no thread does work) on the default stream, best of R rounds, and prints
// `cuLaunchKernel_enqueue_ns <value>` and `cuLaunchKernel_sync_ns <value>` (each launch followed
// by cuStreamSynchronize). Run it once against NVIDIA's driver and once under `ocelot run`; the
// ratio is the shim's (and Ocelot's launch path's) cost.
//
//   driverapi_launch_bench KERNELS.ptx [launches per round, default 20000] [rounds, default 5]

#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace {

bool ok(CUresult result, const char* what) {
  if (result == CUDA_SUCCESS)
    return true;
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  std::fprintf(stderr, "%s: %s\n", what, name != nullptr ? name : "unknown error");
  return false;
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s KERNELS.ptx [launches] [rounds]\n", argv[0]);
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  std::string ptx((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const int launches = argc > 2 ? std::atoi(argv[2]) : 20000;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 5;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  CUfunction kernel = nullptr;
  if (!ok(cuInit(0), "cuInit") || !ok(cuDeviceGet(&device, 0), "cuDeviceGet") ||
      !ok(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain") ||
      !ok(cuCtxSetCurrent(context), "cuCtxSetCurrent") ||
      !ok(cuModuleLoadData(&module, ptx.c_str()), "cuModuleLoadData") ||
      !ok(cuModuleGetFunction(&kernel, module, "scale_add"), "cuModuleGetFunction"))
    return 1;
  CUdeviceptr buffer = 0;
  if (!ok(cuMemAlloc(&buffer, 256), "cuMemAlloc"))
    return 1;
  float scale = 1.0f, offset = 0.0f;
  unsigned n = 0;
  void* args[] = {&buffer, &buffer, &scale, &offset, &n};
  using Clock = std::chrono::steady_clock;
  double bestEnqueue = 1e300, bestSync = 1e300;
  for (int round = 0; round < rounds; ++round) {
    auto start = Clock::now();
    for (int i = 0; i < launches; ++i)
      if (!ok(cuLaunchKernel(kernel, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr),
              "cuLaunchKernel"))
        return 1;
    auto end = Clock::now();
    if (!ok(cuStreamSynchronize(nullptr), "cuStreamSynchronize"))
      return 1;
    bestEnqueue = std::min(
        bestEnqueue, std::chrono::duration<double, std::nano>(end - start).count() / launches);
    const int synced = std::max(1, launches / 10);
    start = Clock::now();
    for (int i = 0; i < synced; ++i)
      if (!ok(cuLaunchKernel(kernel, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr),
              "cuLaunchKernel") ||
          !ok(cuStreamSynchronize(nullptr), "cuStreamSynchronize"))
        return 1;
    end = Clock::now();
    bestSync =
        std::min(bestSync, std::chrono::duration<double, std::nano>(end - start).count() / synced);
  }
  std::printf("cuLaunchKernel_enqueue_ns %.1f\n", bestEnqueue);
  std::printf("cuLaunchKernel_sync_ns %.1f\n", bestSync);
  cuMemFree(buffer);
  cuModuleUnload(module);
  return 0;
}
