// The smallest CUDA program with a kernel: `ocelot run` is checked on it built with NVIDIA's
// static runtime (nvcc's default) and with `-cudart shared` (ToolTest.StaticRuntimeIsReported).
#include <cstdio>

__global__ void increment(int* value) { *value += 1; }

int main() {
  int* value = nullptr;
  if (cudaMalloc(&value, sizeof(int)) != cudaSuccess) {
    std::printf("no device\n");
    return 0;
  }
  increment<<<1, 1>>>(value);
  cudaFree(value);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
