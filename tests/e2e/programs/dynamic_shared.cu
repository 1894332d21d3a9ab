// Dynamic shared memory: extern __shared__ arrays of several element types (alignment of the
// dynamic region), a templated block reduction whose shared buffer size is chosen at launch, static
// and dynamic shared memory in one kernel, carving one dynamic buffer into several typed arrays,
// and an opt-in launch with 150 KiB (cudaFuncSetAttribute MaxDynamicSharedMemorySize).
#include "e2e_common.h"

#include <vector>

// Block-wide sum of T through a dynamic shared buffer of blockDim.x elements (tree reduction,
// deterministic for integers).
template <typename T> __global__ void block_sum(const T* in, T* out) {
  extern __shared__ __align__(16) unsigned char raw[];
  T* buf = reinterpret_cast<T*>(raw);
  unsigned t = threadIdx.x;
  buf[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = buf[0];
}

// Static tile plus a dynamic area split into an int array, a double array and a char array.
__global__ void mixed(int n_int, int n_double, int* out_i, double* out_d, char* out_c) {
  __shared__ int static_tile[64];
  extern __shared__ __align__(16) unsigned char dyn[];
  int* ints = reinterpret_cast<int*>(dyn);
  double* doubles = reinterpret_cast<double*>(dyn + ((n_int * sizeof(int) + 15) / 16) * 16);
  char* chars = reinterpret_cast<char*>(doubles + n_double);
  int t = threadIdx.x;
  if (t < 64)
    static_tile[t] = t;
  if (t < n_int)
    ints[t] = t * 3;
  if (t < n_double)
    doubles[t] = t * 0.25;
  chars[t] = static_cast<char>('a' + t % 26);
  __syncthreads();
  if (t < n_int)
    out_i[t] = ints[n_int - 1 - t] + static_tile[t % 64];
  if (t < n_double)
    out_d[t] = doubles[n_double - 1 - t];
  out_c[t] = chars[blockDim.x - 1 - t];
}

// Uses 150 KiB: writes a pattern over all of it, then each thread sums a strided slice.
__global__ void huge(long long* out, int ints) {
  extern __shared__ int big[];
  for (int k = threadIdx.x; k < ints; k += blockDim.x)
    big[k] = k ^ 0x2a;
  __syncthreads();
  long long s = 0;
  for (int k = threadIdx.x; k < ints; k += blockDim.x)
    s += big[ints - 1 - k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <typename T> static bool run_block_sum(const char* name, int blocks, int threads) {
  std::vector<T> h(blocks * threads);
  for (size_t i = 0; i < h.size(); ++i)
    h[i] = static_cast<T>(static_cast<int>(i % 97) - 40);
  T *din = nullptr, *dout = nullptr;
  CHECK(cudaMalloc(&din, h.size() * sizeof(T)));
  CHECK(cudaMalloc(&dout, blocks * sizeof(T)));
  CHECK(cudaMemcpy(din, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  block_sum<T><<<blocks, threads, threads * sizeof(T)>>>(din, dout);
  CHECK_LAUNCH();
  std::vector<T> got(blocks);
  CHECK(cudaMemcpy(got.data(), dout, blocks * sizeof(T), cudaMemcpyDeviceToHost));
  bool ok = true;
  long long total = 0;
  for (int b = 0; b < blocks; ++b) {
    T want = 0;
    for (int t = 0; t < threads; ++t)
      want += h[b * threads + t];
    ok = ok && got[b] == want;
    total += static_cast<long long>(got[b]);
  }
  std::printf("block_sum<%s> %d x %d (%zu bytes dynamic): total %lld\n", name, blocks, threads,
              threads * sizeof(T), total);
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  return ok;
}

int main() {
  e2e::expect(run_block_sum<int>("int", 64, 256), "block_sum<int>");
  e2e::expect(run_block_sum<long long>("long long", 32, 512), "block_sum<long long>");
  e2e::expect(run_block_sum<short>("short", 16, 64), "block_sum<short>");
  e2e::expect(run_block_sum<double>("double", 8, 1024),
              "block_sum<double> (integer values, exact)");

  const int threads = 128, n_int = 100, n_double = 50;
  size_t dyn_bytes = ((n_int * sizeof(int) + 15) / 16) * 16 + n_double * sizeof(double) + threads;
  int* oi = nullptr;
  double* od = nullptr;
  char* oc = nullptr;
  CHECK(cudaMalloc(&oi, n_int * sizeof(int)));
  CHECK(cudaMalloc(&od, n_double * sizeof(double)));
  CHECK(cudaMalloc(&oc, threads));
  mixed<<<1, threads, dyn_bytes>>>(n_int, n_double, oi, od, oc);
  CHECK_LAUNCH();
  std::vector<int> hi(n_int);
  std::vector<double> hd(n_double);
  std::vector<char> hc(threads);
  CHECK(cudaMemcpy(hi.data(), oi, n_int * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hd.data(), od, n_double * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hc.data(), oc, threads, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int t = 0; t < n_int; ++t)
    ok = ok && hi[t] == (n_int - 1 - t) * 3 + t % 64;
  for (int t = 0; t < n_double; ++t)
    ok = ok && hd[t] == (n_double - 1 - t) * 0.25;
  for (int t = 0; t < threads; ++t)
    ok = ok && hc[t] == static_cast<char>('a' + (threads - 1 - t) % 26);
  e2e::expect(ok, "static + dynamic shared memory carved into typed arrays");
  std::printf("mixed: chars %.*s\n", 26, hc.data());

  const int big_bytes = 150 * 1024;
  CHECK(cudaFuncSetAttribute(huge, cudaFuncAttributeMaxDynamicSharedMemorySize, big_bytes));
  long long* ob = nullptr;
  CHECK(cudaMalloc(&ob, 4 * 256 * sizeof(long long)));
  huge<<<4, 256, big_bytes>>>(ob, big_bytes / 4);
  CHECK_LAUNCH();
  std::vector<long long> hb(4 * 256);
  CHECK(cudaMemcpy(hb.data(), ob, hb.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  const int ints = big_bytes / 4;
  ok = true;
  for (int b = 0; b < 4; ++b)
    for (int t = 0; t < 256; ++t) {
      long long want = 0;
      for (int k = t; k < ints; k += 256)
        want += (ints - 1 - k) ^ 0x2a;
      ok = ok && hb[b * 256 + t] == want;
    }
  e2e::expect(ok, "150 KiB dynamic shared memory");

  CHECK(cudaFree(oi));
  CHECK(cudaFree(od));
  CHECK(cudaFree(oc));
  CHECK(cudaFree(ob));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
