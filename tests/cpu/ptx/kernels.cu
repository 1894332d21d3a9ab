#include <cstdio>
extern "C" __global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
#define TILE 16
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0;
  for (int t = 0; t < n / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = sum;
}
extern "C" __global__ void reduce(const int* in, int* out, int n) {
  extern __shared__ int s[];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  int v = 0;
  if (i < n)
    v = in[i];
  if (i + blockDim.x < n)
    v += in[i + blockDim.x];
  s[tid] = v;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    v = s[tid] + s[tid + 32];
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffff, v, o);
    if (tid == 0)
      atomicAdd(out, v);
  }
}
__device__ int fib(int n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
extern "C" __global__ void recursion(int* out) {
  out[threadIdx.x] = fib(threadIdx.x % 12);
}
extern "C" __global__ void printer(int k) {
  if (threadIdx.x < 2)
    printf("hello %d from %d %f %s\n", k, threadIdx.x, 1.5, "str");
}
extern "C" __global__ void oob(int* p) {
  p[threadIdx.x * 1000000] = 1;
}
extern "C" __global__ void spin(volatile int* p) {
  while (*p == 0) {
  }
}
extern "C" __global__ void divergent_barrier(int* p) {
  if (threadIdx.x < 16)
    __syncthreads();
  p[threadIdx.x] = 1;
}
extern "C" __global__ void trapper() {
  __trap();
}
extern "C" __global__ void mallocer(int* out) {
  int* q = (int*)malloc(16);
  q[0] = threadIdx.x;
  out[threadIdx.x] = q[0] * 2;
  free(q);
}
// Streams and graphs (CpuStreamTest, CpuGraphTest, CpuCaptureTest).
extern "C" __global__ void write_value(int* p, int v) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    *p = v;
}
extern "C" __global__ void add_value(int* p, int v) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    *p += v;
}
extern "C" __global__ void set_condition(cudaGraphConditionalHandle handle, const int* value) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    cudaGraphSetConditional(handle, static_cast<unsigned>(*value));
}
extern "C" __global__ void countdown(cudaGraphConditionalHandle handle, int* counter, int* steps) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    int c = *counter - 1;
    *counter = c;
    *steps += 1;
    cudaGraphSetConditional(handle, c > 0 ? 1u : 0u);
  }
}
// Lanes of a warp take different paths and loops of different lengths (the executor benchmark's
// divergent workload).
extern "C" __global__ void divergent(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = in[i], acc = 0;
  if (v % 3 == 0) {
    for (int k = 0; k < (v & 15); ++k)
      acc += k * v;
  } else if (v % 3 == 1) {
    for (int k = 0; k < (v & 7); ++k)
      acc ^= acc * 31 + k;
  } else {
    acc = v * v;
  }
  out[i] = acc;
}
// Barrier regions with divergence between them (the LLVM executor runs a CTA's warps through its
// regions in one call): branches and data-dependent loops inside regions, different bar.sync
// instructions of one barrier taken by different warps, a loop of barriers longer than a time
// slice, a whole warp returning early (so later barriers count fewer threads), and a block size
// that leaves a partial warp.
extern "C" __global__ void regions(const int* in, int* out, int n) {
  __shared__ int s[256];
  const int tid = threadIdx.x, size = blockDim.x;
  const int i = blockIdx.x * size + tid;
  int v = i < n ? in[i] : 0;
  if (tid & 1)
    v = v * 3 + 1;
  else
    v ^= 0x55;
  s[tid] = v;
  __syncthreads();
  int acc = s[(tid + 37) % size];
  for (int k = 0; k < (acc & 7); ++k)
    acc += s[(tid + k) % size] >> 1;
  __syncthreads();
  if ((tid >> 5) % 2 == 0) {
    s[tid] = acc;
    __syncthreads();
    acc += s[(tid + 5) % size] & 0xffff;
  } else {
    s[tid] = acc ^ 0x1234;
    __syncthreads();
    acc -= s[(tid + 9) % size] & 0xfff;
  }
  for (int r = 0; r < 40; ++r) {
    __syncthreads();
    s[tid] = acc + r;
    __syncthreads();
    if (s[(tid + r) % size] & 1)
      acc += s[(tid * 3 + r) % size] & 0xff;
    else
      acc ^= r;
  }
  __syncthreads();
  if ((tid >> 5) == 2 && blockIdx.x % 2 == 0)
    return;
  s[tid] = acc + 1;
  __syncthreads();
  if (i < n)
    out[i] = acc + s[(tid * 7) % size];
}
