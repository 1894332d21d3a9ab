// Integer bit manipulation: popc, clz, ffs, brev, bfe/bfi (through inline PTX), funnel
// shifts, byte permutes (prmt), dp4a/dp2a, SIMD video instructions (__vabsdiffu4, __vadd2,
// __vcmpgtu4...), sad, mul24/mulhi, bfind, bmsk, and cuda::std::bit functions.
#include <cuda/std/bit>

#include <cstdint>

__device__ __forceinline__ uint32_t bitFieldExtract(uint32_t v, uint32_t pos, uint32_t len) {
  uint32_t r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(v), "r"(pos), "r"(len));
  return r;
}

__device__ __forceinline__ uint32_t bitFieldInsert(uint32_t base, uint32_t field, uint32_t pos,
                                                   uint32_t len) {
  uint32_t r;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(field), "r"(base), "r"(pos), "r"(len));
  return r;
}

__global__ void bitCounts(const uint32_t* in, uint32_t* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  uint32_t v = in[i];
  uint32_t r = __popc(v) + __clz(v) + __ffs(v) + __brev(v) + bitFieldExtract(v, 4, 9) +
               bitFieldInsert(v, v >> 3, 8, 5) + __funnelshift_l(v, v >> 1, 7) +
               __funnelshift_rc(v, ~v, 40) + __byte_perm(v, v * 3, 0x3210 ^ (i & 0x7777)) +
               __fns(v, 0, 3);
  int32_t s = static_cast<int32_t>(v);
  uint32_t found;
  asm("bfind.s32 %0, %1;" : "=r"(found) : "r"(s));
  uint32_t shiftFound;
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(shiftFound) : "r"(v));
  out[i] = r + found + shiftFound + cuda::std::popcount(v) + cuda::std::countr_zero(v | 1u) +
           cuda::std::rotl(v, 5) + cuda::std::bit_width(v);
}

__global__ void dotProducts(const int* a, const int* b, const uint32_t* ua, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int acc = __dp4a(a[i], b[i], 0);
  acc =
      __dp4a(static_cast<unsigned>(a[i]), static_cast<unsigned>(b[i]), static_cast<unsigned>(acc));
  acc = __dp2a_lo(a[i], b[i], acc);
  acc = __dp2a_hi(static_cast<unsigned>(a[i]), static_cast<unsigned>(b[i]),
                  static_cast<unsigned>(acc));
  acc += static_cast<int>(__sad(a[i], b[i], static_cast<unsigned>(acc)));
  acc += __mul24(a[i], b[i]) + __mulhi(a[i], b[i]) + static_cast<int>(__umul24(ua[i], 3u)) +
         static_cast<int>(__umulhi(ua[i], 0x12345678u)) + __hadd(a[i], b[i]) + __rhadd(a[i], b[i]);
  out[i] = acc;
}

__global__ void simdVideo(const uint32_t* a, const uint32_t* b, uint32_t* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  uint32_t x = a[i], y = b[i];
  out[i] = __vabsdiffu4(x, y) + __vadd2(x, y) + __vsub4(x, y) + __vcmpgtu4(x, y) + __vmaxu2(x, y) +
           __vmins4(x, y) + __vavgu4(x, y) + __vsads2(x, y) + __vsetgtu2(x, y) + __vabsss4(x) +
           __vhaddu2(x, y) + __vnegss2(x);
  uint32_t v;
  asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(v) : "r"(x), "r"(y), "r"(0u));
  out[n + i] = v;
}

// Bit masks and shifts of 64-bit values, including bmsk (sm_70+), shf with clamp/wrap, and
// prmt modes.
__global__ void masksAndPermutes(const uint64_t* in, uint64_t* out, uint32_t* out32, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  uint64_t v = in[i];
  uint32_t lo = static_cast<uint32_t>(v), hi = static_cast<uint32_t>(v >> 32);
  uint32_t mask, wrap, clamp, permuted;
  asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(mask) : "r"(lo & 31), "r"(hi & 31));
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(wrap) : "r"(lo), "r"(hi), "r"(lo));
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(clamp) : "r"(lo), "r"(hi), "r"(hi));
  asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(permuted) : "r"(lo), "r"(hi), "r"(0x1u));
  out32[i] = mask ^ wrap ^ clamp ^ permuted;
  out[i] = cuda::std::rotl(v, i & 63) ^ __brevll(v) ^ (v >> (i & 31));
}
