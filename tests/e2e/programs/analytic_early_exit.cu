// Analytic kernel 3 of 5: an early exit (`if (tid >= n) return;`) with n not a multiple of the
// block size, followed by a counted loop.
//
//   launch configuration: grid (4,1,1), block (256,1,1) = 1024 threads = 32 warps; n = 1000,
//   reps = 5.
//
//   region                               | threads            | warps
//   ENTRY (tid computation, bounds test) | 1024               | 32
//   RETURN (tid >= n: leave early)       | 24 (tids 1000..1023) | 1 (warp 31, which is divergent:
//                                        |                    |   lanes 0..7 continue)
//   BODY  (load, loop preheader)         | 1000               | 32
//   LOOP  (loop body, reps iterations)   | 1000 * 5 = 5000    | 32 * 5 = 160
//   STORE (after the loop)               | 1000               | 32
//
// Each thread that does not return writes its loop count; the host checks the totals.
#include "e2e_common.h"

#include <vector>

__global__ void early_exit(const int* in, int* out, int* loops, int n, int reps) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x; // ENTRY
  if (tid >= n)
    return;        // RETURN
  int v = in[tid]; // BODY
  int count = 0;
#pragma unroll 1
  for (int i = 0; i < reps; ++i) { // LOOP
    v = v * 2 + i;
    ++count;
  }
  out[tid] = v; // STORE
  loops[tid] = count;
}

int main() {
  const dim3 grid(4), block(256);
  const int threads = 1024, n = 1000, reps = 5;
  std::vector<int> in(threads);
  for (int i = 0; i < threads; ++i)
    in[i] = i - 500;
  int *din = nullptr, *dout = nullptr, *dloops = nullptr;
  CHECK(cudaMalloc(&din, threads * sizeof(int)));
  CHECK(cudaMalloc(&dout, threads * sizeof(int)));
  CHECK(cudaMalloc(&dloops, threads * sizeof(int)));
  CHECK(cudaMemcpy(din, in.data(), threads * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0xff, threads * sizeof(int))); // -1: untouched
  CHECK(cudaMemset(dloops, 0, threads * sizeof(int)));
  early_exit<<<grid, block>>>(din, dout, dloops, n, reps);
  CHECK_LAUNCH();
  std::vector<int> out(threads), loops(threads);
  CHECK(cudaMemcpy(out.data(), dout, threads * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(loops.data(), dloops, threads * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  int returned = 0, stored = 0;
  long long loop_total = 0;
  for (int t = 0; t < threads; ++t) {
    if (t >= n) {
      ok = ok && out[t] == -1;
      ++returned;
      continue;
    }
    int v = in[t];
    for (int i = 0; i < reps; ++i)
      v = v * 2 + i;
    ok = ok && out[t] == v;
    ++stored;
    loop_total += loops[t];
  }
  std::printf("analytic_early_exit: grid (%u,%u,%u) block (%u,%u,%u), n = %d, reps = %d\n", grid.x,
              grid.y, grid.z, block.x, block.y, block.z, n, reps);
  std::printf(
      "expected ENTRY=1024 RETURN=24 BODY=1000 LOOP=5000 STORE=1000 (warps 32/1/32/160/32)\n");
  std::printf("measured RETURN=%d STORE=%d LOOP=%lld\n", returned, stored, loop_total);
  e2e::expect(ok && returned == 24 && stored == 1000 && loop_total == 5000,
              "early exit counts and values");
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(dloops));
  return e2e::finish();
}
