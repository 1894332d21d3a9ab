// The error codes of Runtime API calls, valid and invalid, printed one per line. Run with NVIDIA's
// libcudart.so.13 and with Ocelot's, the output must be identical: on a machine without a GPU this
// pins down what NVIDIA's runtime answers there (cudaErrorInsufficientDriver from everything that
// needs a device, sticky, even from cudaGetLastError), which Ocelot must answer too.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void kernel(int* p) {
  *p = 1;
}
__device__ int symbol;

static void report(const char* call, cudaError_t error) {
  std::printf("%-70s -> %d %s\n", call, static_cast<int>(error), cudaGetErrorName(error));
}
#define REPORT(call) report(#call, call)

int main() {
  // The first calls, before anything initialized the runtime.
  REPORT(cudaPeekAtLastError());
  REPORT(cudaGetLastError());
  int version = -1;
  REPORT(cudaRuntimeGetVersion(&version));
  std::printf("runtime version %d\n", version);
  REPORT(cudaRuntimeGetVersion(nullptr));
  REPORT(cudaDriverGetVersion(nullptr));
  REPORT(cudaDriverGetVersion(&version));
  std::printf("driver version %d\n", version);

  int count = -1;
  cudaError_t status = cudaGetDeviceCount(&count);
  report("cudaGetDeviceCount(&count)", status);
  std::printf("device count %d\n", status == cudaSuccess ? count : -1);
  REPORT(cudaPeekAtLastError());
  REPORT(cudaGetLastError());
  REPORT(cudaGetLastError());
  REPORT(cudaGetDeviceCount(nullptr));
  int device = -1;
  REPORT(cudaGetDevice(&device));
  REPORT(cudaGetDevice(nullptr));
  REPORT(cudaSetDevice(0));
  REPORT(cudaSetDevice(-1));
  REPORT(cudaSetDevice(4096));
  REPORT(cudaInitDevice(0, 0, 0));
  int value = 0;
  REPORT(cudaDeviceGetAttribute(nullptr, cudaDevAttrComputeCapabilityMajor, 0));
  REPORT(cudaDeviceGetAttribute(&value, cudaDevAttrComputeCapabilityMajor, 4096));

  void* pointer = nullptr;
  REPORT(cudaMalloc(&pointer, 256));
  REPORT(cudaMalloc(nullptr, 256));
  void* empty = &value;
  REPORT(cudaMalloc(&empty, 0));
  REPORT(cudaFree(nullptr));
  REPORT(cudaMemset(pointer, 0, 256));
  int host[4] = {1, 2, 3, 4};
  int copy[4] = {};
  REPORT(cudaMemcpy(copy, host, sizeof host, cudaMemcpyHostToHost));
  REPORT(cudaMemcpy(copy, host, 0, cudaMemcpyHostToHost));
  REPORT(cudaMemcpy(copy, host, sizeof host, static_cast<cudaMemcpyKind>(42)));
  REPORT(cudaMemcpy(pointer, host, sizeof host, cudaMemcpyHostToDevice));
  REPORT(cudaMemcpyAsync(copy, pointer, sizeof copy, cudaMemcpyDeviceToHost, 0));
  REPORT(cudaMemsetAsync(pointer, 1, 16, 0));

  REPORT(cudaMemcpyToSymbol(symbol, host, sizeof(int)));
  REPORT(cudaMemcpyToSymbol(symbol, host, 2 * sizeof(int)));
  REPORT(cudaMemcpyFromSymbol(copy, symbol, sizeof(int)));
  REPORT(cudaMemcpyToSymbol(host, host, sizeof(int)));
  void* address = nullptr;
  size_t size = 0;
  REPORT(cudaGetSymbolAddress(&address, symbol));
  REPORT(cudaGetSymbolSize(&size, symbol));
  std::printf("symbol size %zu\n", status == cudaSuccess ? size : size_t{0});

  kernel<<<1, 1>>>(static_cast<int*>(pointer));
  REPORT(cudaGetLastError());
  kernel<<<0, 1>>>(static_cast<int*>(pointer));
  REPORT(cudaGetLastError());
  void* args[] = {&pointer};
  REPORT(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(1), dim3(1), args, 0, 0));
  REPORT(cudaLaunchKernel(reinterpret_cast<const void*>(&main), dim3(1), dim3(1), args, 0, 0));

  cudaStream_t stream = nullptr;
  REPORT(cudaStreamCreate(&stream));
  REPORT(cudaStreamCreate(nullptr));
  REPORT(cudaStreamSynchronize(0));
  REPORT(cudaStreamQuery(0));
  cudaEvent_t start = nullptr, stop = nullptr;
  REPORT(cudaEventCreate(&start));
  REPORT(cudaEventCreateWithFlags(&stop, cudaEventBlockingSync));
  REPORT(cudaEventRecord(start, 0));
  REPORT(cudaEventRecord(stop, 0));
  REPORT(cudaEventSynchronize(stop));
  REPORT(cudaEventQuery(stop));
  float milliseconds = 0;
  REPORT(cudaEventElapsedTime(nullptr, start, stop));
  if (status == cudaSuccess) {
    REPORT(cudaEventElapsedTime(&milliseconds, start, stop));
    REPORT(cudaEventDestroy(start));
    REPORT(cudaEventDestroy(stop));
    REPORT(cudaStreamDestroy(stream));
  }
  REPORT(cudaDeviceSynchronize());
  REPORT(cudaFree(pointer));
  REPORT(cudaGetLastError());
  REPORT(cudaDeviceReset());
  REPORT(cudaGetLastError());
  std::printf("%s | %s\n", cudaGetErrorName(cudaErrorNoDevice),
              cudaGetErrorString(cudaErrorNoDevice));
  std::printf("%s | %s\n", cudaGetErrorName(static_cast<cudaError_t>(12345)),
              cudaGetErrorString(static_cast<cudaError_t>(12345)));
  return 0;
}
