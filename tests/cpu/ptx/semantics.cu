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

// ---------------------------------------------------------------------------------------------
// Tensor cores. One warp computes one tile; the test compares with a CPU matrix product.
#include <cuda_bf16.h>

#include <mma.h>

namespace wmma = nvcuda::wmma;

// f16 m16n16k16, A row-major, B column-major, f32 accumulator stored row-major and doubled by an
// element-wise pass over the fragment (which works whatever the fragment layout is).
extern "C" __global__ void wmma_f16_m16n16k16(const __half* a, const __half* b, const float* c,
                                              float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  for (int i = 0; i < fc.num_elements; ++i)
    fc.x[i] *= 2.0f;
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

// f16 m32n8k16 with f16 accumulators, A column-major, B row-major, C/D column-major.
extern "C" __global__ void wmma_f16_m32n8k16(const __half* a, const __half* b, const __half* c,
                                             __half* d) {
  wmma::fragment<wmma::matrix_a, 32, 8, 16, __half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 32, 8, 16, __half> fc;
  wmma::load_matrix_sync(fa, a, 32);
  wmma::load_matrix_sync(fb, b, 8);
  wmma::load_matrix_sync(fc, c, 32, wmma::mem_col_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 32, wmma::mem_col_major);
}

// bf16 m8n32k16, A and B row-major, f32 accumulator from zero.
extern "C" __global__ void wmma_bf16_m8n32k16(const __nv_bfloat16* a, const __nv_bfloat16* b,
                                              float* d) {
  wmma::fragment<wmma::matrix_a, 8, 32, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 32, 16, __nv_bfloat16, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 8, 32, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 32);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 32, wmma::mem_row_major);
}

// tf32 m16n16k8 (inputs rounded with __float_to_tf32), f32 accumulator from zero.
extern "C" __global__ void wmma_tf32_m16n16k8(const float* a, const float* b, float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 8);
  wmma::load_matrix_sync(fb, b, 8);
  for (int i = 0; i < fa.num_elements; ++i)
    fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
  for (int i = 0; i < fb.num_elements; ++i)
    fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

// f64 m8n8k4, A row-major, B column-major, accumulator loaded row-major.
extern "C" __global__ void wmma_f64_m8n8k4(const double* a, const double* b, const double* c,
                                           double* d) {
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
  wmma::load_matrix_sync(fa, a, 4);
  wmma::load_matrix_sync(fb, b, 4);
  wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}

// s8 m16n16k16 and u8 m32n8k16 with s32 accumulators (the first saturating).
extern "C" __global__ void wmma_s8_m16n16k16(const signed char* a, const signed char* b,
                                             const int* c, int* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc, true);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

extern "C" __global__ void wmma_u8_m32n8k16(const unsigned char* a, const unsigned char* b,
                                            int* d) {
  wmma::fragment<wmma::matrix_a, 32, 8, 16, unsigned char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, unsigned char, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 32, 8, 16, int> fc;
  wmma::fill_fragment(fc, 0);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 8);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}

// mma.sync with the fragment layouts of the PTX ISA: each lane loads its own elements from
// row-major A (m x k), B (k x n) and C (m x n) by the ISA's formulas (g = lane / 4, t = lane % 4)
// and stores D the same way.
__device__ unsigned pack_halves(__half lo, __half hi) {
  return static_cast<unsigned>(__half_as_ushort(lo)) |
         (static_cast<unsigned>(__half_as_ushort(hi)) << 16);
}

extern "C" __global__ void mma_f16_m16n8k16(const __half* a, const __half* b, const float* c,
                                            float* d) {
  const int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  unsigned ra[4], rb[2];
  for (int r = 0; r < 4; ++r) { // a0..a7: rows g, g+8; columns 2t, 2t+1, then +8
    const int row = g + 8 * (r & 1), col = 2 * t + 8 * (r >> 1);
    ra[r] = pack_halves(a[row * 16 + col], a[row * 16 + col + 1]);
  }
  for (int r = 0; r < 2; ++r) { // b0..b3: rows 2t, 2t+1, then +8; column g
    const int row = 2 * t + 8 * r;
    rb[r] = pack_halves(b[row * 8 + g], b[(row + 1) * 8 + g]);
  }
  float rc[4], rd[4];
  for (int i = 0; i < 4; ++i) // c0..c3: rows g, g+8; columns 2t, 2t+1
    rc[i] = c[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
               : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "f"(rc[0]),
                 "f"(rc[1]), "f"(rc[2]), "f"(rc[3]));
  for (int i = 0; i < 4; ++i)
    d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = rd[i];
}

extern "C" __global__ void mma_bf16_m16n8k8(const __nv_bfloat16* a, const __nv_bfloat16* b,
                                            float* d) {
  const int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  unsigned ra[2], rb;
  for (int r = 0; r < 2; ++r) { // a0..a3: rows g, g+8; columns 2t, 2t+1
    const int row = g + 8 * r;
    ra[r] = static_cast<unsigned>(__bfloat16_as_ushort(a[row * 8 + 2 * t])) |
            (static_cast<unsigned>(__bfloat16_as_ushort(a[row * 8 + 2 * t + 1])) << 16);
  }
  rb = static_cast<unsigned>(__bfloat16_as_ushort(b[(2 * t) * 8 + g])) |
       (static_cast<unsigned>(__bfloat16_as_ushort(b[(2 * t + 1) * 8 + g])) << 16);
  float rd[4];
  const float zero = 0.0f;
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
               "{%4, %5}, {%6}, {%7, %7, %7, %7};"
               : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
               : "r"(ra[0]), "r"(ra[1]), "r"(rb), "f"(zero));
  for (int i = 0; i < 4; ++i)
    d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = rd[i];
}

extern "C" __global__ void mma_tf32_m16n8k8(const float* a, const float* b, float* d) {
  const int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  unsigned ra[4], rb[2];
  for (int i = 0; i < 4; ++i) // a0..a3: rows g, g+8 then columns t, t+4
    ra[i] = __float_as_uint(a[(g + 8 * (i & 1)) * 8 + t + 4 * (i >> 1)]);
  for (int i = 0; i < 2; ++i) // b0, b1: rows t, t+4; column g
    rb[i] = __float_as_uint(b[(t + 4 * i) * 8 + g]);
  float rd[4];
  const float zero = 0.0f;
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%10, %10, %10, %10};"
               : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "f"(zero));
  for (int i = 0; i < 4; ++i)
    d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = rd[i];
}

extern "C" __global__ void mma_f64_m8n8k4(const double* a, const double* b, const double* c,
                                          double* d) {
  const int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  const double ra = a[g * 4 + t], rb = b[t * 8 + g]; // a: row g col t; b: row t col g
  double rd[2];
  const double rc0 = c[g * 8 + 2 * t], rc1 = c[g * 8 + 2 * t + 1];
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
               : "=d"(rd[0]), "=d"(rd[1])
               : "d"(ra), "d"(rb), "d"(rc0), "d"(rc1));
  d[g * 8 + 2 * t] = rd[0];
  d[g * 8 + 2 * t + 1] = rd[1];
}

extern "C" __global__ void mma_s8_m16n8k32(const signed char* a, const signed char* b, int* d) {
  const int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  unsigned ra[4] = {0, 0, 0, 0}, rb[2] = {0, 0};
  for (int i = 0; i < 16; ++i) { // rows g, g+8 by i bit 2; columns 4t + (i & 3), +16 from i = 8
    const int row = g + 8 * ((i >> 2) & 1), col = 4 * t + (i & 3) + 16 * (i >> 3);
    ra[i / 4] |= static_cast<unsigned>(static_cast<unsigned char>(a[row * 32 + col]))
                 << (8 * (i % 4));
  }
  for (int i = 0; i < 8; ++i) { // rows 4t + (i & 3), +16 from i = 4; column g
    const int row = 4 * t + (i & 3) + 16 * (i >> 2);
    rb[i / 4] |= static_cast<unsigned>(static_cast<unsigned char>(b[row * 8 + g])) << (8 * (i % 4));
  }
  int rd[4];
  const int zero = 0;
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%10, %10, %10, %10};"
               : "=r"(rd[0]), "=r"(rd[1]), "=r"(rd[2]), "=r"(rd[3])
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "r"(zero));
  for (int i = 0; i < 4; ++i)
    d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = rd[i];
}

// ldmatrix.x4 (and .trans) of a 16 x 16 f16 tile in shared memory: lane l gives the address of
// row l % 16, column block l / 16; every lane writes out its four registers.
extern "C" __global__ void ldmatrix_x4(const __half* tile, unsigned* out, unsigned* out_trans) {
  __shared__ __align__(16) __half s[16 * 16];
  const int lane = threadIdx.x;
  for (int i = lane; i < 256; i += 32)
    s[i] = tile[i];
  __syncwarp();
  const unsigned address =
      static_cast<unsigned>(__cvta_generic_to_shared(&s[(lane % 16) * 16 + (lane / 16) * 8]));
  unsigned r[4], q[4];
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(q[0]), "=r"(q[1]), "=r"(q[2]), "=r"(q[3])
               : "r"(address));
  for (int i = 0; i < 4; ++i) {
    out[lane * 4 + i] = r[i];
    out_trans[lane * 4 + i] = q[i];
  }
}
