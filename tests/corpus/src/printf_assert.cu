// Device-side diagnostics: printf with many argument types (vprintf call sequences with a
// local buffer and `$str` globals), assert (__assertfail, .noreturn), __trap/__brkpt,
// [[noreturn]] functions, and a device function that aborts on bad input.
#include <cassert>
#include <cstdio>

__global__ void printValues(int i, unsigned u, long long ll, float f, double d, const char* s,
                            const void* p) {
  printf("thread %d of block %d\n", static_cast<int>(threadIdx.x), static_cast<int>(blockIdx.x));
  if (threadIdx.x == 0) {
    printf("i=%d u=%u ll=%lld f=%f d=%g e=%e\n", i, u, ll, f, d, d * 2.0);
    printf("s=%s p=%p c=%c x=%x o=%o\n", s, p, 'A' + i % 26, u, u);
    printf("%5.2f|%-8d|%08x|%%\n", f, i, u);
  }
  printf("no arguments at all\n");
}

__device__ void checkRange(int value, int limit) {
  assert(value >= 0);
  assert(value < limit && "value out of range");
}

__global__ void assertions(const int* values, int limit, int* out) {
  int v = values[blockIdx.x * blockDim.x + threadIdx.x];
  checkRange(v, limit);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v * 2;
}

[[noreturn]] __device__ __noinline__ void fatal(int code) {
  printf("fatal error %d in block %d\n", code, static_cast<int>(blockIdx.x));
  __trap();
}

__global__ void trapOnError(const int* status, int* out) {
  int s = status[threadIdx.x];
  if (s < 0)
    fatal(s);
  if (s == 12345)
    __brkpt();
  out[threadIdx.x] = s + 1;
}

// printf inside a loop and a divergent branch, with a struct passed field by field.
struct Sample {
  float x, y;
  int id;
};

__global__ void printSamples(const Sample* samples, int n) {
  for (int k = threadIdx.x; k < n; k += blockDim.x) {
    Sample s = samples[k];
    if (s.x > s.y)
      printf("sample %d: (%.3f, %.3f) x wins\n", s.id, s.x, s.y);
    else
      printf("sample %d: (%.3f, %.3f) y wins by %.1e\n", s.id, s.x, s.y, s.y - s.x);
  }
}
