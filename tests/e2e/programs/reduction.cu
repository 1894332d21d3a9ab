// Workload: sum of 16M 32-bit integers (as 64-bit sums) with four classic reduction kernels:
// interleaved addressing (divergent), sequential addressing, two-loads-per-thread with warp
// shuffles, and a grid-stride loop with one integer atomicAdd per block. Integer sums are exact and
// independent of order, so all four must print the same total as the CPU.
//
// Structure for instrumentation: 256-thread blocks; interleaved: 8 levels with `t % (2s) == 0`
// divergence; sequential: 8 levels with `t < s`; shuffle: 5 shuffle steps per warp; atomic:
// grid = 264 blocks, grid-stride loop.
#include "e2e_common.h"

#include <vector>

constexpr int kThreads = 256;

__global__ void reduce_interleaved(const int* in, long long* out, int n) {
  __shared__ long long s[kThreads];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < static_cast<unsigned>(n) ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (t % (2 * stride) == 0)
      s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

__global__ void reduce_sequential(const int* in, long long* out, int n) {
  __shared__ long long s[kThreads];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < static_cast<unsigned>(n) ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

__device__ inline long long warp_sum(long long v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void reduce_shuffle(const int* in, long long* out, int n) {
  __shared__ long long warps[kThreads / 32];
  unsigned t = threadIdx.x, i = blockIdx.x * (2 * blockDim.x) + t;
  long long v = 0;
  if (i < static_cast<unsigned>(n))
    v += in[i];
  if (i + blockDim.x < static_cast<unsigned>(n))
    v += in[i + blockDim.x];
  v = warp_sum(v);
  if ((t & 31) == 0)
    warps[t / 32] = v;
  __syncthreads();
  if (t < 32) {
    v = t < blockDim.x / 32 ? warps[t] : 0;
    v = warp_sum(v);
    if (t == 0)
      out[blockIdx.x] = v;
  }
}

__global__ void reduce_atomic(const int* in, unsigned long long* total, int n) {
  __shared__ long long s[kThreads];
  long long v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    v += in[i];
  s[threadIdx.x] = v;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride)
      s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(total, static_cast<unsigned long long>(s[0])); // two's complement wraps
}

static long long finish_on_host(const long long* d_partial, int count) {
  std::vector<long long> h(count);
  CHECK(cudaMemcpy(h.data(), d_partial, count * sizeof(long long), cudaMemcpyDeviceToHost));
  long long s = 0;
  for (long long v : h)
    s += v;
  return s;
}

int main() {
  const int n = static_cast<int>(e2e::scaled(16 * 1024 * 1024)) + 123;
  std::vector<int> h(n);
  e2e::Rng rng(5);
  long long want = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = static_cast<int>(rng.next() % 2001) - 1000;
    want += h[i];
  }
  int* din = nullptr;
  long long* partial = nullptr;
  unsigned long long* total = nullptr;
  const int blocks = (n + kThreads - 1) / kThreads;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&partial, blocks * sizeof(long long)));
  CHECK(cudaMalloc(&total, sizeof(unsigned long long)));
  CHECK(cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  std::printf("reduction of %d ints: CPU sum %lld\n", n, want);

  reduce_interleaved<<<blocks, kThreads>>>(din, partial, n);
  CHECK_LAUNCH();
  long long got = finish_on_host(partial, blocks);
  std::printf("interleaved: %lld\n", got);
  e2e::expect(got == want, "interleaved addressing");

  reduce_sequential<<<blocks, kThreads>>>(din, partial, n);
  CHECK_LAUNCH();
  got = finish_on_host(partial, blocks);
  std::printf("sequential: %lld\n", got);
  e2e::expect(got == want, "sequential addressing");

  const int blocks2 = (n + 2 * kThreads - 1) / (2 * kThreads);
  reduce_shuffle<<<blocks2, kThreads>>>(din, partial, n);
  CHECK_LAUNCH();
  got = finish_on_host(partial, blocks2);
  std::printf("shuffle: %lld\n", got);
  e2e::expect(got == want, "warp shuffle");

  CHECK(cudaMemset(total, 0, sizeof(unsigned long long)));
  reduce_atomic<<<264, kThreads>>>(din, total, n);
  CHECK_LAUNCH();
  unsigned long long raw = 0;
  CHECK(cudaMemcpy(&raw, total, sizeof raw, cudaMemcpyDeviceToHost));
  got = static_cast<long long>(raw);
  std::printf("grid-stride + atomicAdd: %lld\n", got);
  e2e::expect(got == want, "grid-stride with atomics");

  CHECK(cudaFree(din));
  CHECK(cudaFree(partial));
  CHECK(cudaFree(total));
  return e2e::finish();
}
