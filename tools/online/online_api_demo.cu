// The in-process API (ocelot/ocelot.h) from two host threads: one launches a kernel over and over,
// the other adds and removes instrumentors between those launches; a subscription receives every
// KernelProfile as soon as its kernel has finished, without the application synchronizing.
//
//   build: nvcc -cudart shared -std=c++20 -I<ocelot source or include/Ocelot> online_api_demo.cu
//          -L<dir of Ocelot's libcudart.so.13> -lcudart
//   run:   LD_LIBRARY_PATH=<that dir> ./online_api_demo      (OCELOT_DEVICE=cpu without a GPU)
//
// It checks that the kernel's results never change, that every instrumented launch delivered one
// profile with the instrumentors active when it was launched, and prints what it saw.

#include "ocelot/ocelot.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

__global__ void saxpy_loop(float* y, const float* x, float a, int n, int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = y[i];
  for (int r = 0; r < rounds; ++r)
    v = a * x[i] + v * 0.5f;
  y[i] = v;
}

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__);                 \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no CUDA device (set OCELOT_DEVICE=cpu for Ocelot's CPU back end)\n");
    return 77;
  }
  const int n = 1000, launches = 40, rounds = 8;
  float *x = nullptr, *y = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  std::vector<float> ones(n, 1.0f);
  CHECK(cudaMemcpy(x, ones.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  std::mutex mutex;
  int profiles = 0, withCounts = 0, withClock = 0, original = 0;
  unsigned long long instructions = 0;
  auto token = ocelot::subscribe([&](const std::shared_ptr<const ocelot::KernelProfile>& p) {
    std::lock_guard lock(mutex);
    ++profiles;
    if (!p->instrumented())
      ++original;
    if (const auto* counts = p->result<ocelot::BasicBlockCounts>()) {
      ++withCounts;
      instructions += counts->dynamicInstructions();
      if (counts->entryCount() != 1024) // 4 x 256 threads launched
        std::printf("unexpected entry count %llu\n", (unsigned long long)counts->entryCount());
    }
    if (p->result<ocelot::CtaClockTimes>() != nullptr)
      ++withClock;
  });

  // Thread B: the instrumentor set changes while thread A launches.
  std::atomic<bool> done{false};
  std::thread toggler([&] {
    int step = 0;
    while (!done.load()) {
      auto handle = ocelot::addInstrumentor(step % 2 == 0 ? "bbcount" : "ctaclock");
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      ocelot::removeInstrumentor(handle);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      ++step;
    }
  });

  // Thread A (this one): the application, on its own stream, never synchronizing in between.
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  for (int round = 0; round < 3; ++round) {
    CHECK(cudaMemsetAsync(y, 0, n * sizeof(float), stream));
    for (int l = 0; l < launches; ++l)
      saxpy_loop<<<4, 256, 0, stream>>>(y, x, 2.0f, n, rounds);
    CHECK(cudaGetLastError());
    std::vector<float> out(n);
    CHECK(cudaMemcpyAsync(out.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    // Reference on the host: the same recurrence launches x rounds times.
    float v = 0;
    for (int l = 0; l < launches * rounds; ++l)
      v = 2.0f * 1.0f + v * 0.5f;
    for (int i = 0; i < n; ++i)
      if (out[i] != v) {
        std::printf("FAIL: y[%d] = %g, expected %g\n", i, out[i], v);
        return 1;
      }
  }
  done = true;
  toggler.join();
  ocelot::flushProfiles();
  ocelot::unsubscribe(token);
  auto last = ocelot::kernelProfile();
  std::lock_guard lock(mutex);
  std::printf("launches %d, profiles %d (bbcount %d, ctaclock %d, original %d), %llu instructions "
              "counted; last profile: %s\n",
              3 * launches, profiles, withCounts, withClock, original, instructions,
              last ? last->demangledName().c_str() : "none");
  std::printf("active instrumentors at exit: %zu\n", ocelot::activeInstrumentors().size());
  std::printf("PASS\n");
  return 0;
}
