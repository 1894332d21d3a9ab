// The instrumentation slowdown benchmark (issue #5; the paper's Experiment 2 and Figure 5): ten
// kernels spanning the structures the paper relates slowdown to (short compute-bound blocks, large
// straight-line blocks, divergence, barriers in loops, atomics, streaming, irregular loops), each
// timed plain and under every built-in instrumentor, switched in-process with the online API.
//
//   build: nvcc -cudart shared -std=c++20 -O2 -lineinfo -I<ocelot source> instrumentation_bench.cu
//          -L<dir of Ocelot's libcudart.so.13> -lcudart
//   run:   LD_LIBRARY_PATH=<that dir> ./instrumentation_bench [--small] [--reps N] [--warmup N]
//          [--kernels REGEX] [--tsv FILE]                    (OCELOT_DEVICE=cpu without a GPU)
//
// Time is what the application sees: events recorded around the launch call on its stream, so an
// instrumented launch also pays Ocelot's buffer fill and readback. "kernel ms" is the instrumented
// kernel alone (the profile's events). Every configuration must give the plain run's output and,
// when instrumented, one complete profile per launch; anything else is an error (exit 1), never a
// fast number. Speed bars are printed (ok/missed) but do not change the exit status.

#include "ocelot/ocelot.h"
#include "tools/online/CudaCheck.h"
#include "tools/online/TiledMultiply.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

// Deterministic data without a host loop over gigabytes: a hash of the index.
__host__ __device__ inline uint32_t mix(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

__device__ inline size_t globalId() {
  return size_t(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ inline size_t gridStride() {
  return size_t(gridDim.x) * blockDim.x;
}

} // namespace

// Kernels have external linkage and readable names: they appear in profiles and logs.

__global__ void fill_uniform(float* p, size_t n, uint32_t seed, float lo, float hi) {
  for (size_t i = globalId(); i < n; i += gridStride())
    p[i] = lo + (hi - lo) * float(mix(uint32_t(i) ^ mix(seed)) >> 8) * (1.0f / 16777216.0f);
}

__global__ void fill_bits(uint32_t* p, size_t n, uint32_t seed, uint32_t modulo) {
  for (size_t i = globalId(); i < n; i += gridStride()) {
    uint32_t h = mix(uint32_t(i) * 2654435761U ^ mix(seed));
    p[i] = modulo != 0 ? h % modulo : h;
  }
}

// Short compute-bound blocks (the paper's worst case, BinomialOptions): one option per CTA,
// backward induction over the tree with a barrier per step; the inner loop body is a handful of
// instructions and stays a loop.
constexpr int kBinomialThreads = 128;
__global__ void binomial_options(const float* spot, const float* strike, const float* years,
                                 float* price, int steps, float rate, float vol) {
  extern __shared__ float tree[]; // two rows of steps + 1 values
  float* cur = tree;
  float* next = tree + steps + 1;
  const int option = blockIdx.x;
  const float s = spot[option], x = strike[option], dt = years[option] / steps;
  const float vsdt = vol * sqrtf(dt), growth = expf(rate * dt), discount = expf(-rate * dt);
  const float up = expf(vsdt), down = expf(-vsdt);
  const float pu = (growth - down) / (up - down);
  const float puDf = pu * discount, pdDf = (1.0f - pu) * discount;
  for (int j = threadIdx.x; j <= steps; j += blockDim.x)
    cur[j] = fmaxf(s * expf(vsdt * float(2 * j - steps)) - x, 0.0f);
  __syncthreads();
  for (int i = steps; i > 0; --i) {
#pragma unroll 1
    for (int j = threadIdx.x; j < i; j += blockDim.x)
      next[j] = puDf * cur[j + 1] + pdDf * cur[j];
    __syncthreads();
    float* t = cur;
    cur = next;
    next = t;
  }
  if (threadIdx.x == 0)
    price[option] = cur[0];
}

// Large straight-line blocks (BlackScholes): every option priced at kStrikes strikes, unrolled.
constexpr int kStrikes = 16;
__device__ inline float cnd(float d) {
  const float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  const float c =
      0.39894228040143267794f * __expf(-0.5f * d * d) *
      (k * (0.31938153f +
            k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f)))));
  return d > 0 ? 1.0f - c : c;
}
__global__ void black_scholes(const float* spot, const float* strike, const float* years,
                              float* call, float* put, size_t n, float rate, float vol) {
  for (size_t i = globalId(); i < n; i += gridStride()) {
    const float s = spot[i], x = strike[i], t = years[i];
    const float sqrtT = sqrtf(t), discount = __expf(-rate * t);
    float c = 0, p = 0;
#pragma unroll
    for (int k = 0; k < kStrikes; ++k) {
      const float xk = x * (0.9f + 0.025f * float(k));
      const float d1 = (__logf(s / xk) + (rate + 0.5f * vol * vol) * t) / (vol * sqrtT);
      const float d2 = d1 - vol * sqrtT;
      const float n1 = cnd(d1), n2 = cnd(d2);
      c += s * n1 - xk * discount * n2;
      p += xk * discount * (1.0f - n2) - s * (1.0f - n1);
    }
    call[i] = c;
    put[i] = p;
  }
}

// Large straight-line blocks with shared-memory tiles (nbody): all pairs, 32 interactions per
// block of the unrolled inner loop.
constexpr int kNbodyThreads = 256;
__global__ void nbody_accel(const float4* pos, float4* accel, int n, float softening2) {
  __shared__ float4 tile[kNbodyThreads];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 p = i < n ? pos[i] : make_float4(0, 0, 0, 0);
  float ax = 0, ay = 0, az = 0;
  for (int base = 0; base < n; base += kNbodyThreads) {
    const int j = base + threadIdx.x;
    tile[threadIdx.x] = j < n ? pos[j] : make_float4(0, 0, 0, 0); // mass 0 pads the last tile
    __syncthreads();
#pragma unroll 32
    for (int k = 0; k < kNbodyThreads; ++k) {
      const float4 q = tile[k];
      const float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      const float inv = rsqrtf(dx * dx + dy * dy + dz * dz + softening2);
      const float f = q.w * inv * inv * inv;
      ax += dx * f;
      ay += dy * f;
      az += dz * f;
    }
    __syncthreads();
  }
  if (i < n)
    accel[i] = make_float4(ax, ay, az, 0);
}

// Divergent work (Mandelbrot): neighbouring pixels iterate very different numbers of times.
__global__ void mandelbrot(int* iterations, int width, int height, int maxIterations, float x0,
                           float y0, float step) {
  const size_t pixels = size_t(width) * height;
  for (size_t p = globalId(); p < pixels; p += gridStride()) {
    const float cr = x0 + float(p % width) * step, ci = y0 + float(p / width) * step;
    float zr = 0, zi = 0;
    int it = 0;
    while (it < maxIterations && zr * zr + zi * zi < 4.0f) {
      const float t = zr * zr - zi * zi + cr;
      zi = 2.0f * zr * zi + ci;
      zr = t;
      ++it;
    }
    iterations[p] = it;
  }
}

// Scan (the paper's Experiment 1 hot loop): a work-efficient scan of each 512-element tile in
// shared memory, loops of barriers; inclusive within the tile.
constexpr int kScanThreads = 256;
__global__ void scan_tiles(const int* in, int* out, size_t n) {
  __shared__ int s[2 * kScanThreads];
  const int t = threadIdx.x;
  const size_t tiles = (n + 2 * kScanThreads - 1) / (2 * kScanThreads);
  for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const size_t i0 = tile * 2 * kScanThreads + t, i1 = i0 + kScanThreads;
    const int v0 = i0 < n ? in[i0] : 0, v1 = i1 < n ? in[i1] : 0;
    s[t] = v0;
    s[t + kScanThreads] = v1;
    int offset = 1;
#pragma unroll 1
    for (int d = kScanThreads; d > 0; d >>= 1) {
      __syncthreads();
      if (t < d)
        s[offset * (2 * t + 2) - 1] += s[offset * (2 * t + 1) - 1];
      offset <<= 1;
    }
    if (t == 0)
      s[2 * kScanThreads - 1] = 0;
#pragma unroll 1
    for (int d = 1; d < 2 * kScanThreads; d <<= 1) {
      offset >>= 1;
      __syncthreads();
      if (t < d) {
        const int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
        const int v = s[a];
        s[a] = s[b];
        s[b] += v;
      }
    }
    __syncthreads();
    if (i0 < n)
      out[i0] = s[t] + v0;
    if (i1 < n)
      out[i1] = s[t + kScanThreads] + v1;
    __syncthreads(); // the next tile reuses s
  }
}

// Reduction (ThreadFenceReduction's shape): grid-stride sums, then a shared-memory tree per CTA.
constexpr int kReduceThreads = 256;
__global__ void reduce_sum(const uint32_t* in, size_t n, unsigned long long* partial) {
  __shared__ unsigned long long s[kReduceThreads];
  unsigned long long sum = 0;
  for (size_t i = globalId(); i < n; i += gridStride())
    sum += in[i];
  s[threadIdx.x] = sum;
  __syncthreads();
#pragma unroll 1
  for (int half = kReduceThreads / 2; half > 0; half >>= 1) {
    if (int(threadIdx.x) < half)
      s[threadIdx.x] += s[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = s[0];
}

// Tiled matrix multiply (16 x 16 tiles in shared memory).
using ocelot::online::kTile;
__global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
  ocelot::online::multiplyTiled(a, b, c, n);
}

// Memory-bound streaming (STREAM triad).
__global__ void triad(float* a, const float* b, const float* c, float scalar, size_t n) {
  for (size_t i = globalId(); i < n; i += gridStride())
    a[i] = b[i] + scalar * c[i];
}

// Atomics: a 256-bin byte histogram, privatized per CTA in shared memory.
__global__ void histogram256(const uint32_t* words, size_t n, uint32_t* bins) {
  __shared__ uint32_t local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (size_t i = globalId(); i < n; i += gridStride()) {
    const uint32_t w = words[i];
    atomicAdd(&local[w & 255], 1U);
    atomicAdd(&local[(w >> 8) & 255], 1U);
    atomicAdd(&local[(w >> 16) & 255], 1U);
    atomicAdd(&local[w >> 24], 1U);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (local[b] != 0)
      atomicAdd(&bins[b], local[b]);
}

// Irregular loops and gathers: CSR sparse matrix-vector product with skewed row lengths.
__global__ void spmv_csr(int rows, const int* rowStart, const uint32_t* column, const float* value,
                         const float* x, float* y) {
  for (size_t r = globalId(); r < size_t(rows); r += gridStride()) {
    float sum = 0;
    for (int k = rowStart[r]; k < rowStart[r + 1]; ++k)
      sum += value[k] * x[column[k]];
    y[r] = sum;
  }
}

namespace {

struct Options {
  bool small = false;
  int reps = 9, warmup = 2;
  std::string kernels;
  std::string tsv;
  std::string tools; ///< instrumentors to time besides the built-in ones (--tools)
};

// What a configuration produced, compared across configurations.
struct Checksum {
  uint64_t hash = 1469598103934665603ULL; // FNV-1a of the output bytes
  double weighted = 0, magnitude = 0;     // sum of v * (1 + i % 7), and of |v| * (1 + i % 7)
};

template <class T> Checksum checksumOf(const T* device, size_t count) {
  std::vector<T> host(count);
  CHECK(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost));
  Checksum c;
  const auto* bytes = reinterpret_cast<const unsigned char*>(host.data());
  for (size_t i = 0; i < count * sizeof(T); ++i)
    c.hash = (c.hash ^ bytes[i]) * 1099511628211ULL;
  for (size_t i = 0; i < count; ++i) {
    const double v = double(host[i]), w = double(1 + i % 7);
    c.weighted += v * w;
    c.magnitude += std::fabs(v) * w;
  }
  return c;
}

// One kernel of the suite: its data, its launch and its output.
class Workload {
public:
  virtual ~Workload() = default;
  virtual const char* name() const = 0;
  virtual const char* character() const = 0;
  /// The __global__ function it launches (profiles are matched by its name).
  virtual const char* kernel() const = 0;
  /// Outputs computed in floating point may differ in the last bits when the JIT contracts
  /// differently around the instrumentation; integer outputs must match exactly.
  virtual bool exact() const { return true; }
  virtual void setup(bool small, int sms) = 0;
  /// Before every launch, outside the timed region (outputs that accumulate).
  virtual void reset(cudaStream_t) {}
  virtual void launch(cudaStream_t stream) = 0;
  virtual Checksum output() = 0;

  void release() {
    for (void* p : allocations_)
      cudaFree(p);
    allocations_.clear();
  }

protected:
  template <class T> T* alloc(size_t count) {
    void* p = nullptr;
    CHECK(cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(T)));
    allocations_.push_back(p);
    return static_cast<T*>(p);
  }
  static void uniform(float* p, size_t n, uint32_t seed, float lo, float hi) {
    fill_uniform<<<256, 256>>>(p, n, seed, lo, hi);
    CHECK(cudaGetLastError());
  }
  static void bits(uint32_t* p, size_t n, uint32_t seed, uint32_t modulo) {
    fill_bits<<<256, 256>>>(p, n, seed, modulo);
    CHECK(cudaGetLastError());
  }
  /// Grid-stride kernels: enough CTAs of 256 threads to fill the device, not one per element.
  static unsigned streamGrid(int sms, size_t n) {
    return unsigned(std::clamp<size_t>((n + 255) / 256, 1, size_t(sms) * 8));
  }

private:
  std::vector<void*> allocations_;
};

class Binomial final : public Workload {
  int options_ = 0, steps_ = 0;
  float *spot_ = nullptr, *strike_ = nullptr, *years_ = nullptr, *price_ = nullptr;

public:
  const char* name() const override { return "binomial"; }
  const char* character() const override { return "short compute-bound blocks"; }
  const char* kernel() const override { return "binomial_options"; }
  bool exact() const override { return false; }
  void setup(bool small, int) override {
    options_ = small ? 8 : 1024;
    steps_ = small ? 192 : 2048;
    spot_ = alloc<float>(options_);
    strike_ = alloc<float>(options_);
    years_ = alloc<float>(options_);
    price_ = alloc<float>(options_);
    uniform(spot_, options_, 1, 5, 30);
    uniform(strike_, options_, 2, 1, 100);
    uniform(years_, options_, 3, 0.25f, 10);
  }
  void launch(cudaStream_t stream) override {
    binomial_options<<<options_, kBinomialThreads, 2 * (steps_ + 1) * sizeof(float), stream>>>(
        spot_, strike_, years_, price_, steps_, 0.02f, 0.30f);
  }
  Checksum output() override { return checksumOf(price_, options_); }
};

class BlackScholes final : public Workload {
  size_t n_ = 0;
  unsigned grid_ = 0;
  float *spot_ = nullptr, *strike_ = nullptr, *years_ = nullptr, *call_ = nullptr, *put_ = nullptr;

public:
  const char* name() const override { return "blackscholes"; }
  const char* character() const override { return "large straight-line block"; }
  const char* kernel() const override { return "black_scholes"; }
  bool exact() const override { return false; }
  void setup(bool small, int sms) override {
    n_ = small ? 4096 : size_t(32) << 20;
    grid_ = streamGrid(sms, n_);
    spot_ = alloc<float>(n_);
    strike_ = alloc<float>(n_);
    years_ = alloc<float>(n_);
    call_ = alloc<float>(n_);
    put_ = alloc<float>(n_);
    uniform(spot_, n_, 4, 5, 30);
    uniform(strike_, n_, 5, 1, 100);
    uniform(years_, n_, 6, 0.25f, 10);
  }
  void launch(cudaStream_t stream) override {
    black_scholes<<<grid_, 256, 0, stream>>>(spot_, strike_, years_, call_, put_, n_, 0.02f, 0.30f);
  }
  Checksum output() override { return checksumOf(call_, n_); }
};

class NBody final : public Workload {
  int n_ = 0;
  float4 *pos_ = nullptr, *accel_ = nullptr;

public:
  const char* name() const override { return "nbody"; }
  const char* character() const override { return "large straight-line block, shared tiles"; }
  const char* kernel() const override { return "nbody_accel"; }
  bool exact() const override { return false; }
  void setup(bool small, int) override {
    n_ = small ? 512 : 32768;
    pos_ = alloc<float4>(n_);
    accel_ = alloc<float4>(n_);
    uniform(reinterpret_cast<float*>(pos_), 4 * size_t(n_), 7, 0.1f, 10);
  }
  void launch(cudaStream_t stream) override {
    nbody_accel<<<(n_ + kNbodyThreads - 1) / kNbodyThreads, kNbodyThreads, 0, stream>>>(
        pos_, accel_, n_, 0.01f);
  }
  Checksum output() override { return checksumOf(reinterpret_cast<float*>(accel_), 4 * n_); }
};

class Mandelbrot final : public Workload {
  int width_ = 0, height_ = 0, maxIterations_ = 0;
  unsigned grid_ = 0;
  int* iterations_ = nullptr;

public:
  const char* name() const override { return "mandelbrot"; }
  const char* character() const override { return "divergent loop"; }
  const char* kernel() const override { return "mandelbrot"; }
  bool exact() const override { return false; } // counts near the set's edge follow rounding
  void setup(bool small, int sms) override {
    width_ = small ? 96 : 4096;
    height_ = small ? 64 : 2048;
    maxIterations_ = small ? 64 : 1024;
    grid_ = streamGrid(sms, size_t(width_) * height_);
    iterations_ = alloc<int>(size_t(width_) * height_);
  }
  void launch(cudaStream_t stream) override {
    const float step = 3.0f / float(width_);
    mandelbrot<<<grid_, 256, 0, stream>>>(iterations_, width_, height_, maxIterations_, -2.25f,
                                          -step * float(height_) / 2, step);
  }
  Checksum output() override { return checksumOf(iterations_, size_t(width_) * height_); }
};

class Scan final : public Workload {
  size_t n_ = 0;
  unsigned grid_ = 0;
  int *in_ = nullptr, *out_ = nullptr;

public:
  const char* name() const override { return "scan"; }
  const char* character() const override { return "barrier loops, short blocks"; }
  const char* kernel() const override { return "scan_tiles"; }
  void setup(bool small, int sms) override {
    n_ = small ? 32768 : size_t(128) << 20;
    grid_ = streamGrid(sms, n_ / 2);
    in_ = alloc<int>(n_);
    out_ = alloc<int>(n_);
    bits(reinterpret_cast<uint32_t*>(in_), n_, 8, 16);
  }
  void launch(cudaStream_t stream) override {
    scan_tiles<<<grid_, kScanThreads, 0, stream>>>(in_, out_, n_);
  }
  Checksum output() override { return checksumOf(out_, n_); }
};

class Reduction final : public Workload {
  size_t n_ = 0;
  unsigned grid_ = 0;
  uint32_t* in_ = nullptr;
  unsigned long long* partial_ = nullptr;

public:
  const char* name() const override { return "reduction"; }
  const char* character() const override { return "memory-bound loop + tree"; }
  const char* kernel() const override { return "reduce_sum"; }
  void setup(bool small, int sms) override {
    n_ = small ? 65536 : size_t(1) << 30;
    grid_ = streamGrid(sms, n_);
    in_ = alloc<uint32_t>(n_);
    partial_ = alloc<unsigned long long>(grid_);
    bits(in_, n_, 9, 1000);
  }
  void launch(cudaStream_t stream) override {
    reduce_sum<<<grid_, kReduceThreads, 0, stream>>>(in_, n_, partial_);
  }
  Checksum output() override { return checksumOf(partial_, grid_); }
};

class Matmul final : public Workload {
  int n_ = 0;
  float *a_ = nullptr, *b_ = nullptr, *c_ = nullptr;

public:
  const char* name() const override { return "matmul"; }
  const char* character() const override { return "shared-memory tiles, unrolled"; }
  const char* kernel() const override { return "matmul_tiled"; }
  bool exact() const override { return false; }
  void setup(bool small, int) override {
    n_ = small ? 96 : 2048;
    const size_t elements = size_t(n_) * n_;
    a_ = alloc<float>(elements);
    b_ = alloc<float>(elements);
    c_ = alloc<float>(elements);
    uniform(a_, elements, 10, -1, 1);
    uniform(b_, elements, 11, -1, 1);
  }
  void launch(cudaStream_t stream) override {
    const dim3 grid((n_ + kTile - 1) / kTile, (n_ + kTile - 1) / kTile);
    matmul_tiled<<<grid, dim3(kTile, kTile), 0, stream>>>(a_, b_, c_, n_);
  }
  Checksum output() override { return checksumOf(c_, size_t(n_) * n_); }
};

class Triad final : public Workload {
  size_t n_ = 0;
  unsigned grid_ = 0;
  float *a_ = nullptr, *b_ = nullptr, *c_ = nullptr;

public:
  const char* name() const override { return "triad"; }
  const char* character() const override { return "memory-bound streaming"; }
  const char* kernel() const override { return "triad"; }
  bool exact() const override { return false; }
  void setup(bool small, int sms) override {
    n_ = small ? 65536 : size_t(256) << 20;
    grid_ = streamGrid(sms, n_);
    a_ = alloc<float>(n_);
    b_ = alloc<float>(n_);
    c_ = alloc<float>(n_);
    uniform(b_, n_, 12, 0, 1);
    uniform(c_, n_, 13, 0, 1);
  }
  void launch(cudaStream_t stream) override {
    triad<<<grid_, 256, 0, stream>>>(a_, b_, c_, 3.0f, n_);
  }
  Checksum output() override { return checksumOf(a_, n_); }
};

class Histogram final : public Workload {
  size_t n_ = 0;
  unsigned grid_ = 0;
  uint32_t *words_ = nullptr, *bins_ = nullptr;

public:
  const char* name() const override { return "histogram"; }
  const char* character() const override { return "shared and global atomics"; }
  const char* kernel() const override { return "histogram256"; }
  void setup(bool small, int sms) override {
    n_ = small ? 32768 : size_t(128) << 20;
    grid_ = streamGrid(sms, n_);
    words_ = alloc<uint32_t>(n_);
    bins_ = alloc<uint32_t>(256);
    bits(words_, n_, 14, 0);
  }
  void reset(cudaStream_t stream) override {
    CHECK(cudaMemsetAsync(bins_, 0, 256 * sizeof(uint32_t), stream));
  }
  void launch(cudaStream_t stream) override {
    histogram256<<<grid_, 256, 0, stream>>>(words_, n_, bins_);
  }
  Checksum output() override { return checksumOf(bins_, 256); }
};

class Spmv final : public Workload {
  int rows_ = 0;
  unsigned grid_ = 0;
  int* rowStart_ = nullptr;
  uint32_t* column_ = nullptr;
  float *value_ = nullptr, *x_ = nullptr, *y_ = nullptr;

public:
  const char* name() const override { return "spmv"; }
  const char* character() const override { return "irregular loop, gathers"; }
  const char* kernel() const override { return "spmv_csr"; }
  bool exact() const override { return false; }
  void setup(bool small, int sms) override {
    rows_ = small ? 8192 : 8 << 20;
    grid_ = streamGrid(sms, size_t(rows_));
    // Skewed row lengths: most rows 1-8 entries, one in 32 has 16-215.
    std::vector<int> start(size_t(rows_) + 1, 0);
    for (int r = 0; r < rows_; ++r) {
      const uint32_t h = mix(uint32_t(r) + 0x9e3779b9U);
      const int length = (h & 31) == 0 ? 16 + int((h >> 8) % 200) : 1 + int((h >> 8) % 8);
      start[size_t(r) + 1] = start[size_t(r)] + length;
    }
    const size_t nonzeros = size_t(start.back());
    rowStart_ = alloc<int>(start.size());
    column_ = alloc<uint32_t>(nonzeros);
    value_ = alloc<float>(nonzeros);
    x_ = alloc<float>(size_t(rows_));
    y_ = alloc<float>(size_t(rows_));
    CHECK(cudaMemcpy(rowStart_, start.data(), start.size() * sizeof(int), cudaMemcpyHostToDevice));
    bits(column_, nonzeros, 15, uint32_t(rows_));
    uniform(value_, nonzeros, 16, -1, 1);
    uniform(x_, size_t(rows_), 17, -1, 1);
  }
  void launch(cudaStream_t stream) override {
    spmv_csr<<<grid_, 256, 0, stream>>>(rows_, rowStart_, column_, value_, x_, y_);
  }
  Checksum output() override { return checksumOf(y_, size_t(rows_)); }
};

// The configurations, in the order they run; "plain" runs again last to expose drift.
struct Config {
  const char* name;
  const char* instrumentor; // nullptr: no instrumentor
};
// OCELOT_BENCH_BBCOUNT replaces the fast mode's instrumentor spec (e.g. "bbcount:registers=16"),
// to compare placements and options without rebuilding.
const char* const kFastSpec = std::getenv("OCELOT_BENCH_BBCOUNT") != nullptr
                                  ? std::getenv("OCELOT_BENCH_BBCOUNT")
                                  : "bbcount";
const Config kBuiltinConfigs[] = {{"plain", nullptr},
                                  {"bbcount", kFastSpec},
                                  {"bbcount-thread", "bbcount-thread"},
                                  {"ctaclock", "ctaclock"}};
// The built-in configurations and those --tools adds (probe tools and other plugins, by path or
// registered name), each named after its instrumentor; their launches are checked for one
// instrumented result each, their outputs against the plain run's.
std::vector<Config> gConfigs(std::begin(kBuiltinConfigs), std::end(kBuiltinConfigs));
std::deque<std::string> gConfigNames; // storage of the added configurations' names and specs

// Adds a configuration per item of "NAME[:options],/path/libocelot-x.so,..." (plugins are loaded).
void addToolConfigs(const std::string& list) {
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? list.size() + 1 : comma + 1;
    if (item.empty())
      continue;
    std::string name = item.substr(0, item.find(':'));
    std::string options = item.find(':') == std::string::npos ? "" : item.substr(item.find(':'));
    if (name.find('/') != std::string::npos) {
      std::vector<std::string> names = ocelot::loadPlugin(name);
      if (names.empty())
        throw std::invalid_argument(name + " registers no instrumentor");
      name = names.front();
    }
    gConfigNames.push_back(name);
    const char* configName = gConfigNames.back().c_str();
    gConfigNames.push_back(name + options);
    gConfigs.push_back({configName, gConfigNames.back().c_str()});
  }
}

// What the profiles of one (kernel, configuration) phase said, filled by the subscription.
struct PhaseProfiles {
  int profiles = 0, good = 0;
  std::vector<std::string> problems;
  std::set<std::string> notes;
  std::vector<double> kernelMs;
  std::shared_ptr<const ocelot::KernelProfile> last;
};

struct Expectation {
  const Config* config = nullptr;
  std::string kernel; // the profile's demangled name starts with this
};

std::mutex gMutex;
Expectation gExpect;
PhaseProfiles gPhase;

void addProblem(PhaseProfiles& phase, std::string text) {
  if (phase.problems.size() < 3)
    phase.problems.push_back(std::move(text));
}

// Runs on Ocelot's profile thread: checks that the launch really ran instrumented as configured.
void onProfile(const std::shared_ptr<const ocelot::KernelProfile>& p) {
  std::lock_guard lock(gMutex);
  PhaseProfiles& phase = gPhase;
  ++phase.profiles;
  phase.last = p;
  for (const auto& note : p->notes())
    phase.notes.insert(note);
  const Config* config = gExpect.config;
  if (config == nullptr || config->instrumentor == nullptr) {
    addProblem(phase, "a profile arrived while no instrumentor was active");
    return;
  }
  if (p->demangledName().rfind(gExpect.kernel, 0) != 0) {
    addProblem(phase, "profile of an unexpected kernel " + p->demangledName());
    return;
  }
  if (!p->instrumented()) {
    addProblem(phase, "ran the original kernel" +
                          (p->notes().empty() ? std::string() : ": " + p->notes().front()));
    return;
  }
  if (p->instrumentors().size() != 1) {
    addProblem(phase, std::to_string(p->instrumentors().size()) + " instrumentors active");
    return;
  }
  const std::string name = config->instrumentor;
  if (name.rfind("bbcount", 0) == 0) {
    const auto* counts = p->result<ocelot::BasicBlockCounts>();
    const auto want = name == "bbcount-thread" ? ocelot::BasicBlockCounts::Mode::PerThread
                                               : ocelot::BasicBlockCounts::Mode::PerWarp;
    if (counts == nullptr) {
      addProblem(phase, "no block counts in the profile");
      return;
    }
    if (counts->mode() != want) {
      addProblem(phase, "counted " + std::string(ocelot::modeName(counts->mode())) + ", not " +
                            std::string(ocelot::modeName(want)));
      return;
    }
    if (counts->entryCount() != p->launch().threads()) {
      addProblem(phase, "entry count " + std::to_string(counts->entryCount()) + " != threads " +
                            std::to_string(p->launch().threads()));
      return;
    }
  } else if (name == "ctaclock") {
    const auto* clock = p->result<ocelot::CtaClockTimes>();
    if (clock == nullptr) {
      addProblem(phase, "no CTA clocks in the profile");
      return;
    }
    if (!clock->complete()) {
      addProblem(phase, "CTA clocks incomplete: " + clock->problems().front());
      return;
    }
  }
  if (p->timing().gpuMilliseconds)
    phase.kernelMs.push_back(*p->timing().gpuMilliseconds);
  ++phase.good;
}

double median(std::vector<double> v) {
  if (v.empty())
    return std::nan("");
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 != 0 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

struct Row {
  Row(std::string kernelName, std::string configName, std::vector<double> samples = {})
      : kernel(std::move(kernelName)), config(std::move(configName)), ms(std::move(samples)) {}
  std::string kernel, config;
  std::vector<double> ms;
  double medianMs = 0, slowdown = 0, kernelMs = std::nan("");
  int launches = 0, profiles = 0;
  std::string output; // "exact", "~1e-07", or "DIFFERS ..."
  std::vector<std::string> errors;
  bool ok() const { return errors.empty(); }
};

struct KernelFacts {
  std::string name, character;
  size_t blocks = 0, derived = 0;
  double instructionsPerThread = 0, instructionsPerBlockEntry = 0;
  std::set<std::string> notes;
  bool plainDrift = false;
  double plainFirst = 0, plainLast = 0;
};

// One phase: warm-up launches (module building and JIT happen here), then timed repetitions.
std::vector<double> timePhase(Workload& w, cudaStream_t stream, const Options& opt) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < opt.warmup; ++i) {
    w.reset(stream);
    w.launch(stream);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaStreamSynchronize(stream));
  std::vector<double> ms;
  for (int i = 0; i < opt.reps; ++i) {
    w.reset(stream);
    CHECK(cudaEventRecord(start, stream));
    w.launch(stream);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop, stream));
    CHECK(cudaEventSynchronize(stop));
    float elapsed = 0;
    CHECK(cudaEventElapsedTime(&elapsed, start, stop));
    ms.push_back(elapsed);
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  return ms;
}

std::string compareOutputs(const Checksum& plain, const Checksum& now, bool exact, bool* same) {
  char text[64];
  if (now.hash == plain.hash) {
    *same = true;
    return "exact";
  }
  const double scale = std::max(plain.magnitude, 1e-30);
  const double relative = std::fabs(now.weighted - plain.weighted) / scale;
  *same = !exact && relative <= 1e-5;
  std::snprintf(text, sizeof text, "%s%.1e", *same ? "~" : "DIFFERS ", relative);
  return text;
}

int usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--small] [--reps N] [--warmup N] [--kernels REGEX] [--tsv FILE]\n"
               "          [--tools NAME|/path/libocelot-x.so,...]\n"
               "  OCELOT_BENCH_SMALL=1 is --small; OCELOT_BENCH_TOOLS is --tools\n",
               argv0);
  return 2;
}

int run(const Options& opt) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no CUDA device (set OCELOT_DEVICE=cpu for Ocelot's CPU back end)\n");
    return 77;
  }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const std::regex filter(opt.kernels.empty() ? std::string(".*") : opt.kernels);

  std::vector<std::unique_ptr<Workload>> suite;
  suite.push_back(std::make_unique<Binomial>());
  suite.push_back(std::make_unique<BlackScholes>());
  suite.push_back(std::make_unique<NBody>());
  suite.push_back(std::make_unique<Mandelbrot>());
  suite.push_back(std::make_unique<Scan>());
  suite.push_back(std::make_unique<Reduction>());
  suite.push_back(std::make_unique<Matmul>());
  suite.push_back(std::make_unique<Triad>());
  suite.push_back(std::make_unique<Histogram>());
  suite.push_back(std::make_unique<Spmv>());

  std::printf("Ocelot instrumentation slowdown: %s (%d SMs), %s sizes, median of %d after %d "
              "warm-up launches\n\n",
              prop.name, prop.multiProcessorCount, opt.small ? "small" : "full", opt.reps,
              opt.warmup);
  std::fflush(stdout);

  const auto token = ocelot::subscribe(onProfile);
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::vector<Row> rows;
  std::vector<KernelFacts> facts;
  for (auto& w : suite) {
    if (!std::regex_search(w->name(), filter))
      continue;
    w->setup(opt.small, prop.multiProcessorCount);
    CHECK(cudaDeviceSynchronize());
    // After a launch: Ocelot reads OCELOT_INSTRUMENTORS at the first launch, not before.
    if (!ocelot::activeInstrumentors().empty()) {
      std::printf("FAIL: instrumentors are active before any was added (OCELOT_INSTRUMENTORS, "
                  "ocelot run -i): the plain configuration would not be plain\n");
      return 1;
    }
    KernelFacts kf;
    kf.name = w->name();
    kf.character = w->character();
    Checksum plainSum;
    std::vector<double> plainMs;
    const size_t firstRow = rows.size();
    // Plain first and last; the instrumented configurations in between.
    std::vector<const Config*> order;
    for (const Config& config : gConfigs)
      order.push_back(&config);
    order.push_back(&gConfigs[0]);
    for (size_t step = 0; step < order.size(); ++step) {
      const Config& config = *order[step];
      {
        std::lock_guard lock(gMutex);
        gExpect = {&config, std::string(w->kernel()) + "("};
        gPhase = {};
      }
      ocelot::InstrumentorHandle handle = 0;
      if (config.instrumentor != nullptr) {
        // "name:key=value:..." as OCELOT_INSTRUMENTORS takes it.
        const std::string spec = config.instrumentor;
        const size_t colon = spec.find(':');
        handle = ocelot::addInstrumentor(
            spec.substr(0, colon), colon == std::string::npos ? ocelot::InstrumentorOptions{}
                                                              : ocelot::InstrumentorOptions::parse(
                                                                    spec.substr(colon + 1)));
      }
      std::vector<double> ms = timePhase(*w, stream, opt);
      if (handle != 0)
        ocelot::removeInstrumentor(handle);
      ocelot::flushProfiles();
      PhaseProfiles phase;
      {
        std::lock_guard lock(gMutex);
        phase = gPhase;
        gExpect = {};
      }
      const Checksum sum = w->output();
      const int launches = opt.warmup + opt.reps;
      if (step == 0) {
        plainSum = sum;
        plainMs = ms;
        kf.plainFirst = median(ms);
        Row row{w->name(), config.name};
        row.launches = launches;
        row.profiles = phase.profiles;
        row.output = "reference";
        for (const auto& problem : phase.problems)
          row.errors.push_back(problem);
        rows.push_back(row);
        continue;
      }
      bool same = false;
      const std::string output = compareOutputs(plainSum, sum, w->exact(), &same);
      if (config.instrumentor == nullptr) { // the closing plain run: joins the first one's samples
        Row& plainRow = rows[firstRow];
        kf.plainLast = median(ms);
        plainMs.insert(plainMs.end(), ms.begin(), ms.end());
        plainRow.ms = plainMs;
        plainRow.profiles += phase.profiles;
        plainRow.launches += launches;
        for (const auto& problem : phase.problems)
          plainRow.errors.push_back(problem);
        if (!same)
          plainRow.errors.push_back("output changed between the plain runs: " + output);
        kf.plainDrift =
            std::fabs(kf.plainLast - kf.plainFirst) > 0.05 * std::max(kf.plainFirst, kf.plainLast);
        continue;
      }
      Row row{w->name(), config.name, ms};
      row.launches = launches;
      row.profiles = phase.profiles;
      row.output = output;
      row.kernelMs = median(phase.kernelMs);
      for (const auto& problem : phase.problems)
        row.errors.push_back(problem);
      if (phase.profiles != launches)
        row.errors.push_back(std::to_string(phase.profiles) + " profiles for " +
                             std::to_string(launches) + " launches");
      else if (phase.good != launches)
        row.errors.push_back(std::to_string(launches - phase.good) + " launches not instrumented");
      if (!same)
        row.errors.push_back("output differs from the plain run (" + output + ")");
      kf.notes.insert(phase.notes.begin(), phase.notes.end());
      if (std::string(config.name) == "bbcount" && phase.last) {
        if (const auto* counts = phase.last->result<ocelot::BasicBlockCounts>()) {
          for (const auto& b : counts->blocks()) {
            if (b.function != phase.last->kernelName())
              continue;
            ++kf.blocks;
            kf.derived += b.derived ? 1 : 0;
          }
          const double threads = double(std::max<uint64_t>(counts->threads(), 1));
          kf.instructionsPerThread = double(counts->dynamicInstructions()) / threads;
          kf.instructionsPerBlockEntry = double(counts->dynamicInstructions()) /
                                         double(std::max<uint64_t>(counts->blockExecutions(), 1));
        }
      }
      rows.push_back(row);
    }
    for (size_t r = firstRow; r < rows.size(); ++r) {
      rows[r].medianMs = median(rows[r].ms);
      rows[r].slowdown = rows[r].medianMs / rows[firstRow].medianMs;
    }
    facts.push_back(kf);
    w->release();
    std::printf("  %-13s done (plain %.3f ms)\n", w->name(), rows[firstRow].medianMs);
    std::fflush(stdout);
  }
  ocelot::unsubscribe(token);
  CHECK(cudaStreamDestroy(stream));

  // The readable table.
  std::printf("\n%-13s %-15s %10s %10s %10s %9s %10s %9s  %s\n", "kernel", "config", "median ms",
              "min ms", "max ms", "slowdown", "kernel ms", "profiles", "output");
  int errors = 0;
  for (const Row& r : rows) {
    const auto [mn, mx] = std::minmax_element(r.ms.begin(), r.ms.end());
    char kernelMs[32] = "-";
    if (!std::isnan(r.kernelMs))
      std::snprintf(kernelMs, sizeof kernelMs, "%.3f", r.kernelMs);
    char profiles[32];
    std::snprintf(profiles, sizeof profiles, "%d/%d", r.profiles,
                  r.config == "plain" ? 0 : r.launches);
    std::printf("%-13s %-15s %10.3f %10.3f %10.3f %8.3fx %10s %9s  %s\n", r.kernel.c_str(),
                r.config.c_str(), r.medianMs, r.ms.empty() ? 0.0 : *mn, r.ms.empty() ? 0.0 : *mx,
                r.slowdown, kernelMs, profiles, r.output.c_str());
    for (const auto& e : r.errors) {
      std::printf("%-13s   ERROR: %s\n", "", e.c_str());
      ++errors;
    }
  }

  // What the kernels are made of (from their bbcount profiles), and what Ocelot noted.
  std::printf("\n%-13s %-38s %7s %8s %12s %12s\n", "kernel", "character", "blocks", "derived",
              "instr/thread", "instr/entry");
  for (const KernelFacts& k : facts) {
    std::printf("%-13s %-38s %7zu %8zu %12.1f %12.2f\n", k.name.c_str(), k.character.c_str(),
                k.blocks, k.derived, k.instructionsPerThread, k.instructionsPerBlockEntry);
    if (k.plainDrift)
      std::printf("%-13s   note: plain runs drifted (%.3f ms first, %.3f ms last)\n", "",
                  k.plainFirst, k.plainLast);
    for (const auto& note : k.notes)
      std::printf("%-13s   note: %s\n", "", note.c_str());
  }
  std::printf("(instr/entry: PTX instructions per basic-block entry, the paper's predictor of "
              "counting overhead)\n");

  // Geomean and worst slowdown per configuration, against the issue's bars.
  std::printf("\n%-15s %8s %8s %-13s %s\n", "config", "geomean", "worst", "(kernel)", "bars");
  for (const Config& config : gConfigs) {
    if (config.instrumentor == nullptr)
      continue;
    double logSum = 0, worst = 0;
    int n = 0;
    std::string worstKernel = "-";
    for (const Row& r : rows) {
      if (r.config != config.name || !r.ok() || !(r.slowdown > 0))
        continue;
      logSum += std::log(r.slowdown);
      ++n;
      if (r.slowdown > worst) {
        worst = r.slowdown;
        worstKernel = r.kernel;
      }
    }
    const double geomean = n > 0 ? std::exp(logSum / n) : std::nan("");
    std::string bars;
    const std::string name = config.name;
    if (name == "bbcount")
      bars = std::string("geomean <= 1.25 ") + (geomean <= 1.25 ? "ok" : "missed") +
             ", worst <= 2.00 " + (worst <= 2.0 ? "ok" : "missed");
    else if (name == "ctaclock")
      bars = std::string("geomean <= 1.05 ") + (geomean <= 1.05 ? "ok" : "missed");
    else if (name == "bbcount-thread")
      bars = "(no bar: the paper's counter matrix)";
    else if (name == "emptyprobe") // issue 13: an empty probe at every basic block
      bars = std::string("geomean <= 1.30 ") + (geomean <= 1.30 ? "ok" : "missed");
    else if (name == "probecount") // issue 13: keep whichever of it and bbcount is faster
      bars = "(compare with bbcount)";
    else if (name == "instmix") // issue 13's bars for the shipped probe tools (tools/probes)
      bars = std::string("geomean <= 1.10 ") + (geomean <= 1.10 ? "ok" : "missed");
    else if (name == "branchdiv")
      bars = std::string("geomean <= 1.50 ") + (geomean <= 1.50 ? "ok" : "missed");
    else if (name == "memaccess")
      bars = std::string("geomean <= 2.00 ") + (geomean <= 2.00 ? "ok" : "missed");
    else if (name == "memtrace")
      bars = std::string("geomean <= 5.00 ") + (geomean <= 5.00 ? "ok" : "missed");
    else if (name == "ctaclockprobe") // issue 13: keep whichever of it and ctaclock is faster
      bars = "(compare with ctaclock)";
    else if (name == "warpeff")
      bars = "(instmix's probes)";
    else
      bars = "(added with --tools)";
    std::printf("%-15s %7.3fx %7.3fx %-13s %s\n", config.name, geomean, worst, worstKernel.c_str(),
                bars.c_str());
  }
  if (opt.small)
    std::printf("(small sizes: the bars are meant for the full sizes on a GPU)\n");

  // The TSV, on stdout and optionally in a file.
  std::string tsv = "kernel\tconfig\tmedian_ms\tslowdown\tmin_ms\tmax_ms\tkernel_ms\tprofiles\t"
                    "output\tstatus\n";
  for (const Row& r : rows) {
    const auto [mn, mx] = std::minmax_element(r.ms.begin(), r.ms.end());
    char kernelMs[32] = "-";
    if (!std::isnan(r.kernelMs))
      std::snprintf(kernelMs, sizeof kernelMs, "%.4f", r.kernelMs);
    char line[512];
    std::snprintf(line, sizeof line, "%s\t%s\t%.4f\t%.4f\t%.4f\t%.4f\t%s\t%d\t%s\t%s\n",
                  r.kernel.c_str(), r.config.c_str(), r.medianMs, r.slowdown,
                  r.ms.empty() ? 0.0 : *mn, r.ms.empty() ? 0.0 : *mx, kernelMs, r.profiles,
                  r.output.c_str(), r.ok() ? "ok" : "ERROR");
    tsv += line;
  }
  std::printf("\n%s", tsv.c_str());
  if (!opt.tsv.empty()) {
    FILE* f = std::fopen(opt.tsv.c_str(), "w");
    if (f == nullptr || std::fputs(tsv.c_str(), f) < 0) {
      std::fprintf(stderr, "cannot write %s\n", opt.tsv.c_str());
      ++errors;
    }
    if (f != nullptr)
      std::fclose(f);
  }
  std::printf("\n%s: %d error(s)\n", errors == 0 ? "PASS" : "FAIL", errors);
  return errors == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  Options opt;
  if (const char* small = std::getenv("OCELOT_BENCH_SMALL"); small && std::strcmp(small, "0") != 0)
    opt.small = true;
  bool repsGiven = false, warmupGiven = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        throw std::invalid_argument(arg + " needs a value");
      return argv[++i];
    };
    try {
      if (arg == "--small")
        opt.small = true;
      else if (arg == "--reps")
        opt.reps = std::stoi(value()), repsGiven = true;
      else if (arg == "--warmup")
        opt.warmup = std::stoi(value()), warmupGiven = true;
      else if (arg == "--kernels")
        opt.kernels = value();
      else if (arg == "--tsv")
        opt.tsv = value();
      else if (arg == "--tools")
        opt.tools = value();
      else
        return usage(argv[0]);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return usage(argv[0]);
    }
  }
  if (opt.small && !repsGiven)
    opt.reps = 5;
  if (opt.small && !warmupGiven)
    opt.warmup = 1;
  if (opt.reps < 1 || opt.warmup < 1) {
    std::fprintf(stderr, "--reps and --warmup must be at least 1 (warm-up keeps module building "
                         "and JIT out of the timings)\n");
    return 2;
  }
  if (const char* tools = std::getenv("OCELOT_BENCH_TOOLS"); tools != nullptr && opt.tools.empty())
    opt.tools = tools;
  try {
    addToolConfigs(opt.tools);
    return run(opt);
  } catch (const std::exception& e) {
    std::printf("FAIL: %s\n", e.what());
    return 1;
  }
}
