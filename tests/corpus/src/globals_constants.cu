// Module-scope variables of every kind: __managed__ variables (.global with the managed
// attribute), __constant__ tables of several types and alignments, initialised and
// zero-initialised __device__ variables, arrays of structs with initializers, pointer
// variables initialised with the address of other variables (`generic(sym)` initializers),
// 16-bit and 8-bit element arrays, and variables read through ld.const / ld.global.
#include <cuda_fp16.h>

#include <cstdint>

__managed__ int mCounter = 0;
__managed__ float mScale = 2.5f;
__managed__ double mHistory[8];

__constant__ float cWeights[9] = {0.0625f, 0.125f,  0.0625f, 0.125f, 0.25f,
                                  0.125f,  0.0625f, 0.125f,  0.0625f};
__constant__ double cPolynomial[6] = {1.0,
                                      -0.5,
                                      0.041666666666666664,
                                      -0.001388888888888889,
                                      2.48015873015873e-05,
                                      -2.755731922398589e-07};
__constant__ int16_t cShorts[5] = {-1, 2, -3, 4, -32768};
__constant__ uint8_t cBytes[7] = {1, 2, 3, 250, 251, 252, 255};
__constant__ unsigned long long cMasks[4] = {0x5555555555555555ull, 0x3333333333333333ull,
                                             0x0f0f0f0f0f0f0f0full, 0x00ff00ff00ff00ffull};
__constant__ int cUninitialised[32];

struct Material {
  float albedo[3];
  float roughness;
  int flags;
};

__constant__ Material cMaterials[3] = {
    {{0.9f, 0.1f, 0.1f}, 0.5f, 1}, {{0.1f, 0.9f, 0.1f}, 0.25f, 2}, {{0.2f, 0.2f, 0.8f}, 1.0f, 4}};

__device__ int gInitialised = 42;
__device__ float gZero;
__device__ __half gHalfValues[4] = {__half_raw{0x3C00}, __half_raw{0x4000}, __half_raw{0xC000},
                                    __half_raw{0x7BFF}};
__device__ int gTarget[4] = {1, 2, 3, 4};
// The addresses of other variables: `.u64 gPointer = generic(gTarget)` and offsets into it.
__device__ int* gPointer = gTarget;
__device__ int* gPointerInto = &gTarget[2];
__device__ const float* gConstPointer = &cWeights[4];
__device__ int* gPointerTable[3] = {&gTarget[0], &gInitialised, &gTarget[3]};

__global__ void useManaged(int* out) {
  atomicAdd(&mCounter, 1);
  if (threadIdx.x < 8)
    mHistory[threadIdx.x] = mScale * threadIdx.x;
  out[threadIdx.x] = mCounter;
}

__global__ void convolve3x3(const float* in, float* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1)
    return;
  float acc = 0.0f;
#pragma unroll
  for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
    for (int dx = -1; dx <= 1; ++dx)
      acc += cWeights[(dy + 1) * 3 + dx + 1] * in[(y + dy) * width + x + dx];
  out[y * width + x] = acc;
}

__global__ void evaluate(const double* xs, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double x2 = xs[i] * xs[i], acc = 0.0, power = 1.0;
  for (int k = 0; k < 6; ++k) {
    acc += cPolynomial[k] * power;
    power *= x2;
  }
  out[i] = acc;
}

__global__ void tables(const int* idx, long long* out) {
  int i = idx[threadIdx.x];
  const Material& m = cMaterials[i % 3];
  long long v = cShorts[i % 5] + cBytes[i % 7] + static_cast<long long>(cMasks[i & 3] >> (i & 7)) +
                cUninitialised[i & 31] + m.flags + static_cast<long long>(m.albedo[i % 3] * 100);
  v += *gPointer + *gPointerInto + static_cast<long long>(*gConstPointer * 16.0f) +
       *gPointerTable[i % 3] + gInitialised + static_cast<long long>(gZero);
  v += static_cast<long long>(__half2float(gHalfValues[i & 3]));
  out[threadIdx.x] = v;
}
