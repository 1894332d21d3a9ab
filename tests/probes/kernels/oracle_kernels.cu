// Analytic kernels for the probe oracle tests (ProbeOracleTest.cpp): each one's block counts,
// addresses and branch predicates are known from its source, and the CPU device's execution trace
// gives them exactly for the comparison.

// Coalesced: thread i reads in[i] and writes out[i] (4-byte words, consecutive).
extern "C" __global__ void coalesced(const float* in, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * 2.0f;
}

// Strided: thread i reads in[i * stride].
extern "C" __global__ void strided(const float* in, float* out, int stride) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * stride];
}

// Shared memory with `ways`-way bank conflicts (one warp per CTA, ways <= 32): lane l writes
// word l * ways, so each bank that is used serves `ways` distinct words.
extern "C" __global__ void sharedConflicts(int* out, int ways) {
  __shared__ int words[1024];
  words[threadIdx.x * ways] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = words[threadIdx.x];
}

__device__ __noinline__ int scale(const int* table, int v) {
  return table[v % 8] * v;
}

// Divergent branches with known splits, a loop whose trip count depends on the thread, a device
// function with its own loads, atomics.
extern "C" __global__ void divergent(const int* table, int* out, unsigned* counters) {
  int t = threadIdx.x;
  int v;
  if (t % 3 == 0) // 1 in 3 threads: every warp diverges
    v = scale(table, t);
  else
    v = t * 5 + 1;
  if (t < 32) // warp-uniform
    v ^= 0x55;
  for (int k = 0; k < t % 5; ++k) // 0..4 iterations
    v += table[k];
  atomicAdd(&counters[t % 4], 1u);
  out[blockIdx.x * blockDim.x + t] = v;
}

// A 2-D grid of 2-D blocks: linear CTA, warp and lane ids.
extern "C" __global__ void grid2d(int* out) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned width = gridDim.x * blockDim.x;
  if ((x + y) % 2 == 0)
    out[y * width + x] = x * 1000 + y;
}

// Partial warps (launched with 80 threads per CTA) and early returns: every thread still leaves
// the kernel exactly once.
extern "C" __global__ void partial(int* out) {
  unsigned t = threadIdx.x;
  if (t % 7 == 0)
    return;
  out[blockIdx.x * blockDim.x + t] = t;
}

// Local memory (a per-thread array indexed at run time): every lane stores each word at the same
// offset, then lane l loads word (l * stride) & 63.
extern "C" __global__ void localWords(int* out, int stride) {
  volatile int words[64];
  for (int i = 0; i < 64; ++i)
    words[i] = i + threadIdx.x;
  out[blockIdx.x * blockDim.x + threadIdx.x] = words[(threadIdx.x * stride) & 63];
}

// 16-byte local accesses: lane l loads quad (l * stride) & 15.
extern "C" __global__ void localQuads(int4* out, int stride) {
  int4 quads[16];
  for (int i = 0; i < 16; ++i)
    quads[i] = make_int4(i, threadIdx.x, i, threadIdx.x);
  out[blockIdx.x * blockDim.x + threadIdx.x] = quads[(threadIdx.x * stride) & 15];
}
