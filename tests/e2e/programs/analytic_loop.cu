// Analytic kernel 1 of 5: a counted loop whose trip count is a kernel argument, launched three
// times.
//
// ANALYTIC COUNTS (thread-level: how many threads execute the region; warp-level: how many warps
// execute it with at least one active thread). The loop is kept rolled (#pragma unroll 1, runtime
// trip count), so nvcc emits it as ENTRY (with the zero-trip guard) -> BODY (loops on itself) ->
// EXIT.
//
//   launch configuration: grid (4,1,1), block (128,1,1) = 512 threads = 16 warps; launched 3 times
//   with trips = 10, 3, 0.
//
//   region                         | launch 1 (trips=10) | launch 2 (trips=3) | launch 3 (trips=0)
//   ENTRY  (kernel start, guard)   |   512 thr / 16 w    |  512 thr / 16 w    |  512 thr / 16 w
//   BODY   (loop body)             |  5120 thr / 160 w   | 1536 thr / 48 w    |    0
//   EXIT   (store, return)         |   512 thr / 16 w    |  512 thr / 16 w    |  512 thr / 16 w
//
//   In general: ENTRY = EXIT = 512, BODY = 512 * trips (warps: 16, 16 * trips).
//
//   PTX as nvcc 13.0 emits it (-O3): five basic blocks: entry (guard `trips < 1`), loop preheader,
//   $L__BB0_2 = BODY (branches back to itself), loop exit (final value), $L__BB0_4 = EXIT.
//   Preheader and loop exit run once per thread when trips > 0 (512 each), never when trips = 0.
//
// The kernel also records, per thread, how many times it ran the body; the host checks those
// counts and the computed values against the formulas above.
#include "e2e_common.h"

#include <vector>

__global__ void counted_loop(unsigned* values, int* body_runs, int trips) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x; // ENTRY
  unsigned acc = static_cast<unsigned>(tid);
  int runs = 0;
#pragma unroll 1
  for (int i = 0; i < trips; ++i) { // BODY
    acc = acc * 2654435761u + static_cast<unsigned>(i);
    ++runs;
  }
  values[tid] = acc; // EXIT
  body_runs[tid] = runs;
}

int main() {
  const dim3 grid(4), block(128);
  const int threads = 512, warps = threads / 32;
  unsigned* values = nullptr;
  int* runs = nullptr;
  CHECK(cudaMalloc(&values, threads * sizeof(unsigned)));
  CHECK(cudaMalloc(&runs, threads * sizeof(int)));
  std::printf("analytic_loop: grid (%u,%u,%u) block (%u,%u,%u)\n", grid.x, grid.y, grid.z, block.x,
              block.y, block.z);
  int launch = 0;
  for (int trips : {10, 3, 0}) {
    ++launch;
    counted_loop<<<grid, block>>>(values, runs, trips);
    CHECK_LAUNCH();
    std::vector<unsigned> v(threads);
    std::vector<int> r(threads);
    CHECK(cudaMemcpy(v.data(), values, threads * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(r.data(), runs, threads * sizeof(int), cudaMemcpyDeviceToHost));
    long long body = 0;
    bool ok = true;
    for (int t = 0; t < threads; ++t) {
      unsigned acc = static_cast<unsigned>(t);
      for (int i = 0; i < trips; ++i)
        acc = acc * 2654435761u + static_cast<unsigned>(i);
      ok = ok && v[t] == acc;
      body += r[t];
    }
    std::printf("launch %d: trips=%d expected ENTRY=%d BODY=%d EXIT=%d (warps %d/%d/%d); measured "
                "BODY=%lld\n",
                launch, trips, threads, threads * trips, threads, warps, warps * trips, warps,
                body);
    e2e::expect(ok && body == static_cast<long long>(threads) * trips,
                "loop values and body count");
  }
  CHECK(cudaFree(values));
  CHECK(cudaFree(runs));
  return e2e::finish();
}
