// Kernel signatures of every shape: no parameters, scalar parameters of every width, pointers,
// and aggregates passed by value (small, large, nested, with arrays), plus __grid_constant__.
#include <cstdint>

__device__ unsigned int gTicks;
__device__ float gScratch[64];

// A kernel without parameters: the PTX has `.entry name()`.
__global__ void noParameters() {
  atomicAdd(&gTicks, 1u);
}

// Another one with an empty body apart from the return.
__global__ void emptyKernel() {}

__global__ void scalarParameters(char c, short s, int i, long long ll, unsigned char uc,
                                 unsigned short us, unsigned u, unsigned long long ull, float f,
                                 double d, bool b, int* out) {
  long long sum = c + s + i + ll + uc + us + u + static_cast<long long>(ull);
  out[threadIdx.x] = static_cast<int>(sum) + static_cast<int>(f * 3.0f + d) + (b ? 1 : 0);
}

struct Small {
  int a;
  float b;
};

struct Matrix4 {
  float m[4][4];
};

struct Nested {
  Small pair[3];
  double weight;
  Matrix4 transform;
  char tag[7];
};

// A large aggregate parameter (about 4 KB): `.param .align 8 .b8 p[4104]`.
struct Huge {
  double coefficients[512];
  int count;
};

__global__ void structParameters(Small s, Matrix4 m, Nested n, float4* out) {
  float4 v;
  v.x = s.a * m.m[0][0] + n.pair[1].b;
  v.y = s.b * m.m[1][1] + static_cast<float>(n.weight);
  v.z = n.transform.m[2][3] + n.tag[threadIdx.x % 7];
  v.w = m.m[threadIdx.x % 4][(threadIdx.x / 4) % 4];
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void hugeParameter(Huge h, double* out) {
  double acc = 0.0;
  for (int k = threadIdx.x; k < h.count && k < 512; k += blockDim.x)
    acc += h.coefficients[k] * k;
  out[threadIdx.x] = acc;
}

// __grid_constant__ lets the kernel take the parameter's address without a copy.
__global__ void gridConstant(const __grid_constant__ Huge h, const double** where) {
  if (threadIdx.x == 0)
    *where = &h.coefficients[blockIdx.x % 512];
}

struct alignas(16) Aligned16 {
  uint32_t words[4];
};

__global__ void alignedParameter(Aligned16 a, Aligned16* out) {
  Aligned16 r = a;
  r.words[threadIdx.x & 3] ^= threadIdx.x;
  out[threadIdx.x] = r;
}

// Pointers to every state space the compiler knows about at the call site.
__global__ void pointerParameters(const float* __restrict__ in, float* __restrict__ out,
                                  const int* indices, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[indices[i]] + gScratch[i & 63];
}
