// Performance directives: __launch_bounds__ with one, two and three arguments (.maxntid,
// .minnctapersm, .maxclusterrank), __maxnreg__ (.maxnreg), kernels whose register pressure
// makes the bounds matter, and a device function called from differently bounded kernels.

__device__ float heavyMath(const float* in, int i) {
  float acc[16];
#pragma unroll
  for (int k = 0; k < 16; ++k)
    acc[k] = in[(i + k * 33) & 1023] * (k + 1);
  float r = 0.0f;
#pragma unroll
  for (int k = 0; k < 16; ++k)
    r = fmaf(acc[k], acc[15 - k], r);
  return r;
}

__global__ void __launch_bounds__(256) boundsThreads(const float* in, float* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = heavyMath(in, threadIdx.x);
}

__global__ void __launch_bounds__(128, 4) boundsThreadsAndBlocks(const float* in, float* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = heavyMath(in, threadIdx.x + 1);
}

__global__ void __launch_bounds__(1024, 1) boundsLargeBlocks(const float* in, float* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = heavyMath(in, threadIdx.x + 2);
}

__global__ void __maxnreg__(32) limitedRegisters(const float* in, float* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = heavyMath(in, threadIdx.x + 3);
}

__global__ void __maxnreg__(128) generousRegisters(const float* in, float* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = heavyMath(in, threadIdx.x + 4) * 2.0f;
}

// A 2D block shape under bounds.
__global__ void __launch_bounds__(512, 2) bounds2D(float* grid, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  grid[y * width + x] = static_cast<float>(x * y) + heavyMath(grid, x ^ y);
}

// The third argument (maximum thread blocks per cluster) is a Hopper feature.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CLUSTER_BOUNDS __launch_bounds__(256, 1, 4)
#else
#define CLUSTER_BOUNDS __launch_bounds__(256, 1)
#endif

__global__ void CLUSTER_BOUNDS boundsWithClusterLimit(const float* in, float* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = heavyMath(in, threadIdx.x + 5);
}
