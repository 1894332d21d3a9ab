// Analytic kernel 4 of 5: nested loops whose trip counts depend on the thread: the outer loop runs
// k = (threadIdx.x % 4) + 1 times, the inner loop i + 1 times in outer iteration i (a triangle), so
// a thread runs the inner body k (k + 1) / 2 times.
//
//   launch configuration: grid (2,1,1), block (128,1,1) = 256 threads = 8 warps; 64 threads of each
//   k in 1..4.
//
//   region                          | threads (executions)                  | warps
//   ENTRY                           | 256                                   | 8
//   OUTER body (per outer iteration)| 64 * (1 + 2 + 3 + 4)      = 640       | 8 * 4 = 32 (every
//   warp
//                                   |                                       |   runs 4 outer
//                                   iterations)
//   INNER body (per inner iteration)| 64 * (1 + 3 + 6 + 10)     = 1280      | 8 * 10 = 80
//   EXIT                            | 256                                   | 8
//
// Threads record their inner and outer counts; the host checks the totals.
#include "e2e_common.h"

#include <vector>

__global__ void nested(unsigned* out, int* outer_runs, int* inner_runs, int modulus) {
  int t = blockIdx.x * blockDim.x + threadIdx.x; // ENTRY
  int k = static_cast<int>(threadIdx.x) % modulus + 1;
  unsigned acc = static_cast<unsigned>(t);
  int outer = 0, inner = 0;
#pragma unroll 1
  for (int i = 0; i < k; ++i) { // OUTER
    acc ^= static_cast<unsigned>(i) << 8;
    ++outer;
#pragma unroll 1
    for (int j = 0; j <= i; ++j) { // INNER
      acc = acc * 31u + static_cast<unsigned>(j);
      ++inner;
    }
  }
  out[t] = acc; // EXIT
  outer_runs[t] = outer;
  inner_runs[t] = inner;
}

int main() {
  const dim3 grid(2), block(128);
  const int threads = 256;
  unsigned* out = nullptr;
  int *outer = nullptr, *inner = nullptr;
  CHECK(cudaMalloc(&out, threads * sizeof(unsigned)));
  CHECK(cudaMalloc(&outer, threads * sizeof(int)));
  CHECK(cudaMalloc(&inner, threads * sizeof(int)));
  nested<<<grid, block>>>(out, outer, inner, 4);
  CHECK_LAUNCH();
  std::vector<unsigned> o(threads);
  std::vector<int> ro(threads), ri(threads);
  CHECK(cudaMemcpy(o.data(), out, threads * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ro.data(), outer, threads * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ri.data(), inner, threads * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  long long so = 0, si = 0;
  for (int t = 0; t < threads; ++t) {
    int k = (t % 128) % 4 + 1;
    unsigned acc = static_cast<unsigned>(t);
    for (int i = 0; i < k; ++i) {
      acc ^= static_cast<unsigned>(i) << 8;
      for (int j = 0; j <= i; ++j)
        acc = acc * 31u + static_cast<unsigned>(j);
    }
    ok = ok && o[t] == acc;
    so += ro[t];
    si += ri[t];
  }
  std::printf("analytic_nested: grid (%u,%u,%u) block (%u,%u,%u)\n", grid.x, grid.y, grid.z,
              block.x, block.y, block.z);
  std::printf("expected ENTRY=256 OUTER=640 INNER=1280 EXIT=256 (warps 8/32/80/8)\n");
  std::printf("measured OUTER=%lld INNER=%lld\n", so, si);
  e2e::expect(ok && so == 640 && si == 1280, "nested loop counts and values");
  CHECK(cudaFree(out));
  CHECK(cudaFree(outer));
  CHECK(cudaFree(inner));
  return e2e::finish();
}
