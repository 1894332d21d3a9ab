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

// Huffman coding's device half (a program of this shape crashed its host code on the CPU device):
// canonical codes from code lengths, stored bit-reversed, and LSB-first packing of codes at
// arbitrary bit offsets with 64-bit atomicOr. The high part of a code that straddles two words is
// code >> (64 - offset), which PTX defines as 0 for an offset of 0.
extern "C" __global__ void huffman_codes(const unsigned* lengths, int symbols,
                                         unsigned long long* codes) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= symbols)
    return;
  const unsigned length = lengths[s];
  unsigned long long code = 0;
  for (int t = 0; t < symbols; ++t) {
    const unsigned other = lengths[t];
    if (other != 0 && (other < length || (other == length && t < s))) {
      unsigned long long step;
      asm("shl.b64 %0, %1, %2;" : "=l"(step) : "l"(1ull), "r"(length - other));
      code += step;
    }
  }
  codes[s] = length == 0 ? 0 : __brevll(code) >> (64 - length);
}

extern "C" __global__ void huffman_pack(const unsigned char* data, int n, const unsigned* lengths,
                                        const unsigned long long* codes,
                                        const unsigned long long* offsets,
                                        unsigned long long* stream) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const unsigned long long position = offsets[i];
  const unsigned long long code = codes[data[i]];
  const unsigned length = lengths[data[i]];
  const unsigned offset = static_cast<unsigned>(position & 63);
  unsigned long long low, high;
  asm("shl.b64 %0, %1, %2;" : "=l"(low) : "l"(code), "r"(offset));
  asm("shr.b64 %0, %1, %2;" : "=l"(high) : "l"(code), "r"(64 - offset));
  atomicOr(&stream[position >> 6], low);
  if (offset + length > 64)
    atomicOr(&stream[(position >> 6) + 1], high);
}
