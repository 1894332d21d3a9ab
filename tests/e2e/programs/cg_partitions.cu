// Cooperative-groups partitions inside divergent code: per-bucket maxima with
// labeled_partition(coalesced_threads()) + cg::reduce(greater) + atomicMax (match.any.sync, then
// redux.sync over each bucket's own member mask), per-bucket float sums (the shuffle path of
// cg::reduce), binary_partition counts, and ranks/broadcasts within coalesced groups. Every result
// is checked against a CPU model.
#include "e2e_common.h"

#include <algorithm>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kBuckets = 11;

__global__ void bucket_max(const int* keys, const int* values, int n, int* maxima) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int value = values[i];
  if (value % 3 != 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    cg::coalesced_group bucket = cg::labeled_partition(active, keys[i]);
    const int best = cg::reduce(bucket, value, cg::greater<int>());
    if (bucket.thread_rank() == 0)
      atomicMax(&maxima[keys[i]], best);
  }
}

__global__ void bucket_min_unsigned(const int* keys, const int* values, int n, unsigned* minima) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || (values[i] & 4) != 0)
    return;
  cg::coalesced_group bucket = cg::labeled_partition(cg::coalesced_threads(), keys[i]);
  const unsigned least = cg::reduce(bucket, static_cast<unsigned>(values[i]), cg::less<unsigned>());
  if (bucket.thread_rank() == 0)
    atomicMin(&minima[keys[i]], least);
}

__global__ void bucket_sum_float(const int* keys, const int* values, int n, float* sums) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  cg::coalesced_group bucket = cg::labeled_partition(cg::coalesced_threads(), keys[i]);
  // Small integers as floats: any summation order gives the same exact result.
  const float total = cg::reduce(bucket, static_cast<float>(values[i] & 63), cg::plus<float>());
  if (bucket.thread_rank() == 0)
    atomicAdd(&sums[keys[i]], total);
}

// Even and odd values split a warp's active threads; each half counts itself and broadcasts the
// value of its first thread.
__global__ void binary_split(const int* values, int n, int* counts, int* firsts) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || values[i] % 5 == 0)
    return;
  cg::coalesced_group active = cg::coalesced_threads();
  const bool odd = values[i] & 1;
  cg::coalesced_group half = cg::binary_partition(active, odd);
  const int first = half.shfl(values[i], 0);
  counts[i] = static_cast<int>(half.size()) * 100 + static_cast<int>(half.thread_rank());
  firsts[i] = first;
}

int main() {
  const int n = 5000;
  std::vector<int> keys(n), values(n);
  e2e::Rng rng(2024);
  for (int i = 0; i < n; ++i) {
    keys[i] = rng.range(0, kBuckets - 1);
    values[i] = rng.range(0, 1 << 20);
  }
  int *d_keys, *d_values, *d_maxima, *d_counts, *d_firsts;
  unsigned* d_minima;
  float* d_sums;
  CHECK(cudaMalloc(&d_keys, n * sizeof(int)));
  CHECK(cudaMalloc(&d_values, n * sizeof(int)));
  CHECK(cudaMalloc(&d_maxima, kBuckets * sizeof(int)));
  CHECK(cudaMalloc(&d_minima, kBuckets * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_sums, kBuckets * sizeof(float)));
  CHECK(cudaMalloc(&d_counts, n * sizeof(int)));
  CHECK(cudaMalloc(&d_firsts, n * sizeof(int)));
  CHECK(cudaMemcpy(d_keys, keys.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_values, values.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_maxima, 0xff, kBuckets * sizeof(int)));      // -1
  CHECK(cudaMemset(d_minima, 0xff, kBuckets * sizeof(unsigned))); // UINT_MAX
  CHECK(cudaMemset(d_sums, 0, kBuckets * sizeof(float)));
  CHECK(cudaMemset(d_counts, 0, n * sizeof(int)));
  CHECK(cudaMemset(d_firsts, 0, n * sizeof(int)));

  const int blocks = (n + 127) / 128;
  bucket_max<<<blocks, 128>>>(d_keys, d_values, n, d_maxima);
  CHECK_LAUNCH();
  bucket_min_unsigned<<<blocks, 128>>>(d_keys, d_values, n, d_minima);
  CHECK_LAUNCH();
  bucket_sum_float<<<blocks, 128>>>(d_keys, d_values, n, d_sums);
  CHECK_LAUNCH();
  binary_split<<<blocks, 128>>>(d_values, n, d_counts, d_firsts);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());

  std::vector<int> maxima(kBuckets), counts(n), firsts(n);
  std::vector<unsigned> minima(kBuckets);
  std::vector<float> sums(kBuckets);
  CHECK(cudaMemcpy(maxima.data(), d_maxima, kBuckets * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(minima.data(), d_minima, kBuckets * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sums.data(), d_sums, kBuckets * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(counts.data(), d_counts, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(firsts.data(), d_firsts, n * sizeof(int), cudaMemcpyDeviceToHost));

  std::vector<int> want_max(kBuckets, -1);
  std::vector<unsigned> want_min(kBuckets, ~0u);
  std::vector<float> want_sum(kBuckets, 0.0f);
  for (int i = 0; i < n; ++i) {
    if (values[i] % 3 != 0)
      want_max[keys[i]] = std::max(want_max[keys[i]], values[i]);
    if ((values[i] & 4) == 0)
      want_min[keys[i]] = std::min(want_min[keys[i]], static_cast<unsigned>(values[i]));
    want_sum[keys[i]] += static_cast<float>(values[i] & 63);
  }
  for (int b = 0; b < kBuckets; ++b)
    std::printf("bucket %2d: max %7d  min %7u  sum %8.0f\n", b, maxima[b], minima[b],
                static_cast<double>(sums[b]));
  e2e::expect(maxima == want_max, "labeled_partition + reduce(greater) + atomicMax");
  e2e::expect(minima == want_min, "labeled_partition + reduce(less<unsigned>) + atomicMin");
  e2e::expect(sums == want_sum, "labeled_partition + reduce(plus<float>) (shuffles)");

  // The binary split, modelled per warp.
  int bad = 0;
  for (int warp = 0; warp < (n + 31) / 32; ++warp) {
    std::vector<int> members[2];
    for (int lane = 0; lane < 32; ++lane) {
      const int i = warp * 32 + lane;
      if (i < n && values[i] % 5 != 0)
        members[values[i] & 1].push_back(i);
    }
    for (int side = 0; side < 2; ++side)
      for (size_t rank = 0; rank < members[side].size(); ++rank) {
        const int i = members[side][rank];
        bad += counts[i] != static_cast<int>(members[side].size()) * 100 + static_cast<int>(rank);
        bad += firsts[i] != values[members[side][0]];
      }
  }
  e2e::expect(bad == 0, "binary_partition sizes, ranks and shfl");
  CHECK(cudaFree(d_keys));
  CHECK(cudaFree(d_values));
  CHECK(cudaFree(d_maxima));
  CHECK(cudaFree(d_minima));
  CHECK(cudaFree(d_sums));
  CHECK(cudaFree(d_counts));
  CHECK(cudaFree(d_firsts));
  return e2e::finish();
}
