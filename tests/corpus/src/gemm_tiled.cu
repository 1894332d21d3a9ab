// Dense linear algebra the classic way: a register-blocked SGEMM with shared-memory tiles and
// double buffering, a DGEMM, a batched strided GEMV, and a complex (cuComplex) AXPY; lots of
// fma, ld.shared.v4 and unrolled inner loops.
#include <cuComplex.h>

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    sgemm(int m, int n, int k, float alpha, const float* a, const float* b, float beta, float* c) {
  __shared__ float as[2][BK][BM];
  __shared__ float bs[2][BK][BN];
  const int threads = (BM / TM) * (BN / TN);
  int tid = threadIdx.x;
  int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
  int ty = tid / (BN / TN), tx = tid % (BN / TN);
  float acc[TM][TN] = {};
  auto loadTiles = [&](int stage, int kk) {
    for (int i = tid; i < BM * BK; i += threads) {
      int r = i / BK, cc = i % BK;
      int gr = rowBase + r, gc = kk + cc;
      as[stage][cc][r] = (gr < m && gc < k) ? a[gr * k + gc] : 0.0f;
    }
    for (int i = tid; i < BK * BN; i += threads) {
      int r = i / BN, cc = i % BN;
      int gr = kk + r, gc = colBase + cc;
      bs[stage][r][cc] = (gr < k && gc < n) ? b[gr * n + gc] : 0.0f;
    }
  };
  loadTiles(0, 0);
  __syncthreads();
  int stage = 0;
  for (int kk = 0; kk < k; kk += BK) {
    if (kk + BK < k)
      loadTiles(stage ^ 1, kk + BK);
#pragma unroll
    for (int p = 0; p < BK; ++p) {
      float ra[TM], rb[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i)
        ra[i] = as[stage][p][ty * TM + i];
#pragma unroll
      for (int j = 0; j < TN; ++j)
        rb[j] = bs[stage][p][tx * TN + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
          acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
    }
    __syncthreads();
    stage ^= 1;
  }
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      int r = rowBase + ty * TM + i, cc = colBase + tx * TN + j;
      if (r < m && cc < n)
        c[r * n + cc] = alpha * acc[i][j] + beta * c[r * n + cc];
    }
}

template __global__ void sgemm<64, 64, 8, 4, 4>(int, int, int, float, const float*, const float*,
                                                float, float*);
template __global__ void sgemm<128, 128, 8, 8, 8>(int, int, int, float, const float*, const float*,
                                                  float, float*);

__global__ void dgemm(int n, const double* a, const double* b, double* c) {
  __shared__ double as[16][17];
  __shared__ double bs[16][17];
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  double acc = 0.0;
  for (int t = 0; t < n; t += 16) {
    as[threadIdx.y][threadIdx.x] =
        (row < n && t + threadIdx.x < n) ? a[row * n + t + threadIdx.x] : 0.0;
    bs[threadIdx.y][threadIdx.x] =
        (col < n && t + threadIdx.y < n) ? b[(t + threadIdx.y) * n + col] : 0.0;
    __syncthreads();
#pragma unroll
    for (int q = 0; q < 16; ++q)
      acc = fma(as[threadIdx.y][q], bs[q][threadIdx.x], acc);
    __syncthreads();
  }
  if (row < n && col < n)
    c[row * n + col] = acc;
}

__global__ void batchedGemv(const float* matrices, const float* vectors, float* results, int rows,
                            int cols, long long strideMatrix, long long strideVector) {
  const float* m = matrices + blockIdx.y * strideMatrix;
  const float* v = vectors + blockIdx.y * strideVector;
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  float acc = 0.0f;
  for (int c = 0; c < cols; c += 4) {
    float4 chunk = *reinterpret_cast<const float4*>(m + row * cols + c);
    acc += chunk.x * v[c] + chunk.y * v[c + 1] + chunk.z * v[c + 2] + chunk.w * v[c + 3];
  }
  results[blockIdx.y * rows + row] = acc;
}

__global__ void complexAxpy(cuDoubleComplex alpha, const cuDoubleComplex* x, cuDoubleComplex* y,
                            cuFloatComplex* magnitudes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  y[i] = cuCadd(cuCmul(alpha, x[i]), y[i]);
  cuDoubleComplex q = cuCdiv(y[i], cuCadd(x[i], make_cuDoubleComplex(1.0, 0.0)));
  magnitudes[i] =
      make_cuFloatComplex(static_cast<float>(cuCabs(q)), static_cast<float>(cuCreal(cuConj(q))));
}
