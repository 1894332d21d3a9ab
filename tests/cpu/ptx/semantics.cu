// Kernels whose results once differed between the CPU device and a GPU, compiled by nvcc at build
// time (-arch=compute_90) for tests/cpu/CpuSemanticsTest.cpp. Each reproduces the shape of a public
// program that went wrong, in code of its own.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

// Per-bucket maximum: the threads of a warp that take the branch form a coalesced group, split by
// bucket with labeled_partition (match.any.sync), reduce with redux.sync.max over each bucket's own
// member mask, and one thread per bucket publishes with atomicMax.
extern "C" __global__ void bucket_max(const int* keys, const int* values, int n, int* maxima) {
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

// The same with a float payload: cg::reduce falls back to shuffles within the partition.
extern "C" __global__ void bucket_sum_float(const int* keys, const float* values, int n,
                                            float* sums) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  cg::coalesced_group active = cg::coalesced_threads();
  cg::coalesced_group bucket = cg::labeled_partition(active, keys[i]);
  const float total = cg::reduce(bucket, values[i], cg::plus<float>());
  if (bucket.thread_rank() == 0)
    atomicAdd(&sums[keys[i]], total);
}
