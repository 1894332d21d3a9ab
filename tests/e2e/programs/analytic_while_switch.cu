// Analytic kernel 5 of 5: a data-dependent while loop and a switch. The while loop walks a linked
// list in global memory (next[i] = i - 1, except next[i] = -1 where i % 8 == 0) starting at node
// threadIdx.x, so it runs (threadIdx.x % 8) + 1 times; the compiler cannot see the trip count (a
// bit-trick loop would be turned into popc/clz by nvcc). The switch on threadIdx.x % 4 calls a
// different __noinline__ function per case (so the cases stay real blocks).
//
//   launch configuration: grid (1,1,1), block (256,1,1) = 256 threads = 8 warps
//
//   region                       | threads (executions)                          | warps
//   ENTRY                        | 256                                           | 8
//   WHILE body                   | 32 * (1 + 2 + ... + 8) = 1152                 | 8 * 8 = 64
//   (every
//                                |                                               |   warp has all 8
//                                lengths)
//   CASE 0 (t % 4 == 0) -> case0 | 64                                            | 8
//   CASE 1 (t % 4 == 1) -> case1 | 64                                            | 8
//   CASE 2 (t % 4 == 2) -> case2 | 64                                            | 8
//   DEFAULT (t % 4 == 3) -> case3| 64                                            | 8
//   EXIT                         | 256                                           | 8
#include "e2e_common.h"

#include <vector>

__device__ __noinline__ int case0(int v) {
  return v + 1000;
}
__device__ __noinline__ int case1(int v) {
  return v * 3;
}
__device__ __noinline__ int case2(int v) {
  return v - 77;
}
__device__ __noinline__ int case3(int v) {
  return v ^ 0xff;
}

__global__ void while_switch(const int* next, int* out, int* steps_out, int* case_out) {
  int t = threadIdx.x; // ENTRY
  int node = t;
  int steps = 0;
  while (node >= 0) { // WHILE
    node = next[node];
    ++steps;
  }
  int v = steps * 10;
  int which;
  switch (t % 4) {
  case 0:
    v = case0(v);
    which = 0;
    break;
  case 1:
    v = case1(v);
    which = 1;
    break;
  case 2:
    v = case2(v);
    which = 2;
    break;
  default:
    v = case3(v);
    which = 3;
    break;
  }
  out[t] = v; // EXIT
  steps_out[t] = steps;
  case_out[t] = which;
}

static int chain_length(int t) {
  return t % 8 + 1;
}

int main() {
  const int threads = 256;
  int *next = nullptr, *out = nullptr, *steps = nullptr, *cases = nullptr;
  std::vector<int> hnext(threads);
  for (int i = 0; i < threads; ++i)
    hnext[i] = i % 8 == 0 ? -1 : i - 1;
  CHECK(cudaMalloc(&next, threads * sizeof(int)));
  CHECK(cudaMemcpy(next, hnext.data(), threads * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMalloc(&out, threads * sizeof(int)));
  CHECK(cudaMalloc(&steps, threads * sizeof(int)));
  CHECK(cudaMalloc(&cases, threads * sizeof(int)));
  while_switch<<<1, threads>>>(next, out, steps, cases);
  CHECK_LAUNCH();
  std::vector<int> o(threads), s(threads), c(threads);
  CHECK(cudaMemcpy(o.data(), out, threads * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(s.data(), steps, threads * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(c.data(), cases, threads * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  long long total_steps = 0;
  int per_case[4] = {0, 0, 0, 0};
  int warp_iterations = 0;
  for (int w = 0; w < 8; ++w) {
    int m = 0;
    for (int l = 0; l < 32; ++l)
      m = chain_length(w * 32 + l) > m ? chain_length(w * 32 + l) : m;
    warp_iterations += m;
  }
  for (int t = 0; t < threads; ++t) {
    int v = chain_length(t) * 10;
    switch (t % 4) {
    case 0:
      v += 1000;
      break;
    case 1:
      v *= 3;
      break;
    case 2:
      v -= 77;
      break;
    default:
      v ^= 0xff;
      break;
    }
    ok = ok && o[t] == v && s[t] == chain_length(t);
    total_steps += s[t];
    per_case[c[t] & 3]++;
  }
  std::printf("analytic_while_switch: grid (1,1,1) block (256,1,1)\n");
  std::printf("expected ENTRY=256 WHILE=1152 (warp-iterations %d) CASE0=64 CASE1=64 CASE2=64 "
              "DEFAULT=64 EXIT=256\n",
              warp_iterations);
  std::printf("measured WHILE=%lld CASE0=%d CASE1=%d CASE2=%d DEFAULT=%d\n", total_steps,
              per_case[0], per_case[1], per_case[2], per_case[3]);
  e2e::expect(ok && total_steps == 1152 && per_case[0] == 64 && per_case[1] == 64 &&
                  per_case[2] == 64 && per_case[3] == 64 && warp_iterations == 64,
              "while/switch counts and values");
  CHECK(cudaFree(next));
  CHECK(cudaFree(out));
  CHECK(cudaFree(steps));
  CHECK(cudaFree(cases));
  return e2e::finish();
}
