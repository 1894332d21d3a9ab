// Device symbols (registered through __cudaRegisterVar): __device__ and __constant__ scalars,
// arrays and structs, in a namespace and file-static; cudaMemcpyToSymbol/FromSymbol with offsets
// and DeviceToDevice kinds, the Async variants, cudaGetSymbolAddress and cudaGetSymbolSize.
#include "e2e_common.h"

struct Params {
  int a;
  float b;
  double c;
  char tag[8];
};

__device__ int g_scalar;
__device__ int g_array[256];
__constant__ Params c_params;
__constant__ int c_table[64];
namespace inner {
__device__ long long g_total = 42;
}
static __device__ unsigned g_file_static[3] = {1, 2, 3};

__global__ void use_symbols(int* out) {
  int t = threadIdx.x;
  // out[t] = g_array[t] * table value + scalar + params.a
  out[t] = g_array[t] * c_table[t % 64] + g_scalar + c_params.a;
  if (t == 0) {
    inner::g_total += c_params.a;
    g_file_static[0] += g_file_static[1] + g_file_static[2];
  }
}

int main() {
  size_t sz = 0;
  CHECK(cudaGetSymbolSize(&sz, g_scalar));
  std::printf("size g_scalar %zu", sz);
  CHECK(cudaGetSymbolSize(&sz, g_array));
  std::printf(", g_array %zu", sz);
  CHECK(cudaGetSymbolSize(&sz, c_params));
  std::printf(", c_params %zu", sz);
  CHECK(cudaGetSymbolSize(&sz, c_table));
  std::printf(", c_table %zu", sz);
  CHECK(cudaGetSymbolSize(&sz, inner::g_total));
  std::printf(", inner::g_total %zu", sz);
  CHECK(cudaGetSymbolSize(&sz, g_file_static));
  std::printf(", g_file_static %zu\n", sz);

  // Initial values come from the module image.
  long long total = 0;
  CHECK(cudaMemcpyFromSymbol(&total, inner::g_total, sizeof total));
  unsigned fs[3] = {0, 0, 0};
  CHECK(cudaMemcpyFromSymbol(fs, g_file_static, sizeof fs));
  std::printf("initial inner::g_total %lld, g_file_static %u %u %u\n", total, fs[0], fs[1], fs[2]);

  int scalar = 11;
  CHECK(cudaMemcpyToSymbol(g_scalar, &scalar, sizeof scalar));
  Params p{5, 2.5f, -1.25, "params"};
  CHECK(cudaMemcpyToSymbol(c_params, &p, sizeof p));
  int table[64];
  for (int i = 0; i < 64; ++i)
    table[i] = i % 7 - 3;
  // The table in two halves: the second with an offset.
  CHECK(cudaMemcpyToSymbol(c_table, table, 32 * sizeof(int)));
  CHECK(cudaMemcpyToSymbol(c_table, table + 32, 32 * sizeof(int), 32 * sizeof(int),
                           cudaMemcpyHostToDevice));

  // g_array from device memory (DeviceToDevice), asynchronously on a stream.
  int host_array[256];
  for (int i = 0; i < 256; ++i)
    host_array[i] = i * 3 - 100;
  int* d_src = nullptr;
  CHECK(cudaMalloc(&d_src, sizeof host_array));
  CHECK(cudaMemcpy(d_src, host_array, sizeof host_array, cudaMemcpyHostToDevice));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaMemcpyToSymbolAsync(g_array, d_src, sizeof host_array, 0, cudaMemcpyDeviceToDevice, s));

  int* d_out = nullptr;
  CHECK(cudaMalloc(&d_out, 256 * sizeof(int)));
  use_symbols<<<1, 256, 0, s>>>(d_out);
  CHECK_LAUNCH();
  int out[256];
  CHECK(cudaMemcpyAsync(out, d_out, sizeof out, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  bool ok = true;
  for (int t = 0; t < 256; ++t)
    ok = ok && out[t] == host_array[t] * table[t % 64] + 11 + 5;
  e2e::expect(ok, "kernel reads symbols written by cudaMemcpyToSymbol*");
  std::printf("out checksum: %016llx\n", (unsigned long long)e2e::fnv1a(out, sizeof out));

  // Read back with offsets, asynchronously and into device memory.
  Params q;
  std::memset(&q, 0, sizeof q);
  CHECK(cudaMemcpyFromSymbolAsync(&q, c_params, sizeof q, 0, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  std::printf("c_params: a %d b %.2f c %.2f tag %s\n", q.a, q.b, q.c, q.tag);
  int tail[4];
  CHECK(cudaMemcpyFromSymbol(tail, g_array, sizeof tail, 252 * sizeof(int)));
  std::printf("g_array tail: %d %d %d %d\n", tail[0], tail[1], tail[2], tail[3]);
  CHECK(cudaMemcpyFromSymbol(d_out, c_table, 64 * sizeof(int), 0, cudaMemcpyDeviceToDevice));
  int table_back[64];
  CHECK(cudaMemcpy(table_back, d_out, sizeof table_back, cudaMemcpyDeviceToHost));
  e2e::expect(std::memcmp(table_back, table, sizeof table) == 0,
              "cudaMemcpyFromSymbol DeviceToDevice");
  CHECK(cudaMemcpyFromSymbol(&total, inner::g_total, sizeof total));
  CHECK(cudaMemcpyFromSymbol(fs, g_file_static, sizeof fs));
  std::printf("after kernel: inner::g_total %lld, g_file_static %u %u %u\n", total, fs[0], fs[1],
              fs[2]);

  // cudaGetSymbolAddress: plain cudaMemcpy through the address.
  void* addr = nullptr;
  CHECK(cudaGetSymbolAddress(&addr, g_array));
  int first = 0;
  CHECK(cudaMemcpy(&first, addr, sizeof first, cudaMemcpyDeviceToHost));
  e2e::expect(first == host_array[0], "cudaGetSymbolAddress(g_array)");
  CHECK(cudaGetSymbolAddress(&addr, c_table));
  CHECK(cudaMemcpy(&first, static_cast<int*>(addr) + 40, sizeof first, cudaMemcpyDeviceToHost));
  e2e::expect(first == table[40], "cudaGetSymbolAddress(c_table) + offset");
  CHECK(cudaMemset(addr, 0, 64 * sizeof(int))); // __constant__ is writable from the host
  CHECK(cudaMemcpyFromSymbol(table_back, c_table, sizeof table_back));
  bool zero = true;
  for (int i = 0; i < 64; ++i)
    zero = zero && table_back[i] == 0;
  e2e::expect(zero, "cudaMemset through a constant symbol's address");

  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_src));
  CHECK(cudaFree(d_out));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
