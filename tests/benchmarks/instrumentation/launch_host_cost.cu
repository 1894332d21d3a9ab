// Where an instrumented launch's time goes (issue 14): the time the launching thread spends inside
// each <<<>>> of 20,000 back-to-back launches of a 1-CTA kernel, the loop's and the GPU's time, the
// same with two timing events around each launch, and one launch timed alone. Built with
// `nvcc -O2 -arch=sm_90 --cudart=shared` (PTX included, or Ocelot runs the original code) and run
// under NVIDIA's runtime and Ocelot's (LD_LIBRARY_PATH, OCELOT_INSTRUMENTORS=bbcount), by the
// launch-bench section of scripts/gpu-batch.sh. docs/instrumentation.md ("Launch-overhead
// benchmark") has its numbers. An optional argument sets the number of launches (a small one
// for valgrind --tool=callgrind over the fake driver: Ocelot's instructions per launch).
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
__global__ void tinyKernel(unsigned long long* c) {
  atomicAdd(c, 1ull);
}
int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 20000;
  if (n <= 0)
    return 2;
  unsigned long long* c;
  cudaMalloc(&c, 8);
  for (int i = 0; i < n / 10; ++i)
    tinyKernel<<<1, 32>>>(c);
  cudaDeviceSynchronize();
  using clk = std::chrono::steady_clock;
  double inLaunch = 0;
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  auto t0 = clk::now();
  for (int i = 0; i < n; ++i) {
    auto s = clk::now();
    tinyKernel<<<1, 32>>>(c);
    inLaunch += std::chrono::duration<double, std::micro>(clk::now() - s).count();
  }
  auto t1 = clk::now();
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  auto t2 = clk::now();
  float ms;
  cudaEventElapsedTime(&ms, a, b);
  printf("host-in-launch %.3f us/launch, loop %.3f us/launch, until-done %.3f us/launch, "
         "gpu-events %.3f us/launch\n",
         inLaunch / n, std::chrono::duration<double, std::micro>(t1 - t0).count() / n,
         std::chrono::duration<double, std::micro>(t2 - t0).count() / n, ms * 1000 / n);
  {
    cudaEvent_t ev[64];
    for (auto& e : ev)
      cudaEventCreate(&e);
    cudaDeviceSynchronize();
    auto s0 = clk::now();
    for (int i = 0; i < n; ++i) {
      cudaEventRecord(ev[(2 * i) % 64]);
      tinyKernel<<<1, 32>>>(c);
      cudaEventRecord(ev[(2 * i + 1) % 64]);
    }
    cudaDeviceSynchronize();
    printf("launch+2 timing events %.3f us/launch\n",
           std::chrono::duration<double, std::micro>(clk::now() - s0).count() / n);
  }
  // GPU-side: one launch timed alone, after idle
  float total = 0;
  for (int i = 0; i < 200; ++i) {
    cudaDeviceSynchronize();
    cudaEventRecord(a);
    tinyKernel<<<1, 32>>>(c);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&ms, a, b);
    total += ms;
  }
  printf("isolated launch gpu %.3f us\n", total * 1000 / 200);
  return 0;
}
