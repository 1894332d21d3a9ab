// ocelot_cpu_bench: thread-instructions per second per worker of the CPU back end on regular
// kernels (saxpy, tiled matmul, reduction; nvcc's PTX of tests/cpu/ptx/kernels.cu, built into the
// build tree), with 1 and 2 workers (or the counts given as arguments). A thread-instruction is one
// PTX instruction executed by one thread (guard applied), the unit the 100 M/s/core bar is
// stated in.

#include "runtime/cpu/CpuDevice.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace ocelot::runtime;
using namespace ocelot::runtime::cpu;

namespace {

struct Workload {
  const char* name;
  DeviceFunction function;
  dim3 grid, block;
  size_t shared;
  std::vector<void*> args;
};

template <class T> T* allocate(CpuDevice& device, size_t count) {
  void* pointer = nullptr;
  if (device.allocate(&pointer, count * sizeof(T)) != cudaSuccess) {
    std::fprintf(stderr, "allocation failed\n");
    std::exit(1);
  }
  return static_cast<T*>(pointer);
}

} // namespace

int main(int argc, char** argv) {
  std::vector<uint32_t> workerCounts;
  for (int i = 1; i < argc; ++i)
    workerCounts.push_back(static_cast<uint32_t>(std::atoi(argv[i])));
  if (workerCounts.empty())
    workerCounts = {1, 2};

  const char* override = std::getenv("OCELOT_CPU_BENCH_PTX");
  std::ifstream in(override != nullptr ? std::string(override)
                                       : std::string(OCELOT_CPU_KERNELS_PTX));
  std::stringstream ptx;
  ptx << in.rdbuf();
  std::string error;
  auto device = CpuDevice::create(&error);
  if (!device) {
    std::fprintf(stderr, "no CPU device: %s\n", error.c_str());
    return 1;
  }
  ModuleImage image;
  image.form = ModuleImage::Form::Ptx;
  image.ptx = {ptx.str()};
  image.label = "benchmark kernels";
  DeviceModule module = nullptr;
  if (device->loadModule(image, &module, &error) != cudaSuccess) {
    std::fprintf(stderr, "PTX does not load: %s\n", error.c_str());
    return 1;
  }
  auto kernel = [&](const char* name) {
    DeviceFunction function = nullptr;
    device->function(module, name, &function);
    return function;
  };

  // saxpy: 4M elements.
  int n = 1 << 22;
  float a = 2.0f;
  float* x = allocate<float>(*device, n);
  float* y = allocate<float>(*device, n);
  for (int i = 0; i < n; ++i)
    x[i] = y[i] = static_cast<float>(i % 100);
  // matmul: 256 x 256 tiled.
  int m = 256;
  float* A = allocate<float>(*device, m * m);
  float* B = allocate<float>(*device, m * m);
  float* C = allocate<float>(*device, m * m);
  for (int i = 0; i < m * m; ++i)
    A[i] = B[i] = 1.0f;
  // reduction: 4M ints.
  int* values = allocate<int>(*device, n);
  int* sum = allocate<int>(*device, 1);
  for (int i = 0; i < n; ++i)
    values[i] = 1;

  std::vector<Workload> workloads = {
      {"saxpy", kernel("saxpy"), dim3(n / 256), dim3(256), 0, {&n, &a, &x, &y}},
      {"matmul_tiled", kernel("matmul"), dim3(m / 16, m / 16), dim3(16, 16), 0, {&A, &B, &C, &m}},
      {"reduction",
       kernel("reduce"),
       dim3(n / 512),
       dim3(256),
       256 * sizeof(int),
       {&values, &sum, &n}},
  };

  std::printf("%-14s %8s %16s %12s %18s\n", "kernel", "workers", "thread-instr", "seconds",
              "M thread-instr/s/worker");
  for (uint32_t workers : workerCounts) {
    device->setWorkers(workers);
    for (Workload& w : workloads) {
      LaunchParams params;
      params.function = w.function;
      params.grid = w.grid;
      params.block = w.block;
      params.sharedMem = w.shared;
      params.args = w.args.data();
      device->launch(params); // warm-up (decoding, buffers)
      const uint64_t before = device->threadInstructions();
      const auto start = std::chrono::steady_clock::now();
      int repetitions = 0;
      double seconds = 0;
      do {
        if (device->launch(params) != cudaSuccess || device->synchronize() != cudaSuccess) {
          std::fprintf(stderr, "%s failed: %s\n", w.name, device->faultMessage().c_str());
          return 1;
        }
        ++repetitions;
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      } while (seconds < 1.0);
      const uint64_t executed = device->threadInstructions() - before;
      std::printf("%-14s %8u %16llu %12.3f %18.1f\n", w.name, workers,
                  static_cast<unsigned long long>(executed), seconds,
                  static_cast<double>(executed) / seconds / workers / 1e6);
    }
  }
  return 0;
}
