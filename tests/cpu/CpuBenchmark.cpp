// ocelot_cpu_bench: thread-instructions per second per core of the CPU back end, with each of its
// executors side by side (the interpreter and the LLVM executor), on regular kernels (saxpy, tiled
// matmul, reduction) and a divergent one (nvcc's PTX of tests/cpu/ptx/kernels.cu, built into the
// build tree), with 1 and 2 workers (or the counts given as arguments); the LLVM executor's compile
// time, cold and from its code cache; and, where a GPU and its driver are present, the same PTX
// with the same launches on the GPU. A thread-instruction is one PTX instruction executed by one
// thread (guard applied); the CPU device counts them, and rates are per second of the process's
// CPU time (all workers together: a rate per core, which a loaded machine does not distort), with
// the wall-clock time shown beside them.

#include "runtime/cpu/CpuDevice.h"
#include "runtime/cpu/llvm/NativeCompiler.h"
#include "runtime/driver/DriverPlatform.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ocelot::runtime;
using namespace ocelot::runtime::cpu;

namespace {

using Clock = std::chrono::steady_clock;

struct Workload {
  const char* name;
  const char* kernel;
  dim3 grid, block;
  size_t shared;
};

/// The inputs of every workload on one device, initialised through copies so that the same code
/// serves device memory the host cannot touch.
class Inputs {
public:
  static constexpr int kElements = 1 << 22; // saxpy and reduction
  static constexpr int kMatrix = 256;       // matmul: kMatrix x kMatrix

  explicit Inputs(Device& device) : device_(device) {
    std::vector<float> pattern(kElements);
    for (size_t i = 0; i < pattern.size(); ++i)
      pattern[i] = static_cast<float>(i % 100);
    x_ = upload(pattern);
    y_ = upload(pattern);
    a_ = upload(std::vector<float>(kMatrix * kMatrix, 1.0f));
    b_ = upload(std::vector<float>(kMatrix * kMatrix, 1.0f));
    c_ = upload(std::vector<float>(kMatrix * kMatrix, 0.0f));
    values_ = upload(std::vector<int>(kElements, 1));
    sum_ = upload(std::vector<int>(1, 0));
    std::vector<int> mixed(kElements);
    for (size_t i = 0; i < mixed.size(); ++i)
      mixed[i] = static_cast<int>((i * 2654435761u) >> 7 & 0xffff); // neighbours differ
    mixed_ = upload(mixed);
    results_ = upload(std::vector<int>(kElements, 0));
  }
  ~Inputs() {
    for (void* pointer : allocations_)
      device_.free(pointer);
  }
  Inputs(const Inputs&) = delete;
  Inputs& operator=(const Inputs&) = delete;

  std::vector<void*> arguments(const Workload& workload) {
    const std::string name = workload.name;
    if (name == "saxpy")
      return {&n_, &alpha_, &x_, &y_};
    if (name == "matmul_tiled")
      return {&a_, &b_, &c_, &m_};
    if (name == "divergent")
      return {&mixed_, &results_, &n_};
    return {&values_, &sum_, &n_};
  }
  bool ok() const { return ok_; }

private:
  template <class T> void* upload(const std::vector<T>& values) {
    void* pointer = nullptr;
    const size_t bytes = values.size() * sizeof(T);
    if (device_.allocate(&pointer, bytes) != cudaSuccess ||
        device_.copy(pointer, values.data(), bytes, *device_.streams().find(nullptr), false) !=
            cudaSuccess) {
      ok_ = false;
      return nullptr;
    }
    allocations_.push_back(pointer);
    return pointer;
  }

  Device& device_;
  bool ok_ = true;
  std::vector<void*> allocations_;
  int n_ = kElements, m_ = kMatrix;
  float alpha_ = 2.0f;
  void *x_ = nullptr, *y_ = nullptr, *a_ = nullptr, *b_ = nullptr, *c_ = nullptr;
  void *values_ = nullptr, *sum_ = nullptr, *mixed_ = nullptr, *results_ = nullptr;
};

const std::vector<Workload> kWorkloads = {
    {"saxpy", "saxpy", dim3(Inputs::kElements / 256), dim3(256), 0},
    {"matmul_tiled", "matmul", dim3(Inputs::kMatrix / 16, Inputs::kMatrix / 16), dim3(16, 16), 0},
    {"reduction", "reduce", dim3(Inputs::kElements / 512), dim3(256), 256 * sizeof(int)},
    {"divergent", "divergent", dim3(Inputs::kElements / 256), dim3(256), 0},
};

double processSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

/// One timed run: seconds per launch (wall clock and process CPU time).
struct Timing {
  double wall = -1, cpu = -1;
  int launches = 0;
};

/// Seconds per launch of `workload` on `device` (one warm-up, then launches for at least
/// `minimum` seconds), or a negative number when a launch fails.
Timing secondsPerLaunch(Device& device, DeviceModule module, const Workload& workload,
                        Inputs& inputs, double minimum) {
  DeviceFunction function = nullptr;
  if (device.function(module, workload.kernel, &function) != cudaSuccess)
    return {};
  std::vector<void*> args = inputs.arguments(workload);
  LaunchParams params;
  params.function = function;
  params.grid = workload.grid;
  params.block = workload.block;
  params.sharedMem = workload.shared;
  params.args = args.data();
  params.stream = device.streams().find(nullptr);
  if (device.launch(params) != cudaSuccess || device.synchronize() != cudaSuccess)
    return {}; // warm-up: decoding, JIT, buffers
  const auto start = Clock::now();
  const double cpuStart = processSeconds();
  int count = 0;
  double seconds = 0;
  do {
    // Batches of launches, so that the GPU's launch latency does not dominate its short kernels.
    for (int i = 0; i < 10; ++i, ++count)
      if (device.launch(params) != cudaSuccess)
        return {};
    if (device.synchronize() != cudaSuccess)
      return {};
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
  } while (seconds < minimum);
  Timing timing;
  timing.wall = seconds / count;
  timing.cpu = (processSeconds() - cpuStart) / count;
  timing.launches = count;
  return timing;
}

cudaError_t loadPtx(Device& device, const std::string& ptx, DeviceModule* module,
                    std::string* log) {
  ModuleImage image;
  image.form = ModuleImage::Form::Ptx;
  image.ptx = {ptx};
  image.label = "benchmark kernels";
  return device.loadModule(image, module, log);
}

/// The LLVM executor's compile time for the workloads' kernels: each launched once (which
/// compiles it) with a fresh compiler and module, against `cacheDirectory`.
double compileSeconds(CpuDevice& device, const std::string& ptx, Inputs& inputs,
                      const std::string& cacheDirectory, std::shared_ptr<NativeCompiler>* kept) {
  std::string error;
  auto compiler = NativeCompiler::load({}, cacheDirectory, &error);
  if (!compiler) {
    std::fprintf(stderr, "LLVM executor: %s\n", error.c_str());
    return -1;
  }
  device.options().compiler = compiler;
  DeviceModule module = nullptr;
  if (loadPtx(device, ptx, &module, &error) != cudaSuccess)
    return -1;
  for (const Workload& workload : kWorkloads) {
    DeviceFunction function = nullptr;
    if (device.function(module, workload.kernel, &function) != cudaSuccess)
      return -1;
    std::vector<void*> args = inputs.arguments(workload);
    LaunchParams params;
    params.function = function;
    params.grid = dim3(1);
    params.block = workload.block;
    params.sharedMem = workload.shared;
    params.args = args.data();
    params.stream = device.streams().find(nullptr); // the legacy default stream
    if (device.launch(params) != cudaSuccess || device.synchronize() != cudaSuccess)
      return -1;
  }
  *kept = compiler;
  return compiler->statistics().seconds;
}

} // namespace

int main(int argc, char** argv) {
  std::vector<uint32_t> workerCounts;
  bool gpu = true;
  std::vector<std::string> executors = {"interpreter", "llvm"};
  std::string only;           // --kernel=NAME: that workload alone (for profiling)
  bool measureCompile = true; // --no-compile-time: the usual code cache instead (for profiling)
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--no-gpu")
      gpu = false;
    else if (argument == "--interpreter")
      executors = {"interpreter"};
    else if (argument == "--llvm")
      executors = {"llvm"};
    else if (argument.rfind("--kernel=", 0) == 0)
      only = argument.substr(9);
    else if (argument == "--no-compile-time")
      measureCompile = false;
    else
      workerCounts.push_back(static_cast<uint32_t>(std::atoi(argv[i])));
  }
  if (workerCounts.empty())
    workerCounts = {1, 2};

  const char* override = std::getenv("OCELOT_CPU_BENCH_PTX");
  std::ifstream in(override != nullptr ? std::string(override)
                                       : std::string(OCELOT_CPU_KERNELS_PTX));
  std::stringstream text;
  text << in.rdbuf();
  const std::string ptx = text.str();
#ifdef OCELOT_CPU_LLVM_COMPONENT
  setenv("OCELOT_CPU_LLVM_LIBRARY", OCELOT_CPU_LLVM_COMPONENT, 0);
#endif
  std::string error;
  auto device = CpuDevice::create(&error);
  if (!device) {
    std::fprintf(stderr, "no CPU device: %s\n", error.c_str());
    return 1;
  }
  Inputs inputs(*device);
  if (!inputs.ok()) {
    std::fprintf(stderr, "CPU device: allocation failed\n");
    return 1;
  }

  // The LLVM executor's compile time: cold (an empty code cache of this run's own), then from the
  // code cache (a new compiler and module over the same cache).
  std::shared_ptr<NativeCompiler> compiler;
  double coldCompile = -1, cachedCompile = -1;
  const std::string cache =
      (std::filesystem::temp_directory_path() / ("ocelot-cpu-bench-" + std::to_string(getpid())))
          .string();
  const bool withLlvm = std::find(executors.begin(), executors.end(), "llvm") != executors.end();
  if (withLlvm && !measureCompile) {
    compiler = NativeCompiler::load({}, NativeCompiler::cacheDirectory(), &error);
  } else if (withLlvm) {
    std::shared_ptr<NativeCompiler> first;
    coldCompile = compileSeconds(*device, ptx, inputs, cache, &first);
    if (coldCompile >= 0)
      cachedCompile = compileSeconds(*device, ptx, inputs, cache, &compiler);
    std::error_code ignored;
    std::filesystem::remove_all(cache, ignored);
    if (!compiler) {
      std::fprintf(stderr, "the LLVM executor is not available: only the interpreter runs\n");
      executors = {"interpreter"};
    }
  }

  DeviceModule module = nullptr;
  if (loadPtx(*device, ptx, &module, &error) != cudaSuccess) {
    std::fprintf(stderr, "PTX does not load: %s\n", error.c_str());
    return 1;
  }

  // Thread-instructions per launch (the same for every executor and worker count, and on the GPU:
  // the kernels' control flow does not depend on timing) and times per executor and worker count.
  struct Row {
    double instructionsPerLaunch = 0;
    std::vector<Timing> cpu; ///< [executor * workerCounts.size() + worker index]
    double gpuSeconds = -1;
  };
  std::vector<Row> rows(kWorkloads.size());
  std::printf("%-12s %-13s %8s %14s %10s %10s %16s\n", "executor", "kernel", "workers",
              "thread-instr", "wall s", "cpu s", "M instr/s/core");
  for (const std::string& executor : executors) {
    device->options().compiler = executor == "llvm" ? compiler : nullptr;
    for (uint32_t workers : workerCounts) {
      device->setWorkers(workers);
      for (size_t w = 0; w < kWorkloads.size(); ++w) {
        if (!only.empty() && only != kWorkloads[w].name) {
          rows[w].cpu.push_back(Timing{1, 1, 1});
          continue;
        }
        const uint64_t before = device->threadInstructions();
        const Timing timing = secondsPerLaunch(*device, module, kWorkloads[w], inputs, 1.0);
        if (timing.wall < 0) {
          std::fprintf(stderr, "%s (%s) failed: %s\n", kWorkloads[w].name, executor.c_str(),
                       device->faultMessage().c_str());
          return 1;
        }
        // The warm-up launch is counted too.
        const double executed = static_cast<double>(device->threadInstructions() - before);
        rows[w].instructionsPerLaunch = executed / (timing.launches + 1);
        rows[w].cpu.push_back(timing);
        std::printf("%-12s %-13s %8u %14.0f %10.3f %10.3f %16.1f\n", executor.c_str(),
                    kWorkloads[w].name, workers, executed, timing.wall * timing.launches,
                    timing.cpu * timing.launches, rows[w].instructionsPerLaunch / timing.cpu / 1e6);
      }
    }
  }

  // The same PTX and launches on the GPU, where there is one.
  std::string gpuName;
  PlatformResult platform;
  if (gpu)
    platform = driver::DriverPlatform::create();
  if (platform.platform != nullptr && platform.platform->deviceCount() > 0) {
    Device& gpuDevice = platform.platform->device(0);
    gpuName = gpuDevice.name();
    DeviceModule gpuModule = nullptr;
    std::string log;
    if (gpuDevice.activate() != cudaSuccess ||
        loadPtx(gpuDevice, ptx, &gpuModule, &log) != cudaSuccess) {
      std::fprintf(stderr, "GPU: the PTX does not load: %s\n", log.c_str());
    } else {
      Inputs gpuInputs(gpuDevice);
      for (size_t w = 0; gpuInputs.ok() && w < kWorkloads.size(); ++w)
        rows[w].gpuSeconds =
            secondsPerLaunch(gpuDevice, gpuModule, kWorkloads[w], gpuInputs, 0.5).wall;
    }
  }

  std::printf("\nSide by side: M thread-instructions per second per core (CPU time), and the "
              "LLVM executor's speedup over the interpreter\n");
  std::printf("%-13s %14s", "kernel", "instr/launch");
  for (uint32_t workers : workerCounts) {
    for (const std::string& executor : executors)
      std::printf(" %9.9s x%-2u", executor.c_str(), workers);
    if (executors.size() == 2)
      std::printf(" %9s x%-2u", "speedup", workers);
  }
  std::printf(" %10s %12s\n", "gpu ms", "gpu M/s");
  for (size_t w = 0; w < kWorkloads.size(); ++w) {
    const Row& row = rows[w];
    std::printf("%-13s %14.0f", kWorkloads[w].name, row.instructionsPerLaunch);
    for (size_t i = 0; i < workerCounts.size(); ++i) {
      std::vector<double> rates;
      for (size_t e = 0; e < executors.size(); ++e) {
        const Timing& timing = row.cpu[e * workerCounts.size() + i];
        rates.push_back(row.instructionsPerLaunch / timing.cpu / 1e6);
        std::printf(" %12.1f", rates.back());
      }
      if (rates.size() == 2)
        std::printf(" %11.1fx", rates[1] / rates[0]);
    }
    if (row.gpuSeconds > 0)
      std::printf(" %10.4f %12.0f\n", row.gpuSeconds * 1e3,
                  row.instructionsPerLaunch / row.gpuSeconds / 1e6);
    else
      std::printf(" %10s %12s\n", "-", "-");
  }
  std::printf("wall clock ms per launch:");
  for (size_t w = 0; w < kWorkloads.size(); ++w) {
    std::printf(" %s", kWorkloads[w].name);
    for (const Timing& timing : rows[w].cpu)
      std::printf(" %.2f", timing.wall * 1e3);
    std::printf(";");
  }
  std::printf("\n");
  if (withLlvm && measureCompile)
    std::printf("LLVM executor compile time for the %zu kernels: %.1f ms cold, %.1f ms from the "
                "code cache (%s)\n",
                kWorkloads.size(), coldCompile * 1e3, cachedCompile * 1e3,
                compiler ? compiler->description().c_str() : "not available");
  std::printf("GPU: %s\n", gpuName.empty() ? "none (no driver or no GPU)" : gpuName.c_str());
  return 0;
}
