// Workload: the Mandelbrot set in 64-bit fixed-point arithmetic (Q6.57 values, 128-bit products via
// __umul64hi on the device and __int128 on the host), so the GPU and CPU iteration counts
// are bit-identical and the image prints as deterministic ASCII art. Strongly divergent:
// neighbouring threads exit the escape loop after very different iteration counts.
//
// Structure for instrumentation: 512 x 384 pixels, block 32 x 8, grid 16 x 48; the escape loop runs
// between 1 and kMaxIter = 256 times per thread; the total iteration count is printed.
#include "e2e_common.h"

#include <vector>

constexpr int kW = 512, kH = 384, kMaxIter = 256;
constexpr int kFrac = 57; // fixed-point fraction bits: values in [-64, 64)

// (a * b) >> kFrac for signed Q6.57 values.
__host__ __device__ inline long long fx_mul(long long a, long long b) {
#ifdef __CUDA_ARCH__
  unsigned long long ua = static_cast<unsigned long long>(a),
                     ub = static_cast<unsigned long long>(b);
  long long hi = static_cast<long long>(__umul64hi(ua, ub));
  if (a < 0)
    hi -= b;
  if (b < 0)
    hi -= a;
  unsigned long long lo = ua * ub;
  return static_cast<long long>((static_cast<unsigned long long>(hi) << (64 - kFrac)) |
                                (lo >> kFrac));
#else
  __int128 p = static_cast<__int128>(a) * static_cast<__int128>(b);
  return static_cast<long long>(p >> kFrac);
#endif
}

__host__ __device__ inline int escape(long long cr, long long ci) {
  const long long four = 4LL << kFrac;
  long long zr = 0, zi = 0;
  int it = 0;
  while (it < kMaxIter) {
    long long zr2 = fx_mul(zr, zr), zi2 = fx_mul(zi, zi);
    if (zr2 + zi2 > four)
      break;
    long long t = zr2 - zi2 + cr;
    zi = 2 * fx_mul(zr, zi) + ci;
    zr = t;
    ++it;
  }
  return it;
}

// Pixel (x, y) maps to c = (-2.25 + x * 3/512, -1.125 + y * 2.25/384) in Q6.57 (the same integer
// expressions on host and device).
__host__ __device__ inline long long coord_r(int x) {
  return -(9LL << (kFrac - 2)) + (3LL << (kFrac - 9)) * x;
}
__host__ __device__ inline long long coord_i(int y) {
  return -(9LL << (kFrac - 3)) + ((9LL << (kFrac - 2)) / kH) * y;
}

__global__ void mandelbrot(int* iters) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < kW && y < kH)
    iters[y * kW + x] = escape(coord_r(x), coord_i(y));
}

int main() {
  int* d = nullptr;
  CHECK(cudaMalloc(&d, kW * kH * sizeof(int)));
  dim3 block(32, 8), grid(kW / 32, kH / 8);
  mandelbrot<<<grid, block>>>(d);
  CHECK_LAUNCH();
  std::vector<int> img(kW * kH);
  CHECK(cudaMemcpy(img.data(), d, img.size() * sizeof(int), cudaMemcpyDeviceToHost));

  bool ok = true;
  long long total = 0;
  int inside = 0;
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      int want = escape(coord_r(x), coord_i(y));
      int got = img[y * kW + x];
      ok = ok && got == want;
      total += got;
      inside += got == kMaxIter;
    }
  std::printf("mandelbrot %dx%d, max %d iterations: total iterations %lld, points inside %d\n", kW,
              kH, kMaxIter, total, inside);
  std::printf("image checksum: %016llx\n",
              (unsigned long long)e2e::fnv1a(img.data(), img.size() * sizeof(int)));
  const char* shades = " .:-=+*#%@";
  for (int y = 8; y < kH; y += 16) {
    for (int x = 4; x < kW; x += 8) {
      int it = img[y * kW + x];
      std::putchar(it == kMaxIter ? '@' : shades[(it * 9) / kMaxIter]);
    }
    std::putchar('\n');
  }
  e2e::expect(ok, "GPU iteration counts equal the CPU's");
  CHECK(cudaFree(d));
  return e2e::finish();
}
