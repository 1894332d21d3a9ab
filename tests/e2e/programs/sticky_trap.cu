// A sticky (context-corrupting) error from a device trap, in its own process: __trap() in a kernel
// makes the launch fail; the error is reported by the next synchronizing call and then by every
// later call (it is sticky), cudaGetLastError does not clear it, and cudaDeviceReset (whose
// result is printed) tears the broken context down. Exit status 0 means the error was reported and
// stayed sticky.
#include "e2e_common.h"

__global__ void fine(int* p) {
  p[threadIdx.x] = static_cast<int>(threadIdx.x) * 2;
}

__global__ void trapping(int* p, int bad_thread) {
  p[threadIdx.x] = 1;
  if (static_cast<int>(threadIdx.x) == bad_thread)
    __trap();
}

int main() {
  int* d = nullptr;
  CHECK(cudaMalloc(&d, 64 * sizeof(int)));
  fine<<<1, 64>>>(d);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());
  std::printf("before the trap: ok\n");
  std::fflush(stdout);

  trapping<<<1, 64>>>(d, 5);
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("cudaDeviceSynchronize after trap: %s\n", cudaGetErrorName(sync));
  e2e::expect(sync != cudaSuccess, "the trap is reported");

  cudaError_t get1 = cudaGetLastError();
  cudaError_t get2 = cudaGetLastError();
  cudaError_t peek = cudaPeekAtLastError();
  std::printf("cudaGetLastError: %s, again: %s, cudaPeekAtLastError: %s\n", cudaGetErrorName(get1),
              cudaGetErrorName(get2), cudaGetErrorName(peek));

  void* p = nullptr;
  cudaError_t m = cudaMalloc(&p, 1024);
  int h[64];
  cudaError_t c = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  fine<<<1, 64>>>(d);
  cudaError_t l = cudaGetLastError();
  cudaError_t s2 = cudaDeviceSynchronize();
  cudaStream_t st = nullptr;
  cudaError_t sc = cudaStreamCreate(&st);
  std::printf("after the trap: cudaMalloc %s, cudaMemcpy %s, launch %s, cudaDeviceSynchronize %s, "
              "cudaStreamCreate %s\n",
              cudaGetErrorName(m), cudaGetErrorName(c), cudaGetErrorName(l), cudaGetErrorName(s2),
              cudaGetErrorName(sc));
  e2e::expect(m == sync && c == sync && s2 == sync, "the error is sticky");

  // Calls that do not need the context still work.
  int count = 0;
  cudaError_t dc = cudaGetDeviceCount(&count);
  int version = 0;
  cudaError_t rv = cudaRuntimeGetVersion(&version);
  std::printf("cudaGetDeviceCount: %s, cudaRuntimeGetVersion: %s\n", cudaGetErrorName(dc),
              cudaGetErrorName(rv));

  cudaError_t reset = cudaDeviceReset();
  std::printf("cudaDeviceReset: %s\n", cudaGetErrorName(reset));
  return e2e::finish();
}
