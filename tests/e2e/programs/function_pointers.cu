// Device function pointers: `__device__` tables of them, addresses computed by one kernel and
// called by another, compared with each other and with the table, stored where the host reads
// them (cudaMemcpyFromSymbol) and passed back to kernels as arguments. A function pointer is the
// same value whichever kernel produced it, and every call through one reaches the function it
// names. Under instrumentation every launch must compute exactly what it computes without
// (issue #14, bug 3).
#include "e2e_common.h"

#include <vector>

typedef int (*unary_fn)(int);

__device__ __noinline__ int twice(int x) {
  return 2 * x;
}
__device__ __noinline__ int thrice(int x) {
  return 3 * x;
}
__device__ __noinline__ int square(int x) {
  return x * x;
}
__device__ __noinline__ int negate(int x) {
  return -x;
}
// Calls through a function pointer itself: an indirect call inside a function reached indirectly.
__device__ __noinline__ int twice_then_thrice(int x) {
  volatile unary_fn next = thrice;
  return next(twice(x));
}

__device__ unary_fn table[5] = {twice, thrice, square, negate, twice_then_thrice};

// 24 more functions of the same shape: with them an indirect call has 29 candidates, which
// Ocelot's instrumented code translates with a binary search rather than a chain of compares.
// clang-format off
#define ADDER(k) __device__ __noinline__ int add##k(int x) { return x + k * 1000; }
ADDER(0) ADDER(1) ADDER(2) ADDER(3) ADDER(4) ADDER(5) ADDER(6) ADDER(7) ADDER(8) ADDER(9)
ADDER(10) ADDER(11) ADDER(12) ADDER(13) ADDER(14) ADDER(15) ADDER(16) ADDER(17) ADDER(18)
ADDER(19) ADDER(20) ADDER(21) ADDER(22) ADDER(23)
__device__ unary_fn adders[24] = {add0,  add1,  add2,  add3,  add4,  add5,  add6,  add7,
                                  add8,  add9,  add10, add11, add12, add13, add14, add15,
                                  add16, add17, add18, add19, add20, add21, add22, add23};
// clang-format on
__device__ unary_fn d_twice = twice;     // read by the host
__device__ unary_fn d_current = nullptr; // written by a kernel, read by the host

__host__ __device__ int pick(int i) {
  return (i * 7 + 3) % 5;
}

__global__ void through_table(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = table[pick(i)](i);
}

__global__ void through_adders(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = adders[(i * 5) % 24](i);
}

// Addresses computed here (each a `mov` of the function's name), called by call_slots.
__global__ void fill_slots(unary_fn* slots, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unary_fn f;
  switch (pick(i)) {
  case 0:
    f = twice;
    break;
  case 1:
    f = thrice;
    break;
  case 2:
    f = square;
    break;
  case 3:
    f = negate;
    break;
  default:
    f = twice_then_thrice;
    break;
  }
  slots[i] = f;
}

__global__ void call_slots(unary_fn const* slots, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = slots[i](i);
}

// Identity: a pointer from fill_slots equals the table's entry for the same function.
__global__ void identify(unary_fn const* slots, int* index, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int found = -1;
  for (int k = 0; k < 5; ++k)
    if (slots[i] == table[k])
      found = k;
  index[i] = found;
}

// A pointer the host passes as an argument: called, and compared with a name taken here.
__global__ void apply(unary_fn f, int* out, int* is_twice, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = f(i);
  if (i == 0)
    *is_twice = f == twice ? 1 : 0;
}

__global__ void store_current(int which) {
  d_current = which == 0 ? thrice : negate;
}

static int host_apply(int k, int x) {
  switch (k) {
  case 0:
    return 2 * x;
  case 1:
    return 3 * x;
  case 2:
    return x * x;
  case 3:
    return -x;
  default:
    return 6 * x;
  }
}

int main() {
  const int n = 1024, threads = 128, blocks = n / threads;
  int *out = nullptr, *index = nullptr, *flag = nullptr;
  unary_fn* slots = nullptr;
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMalloc(&index, n * sizeof(int)));
  CHECK(cudaMalloc(&flag, sizeof(int)));
  CHECK(cudaMalloc(&slots, n * sizeof(unary_fn)));
  std::vector<int> expect(n), got(n);
  for (int i = 0; i < n; ++i)
    expect[i] = host_apply(pick(i), i);

  for (int launch = 0; launch < 2; ++launch) {
    CHECK(cudaMemset(out, 0, n * sizeof(int)));
    through_table<<<blocks, threads>>>(out, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
    e2e::expect(got == expect, launch == 0 ? "calls through a __device__ table, launch 1"
                                           : "calls through a __device__ table, launch 2");
  }

  through_adders<<<blocks, threads>>>(out, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  bool added = true;
  for (int i = 0; i < n; ++i)
    added = added && got[i] == i + (i * 5) % 24 * 1000;
  e2e::expect(added, "calls through a table of 24 functions");

  fill_slots<<<blocks, threads>>>(slots, n);
  CHECK_LAUNCH();
  for (int launch = 0; launch < 2; ++launch) {
    CHECK(cudaMemset(out, 0, n * sizeof(int)));
    call_slots<<<blocks, threads>>>(slots, out, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
    e2e::expect(got == expect, launch == 0 ? "addresses taken in one kernel, called in another, 1"
                                           : "addresses taken in one kernel, called in another, 2");
  }

  identify<<<blocks, threads>>>(slots, index, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got.data(), index, n * sizeof(int), cudaMemcpyDeviceToHost));
  bool identical = true;
  for (int i = 0; i < n; ++i)
    identical = identical && got[i] == pick(i);
  e2e::expect(identical, "taken addresses equal the table's");

  // The host's view: values read from two symbols and one written by a kernel.
  unary_fn host_table[5] = {};
  unary_fn host_twice = nullptr, host_current = nullptr;
  CHECK(cudaMemcpyFromSymbol(host_table, table, sizeof host_table));
  CHECK(cudaMemcpyFromSymbol(&host_twice, d_twice, sizeof host_twice));
  e2e::expect(host_twice != nullptr && host_twice == host_table[0],
              "the host reads one value for a function from two symbols");
  store_current<<<1, 1>>>(0);
  CHECK_LAUNCH();
  CHECK(cudaMemcpyFromSymbol(&host_current, d_current, sizeof host_current));
  e2e::expect(host_current == host_table[1], "a kernel stores the value the table holds");
  store_current<<<1, 1>>>(1);
  CHECK_LAUNCH();
  CHECK(cudaMemcpyFromSymbol(&host_current, d_current, sizeof host_current));
  e2e::expect(host_current == host_table[3], "a second kernel stores the value the table holds");

  // Pointers from the host as kernel arguments.
  for (int k = 0; k < 5; ++k) {
    int is_twice = -1;
    apply<<<blocks, threads>>>(host_table[k], out, flag, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&is_twice, flag, sizeof is_twice, cudaMemcpyDeviceToHost));
    bool ok = is_twice == (k == 0 ? 1 : 0);
    for (int i = 0; i < n; ++i)
      ok = ok && got[i] == host_apply(k, i);
    char what[96];
    std::snprintf(what, sizeof what, "function pointer %d passed from the host", k);
    e2e::expect(ok, what);
  }
  apply<<<blocks, threads>>>(host_twice, out, flag, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && got[i] == 2 * i;
  e2e::expect(ok, "cudaMemcpyFromSymbol's pointer passed back to a kernel");

  long long sum = 0;
  for (int i = 0; i < n; ++i)
    sum += expect[i];
  std::printf("sum of table calls %lld\n", sum);
  CHECK(cudaFree(out));
  CHECK(cudaFree(index));
  CHECK(cudaFree(flag));
  CHECK(cudaFree(slots));
  return e2e::finish();
}
