// Separate compilation, library side (compiled with -rdc=true): externally visible device
// functions (.visible .func), device variables other units declare `extern` (.visible .global),
// a __constant__ table exported to other units, and a kernel other units can launch.
#include <cstdint>

__device__ int gLibraryCalls;
__device__ float gLibraryScale = 1.5f;
__constant__ float cLibraryTable[16] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f, 3.5f,
                                        4.0f, 4.5f, 5.0f, 5.5f, 6.0f, 6.5f, 7.0f, 7.5f};

__device__ float libraryTransform(float x, int index) {
  atomicAdd(&gLibraryCalls, 1);
  return x * gLibraryScale + cLibraryTable[index & 15];
}

__device__ uint32_t libraryHash(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// Static functions stay internal (.func without .visible) even under -rdc.
static __device__ int internalHelper(int v) {
  return v * 3 + 1;
}

__device__ int libraryCollatzSteps(int v) {
  int steps = 0;
  while (v > 1 && steps < 1000) {
    v = (v & 1) ? internalHelper(v) : v / 2;
    ++steps;
  }
  return steps;
}

__global__ void libraryKernel(float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = libraryTransform(data[i], i) + static_cast<float>(libraryHash(i) & 7);
}
