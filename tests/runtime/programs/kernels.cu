// Kernels of several kinds and variables of every registered kind, driven through the Runtime API.
// Built with every nvcc compress mode and several architectures (tests/runtime/CMakeLists.txt),
// then run with NVIDIA's libcudart.so.13 and with Ocelot's: the standard output must be the same.
// Without a GPU both runtimes report the same errors; with one they compute the same results.
#include <cuda_runtime.h>

#include <cstdio>

__device__ int deviceTable[4];
__constant__ float constantScale[2];
__managed__ int managedCounter;

__global__ void addOne(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += 1;
}

template <typename T> __global__ void scale(T* data, T factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = data[i] * factor;
}

__global__ void useVariables(int* out) {
  int i = threadIdx.x;
  out[i] = deviceTable[i % 4] + static_cast<int>(constantScale[0]) + managedCounter;
}

static void report(const char* call, cudaError_t error) {
  std::printf("%-60s -> %s\n", call, cudaGetErrorName(error));
}
#define REPORT(call) report(#call, call)

int main() {
  int devices = -1;
  cudaError_t status = cudaGetDeviceCount(&devices);
  report("cudaGetDeviceCount(&devices)", status);
  bool gpu = status == cudaSuccess && devices > 0;

  constexpr int n = 64;
  int* data = nullptr;
  float* values = nullptr;
  REPORT(cudaMalloc(&data, n * sizeof(int)));
  REPORT(cudaMalloc(&values, n * sizeof(float)));
  REPORT(cudaMemset(data, 0, n * sizeof(int)));

  addOne<<<2, n / 2>>>(data, n);
  REPORT(cudaGetLastError());

  float host[n];
  for (int i = 0; i < n; ++i)
    host[i] = static_cast<float>(i);
  REPORT(cudaMemcpy(values, host, sizeof host, cudaMemcpyHostToDevice));
  scale<float><<<1, n>>>(values, 0.5f, n);
  REPORT(cudaGetLastError());

  int table[4] = {10, 20, 30, 40};
  float factors[2] = {2.0f, 3.0f};
  REPORT(cudaMemcpyToSymbol(deviceTable, table, sizeof table));
  REPORT(cudaMemcpyToSymbol(constantScale, factors, sizeof factors));
  size_t tableSize = 0;
  REPORT(cudaGetSymbolSize(&tableSize, deviceTable));
  if (gpu)
    managedCounter = 5; // host access to a managed variable needs a device
  useVariables<<<1, 8>>>(data);
  REPORT(cudaDeviceSynchronize());

  int results[n] = {};
  REPORT(cudaMemcpy(results, data, sizeof results, cudaMemcpyDeviceToHost));
  REPORT(cudaMemcpy(host, values, sizeof host, cudaMemcpyDeviceToHost));
  if (gpu) {
    long sum = 0;
    for (int i = 0; i < n; ++i)
      sum += results[i];
    double scaled = 0;
    for (int i = 0; i < n; ++i)
      scaled += host[i];
    std::printf("deviceTable size %zu, sum %ld, scaled sum %.1f\n", tableSize, sum, scaled);
  }
  REPORT(cudaFree(data));
  REPORT(cudaFree(values));
  REPORT(cudaGetLastError());
  return 0;
}
