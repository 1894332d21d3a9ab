// What a CUDA event costs after each launch under NVIDIA's runtime alone (issue 14): a ~50 us
// kernel and a 1-CTA kernel launched back to back with no event, a timing event, or an event
// without timing after each. On an H200 a timing event cost 2.1 us of GPU time per 50 us launch
// and one without timing nothing, which is why Ocelot's completion events have no timing
// (docs/instrumentation.md). Build: `nvcc -O2 -arch=sm_90`.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
__global__ void workKernel(float* out, int iters) {
  float a = threadIdx.x * 1e-3f, b = 1.0001f, c = 1e-4f;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 8; ++k)
      a = fmaf(a, b, c);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}
__global__ void tinyKernel(unsigned long long* c) {
  atomicAdd(c, 1ull);
}
int main() {
  float* out;
  cudaMalloc(&out, 132 * 256 * 4);
  unsigned long long* c;
  cudaMalloc(&c, 8);
  cudaEvent_t ev[64], evn[64];
  for (int i = 0; i < 64; ++i) {
    cudaEventCreate(&ev[i]);
    cudaEventCreateWithFlags(&evn[i], cudaEventDisableTiming);
  }
  using clk = std::chrono::steady_clock;
  for (int mode = 0; mode < 3; ++mode)
    for (int rep = 0; rep < 2; ++rep) {
      const int n = 2000;
      cudaDeviceSynchronize();
      auto t0 = clk::now();
      for (int i = 0; i < n; ++i) {
        workKernel<<<132, 256>>>(out, 2597);
        if (mode == 1)
          cudaEventRecord(ev[i % 64]);
        if (mode == 2)
          cudaEventRecord(evn[i % 64]);
      }
      cudaDeviceSynchronize();
      double us = std::chrono::duration<double, std::micro>(clk::now() - t0).count() / n;
      const int m = 20000;
      auto t1 = clk::now();
      for (int i = 0; i < m; ++i) {
        tinyKernel<<<1, 32>>>(c);
        if (mode == 1)
          cudaEventRecord(ev[i % 64]);
        if (mode == 2)
          cudaEventRecord(evn[i % 64]);
      }
      cudaDeviceSynchronize();
      double tus = std::chrono::duration<double, std::micro>(clk::now() - t1).count() / m;
      printf("mode %s: work %.3f us/launch, tiny %.3f us/launch\n",
             mode == 0   ? "none"
             : mode == 1 ? "timing-event"
                         : "notiming-event",
             us, tus);
    }
  return 0;
}
