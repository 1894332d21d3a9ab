// Peak memory of the CPU device (issue 18): `stacks` runs 16,384 threads (16 CTAs of 1024) that
// recurse 200 deep with the largest stack limit the GPU allows; `printf` floods 16.4M lines through
// a 64 KiB printf FIFO (the GPU's smallest, 512 KiB, holds 2,048). Built with nvcc -cudart shared
// and run on Ocelot's CPU device by tests/benchmarks/memory_bench.sh.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__device__ int depth(int n) {
  volatile int frame[8];
  frame[n % 8] = n;
  return n == 0 ? 0 : 1 + depth(n - 1) + frame[n % 8] - n;
}

__global__ void recurse(int* out, int n) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = depth(n);
}

__global__ void flood(int lines) {
  for (int i = 0; i < lines; ++i)
    printf("line %d of thread %d\n", i, threadIdx.x);
}

int main(int argc, char** argv) {
  const bool stacks = argc > 1 && std::strcmp(argv[1], "stacks") == 0;
  if (stacks) {
    if (cudaDeviceSetLimit(cudaLimitStackSize, 523712) != cudaSuccess)
      return 1;
    int* out = nullptr;
    cudaMalloc(&out, 16 * 1024 * sizeof(int));
    recurse<<<16, 1024>>>(out, 200);
    int last = 0;
    cudaMemcpy(&last, out + 16 * 1024 - 1, sizeof last, cudaMemcpyDeviceToHost);
    std::fprintf(stderr, "depth %d: %s\n", last, cudaGetErrorName(cudaGetLastError()));
    return last == 200 ? 0 : 1;
  }
  cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 64 << 10);
  flood<<<64, 256>>>(1000);
  std::fprintf(stderr, "flood: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
