// Warp-level primitives and integer intrinsics: __shfl_sync / _up / _down / _xor, __ballot_sync,
// __any_sync, __all_sync, __match_any_sync, __match_all_sync, __reduce_add/min/max/and/or/xor_sync,
// __syncwarp, cooperative_groups tiled_partition with cg::reduce, and __popc, __clz, __ffs, __brev,
// __byte_perm, __funnelshift_l, __mul24, __sad, __umulhi. Every result is an integer checked
// against a CPU model of the warp.
#include "e2e_common.h"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kOut = 24; // results per thread

__global__ void warp_ops(const unsigned* in, unsigned* out) {
  unsigned lane = threadIdx.x & 31;
  unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned* o = out + (blockIdx.x * blockDim.x + threadIdx.x) * kOut;
  const unsigned full = 0xffffffffu;
  o[0] = __shfl_sync(full, v, 7);
  o[1] = __shfl_up_sync(full, v, 3);
  o[2] = __shfl_down_sync(full, v, 5);
  o[3] = __shfl_xor_sync(full, v, 9);
  o[4] = __shfl_sync(full, v, (lane * 5) & 31, 16); // width 16 sub-warps
  o[5] = __ballot_sync(full, v & 1);
  o[6] = __any_sync(full, v == 0x1234u);
  o[7] = __all_sync(full, v != 0xdeadbeefu);
  o[8] = __match_any_sync(full, v % 5);
  int pred = -1;
  o[9] = __match_all_sync(full, lane < 32 ? 42u : v, &pred);
  o[10] = static_cast<unsigned>(pred);
  o[11] = __reduce_add_sync(full, v & 0xffff);
  o[12] = __reduce_min_sync(full, v);
  o[13] = __reduce_max_sync(full, v);
  o[14] = __reduce_and_sync(full, v | 0x80000000u);
  o[15] = __reduce_or_sync(full, v & 0xff);
  o[16] = __reduce_xor_sync(full, v);
  __syncwarp();
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
  o[17] = cg::reduce(tile, v & 0xfff, cg::plus<unsigned>());
  o[18] = static_cast<unsigned>(__popc(v)) | (static_cast<unsigned>(__clz(v)) << 8) |
          (static_cast<unsigned>(__ffs(static_cast<int>(v))) << 16);
  o[19] = __brev(v);
  o[20] = __byte_perm(v, lane, 0x5140);
  o[21] = __funnelshift_l(v, lane, lane & 31);
  o[22] =
      static_cast<unsigned>(__mul24(static_cast<int>(v & 0xffff), static_cast<int>(lane) - 16)) +
      __sad(v & 0xff, lane, 3);
  o[23] = __umulhi(v, 0x9e3779b9u);
}

static unsigned brev(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i)
    r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
static unsigned byte_perm(unsigned x, unsigned y, unsigned s) {
  unsigned long long both = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned r = 0;
  for (int k = 0; k < 4; ++k) {
    unsigned sel = (s >> (4 * k)) & 7;
    r |= static_cast<unsigned>((both >> (8 * sel)) & 0xff) << (8 * k);
  }
  return r;
}

int main() {
  const int blocks = 4, threads = 128, n = blocks * threads;
  std::vector<unsigned> in(n);
  e2e::Rng rng(77);
  for (int i = 0; i < n; ++i)
    in[i] = static_cast<unsigned>(rng.next());
  in[37] = 0x1234u; // makes __any_sync true in warp 1 only
  in[64] = 0;       // exercises __clz/__ffs of zero
  unsigned *din = nullptr, *dout = nullptr;
  CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dout, n * kOut * sizeof(unsigned)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  warp_ops<<<blocks, threads>>>(din, dout);
  CHECK_LAUNCH();
  std::vector<unsigned> out(n * kOut);
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));

  int bad[kOut] = {0};
  for (int w = 0; w < n / 32; ++w) {
    const unsigned* v = &in[w * 32];
    for (unsigned lane = 0; lane < 32; ++lane) {
      const unsigned* o = &out[(w * 32 + lane) * kOut];
      unsigned want[kOut];
      unsigned x = v[lane];
      want[0] = v[7];
      want[1] = lane >= 3 ? v[lane - 3] : x;
      want[2] = lane + 5 < 32 ? v[lane + 5] : x;
      want[3] = v[lane ^ 9];
      want[4] = v[(lane & ~15u) + (((lane * 5) & 31) % 16)];
      unsigned ballot = 0, any = 0, all = 1, match = 0, radd = 0, rmin = 0xffffffffu, rmax = 0,
               rand_ = 0xffffffffu, ror = 0, rxor = 0;
      for (unsigned l = 0; l < 32; ++l) {
        ballot |= (v[l] & 1u) << l;
        any |= v[l] == 0x1234u;
        all &= v[l] != 0xdeadbeefu;
        if (v[l] % 5 == x % 5)
          match |= 1u << l;
        radd += v[l] & 0xffff;
        rmin = v[l] < rmin ? v[l] : rmin;
        rmax = v[l] > rmax ? v[l] : rmax;
        rand_ &= v[l] | 0x80000000u;
        ror |= v[l] & 0xff;
        rxor ^= v[l];
      }
      want[5] = ballot;
      want[6] = any;
      want[7] = all;
      want[8] = match;
      want[9] = 0xffffffffu;
      want[10] = 1;
      want[11] = radd;
      want[12] = rmin;
      want[13] = rmax;
      want[14] = rand_;
      want[15] = ror;
      want[16] = rxor;
      unsigned tsum = 0;
      for (unsigned l = lane & ~7u; l < (lane & ~7u) + 8; ++l)
        tsum += v[l] & 0xfff;
      want[17] = tsum;
      unsigned pc = static_cast<unsigned>(__builtin_popcount(x)),
               clz = x ? static_cast<unsigned>(__builtin_clz(x)) : 32,
               ffs = static_cast<unsigned>(__builtin_ffs(static_cast<int>(x)));
      want[18] = pc | (clz << 8) | (ffs << 16);
      want[19] = brev(x);
      want[20] = byte_perm(x, lane, 0x5140);
      unsigned sh = lane & 31;
      // __funnelshift_l(lo = x, hi = lane, sh): upper 32 bits of (hi:lo) << sh
      want[21] = sh ? (lane << sh) | (x >> (32 - sh)) : lane;
      int m24 = static_cast<int>(x & 0xffff) * (static_cast<int>(lane) - 16);
      unsigned a8 = x & 0xff;
      want[22] = static_cast<unsigned>(m24) + (a8 > lane ? a8 - lane : lane - a8) + 3;
      want[23] = static_cast<unsigned>((static_cast<unsigned long long>(x) * 0x9e3779b9ull) >> 32);
      for (int k = 0; k < kOut; ++k)
        bad[k] += o[k] != want[k];
    }
  }
  const char* names[kOut] = {"shfl",
                             "shfl_up",
                             "shfl_down",
                             "shfl_xor",
                             "shfl width 16",
                             "ballot",
                             "any",
                             "all",
                             "match_any",
                             "match_all",
                             "match_all pred",
                             "reduce_add",
                             "reduce_min",
                             "reduce_max",
                             "reduce_and",
                             "reduce_or",
                             "reduce_xor",
                             "cg::reduce tile<8>",
                             "popc/clz/ffs",
                             "brev",
                             "byte_perm",
                             "funnelshift_l",
                             "mul24 + sad",
                             "umulhi"};
  for (int k = 0; k < kOut; ++k)
    e2e::expect(bad[k] == 0, names[k]);
  std::printf("output checksum: %016llx\n",
              (unsigned long long)e2e::fnv1a(out.data(), out.size() * sizeof(unsigned)));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  return e2e::finish();
}
