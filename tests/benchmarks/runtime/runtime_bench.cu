// The runtime benchmark: what an application pays in the CUDA runtime itself, measured the same way
// with NVIDIA's libcudart.so.13 and with Ocelot's. The program is built once with
// `nvcc -cudart shared` and run twice with different LD_LIBRARY_PATH (scripts/gpu-batch.sh,
// section runtime-bench, which prints the ratio table).
//
// Output: one line per metric, tab-separated: name, value, unit, and which direction is better
// ("lower" or "higher"). Each value is the median of several repetitions.
//
// Build only PTX (`-gencode arch=compute_90,code=compute_90`) so that both runtimes JIT the module:
// the module-load metric is then the driver's first JIT plus what the runtime adds (for Ocelot:
// parse, passes, emit). Run with CUDA_CACHE_DISABLE=1 so the JIT cache does not hide that.
#include "../BenchTiming.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

void report(const char* name, double value, const char* unit, const char* better) {
  std::printf("%s\t%.4f\t%s\t%s\n", name, value, unit, better);
  std::fflush(stdout);
}

} // namespace

// Kernels have external linkage so that all of them stay in the module.
__global__ void emptyKernel() {}

// The module's other kernels give the JIT (and Ocelot's pipeline) something to chew on.
__global__ void saxpy(float a, const float* x, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void reduceSum(const int* in, int* out, int n) {
  __shared__ int partial[256];
  int sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    sum += in[i];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(out, partial[0]);
}

__global__ void stencil(const float* in, float* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1)
    return;
  float value = 0.f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      value += in[(y + dy) * width + x + dx] * (dx == 0 && dy == 0 ? 0.5f : 0.0625f);
  out[y * width + x] = value;
}

namespace {

constexpr int kRepetitions = 7;

// The first use of the module: the runtime loads it (the driver JIT-compiles the PTX).
void moduleLoad() {
  auto start = Clock::now();
  cudaFuncAttributes attributes{};
  CHECK(cudaFuncGetAttributes(&attributes, saxpy));
  report("module_load_first_use", secondsSince(start) * 1e3, "ms", "lower");
}

void launchLatency() {
  constexpr int kLaunches = 20000;
  std::vector<double> enqueue, endToEnd;
  for (int r = 0; r < kRepetitions; ++r) {
    auto start = Clock::now();
    for (int i = 0; i < kLaunches; ++i)
      emptyKernel<<<1, 1>>>();
    enqueue.push_back(secondsSince(start) / kLaunches * 1e6);
    CHECK(cudaDeviceSynchronize());
    start = Clock::now();
    for (int i = 0; i < kLaunches / 10; ++i) {
      emptyKernel<<<1, 1>>>();
      CHECK(cudaStreamSynchronize(nullptr));
    }
    endToEnd.push_back(secondsSince(start) / (kLaunches / 10) * 1e6);
  }
  CHECK(cudaGetLastError());
  report("launch_enqueue", median(enqueue), "us", "lower");
  report("launch_end_to_end", median(endToEnd), "us", "lower");

  std::vector<double> apiLaunch;
  for (int r = 0; r < kRepetitions; ++r) {
    auto start = Clock::now();
    for (int i = 0; i < kLaunches; ++i)
      CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(emptyKernel), dim3(1), dim3(1), nullptr,
                             0, nullptr));
    apiLaunch.push_back(secondsSince(start) / kLaunches * 1e6);
    CHECK(cudaDeviceSynchronize());
  }
  report("launch_cudaLaunchKernel_enqueue", median(apiLaunch), "us", "lower");
}

void memcpySmall(void* device, void* pinned) {
  constexpr int kCopies = 5000;
  constexpr size_t kBytes = 4096;
  std::vector<double> h2d, d2h;
  for (int r = 0; r < kRepetitions; ++r) {
    auto start = Clock::now();
    for (int i = 0; i < kCopies; ++i)
      CHECK(cudaMemcpy(device, pinned, kBytes, cudaMemcpyHostToDevice));
    h2d.push_back(secondsSince(start) / kCopies * 1e6);
    start = Clock::now();
    for (int i = 0; i < kCopies; ++i)
      CHECK(cudaMemcpy(pinned, device, kBytes, cudaMemcpyDeviceToHost));
    d2h.push_back(secondsSince(start) / kCopies * 1e6);
  }
  report("memcpy_4KiB_h2d", median(h2d), "us", "lower");
  report("memcpy_4KiB_d2h", median(d2h), "us", "lower");
}

void memcpyLarge(void* device, void* device2, void* pinned, size_t bytes) {
  std::vector<double> h2d, d2h, d2d;
  for (int r = 0; r < kRepetitions; ++r) {
    auto start = Clock::now();
    CHECK(cudaMemcpy(device, pinned, bytes, cudaMemcpyHostToDevice));
    h2d.push_back(bytes / secondsSince(start) / 1e9);
    start = Clock::now();
    CHECK(cudaMemcpy(pinned, device, bytes, cudaMemcpyDeviceToHost));
    d2h.push_back(bytes / secondsSince(start) / 1e9);
    // One device-to-device copy takes ~0.2 ms, close to the host clock's noise: time a batch.
    constexpr int kDeviceCopies = 20;
    start = Clock::now();
    for (int i = 0; i < kDeviceCopies; ++i)
      CHECK(cudaMemcpy(device2, device, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaDeviceSynchronize());
    d2d.push_back(kDeviceCopies * bytes / secondsSince(start) / 1e9);
  }
  report("memcpy_256MiB_h2d", median(h2d), "GB/s", "higher");
  report("memcpy_256MiB_d2h", median(d2h), "GB/s", "higher");
  report("memcpy_256MiB_d2d", median(d2d), "GB/s", "higher");
}

void streamsAndEvents() {
  constexpr int kIterations = 2000;
  std::vector<double> streams, events;
  cudaEvent_t event;
  CHECK(cudaEventCreate(&event));
  for (int r = 0; r < kRepetitions; ++r) {
    auto start = Clock::now();
    for (int i = 0; i < kIterations; ++i) {
      cudaStream_t stream;
      CHECK(cudaStreamCreate(&stream));
      CHECK(cudaStreamDestroy(stream));
    }
    streams.push_back(secondsSince(start) / kIterations * 1e6);
    start = Clock::now();
    for (int i = 0; i < kIterations; ++i) {
      CHECK(cudaEventRecord(event, nullptr));
      CHECK(cudaEventSynchronize(event));
    }
    events.push_back(secondsSince(start) / kIterations * 1e6);
  }
  CHECK(cudaEventDestroy(event));
  report("stream_create_destroy", median(streams), "us", "lower");
  report("event_record_synchronize", median(events), "us", "lower");
}

} // namespace

int main() {
  // Context creation is not the runtime's cost to compare; do it first.
  auto start = Clock::now();
  CHECK(cudaFree(nullptr));
  report("context_init", secondsSince(start) * 1e3, "ms", "lower");
  moduleLoad();

  constexpr size_t kLarge = size_t{256} << 20;
  void *device = nullptr, *device2 = nullptr, *pinned = nullptr;
  CHECK(cudaMalloc(&device, kLarge));
  CHECK(cudaMalloc(&device2, kLarge));
  CHECK(cudaMallocHost(&pinned, kLarge));
  launchLatency();
  memcpySmall(device, pinned);
  memcpyLarge(device, device2, pinned, kLarge);
  streamsAndEvents();
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFree(device2));
  CHECK(cudaFree(device));
  return 0;
}
