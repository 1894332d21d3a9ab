// Separate compilation (-rdc=true): a kernel in this unit calls a device function and reads a
// variable defined in rdc_helper.cu. nvcc device-links both units; the runtime receives one
// version-2 registration wrapper that lists both units' own fatbinaries.
#include <cuda_runtime.h>

#include <cstdio>

extern __device__ int helperOffset;
extern __device__ int triple(int value);
__global__ void helperKernel(int* data);

__global__ void mainKernel(int* data) {
  data[threadIdx.x] = triple(data[threadIdx.x]) + helperOffset;
}

static void report(const char* call, cudaError_t error) {
  std::printf("%-50s -> %s\n", call, cudaGetErrorName(error));
}
#define REPORT(call) report(#call, call)

int main() {
  int devices = -1;
  cudaError_t status = cudaGetDeviceCount(&devices);
  report("cudaGetDeviceCount(&devices)", status);
  int* data = nullptr;
  REPORT(cudaMalloc(&data, 32 * sizeof(int)));
  int host[32];
  for (int i = 0; i < 32; ++i)
    host[i] = i;
  int offset = 100;
  REPORT(cudaMemcpy(data, host, sizeof host, cudaMemcpyHostToDevice));
  REPORT(cudaMemcpyToSymbol(helperOffset, &offset, sizeof offset));
  mainKernel<<<1, 32>>>(data);
  REPORT(cudaGetLastError());
  helperKernel<<<1, 32>>>(data);
  REPORT(cudaGetLastError());
  REPORT(cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost));
  if (status == cudaSuccess && devices > 0) {
    long sum = 0;
    for (int value : host)
      sum += value;
    std::printf("sum %ld\n", sum);
  }
  REPORT(cudaFree(data));
  return 0;
}
