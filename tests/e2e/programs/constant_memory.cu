// Constant memory: a 1D convolution whose 33 taps live in __constant__ memory (uniform reads), a
// __constant__ lookup table read with per-thread (divergent) indices, a __constant__ struct, and
// updating the constants between launches with cudaMemcpyToSymbolAsync. Taps and inputs are small
// integers stored as floats, so every sum is exact and the checksums are reproducible.
#include "e2e_common.h"

#include <vector>

constexpr int kRadius = 16;
constexpr int kTaps = 2 * kRadius + 1;

struct Config {
  int n;
  float bias;
  int table_mask;
};

__constant__ float c_taps[kTaps];
__constant__ int c_table[256];
__constant__ Config c_config;

__global__ void convolve(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int n = c_config.n;
  if (i >= n)
    return;
  float acc = c_config.bias;
  for (int k = -kRadius; k <= kRadius; ++k) {
    int j = i + k;
    float v = (j >= 0 && j < n) ? in[j] : 0.0f;
    acc += c_taps[k + kRadius] * v;
  }
  out[i] = acc;
}

__global__ void lookup(const int* keys, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = c_table[keys[i] & c_config.table_mask];
}

static std::vector<float> reference(const std::vector<float>& in, const float* taps, float bias) {
  int n = static_cast<int>(in.size());
  std::vector<float> out(n);
  for (int i = 0; i < n; ++i) {
    float acc = bias;
    for (int k = -kRadius; k <= kRadius; ++k) {
      int j = i + k;
      acc += taps[k + kRadius] * ((j >= 0 && j < n) ? in[j] : 0.0f);
    }
    out[i] = acc;
  }
  return out;
}

int main() {
  const int n = 100000;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = static_cast<float>((i * 7) % 19 - 9);
  float taps[kTaps];
  for (int k = 0; k < kTaps; ++k)
    taps[k] = static_cast<float>(k % 5 - 2);
  Config cfg{n, 0.5f, 255};
  int table[256];
  for (int i = 0; i < 256; ++i)
    table[i] = i * i - 1000;

  CHECK(cudaMemcpyToSymbol(c_taps, taps, sizeof taps));
  CHECK(cudaMemcpyToSymbol(c_config, &cfg, sizeof cfg));
  CHECK(cudaMemcpyToSymbol(c_table, table, sizeof table));

  float *din = nullptr, *dout = nullptr;
  CHECK(cudaMalloc(&din, n * sizeof(float)));
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  convolve<<<(n + 255) / 256, 256>>>(din, dout);
  CHECK_LAUNCH();
  std::vector<float> out(n);
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  e2e::expect(out == reference(in, taps, 0.5f), "convolution with constant taps");
  std::printf("convolution checksum: %016llx, out[0..3] = %.1f %.1f %.1f %.1f\n",
              (unsigned long long)e2e::fnv1a(out.data(), n * sizeof(float)), out[0], out[1], out[2],
              out[3]);

  // New taps and bias through the async symbol copy on a stream, then launch on that stream.
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  float taps2[kTaps];
  for (int k = 0; k < kTaps; ++k)
    taps2[k] = (k == kRadius) ? 2.0f : 0.0f;
  Config cfg2{n, -1.0f, 127};
  CHECK(cudaMemcpyToSymbolAsync(c_taps, taps2, sizeof taps2, 0, cudaMemcpyHostToDevice, s));
  CHECK(cudaMemcpyToSymbolAsync(c_config, &cfg2, sizeof cfg2, 0, cudaMemcpyHostToDevice, s));
  convolve<<<(n + 255) / 256, 256, 0, s>>>(din, dout);
  CHECK_LAUNCH();
  CHECK(cudaMemcpyAsync(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && out[i] == 2.0f * in[i] - 1.0f;
  e2e::expect(ok, "updated constants used by the next launch");

  // Divergent constant reads through the table (mask 127 from cfg2).
  std::vector<int> keys(n), got(n);
  for (int i = 0; i < n; ++i)
    keys[i] = (i * 2654435761u) >> 7;
  int *dk = nullptr, *dg = nullptr;
  CHECK(cudaMalloc(&dk, n * sizeof(int)));
  CHECK(cudaMalloc(&dg, n * sizeof(int)));
  CHECK(cudaMemcpy(dk, keys.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  lookup<<<(n + 255) / 256, 256>>>(dk, dg, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got.data(), dg, n * sizeof(int), cudaMemcpyDeviceToHost));
  ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && got[i] == table[keys[i] & 127];
  e2e::expect(ok, "divergent constant table lookups");
  std::printf("lookup checksum: %016llx\n",
              (unsigned long long)e2e::fnv1a(got.data(), n * sizeof(int)));

  CHECK(cudaStreamDestroy(s));
  for (void* p : {static_cast<void*>(din), static_cast<void*>(dout), static_cast<void*>(dk),
                  static_cast<void*>(dg)})
    CHECK(cudaFree(p));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
