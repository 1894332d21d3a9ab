// Warp-level primitives: every shuffle flavour (idx/up/down/bfly, with widths), votes (all/any/
// ballot/uni), __activemask, __match_any/__match_all, the redux.sync reductions (sm_80+), and
// the lane masks.
#include <cstdint>

__device__ float warpSumShuffle(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void shuffles(const float* in, float* out, const double* din, double* dout,
                         const long long* lin, long long* lout) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  float a = __shfl_sync(0xffffffffu, v, 3);
  float b = __shfl_up_sync(0xffffffffu, v, 1);
  float c = __shfl_down_sync(0xffffffffu, v, 2, 16);
  float d = __shfl_xor_sync(0xffffffffu, v, 5);
  float e = __shfl_sync(0x0000ffffu, v, threadIdx.x ^ 1, 8);
  out[i] = a + b + c + d + e + warpSumShuffle(v);
  // 64-bit shuffles are split into two 32-bit ones.
  double dv = din[i];
  dout[i] = __shfl_xor_sync(0xffffffffu, dv, 1) + __shfl_up_sync(0xffffffffu, dv, 4);
  long long lv = lin[i];
  lout[i] = __shfl_down_sync(0xffffffffu, lv, 8) ^ __shfl_sync(0xffffffffu, lv, 0);
}

__global__ void votes(const int* in, unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  unsigned ballot = __ballot_sync(0xffffffffu, v > 0);
  int all = __all_sync(0xffffffffu, v != 0);
  int any = __any_sync(0xffffffffu, v < 0);
  int uni = __uni_sync(0xffffffffu, v);
  unsigned active = __activemask();
  if (v & 1) {
    // Inside divergent code the active mask is a subset.
    unsigned oddMask = __activemask();
    unsigned oddBallot = __ballot_sync(oddMask, v > 10);
    out[i] = oddMask ^ oddBallot;
  } else {
    out[i] = ballot + static_cast<unsigned>(all + any + uni) + active;
  }
}

__global__ void matchAndRedux(const int* keys, const long long* wide, unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int key = keys[i];
  unsigned peers = __match_any_sync(0xffffffffu, key);
  int pred = 0;
  unsigned same = __match_all_sync(0xffffffffu, key, &pred);
  unsigned peers64 = __match_any_sync(0xffffffffu, wide[i]);
  unsigned same64 = __match_all_sync(0xffffffffu, wide[i], &pred);
  unsigned leader = __ffs(peers) - 1;
  unsigned result = peers ^ same ^ peers64 ^ same64 ^ leader ^ static_cast<unsigned>(pred);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  // redux.sync exists from sm_80.
  unsigned u = static_cast<unsigned>(key);
  result += __reduce_add_sync(0xffffffffu, u);
  result += __reduce_min_sync(0xffffffffu, u);
  result += __reduce_max_sync(0xffffffffu, u);
  result += static_cast<unsigned>(__reduce_min_sync(0xffffffffu, key));
  result += static_cast<unsigned>(__reduce_max_sync(0xffffffffu, key));
  result += __reduce_and_sync(0xffffffffu, u);
  result += __reduce_or_sync(0xffffffffu, u);
  result += __reduce_xor_sync(0xffffffffu, u);
#endif
  out[i] = result;
}

// Lane masks and warp-aggregated atomics: one atomic per group of equal keys.
__device__ unsigned laneMaskLt() {
  unsigned mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

__global__ void aggregatedIncrement(const int* keys, int* counters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int key = keys[i];
  unsigned active = __activemask();
  unsigned peers = __match_any_sync(active, key);
  int leader = __ffs(peers) - 1;
  unsigned rank = __popc(peers & laneMaskLt());
  int base = 0;
  if (static_cast<int>(threadIdx.x % 32) == leader)
    base = atomicAdd(&counters[key & 255], __popc(peers));
  base = __shfl_sync(peers, base, leader);
  counters[256 + i] = base + static_cast<int>(rank);
}

// __syncwarp with partial masks and a warp-synchronous scan.
__global__ void warpScan(int* data) {
  int lane = threadIdx.x & 31;
  int v = data[threadIdx.x];
  for (int d = 1; d < 32; d <<= 1) {
    int n = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v += n;
  }
  __syncwarp();
  if (lane < 16) {
    __syncwarp(0x0000ffffu);
    v *= 2;
  }
  data[threadIdx.x] = v;
}
