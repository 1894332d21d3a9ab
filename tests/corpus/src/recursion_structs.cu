// Real calls the compiler cannot inline: recursion (direct and mutual), __noinline__ device
// functions taking and returning structs by value (.param .align N .b8 return values),
// functions with many parameters, and a local-memory stack (__local_depot).
#include <cstdint>

struct Vec3 {
  float x, y, z;
};

struct Result {
  double value;
  int iterations;
  bool converged;
  Vec3 direction;
};

struct Big {
  long long words[12];
};

__device__ __noinline__ Vec3 cross(Vec3 a, Vec3 b) {
  return Vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

__device__ __noinline__ Result newton(double target, int maxIterations, Vec3 dir) {
  Result r{target, 0, false, dir};
  double x = target > 1.0 ? target / 2.0 : 1.0;
  for (int k = 0; k < maxIterations; ++k) {
    double next = 0.5 * (x + target / x);
    r.iterations = k + 1;
    if (fabs(next - x) < 1e-12) {
      r.converged = true;
      x = next;
      break;
    }
    x = next;
  }
  r.value = x;
  return r;
}

__device__ __noinline__ Big mixBig(Big a, const Big& b, int rounds) {
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < 12; ++k)
      a.words[k] = a.words[k] * 31 + b.words[(k + r) % 12];
  return a;
}

__device__ __noinline__ unsigned long long fibonacci(unsigned n) {
  return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2);
}

__device__ bool isOdd(unsigned n);
__device__ __noinline__ bool isEven(unsigned n) {
  return n == 0 ? true : isOdd(n - 1);
}
__device__ __noinline__ bool isOdd(unsigned n) {
  return n == 0 ? false : isEven(n - 1);
}

// Recursive quicksort on a small per-thread local array.
__device__ __noinline__ void quicksort(int* a, int lo, int hi) {
  if (lo >= hi)
    return;
  int pivot = a[(lo + hi) / 2], i = lo, j = hi;
  while (i <= j) {
    while (a[i] < pivot)
      ++i;
    while (a[j] > pivot)
      --j;
    if (i <= j) {
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
      ++i;
      --j;
    }
  }
  quicksort(a, lo, j);
  quicksort(a, i, hi);
}

// Ackermann's function: deep, data-dependent recursion.
__device__ __noinline__ unsigned ackermann(unsigned m, unsigned n) {
  if (m == 0)
    return n + 1;
  if (n == 0)
    return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}

__device__ __noinline__ float manyParameters(float a, float b, float c, float d, int e, int f,
                                             double g, double h, char i, short j, long long k,
                                             const float* l) {
  return a + b * c - d + e * f + static_cast<float>(g / h) + i + j + static_cast<float>(k) + l[0];
}

__global__ void callEverything(const int* input, unsigned long long* out, float* fout,
                               Result* results, Big* bigs) {
  int t = threadIdx.x;
  int local[16];
  for (int k = 0; k < 16; ++k)
    local[k] = input[(t * 16 + k * 7) % 256];
  quicksort(local, 0, 15);
  out[t] = fibonacci(t % 20) + (isEven(t) ? 1 : 0) + local[0] + local[15] + ackermann(2, t % 4);
  Vec3 a{1.0f, static_cast<float>(t), 2.0f}, b{0.5f, 1.0f, static_cast<float>(t)};
  Vec3 c = cross(a, b);
  results[t] = newton(static_cast<double>(t) + 2.0, 50, c);
  Big big;
  for (int k = 0; k < 12; ++k)
    big.words[k] = input[k] + t;
  bigs[t] = mixBig(big, big, t % 3);
  fout[t] = manyParameters(c.x, c.y, c.z, 1.0f, t, t + 1, 2.0, 3.0, 'a', 7, 1ll << 40, fout);
}
