// Workload: out-of-place transpose of a 2048 x 2048 float matrix with three kernels: naive
// (uncoalesced writes), shared-memory tiles, and shared-memory tiles padded against bank
// conflicts; plus a non-square 1000 x 3000 case with partial edge tiles. Pure data movement:
// results are exact.
//
// Structure for instrumentation: 32 x 32 tiles, blocks of 32 x 8 threads, each thread moves 4
// elements in and 4 out (loop of 4 with stride 8 rows); bounds checks are all-true except in edge
// tiles of the non-square case.
#include "e2e_common.h"

#include <vector>

constexpr int kTile = 32, kRows = 8;

__global__ void transpose_naive(const float* in, float* out, int w, int h) {
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows)
    if (x < w && y + j < h)
      out[x * h + y + j] = in[(y + j) * w + x];
}

template <int Pad> __global__ void transpose_tiled(const float* in, float* out, int w, int h) {
  __shared__ float tile[kTile][kTile + Pad];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows)
    if (x < w && y + j < h)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x; // transposed block
  y = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows)
    if (x < h && y + j < w)
      out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

static bool run(int w, int h, int variant) {
  std::vector<float> in(size_t(w) * h), out(size_t(w) * h);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<float>(i % 65536);
  float *din = nullptr, *dout = nullptr;
  CHECK(cudaMalloc(&din, in.size() * sizeof(float)));
  CHECK(cudaMalloc(&dout, in.size() * sizeof(float)));
  CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0, in.size() * sizeof(float)));
  dim3 grid((w + kTile - 1) / kTile, (h + kTile - 1) / kTile), block(kTile, kRows);
  if (variant == 0)
    transpose_naive<<<grid, block>>>(din, dout, w, h);
  if (variant == 1)
    transpose_tiled<0><<<grid, block>>>(din, dout, w, h);
  if (variant == 2)
    transpose_tiled<1><<<grid, block>>>(din, dout, w, h);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      ok = ok && out[size_t(x) * h + y] == in[size_t(y) * w + x];
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  return ok;
}

int main() {
  const char* names[] = {"naive", "tiled", "tiled+padding"};
  const int square = static_cast<int>(e2e::scaled(2048, kTile));
  const int rows = static_cast<int>(e2e::scaled(1000)), cols = static_cast<int>(e2e::scaled(3000));
  for (int v = 0; v < 3; ++v) {
    char what[80];
    std::snprintf(what, sizeof what, "%s transpose %dx%d", names[v], square, square);
    e2e::expect(run(square, square, v), what);
    std::snprintf(what, sizeof what, "%s transpose %dx%d", names[v], rows, cols);
    e2e::expect(run(rows, cols, v), what);
  }
  return e2e::finish();
}
