// Workload: C = A x B for 512 x 512 single-precision matrices with a naive kernel and a 16 x 16
// shared-memory tiled kernel. Entries are small integers, so every product and partial sum is an
// integer below 2^24 and exactly representable: GPU and CPU results are bit-identical whatever the
// summation order or FMA contraction, and the checksum is reproducible.
//
// Structure for instrumentation: tiled kernel grid 32 x 32 blocks of 16 x 16 threads, 512 / 16 = 32
// tile iterations per thread, each with 16 multiply-adds and two __syncthreads.
#include "e2e_common.h"

#include <vector>

constexpr int kN = 512;
constexpr int kTile = 16;

__global__ void matmul_naive(const float* A, const float* B, float* C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0.0f;
    for (int k = 0; k < n; ++k)
      acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
  }
}

__global__ void matmul_tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float as[kTile][kTile];
  __shared__ float bs[kTile][kTile];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  float acc = 0.0f;
  for (int t = 0; t < n / kTile; ++t) {
    as[ty][tx] = A[row * n + t * kTile + tx];
    bs[ty][tx] = B[(t * kTile + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kTile; ++k)
      acc += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

int main() {
  const int n = static_cast<int>(e2e::scaled(kN, 2 * kTile));
  std::vector<float> A(n * n), B(n * n), C(n * n), ref(n * n);
  e2e::Rng rng(11);
  for (int i = 0; i < n * n; ++i) {
    A[i] = static_cast<float>(rng.range(-4, 4));
    B[i] = static_cast<float>(rng.range(-4, 4));
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      int acc = 0;
      for (int k = 0; k < n; ++k)
        acc += static_cast<int>(A[i * n + k]) * static_cast<int>(B[k * n + j]);
      ref[i * n + j] = static_cast<float>(acc);
    }
  float *dA, *dB, *dC;
  for (float** p : {&dA, &dB, &dC})
    CHECK(cudaMalloc(p, n * n * sizeof(float)));
  CHECK(cudaMemcpy(dA, A.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(kTile, kTile), grid(n / kTile, n / kTile);

  matmul_naive<<<grid, block>>>(dA, dB, dC, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(C.data(), dC, n * n * sizeof(float), cudaMemcpyDeviceToHost));
  e2e::expect(C == ref, "naive matmul equals the CPU result exactly");
  CHECK(cudaMemset(dC, 0, n * n * sizeof(float)));
  matmul_tiled<<<grid, block>>>(dA, dB, dC, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(C.data(), dC, n * n * sizeof(float), cudaMemcpyDeviceToHost));
  e2e::expect(C == ref, "tiled matmul equals the CPU result exactly");
  std::printf("matmul %dx%d: C[0][0] %.0f, C[%d][%d] %.0f, checksum %016llx\n", n, n, C[0], n - 1,
              n - 1, C[n * n - 1], (unsigned long long)e2e::fnv1a(C.data(), n * n * sizeof(float)));
  for (float* p : {dA, dB, dC})
    CHECK(cudaFree(p));
  return e2e::finish();
}
