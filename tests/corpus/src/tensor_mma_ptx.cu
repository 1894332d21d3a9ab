// Tensor cores through inline PTX, the way hand-written GEMM kernels use them: mma.sync in the
// sm_75 shapes (m16n8k8 f16, m8n8k16 s8) and the sm_80 shapes (m16n8k16 f16/bf16, m16n8k8 tf32,
// m16n8k32 s8, m8n8k4 f64), ldmatrix (.x1/.x2/.x4, .trans) from shared memory, stmatrix and
// movmatrix on sm_90.
#include <cstdint>

__device__ __forceinline__ uint32_t smemAddress(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__global__ void mmaTuring(const uint32_t* a, const uint32_t* b, float* c, int* ic) {
  int lane = threadIdx.x & 31;
  uint32_t a0 = a[lane * 2], a1 = a[lane * 2 + 1], b0 = b[lane];
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "r"(a0), "r"(a1), "r"(b0));
  uint32_t h0 = 0, h1 = 0;
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4}, {%0, %1};"
      : "+r"(h0), "+r"(h1)
      : "r"(a0), "r"(a1), "r"(b0));
  int i0 = 0, i1 = 0;
  asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0, %1}, {%2}, {%3}, {%0, %1};"
               : "+r"(i0), "+r"(i1)
               : "r"(a0), "r"(b0));
  c[lane * 4 + 0] = d0;
  c[lane * 4 + 1] = d1;
  c[lane * 4 + 2] = d2 + __uint_as_float(h0);
  c[lane * 4 + 3] = d3 + __uint_as_float(h1);
  ic[lane] = i0 + i1;
}

__global__ void mmaAmpere(const uint32_t* a, const uint32_t* b, float* c, double* dc) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  int lane = threadIdx.x & 31;
  uint32_t a0 = a[lane * 4], a1 = a[lane * 4 + 1], a2 = a[lane * 4 + 2], a3 = a[lane * 4 + 3];
  uint32_t b0 = b[lane * 2], b1 = b[lane * 2 + 1];
  float d[4] = {0, 0, 0, 0};
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  int s[4] = {0, 0, 0, 0};
  asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3])
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  double x0 = dc[lane * 2], x1 = dc[lane * 2 + 1];
  double da = __hiloint2double(static_cast<int>(a0), static_cast<int>(a1));
  double db = __hiloint2double(static_cast<int>(b0), static_cast<int>(b1));
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
               : "+d"(x0), "+d"(x1)
               : "d"(da), "d"(db));
  for (int k = 0; k < 4; ++k)
    c[lane * 4 + k] = d[k] + static_cast<float>(s[k]);
  dc[lane * 2] = x0;
  dc[lane * 2 + 1] = x1;
#else
  c[threadIdx.x] = __uint_as_float(a[threadIdx.x] ^ b[threadIdx.x]) + static_cast<float>(dc[0]);
#endif
}

// ldmatrix feeding mma: a 16x16 half tile in shared memory read as fragments.
__global__ void ldmatrixFeed(const uint4* global, float* out) {
  __shared__ alignas(128) uint16_t tileA[16 * 16];
  __shared__ alignas(128) uint16_t tileB[16 * 8];
  int lane = threadIdx.x & 31;
  reinterpret_cast<uint4*>(tileA)[lane] = global[lane];
  if (lane < 16)
    reinterpret_cast<uint4*>(tileB)[lane] = global[32 + lane];
  __syncwarp();
  uint32_t a[4], b[2], single;
  const uint16_t* rowA = tileA + (lane % 16) * 16 + (lane / 16) * 8;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
               : "r"(smemAddress(rowA)));
  const uint16_t* rowB = tileB + (lane % 16) * 8;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
               : "=r"(b[0]), "=r"(b[1])
               : "r"(smemAddress(rowB)));
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16 {%0}, [%1];"
               : "=r"(single)
               : "r"(smemAddress(tileA + (lane % 8) * 16)));
  float d[4] = {0, 0, 0, 0};
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(b[0]));
#endif
  for (int k = 0; k < 4; ++k)
    out[lane * 4 + k] = d[k] + __uint_as_float(single);
}

// stmatrix (the inverse of ldmatrix) and movmatrix (a register transpose) are sm_90.
__global__ void stmatrixAndMovmatrix(const uint32_t* in, uint32_t* out) {
  __shared__ alignas(128) uint16_t tile[16 * 16];
  int lane = threadIdx.x & 31;
  uint32_t r0 = in[lane * 4], r1 = in[lane * 4 + 1], r2 = in[lane * 4 + 2], r3 = in[lane * 4 + 3];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  uint16_t* row = tile + (lane % 16) * 16 + (lane / 16) * 8;
  asm volatile(
      "stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(smemAddress(row)),
      "r"(r0), "r"(r1), "r"(r2), "r"(r3)
      : "memory");
  asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(
                   smemAddress(tile + (lane % 8) * 16)),
               "r"(r1), "r"(r0)
               : "memory");
  uint32_t moved;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(moved) : "r"(r2));
  r3 ^= moved;
#else
  reinterpret_cast<uint32_t*>(tile)[lane] = r0 ^ r1 ^ r2;
#endif
  __syncwarp();
  out[lane] = reinterpret_cast<uint32_t*>(tile)[lane] + r3;
}
