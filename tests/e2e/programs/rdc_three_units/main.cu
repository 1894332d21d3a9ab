// Analytic kernel with device functions in three separately compiled units (-rdc, issue 14): the
// kernel (this unit) loops `trips` times calling step() (step.cu), which calls mix() (mix.cu)
// twice; after the loop each thread calls finish() (mix.cu) once.
//
// Issue 14's -rdc item: Ocelot links the units' PTX into one module (ir/ModuleLinker.h) and
// instruments that once, so the device functions of the other units are counted with the kernel
// (instrumented one unit at a time, functions other units call keep their signature and go
// uncounted: STEP, MIX and FINISH would be missing). `check_analytic_counts.py` checks it like the
// analytic_* programs (tests/instrumentors/CMakeLists.txt, scripts/gpu-batch.sh instrumentation).
//
// ANALYTIC COUNTS (thread entries), grid (G,1,1), block (128,1,1) = 128 G threads, trips T:
//   ENTRY  (kernel start)            128 G
//   BODY   (the loop)                128 G T
//   STEP   (step's entry, unit 2)    128 G T
//   MIX    (mix's entry, unit 3)     2 * 128 G T
//   FINISH (finish's entry, unit 3)  128 G
// launched with (G, T) = (2, 5), (3, 2), (1, 0): each launch's ENTRY names it.
//
// The kernel records, per thread, how many times it ran the body; the host checks those counts and
// the computed values against the formulas above.
#include "e2e_common.h"
#include "rdc.h"

#include <utility>
#include <vector>

__global__ void rdc_loop(unsigned* values, int* body_runs, int trips) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x; // ENTRY
  unsigned acc = static_cast<unsigned>(tid);
  int runs = 0;
#pragma unroll 1
  for (int i = 0; i < trips; ++i) { // BODY
    acc = step(acc, i);
    ++runs;
  }
  values[tid] = finish(acc);
  body_runs[tid] = runs;
}

namespace {

unsigned hostMix(unsigned x) {
  return x * 2654435761u + 0x9e3779b9u;
}

} // namespace

int main() {
  const int block = 128, maxCtas = 3;
  unsigned* values = nullptr;
  int* runs = nullptr;
  CHECK(cudaMalloc(&values, maxCtas * block * sizeof(unsigned)));
  CHECK(cudaMalloc(&runs, maxCtas * block * sizeof(int)));
  std::printf("rdc_three_units: block (%d,1,1), device functions in three units\n", block);
  int launch = 0;
  for (auto [ctas, trips] : {std::pair{2, 5}, std::pair{3, 2}, std::pair{1, 0}}) {
    ++launch;
    const int threads = ctas * block;
    rdc_loop<<<ctas, block>>>(values, runs, trips);
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
        acc = hostMix(acc) ^ hostMix(static_cast<unsigned>(i));
      ok = ok && v[t] == (acc ^ (acc >> 16));
      body += r[t];
    }
    std::printf("launch %d: grid %d trips=%d expected ENTRY=%d BODY=%d STEP=%d MIX=%d FINISH=%d; "
                "measured BODY=%lld\n",
                launch, ctas, trips, threads, threads * trips, threads * trips, 2 * threads * trips,
                threads, body);
    e2e::expect(ok && body == static_cast<long long>(threads) * trips,
                "loop values and body count");
  }
  CHECK(cudaFree(values));
  CHECK(cudaFree(runs));
  return e2e::finish();
}
