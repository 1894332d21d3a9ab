// ocelot_cpu_bench: thread-instructions per second per worker of the CPU back end on regular
// kernels (saxpy, tiled matmul, reduction; nvcc's PTX of tests/cpu/ptx/kernels.cu, built into the
// build tree), with 1 and 2 workers (or the counts given as arguments), and, where a GPU and its
// driver are present, the same PTX with the same launches on the GPU, side by side. A
// thread-instruction is one PTX instruction executed by one thread (guard applied), the unit the
// issue's 100 M/s/core bar is stated in; the CPU device counts them, and the GPU's rate divides the
// same count by the GPU's time.

#include "runtime/cpu/CpuDevice.h"
#include "runtime/driver/DriverPlatform.h"

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
    return {&values_, &sum_, &n_};
  }
  bool ok() const { return ok_; }

private:
  template <class T> void* upload(const std::vector<T>& values) {
    void* pointer = nullptr;
    const size_t bytes = values.size() * sizeof(T);
    if (device_.allocate(&pointer, bytes) != cudaSuccess ||
        device_.copy(pointer, values.data(), bytes, nullptr, false) != cudaSuccess) {
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
  void *values_ = nullptr, *sum_ = nullptr;
};

const std::vector<Workload> kWorkloads = {
    {"saxpy", "saxpy", dim3(Inputs::kElements / 256), dim3(256), 0},
    {"matmul_tiled", "matmul", dim3(Inputs::kMatrix / 16, Inputs::kMatrix / 16), dim3(16, 16), 0},
    {"reduction", "reduce", dim3(Inputs::kElements / 512), dim3(256), 256 * sizeof(int)},
};

/// Seconds per launch of `workload` on `device` (one warm-up, then launches for at least
/// `minimum` seconds), or a negative number when a launch fails.
double secondsPerLaunch(Device& device, DeviceModule module, const Workload& workload,
                        Inputs& inputs, double minimum, int* launches) {
  DeviceFunction function = nullptr;
  if (device.function(module, workload.kernel, &function) != cudaSuccess)
    return -1;
  std::vector<void*> args = inputs.arguments(workload);
  LaunchParams params;
  params.function = function;
  params.grid = workload.grid;
  params.block = workload.block;
  params.sharedMem = workload.shared;
  params.args = args.data();
  if (device.launch(params) != cudaSuccess || device.synchronize() != cudaSuccess)
    return -1; // warm-up: decoding, JIT, buffers
  const auto start = Clock::now();
  int count = 0;
  double seconds = 0;
  do {
    // Batches of launches, so that the GPU's launch latency does not dominate its short kernels.
    for (int i = 0; i < 10; ++i, ++count)
      if (device.launch(params) != cudaSuccess)
        return -1;
    if (device.synchronize() != cudaSuccess)
      return -1;
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
  } while (seconds < minimum);
  *launches = count;
  return seconds / count;
}

cudaError_t loadPtx(Device& device, const std::string& ptx, DeviceModule* module,
                    std::string* log) {
  ModuleImage image;
  image.form = ModuleImage::Form::Ptx;
  image.ptx = {ptx};
  image.label = "benchmark kernels";
  return device.loadModule(image, module, log);
}

} // namespace

int main(int argc, char** argv) {
  std::vector<uint32_t> workerCounts;
  bool gpu = true;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--no-gpu")
      gpu = false;
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
  DeviceModule module = nullptr;
  if (loadPtx(*device, ptx, &module, &error) != cudaSuccess) {
    std::fprintf(stderr, "PTX does not load: %s\n", error.c_str());
    return 1;
  }
  Inputs inputs(*device);
  if (!inputs.ok()) {
    std::fprintf(stderr, "CPU device: allocation failed\n");
    return 1;
  }

  // Thread-instructions per launch (the same for every worker count and on the GPU: the kernels'
  // control flow does not depend on timing) and seconds per launch per worker count.
  struct Row {
    double instructionsPerLaunch = 0;
    std::vector<double> cpuSeconds;
    double gpuSeconds = -1;
  };
  std::vector<Row> rows(kWorkloads.size());
  std::printf("%-14s %8s %16s %12s %18s\n", "kernel", "workers", "thread-instr", "seconds",
              "M thread-instr/s/worker");
  for (uint32_t workers : workerCounts) {
    device->setWorkers(workers);
    for (size_t w = 0; w < kWorkloads.size(); ++w) {
      const uint64_t before = device->threadInstructions();
      int launches = 0;
      const double perLaunch =
          secondsPerLaunch(*device, module, kWorkloads[w], inputs, 1.0, &launches);
      if (perLaunch < 0) {
        std::fprintf(stderr, "%s failed: %s\n", kWorkloads[w].name, device->faultMessage().c_str());
        return 1;
      }
      // The warm-up launch is counted too.
      const double executed = static_cast<double>(device->threadInstructions() - before);
      rows[w].instructionsPerLaunch = executed / (launches + 1);
      rows[w].cpuSeconds.push_back(perLaunch);
      std::printf("%-14s %8u %16.0f %12.3f %18.1f\n", kWorkloads[w].name, workers, executed,
                  perLaunch * launches, rows[w].instructionsPerLaunch / perLaunch / workers / 1e6);
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
      for (size_t w = 0; gpuInputs.ok() && w < kWorkloads.size(); ++w) {
        int launches = 0;
        rows[w].gpuSeconds =
            secondsPerLaunch(gpuDevice, gpuModule, kWorkloads[w], gpuInputs, 0.5, &launches);
      }
    }
  }

  std::printf("\nSide by side (M thread-instructions per second; per launch times in ms)\n");
  std::printf("%-14s %14s", "kernel", "instr/launch");
  for (uint32_t workers : workerCounts)
    std::printf(" %9s%-3u %10s", "cpu ms x", workers, "M/s/core");
  std::printf(" %10s %12s %14s\n", "speedup", "gpu ms", "gpu M/s");
  for (size_t w = 0; w < kWorkloads.size(); ++w) {
    const Row& row = rows[w];
    std::printf("%-14s %14.0f", kWorkloads[w].name, row.instructionsPerLaunch);
    for (size_t i = 0; i < workerCounts.size(); ++i)
      std::printf(" %12.3f %10.1f", row.cpuSeconds[i] * 1e3,
                  row.instructionsPerLaunch / row.cpuSeconds[i] / workerCounts[i] / 1e6);
    const double speedup = row.cpuSeconds.size() >= 2 ? row.cpuSeconds[0] / row.cpuSeconds[1] : 1;
    std::printf(" %10.2f", speedup);
    if (row.gpuSeconds > 0)
      std::printf(" %12.4f %14.0f\n", row.gpuSeconds * 1e3,
                  row.instructionsPerLaunch / row.gpuSeconds / 1e6);
    else
      std::printf(" %12s %14s\n", "-", "-");
  }
  std::printf("speedup: the first worker count's time over the second's. GPU: %s\n",
              gpuName.empty() ? "none (no driver or no GPU)" : gpuName.c_str());
  return 0;
}
