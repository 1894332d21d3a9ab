// Separate compilation, consumer side (compiled with -rdc=true): calls to device functions and
// uses of variables defined in rdc_library.cu, which appear as `.extern .func` and
// `.extern .global` declarations, plus an `extern __shared__` array and a kernel launched from
// the device that lives in the other unit (`.extern .entry`).
#include <cstdint>

extern __device__ int gLibraryCalls;
extern __device__ float gLibraryScale;
extern __constant__ float cLibraryTable[16];
extern __device__ float libraryTransform(float x, int index);
extern __device__ uint32_t libraryHash(uint32_t x);
extern __device__ int libraryCollatzSteps(int v);
extern __global__ void libraryKernel(float* data, int n);

__global__ void consumeLibrary(float* data, uint32_t* hashes, int* steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  data[i] = libraryTransform(data[i], i) * gLibraryScale + cLibraryTable[i & 15];
  hashes[i] = libraryHash(static_cast<uint32_t>(i));
  steps[i] = libraryCollatzSteps(i + 1);
  if (i == 0) {
    steps[n] = gLibraryCalls;
    libraryKernel<<<1, 32>>>(data, 32);
  }
}

extern __shared__ float sharedAcrossUnits[];

__global__ void consumeShared(const float* in, float* out) {
  sharedAcrossUnits[threadIdx.x] = libraryTransform(in[threadIdx.x], threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = sharedAcrossUnits[blockDim.x - 1 - threadIdx.x];
}

// A weak device function (template instantiation) that several units may define.
template <int N> __device__ int weakPower(int x) {
  int r = 1;
  for (int k = 0; k < N; ++k)
    r *= x;
  return r;
}

__global__ void useWeak(int* out) {
  out[threadIdx.x] = weakPower<3>(threadIdx.x) + weakPower<5>(2);
}
