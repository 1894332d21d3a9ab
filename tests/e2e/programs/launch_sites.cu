// One kernel launched from two different host functions (issue 16's launch-site call stacks): under
// `ocelot run` each launch's profile carries the host call path of its launch, so the kernel shows
// two call paths, one through prepare_weights() and one through apply_weights(). The functions
// are kept out of line and do work after the launch, so that neither inlining nor a tail call
// removes their frames. tests/tools/check_report.py (callpaths) checks the profile on the CPU
// device; under NVIDIA's runtime the program just checks its results.
#include "e2e_common.h"

#include <vector>

__global__ void add_one(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += 1;
}

constexpr int kElements = 256;

__attribute__((noinline)) void prepare_weights(int* data) {
  add_one<<<kElements / 64, 64>>>(data, kElements);
  CHECK_LAUNCH();
}

__attribute__((noinline)) void apply_weights(int* data, int rounds) {
  for (int round = 0; round < rounds; ++round) {
    add_one<<<kElements / 128, 128>>>(data, kElements);
    CHECK_LAUNCH();
  }
}

int main() {
  int* data = nullptr;
  CHECK(cudaMalloc(&data, kElements * sizeof(int)));
  CHECK(cudaMemset(data, 0, kElements * sizeof(int)));
  prepare_weights(data);
  apply_weights(data, 2);
  std::vector<int> host(kElements);
  CHECK(cudaMemcpy(host.data(), data, kElements * sizeof(int), cudaMemcpyDeviceToHost));
  bool all_three = true;
  for (int value : host)
    all_three = all_three && value == 3;
  e2e::expect(all_three, "three launches from two functions");
  CHECK(cudaFree(data));
  return e2e::finish();
}
