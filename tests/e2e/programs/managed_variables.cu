// __managed__ variables (registered through __cudaRegisterManagedVar): read and written by the host
// directly and by kernels, a managed array and a managed struct, cudaGetSymbolAddress on a managed
// variable, and cudaMemcpyToSymbol/FromSymbol on one.
#include "e2e_common.h"

struct Stats {
  int count;
  long long sum;
  int min;
  int max;
};

__managed__ int g_scale = 3;
__managed__ int g_values[1024];
__managed__ Stats g_stats;

__global__ void scale_values(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    g_values[i] *= g_scale;
}

// Single thread, so that the result does not depend on scheduling.
__global__ void compute_stats(int n) {
  Stats s{0, 0, 0x7fffffff, -0x7fffffff - 1};
  for (int i = 0; i < n; ++i) {
    int v = g_values[i];
    s.count++;
    s.sum += v;
    s.min = v < s.min ? v : s.min;
    s.max = v > s.max ? v : s.max;
  }
  g_stats = s;
}

int main() {
  std::printf("initial g_scale: %d\n", g_scale);
  for (int i = 0; i < 1024; ++i)
    g_values[i] = (i * 13) % 101 - 50;
  g_scale = 5;
  scale_values<<<4, 256>>>(1024);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());
  compute_stats<<<1, 1>>>(1024);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());
  std::printf("stats: count %d sum %lld min %d max %d\n", g_stats.count, g_stats.sum, g_stats.min,
              g_stats.max);

  long long want_sum = 0;
  int want_min = 1 << 30, want_max = -(1 << 30);
  bool ok = true;
  for (int i = 0; i < 1024; ++i) {
    int v = ((i * 13) % 101 - 50) * 5;
    ok = ok && g_values[i] == v;
    want_sum += v;
    want_min = v < want_min ? v : want_min;
    want_max = v > want_max ? v : want_max;
  }
  e2e::expect(ok, "managed array scaled by the kernel");
  e2e::expect(g_stats.count == 1024 && g_stats.sum == want_sum && g_stats.min == want_min &&
                  g_stats.max == want_max,
              "managed struct written by the kernel");

  // The symbol address of a managed variable is its unified address.
  void* addr = nullptr;
  CHECK(cudaGetSymbolAddress(&addr, g_scale));
  e2e::expect(addr == static_cast<void*>(&g_scale), "cudaGetSymbolAddress(g_scale) == &g_scale");
  size_t size = 0;
  CHECK(cudaGetSymbolSize(&size, g_values));
  std::printf("cudaGetSymbolSize(g_values): %zu\n", size);

  int seven = 7;
  CHECK(cudaMemcpyToSymbol(g_scale, &seven, sizeof seven));
  std::printf("g_scale after cudaMemcpyToSymbol: %d\n", g_scale);
  int readback = 0;
  CHECK(cudaMemcpyFromSymbol(&readback, g_values, sizeof readback, 4 * sizeof(int)));
  std::printf("g_values[4] via cudaMemcpyFromSymbol: %d\n", readback);
  e2e::expect(readback == g_values[4], "cudaMemcpyFromSymbol with offset on managed array");
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
