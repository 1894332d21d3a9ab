// Asynchronous global->shared copies (Ampere/Hopper PTX: cp.async, cp.async.bulk, mbarrier):
// cooperative_groups::memcpy_async + cg::wait, cuda::memcpy_async with a block-scoped cuda::barrier
// (the bulk-copy path on sm_90 for 16-byte aligned sizes), and a double-buffered cuda::pipeline.
// Integer data; each kernel's result is checked against the CPU.
#include "e2e_common.h"

#include <cuda/barrier>
#include <cuda/pipeline>

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kTile = 1024; // ints per tile (4 KiB)

// Each block copies its tile with cg::memcpy_async, then writes the tile reversed and doubled.
__global__ void cg_copy(const int* in, int* out) {
  __shared__ int tile[kTile];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * kTile, sizeof(int) * kTile);
  cg::wait(block);
  for (int i = threadIdx.x; i < kTile; i += blockDim.x)
    out[blockIdx.x * kTile + i] = 2 * tile[kTile - 1 - i];
}

// cuda::memcpy_async with a cuda::barrier and an aligned size.
__global__ void barrier_copy(const int* in, int* out) {
  __shared__ alignas(16) int tile[kTile];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, in + blockIdx.x * kTile,
                     cuda::aligned_size_t<16>(sizeof(int) * kTile), bar);
  bar.arrive_and_wait();
  for (int i = threadIdx.x; i < kTile; i += blockDim.x)
    out[blockIdx.x * kTile + i] = tile[i] + tile[(i + 1) % kTile];
}

// Double-buffered pipeline over `tiles` consecutive tiles per block: sums each tile's elements
// position-wise into an accumulator (per-thread memcpy_async of 4 ints at a time).
__global__ void pipeline_sum(const int* in, int* out, int tiles) {
  __shared__ alignas(16) int buf[2][kTile];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int per_thread = kTile / blockDim.x; // ints each thread copies per tile
  const int* base = in + static_cast<size_t>(blockIdx.x) * tiles * kTile;
  int acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  auto issue = [&](int t) {
    pipe.producer_acquire();
    int first = threadIdx.x * per_thread;
    cuda::memcpy_async(&buf[t % 2][first], base + t * kTile + first,
                       cuda::aligned_size_t<16>(sizeof(int) * per_thread), pipe);
    pipe.producer_commit();
  };
  issue(0);
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles)
      issue(t + 1);
    cuda::pipeline_consumer_wait_prior<1>(pipe);
    if (t + 1 >= tiles)
      cuda::pipeline_consumer_wait_prior<0>(pipe);
    for (int k = 0; k < per_thread; ++k)
      acc[k] += buf[t % 2][threadIdx.x * per_thread + k];
    pipe.consumer_release();
  }
  for (int k = 0; k < per_thread; ++k)
    out[blockIdx.x * kTile + threadIdx.x * per_thread + k] = acc[k];
}

int main() {
  const int blocks = 64, tiles = 16;
  const int n = blocks * kTile * tiles;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = (i * 37) % 1001 - 500;
  int *din = nullptr, *dout = nullptr;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, blocks * kTile * sizeof(int)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  std::vector<int> out(blocks * kTile);

  cg_copy<<<blocks, 256>>>(din, dout);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int b = 0; b < blocks; ++b)
    for (int i = 0; i < kTile; ++i)
      ok = ok && out[b * kTile + i] == 2 * in[b * kTile + kTile - 1 - i];
  e2e::expect(ok, "cooperative_groups::memcpy_async");

  barrier_copy<<<blocks, 256>>>(din, dout);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  ok = true;
  for (int b = 0; b < blocks; ++b)
    for (int i = 0; i < kTile; ++i)
      ok = ok && out[b * kTile + i] == in[b * kTile + i] + in[b * kTile + (i + 1) % kTile];
  e2e::expect(ok, "cuda::memcpy_async with cuda::barrier");

  pipeline_sum<<<blocks, 256>>>(din, dout, tiles);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  ok = true;
  for (int b = 0; b < blocks; ++b)
    for (int i = 0; i < kTile; ++i) {
      int s = 0;
      for (int t = 0; t < tiles; ++t)
        s += in[(static_cast<size_t>(b) * tiles + t) * kTile + i];
      ok = ok && out[b * kTile + i] == s;
    }
  e2e::expect(ok, "double-buffered cuda::pipeline");
  std::printf("pipeline checksum: %016llx\n",
              (unsigned long long)e2e::fnv1a(out.data(), out.size() * sizeof(int)));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  return e2e::finish();
}
