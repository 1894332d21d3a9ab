#pragma once

// C = A x B for n x n row-major matrices, in kTile x kTile tiles staged through shared memory:
// one thread per element of C, blocks of kTile x kTile threads. Shared by the credit scheduler's
// workloads and the instrumentation benchmark's matmul.

#include <cstddef>

namespace ocelot::online {

constexpr int kTile = 16;

__device__ inline void multiplyTiled(const float* a, const float* b, float* c, int n) {
  __shared__ float as[kTile][kTile], bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  float acc = 0;
  for (int t = 0; t < (n + kTile - 1) / kTile; ++t) {
    as[ty][tx] = row < n && t * kTile + tx < n ? a[size_t(row) * n + t * kTile + tx] : 0.0f;
    bs[ty][tx] = col < n && t * kTile + ty < n ? b[size_t(t * kTile + ty) * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kTile; ++k)
      acc += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    c[size_t(row) * n + col] = acc;
}

} // namespace ocelot::online
