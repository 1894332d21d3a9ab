// Analytic kernel 2 of 5: divergent branches with known thread splits. Branch bodies call
// __noinline__ functions so that nvcc cannot flatten them into predicated code: every region below
// is a real basic block (and each callee's body runs once per call).
//
//   launch configuration: grid (4,1,1), block (96,1,1) = 384 threads = 12 warps (3 per block)
//
//   region                                   | threads | warps | why
//   ENTRY                                    |   384   |  12   | every thread
//   THEN  (threadIdx.x % 3 == 0) -> path_a() |   128   |  12   | 32 of 96 per block; every warp has
//   some ELSE  (threadIdx.x % 3 != 0) -> path_b() |   256   |  12   | 64 of 96 per block JOIN
//   (after the if/else)                |   384   |  12   | EVEN  (threadIdx.x % 2 == 0) -> path_c()
//   |   192   |  12   | 48 of 96 per block WARP0 (threadIdx.x < 32)     -> path_d() |   128   |   4
//   | whole first warp of each block only EXIT                                     |   384   |  12
//   |
//
// Each thread records which regions it entered; the host checks the totals against the table.
#include "e2e_common.h"

#include <vector>

__device__ __noinline__ int path_a(int t) {
  return t * 7;
}
__device__ __noinline__ int path_b(int t) {
  return t * 5 + 1;
}
__device__ __noinline__ int path_c(int v) {
  return v + 100;
}
__device__ __noinline__ int path_d(int v) {
  return v ^ 0x55;
}

__global__ void divergent(int* out, int* regions) {
  int t = threadIdx.x; // ENTRY
  int gid = blockIdx.x * blockDim.x + t;
  int mask = 0;
  int v;
  if (t % 3 == 0) { // THEN
    v = path_a(t);
    mask |= 1;
  } else { // ELSE
    v = path_b(t);
    mask |= 2;
  }
  if (t % 2 == 0) { // EVEN
    v = path_c(v);
    mask |= 4;
  }
  if (t < 32) { // WARP0: warp-uniform branch
    v = path_d(v);
    mask |= 8;
  }
  out[gid] = v; // EXIT
  regions[gid] = mask;
}

int main() {
  const dim3 grid(4), block(96);
  const int threads = 384;
  int *out = nullptr, *regions = nullptr;
  CHECK(cudaMalloc(&out, threads * sizeof(int)));
  CHECK(cudaMalloc(&regions, threads * sizeof(int)));
  divergent<<<grid, block>>>(out, regions);
  CHECK_LAUNCH();
  std::vector<int> o(threads), m(threads);
  CHECK(cudaMemcpy(o.data(), out, threads * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(m.data(), regions, threads * sizeof(int), cudaMemcpyDeviceToHost));
  int count[4] = {0, 0, 0, 0};
  bool ok = true;
  for (int g = 0; g < threads; ++g) {
    int t = g % 96;
    int v = (t % 3 == 0) ? t * 7 : t * 5 + 1;
    if (t % 2 == 0)
      v += 100;
    if (t < 32)
      v ^= 0x55;
    ok = ok && o[g] == v;
    for (int b = 0; b < 4; ++b)
      count[b] += (m[g] >> b) & 1;
  }
  std::printf("analytic_divergence: grid (%u,%u,%u) block (%u,%u,%u)\n", grid.x, grid.y, grid.z,
              block.x, block.y, block.z);
  std::printf("expected ENTRY=384 THEN=128 ELSE=256 JOIN=384 EVEN=192 WARP0=128 EXIT=384 (warps "
              "12/12/12/12/12/4/12)\n");
  std::printf("measured THEN=%d ELSE=%d EVEN=%d WARP0=%d\n", count[0], count[1], count[2],
              count[3]);
  e2e::expect(ok, "values");
  e2e::expect(count[0] == 128 && count[1] == 256 && count[2] == 192 && count[3] == 128,
              "region counts");
  CHECK(cudaFree(out));
  CHECK(cudaFree(regions));
  return e2e::finish();
}
