// Tensor cores through the WMMA API: half inputs in all three 16-element shapes (m16n16k16,
// m32n8k16, m8n32k16) with f16 and f32 accumulators and both layouts, 8-bit integers, and on
// sm_80+ bf16, tf32 and double (m8n8k4); sub-byte (s4/u4, m8n8k32) and single-bit (b1,
// m8n8k128) experimental fragments.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <mma.h>

using namespace nvcuda;

template <int M, int N, int K, class Acc, class LayoutA, class LayoutB>
__device__ void halfTile(const __half* a, const __half* b, Acc* c, int lda, int ldb, int ldc) {
  wmma::fragment<wmma::matrix_a, M, N, K, __half, LayoutA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, __half, LayoutB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> acc;
  wmma::load_matrix_sync(acc, c, ldc, wmma::mem_row_major);
  for (int k = 0; k < 4; ++k) {
    wmma::load_matrix_sync(fa, a + k * K, lda);
    wmma::load_matrix_sync(fb, b + k * K * ldb, ldb);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  for (int e = 0; e < acc.num_elements; ++e)
    acc.x[e] = acc.x[e] * static_cast<Acc>(0.5f);
  wmma::store_matrix_sync(c, acc, ldc, wmma::mem_col_major);
}

__global__ void halfShapes(const __half* a, const __half* b, float* c32, __half* c16) {
  halfTile<16, 16, 16, float, wmma::row_major, wmma::col_major>(a, b, c32, 64, 64, 16);
  halfTile<32, 8, 16, float, wmma::col_major, wmma::row_major>(a, b, c32 + 256, 64, 64, 8);
  halfTile<8, 32, 16, __half, wmma::row_major, wmma::row_major>(a, b, c16, 64, 64, 32);
  halfTile<16, 16, 16, __half, wmma::col_major, wmma::col_major>(a, b, c16 + 256, 64, 64, 16);
}

__global__ void integerShapes(const signed char* a, const signed char* b, const unsigned char* ua,
                              const unsigned char* ub, int* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> sa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> sb;
  wmma::fragment<wmma::matrix_a, 32, 8, 16, unsigned char, wmma::row_major> ua8;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, unsigned char, wmma::row_major> ub8;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
  wmma::fragment<wmma::accumulator, 32, 8, 16, int> acc2;
  wmma::fill_fragment(acc, 0);
  wmma::fill_fragment(acc2, 1);
  wmma::load_matrix_sync(sa, a, 16);
  wmma::load_matrix_sync(sb, b, 16);
  wmma::mma_sync(acc, sa, sb, acc, true);
  wmma::load_matrix_sync(ua8, ua, 16);
  wmma::load_matrix_sync(ub8, ub, 8);
  wmma::mma_sync(acc2, ua8, ub8, acc2, false);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
  wmma::store_matrix_sync(c + 256, acc2, 8, wmma::mem_row_major);
}

__global__ void subByteShapes(const void* a, const void* b, int* c) {
  using namespace wmma::experimental;
  wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::s4, wmma::row_major> s4a;
  wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::s4, wmma::col_major> s4b;
  wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::u4, wmma::row_major> u4a;
  wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::u4, wmma::col_major> u4b;
  wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> b1a;
  wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> b1b;
  wmma::fragment<wmma::accumulator, 8, 8, 32, int> acc4;
  wmma::fragment<wmma::accumulator, 8, 8, 128, int> acc1;
  wmma::fill_fragment(acc4, 0);
  wmma::fill_fragment(acc1, 0);
  wmma::load_matrix_sync(s4a, a, 32);
  wmma::load_matrix_sync(s4b, b, 32);
  wmma::mma_sync(acc4, s4a, s4b, acc4);
  wmma::load_matrix_sync(u4a, a, 32);
  wmma::load_matrix_sync(u4b, b, 32);
  wmma::mma_sync(acc4, u4a, u4b, acc4);
  wmma::load_matrix_sync(b1a, a, 128);
  wmma::load_matrix_sync(b1b, b, 128);
  wmma::bmma_sync(acc1, b1a, b1b, acc1, bmmaBitOpXOR);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  wmma::bmma_sync(acc1, b1a, b1b, acc1, bmmaBitOpAND);
#endif
  wmma::store_matrix_sync(c, acc4, 8, wmma::mem_row_major);
  wmma::store_matrix_sync(c + 64, acc1, 8, wmma::mem_col_major);
}

__global__ void ampereShapes(const __nv_bfloat16* a, const __nv_bfloat16* b, const float* fa,
                             const float* fb, const double* da, const double* db, float* c,
                             double* dc) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> ba;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> bb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(ba, a, 16);
  wmma::load_matrix_sync(bb, b, 16);
  wmma::mma_sync(acc, ba, bb, acc);

  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> ta;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> tb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> tacc;
  wmma::fill_fragment(tacc, 1.0f);
  wmma::load_matrix_sync(ta, fa, 8);
  wmma::load_matrix_sync(tb, fb, 16);
  for (int e = 0; e < ta.num_elements; ++e)
    ta.x[e] = wmma::__float_to_tf32(ta.x[e]);
  wmma::mma_sync(tacc, ta, tb, tacc);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
  wmma::store_matrix_sync(c + 256, tacc, 16, wmma::mem_row_major);

  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> d_a;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> d_b;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> dacc;
  wmma::load_matrix_sync(dacc, dc, 8, wmma::mem_row_major);
  wmma::load_matrix_sync(d_a, da, 4);
  wmma::load_matrix_sync(d_b, db, 4);
  wmma::mma_sync(dacc, d_a, d_b, dacc);
  wmma::store_matrix_sync(dc, dacc, 8, wmma::mem_row_major);
#else
  c[threadIdx.x] = fa[threadIdx.x] + static_cast<float>(da[threadIdx.x]) +
                   __bfloat162float(a[threadIdx.x]) + fb[0] + static_cast<float>(db[0]) +
                   __bfloat162float(b[0]) + static_cast<float>(dc[0]);
#endif
}

// A small tiled GEMM where each warp owns a 16x16 output tile (the common WMMA pattern).
__global__ void wmmaGemm(const __half* a, const __half* b, float* c, int m, int n, int k) {
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int warpN = blockIdx.y * blockDim.y + threadIdx.y;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int kk = 0; kk < k; kk += 16) {
    int aRow = warpM * 16, bCol = warpN * 16;
    if (aRow < m && bCol < n) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::col_major> fa;
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
      wmma::load_matrix_sync(fa, a + aRow + kk * m, m);
      wmma::load_matrix_sync(fb, b + kk + bCol * k, k);
      wmma::mma_sync(acc, fa, fb, acc);
    }
  }
  if (warpM * 16 < m && warpN * 16 < n)
    wmma::store_matrix_sync(c + warpM * 16 + warpN * 16 * m, acc, m, wmma::mem_col_major);
}
