// Shared memory: static arrays of several types, `extern __shared__` dynamic arrays (unsized
// `.extern .shared` in PTX), shared memory aliased through several views, bank-conflict-free
// padding, and a block-wide tree reduction.
#include <cstdint>

constexpr int kBlock = 256;

__global__ void staticReduction(const float* in, float* out, int n) {
  __shared__ float partial[kBlock];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x * 2 + tid;
  float v = 0.0f;
  if (i < n)
    v = in[i];
  if (i + blockDim.x < n)
    v += in[i + blockDim.x];
  partial[tid] = v;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tid < stride)
      partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    volatile float* vp = partial;
    vp[tid] += vp[tid + 32];
    vp[tid] += vp[tid + 16];
    vp[tid] += vp[tid + 8];
    vp[tid] += vp[tid + 4];
    vp[tid] += vp[tid + 2];
    vp[tid] += vp[tid + 1];
  }
  if (tid == 0)
    out[blockIdx.x] = partial[0];
}

// Dynamic shared memory sized at launch time.
extern __shared__ unsigned char dynamicBytes[];

__global__ void dynamicShared(const int* in, int* out, int count) {
  int* values = reinterpret_cast<int*>(dynamicBytes);
  for (int k = threadIdx.x; k < count; k += blockDim.x)
    values[k] = in[blockIdx.x * count + k];
  __syncthreads();
  // Reverse in place.
  for (int k = threadIdx.x; k < count / 2; k += blockDim.x) {
    int t = values[k];
    values[k] = values[count - 1 - k];
    values[count - 1 - k] = t;
  }
  __syncthreads();
  for (int k = threadIdx.x; k < count; k += blockDim.x)
    out[blockIdx.x * count + k] = values[k];
}

// Two typed views of the same dynamic allocation, one after the other.
__global__ void dynamicTwoViews(const double* a, const short* b, double* out, int na, int nb) {
  extern __shared__ double dynamicDoubles[];
  double* da = dynamicDoubles;
  short* sb = reinterpret_cast<short*>(da + na);
  for (int k = threadIdx.x; k < na; k += blockDim.x)
    da[k] = a[k];
  for (int k = threadIdx.x; k < nb; k += blockDim.x)
    sb[k] = b[k];
  __syncthreads();
  double acc = 0;
  for (int k = 0; k < na; ++k)
    acc += da[k] * sb[(k + threadIdx.x) % nb];
  out[threadIdx.x] = acc;
}

// Transpose through a padded tile (33 columns avoid bank conflicts).
__global__ void transposeTile(const float* in, float* out, int width, int height) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < height && y + j < width)
      out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Shared variables of several types and alignments in one kernel, plus a shared struct.
struct Histogram {
  unsigned bins[64];
  unsigned long long total;
};

__global__ void sharedStruct(const uint8_t* data, int n, unsigned* out) {
  __shared__ Histogram h;
  __shared__ uint16_t marks[kBlock];
  __shared__ alignas(16) float4 vectors[16];
  for (int k = threadIdx.x; k < 64; k += blockDim.x)
    h.bins[k] = 0;
  if (threadIdx.x == 0)
    h.total = 0;
  if (threadIdx.x < 16)
    vectors[threadIdx.x] = make_float4(threadIdx.x, 0, 0, 1);
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicAdd(&h.bins[data[i] & 63], 1u);
    atomicAdd(&h.total, 1ull);
  }
  marks[threadIdx.x] = static_cast<uint16_t>(threadIdx.x * 3);
  __syncthreads();
  if (threadIdx.x < 64)
    atomicAdd(&out[threadIdx.x], h.bins[threadIdx.x] + marks[threadIdx.x] +
                                     static_cast<unsigned>(vectors[threadIdx.x & 15].w));
  if (threadIdx.x == 0)
    atomicAdd(&out[64], static_cast<unsigned>(h.total));
}

// __syncthreads_count/_and/_or return values (bar.red).
__global__ void barrierReductions(const int* flags, int* out) {
  int f = flags[blockIdx.x * blockDim.x + threadIdx.x];
  int count = __syncthreads_count(f > 0);
  int all = __syncthreads_and(f != 0);
  int any = __syncthreads_or(f < 0);
  if (threadIdx.x == 0) {
    out[blockIdx.x * 3 + 0] = count;
    out[blockIdx.x * 3 + 1] = all;
    out[blockIdx.x * 3 + 2] = any;
  }
}
