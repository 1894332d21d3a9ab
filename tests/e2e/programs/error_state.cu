// Error state of the runtime: cudaGetLastError / cudaPeekAtLastError after failed launches and
// failed API calls (all non-sticky errors): Peek does not clear, Get clears, a later successful
// call does not clear, and the device keeps working afterwards.
#include "e2e_common.h"

__global__ void fill(int* out, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = value + i;
}

static void show(const char* label) {
  cudaError_t peek = cudaPeekAtLastError();
  cudaError_t peek2 = cudaPeekAtLastError();
  cudaError_t get = cudaGetLastError();
  cudaError_t after = cudaGetLastError();
  std::printf("%-44s peek %s, peek again %s, get %s, get again %s\n", label, cudaGetErrorName(peek),
              cudaGetErrorName(peek2), cudaGetErrorName(get), cudaGetErrorName(after));
}

int main() {
  show("fresh process:");

  int* d = nullptr;
  CHECK(cudaMalloc(&d, 1024 * sizeof(int)));
  show("after cudaMalloc:");

  // Launch configuration errors are reported at launch time and are not sticky.
  fill<<<1, 2048>>>(d, 1);
  show("after <<<1, 2048>>>:");
  fill<<<dim3(1, 1, 1), dim3(1, 1, 128)>>>(d, 1);
  show("after blockDim.z = 128:");
  fill<<<0, 32>>>(d, 1);
  show("after <<<0, 32>>>:");
  fill<<<dim3(1, 70000, 1), 1>>>(d, 1);
  show("after gridDim.y = 70000:");
  fill<<<1, 32, size_t(1) << 20>>>(d, 1);
  show("after 1 MiB dynamic shared memory:");

  // A failing API call sets the last error as well; a later successful call does not clear it.
  void* huge = nullptr;
  cudaError_t e = cudaMalloc(&huge, size_t(1) << 50);
  std::printf("cudaMalloc(1 PiB): %s\n", cudaGetErrorName(e));
  CHECK(cudaMemset(d, 0, 1024 * sizeof(int)));
  show("after failed cudaMalloc, then cudaMemset:");

  e = cudaMemcpy(d, d, 16, static_cast<cudaMemcpyKind>(42));
  std::printf("cudaMemcpy(kind 42): %s\n", cudaGetErrorName(e));
  show("after bad memcpy kind:");

  // The device still works.
  fill<<<4, 256>>>(d, 7);
  show("after a good launch:");
  CHECK(cudaDeviceSynchronize());
  int h[1024];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < 1024; ++i)
    ok = ok && h[i] == 7 + i;
  e2e::expect(ok, "results of the good launch");
  CHECK(cudaFree(d));
  show("end:");
  return e2e::finish();
}
