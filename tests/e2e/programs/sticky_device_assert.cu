// A failed device-side assert() in its own process: the assertion message is printed by the device
// (through the printf buffer), the launch fails with cudaErrorAssert, and the error is sticky.
// Exit status 0 means cudaErrorAssert was reported and stayed sticky.
#undef NDEBUG
#include "e2e_common.h"

#include <cassert>

__global__ void checked_divide(const int* num, const int* den, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    assert(den[i] != 0);
    out[i] = num[i] / den[i];
  }
}

int main() {
  const int n = 64;
  int hn[n], hd[n];
  for (int i = 0; i < n; ++i) {
    hn[i] = 1000 + i;
    hd[i] = (i % 8) + 1;
  }
  int *num = nullptr, *den = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&num, sizeof hn));
  CHECK(cudaMalloc(&den, sizeof hd));
  CHECK(cudaMalloc(&out, sizeof hn));
  CHECK(cudaMemcpy(num, hn, sizeof hn, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(den, hd, sizeof hd, cudaMemcpyHostToDevice));
  checked_divide<<<1, n>>>(num, den, out, n);
  CHECK_LAUNCH();
  int ho[n];
  CHECK(cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && ho[i] == hn[i] / hd[i];
  e2e::expect(ok, "division with valid denominators");
  std::fflush(stdout);

  // Exactly one zero denominator: one failing thread, so exactly one assertion message.
  hd[37] = 0;
  CHECK(cudaMemcpy(den, hd, sizeof hd, cudaMemcpyHostToDevice));
  checked_divide<<<1, n>>>(num, den, out, n);
  cudaError_t sync = cudaDeviceSynchronize();
  std::fflush(stdout);
  std::printf("cudaDeviceSynchronize after the failed assert: %s\n", cudaGetErrorName(sync));
  e2e::expect(sync == cudaErrorAssert, "cudaErrorAssert reported");
  cudaError_t again = cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost);
  std::printf("cudaMemcpy afterwards: %s\n", cudaGetErrorName(again));
  e2e::expect(again == sync, "the error is sticky");
  std::printf("cudaDeviceReset: %s\n", cudaGetErrorName(cudaDeviceReset()));
  return e2e::finish();
}
