// Workload: 256-bin byte histogram of 32 MiB of skewed data with (1) one global atomicAdd per byte,
// (2) per-block privatized histograms in shared memory merged with global atomics, and (3) the
// privatized kernel reading 4 bytes per load. Integer atomics make the counts independent of
// execution order; all three must equal the CPU histogram.
//
// Structure for instrumentation: grid-stride loops; global: 1024 x 256 threads; shared: 264 blocks
// x 256 threads, one shared atomic per byte, 256 global atomics per block at the end.
#include "e2e_common.h"

#include <vector>

__global__ void hist_global(const unsigned char* data, size_t n, unsigned* bins) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(blockDim.x) * gridDim.x)
    atomicAdd(&bins[data[i]], 1u);
}

__global__ void hist_shared(const unsigned char* data, size_t n, unsigned* bins) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(blockDim.x) * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (local[b])
      atomicAdd(&bins[b], local[b]);
}

__global__ void hist_shared_vec4(const uchar4* data, size_t n4, unsigned* bins) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4;
       i += size_t(blockDim.x) * gridDim.x) {
    uchar4 v = data[i];
    atomicAdd(&local[v.x], 1u);
    atomicAdd(&local[v.y], 1u);
    atomicAdd(&local[v.z], 1u);
    atomicAdd(&local[v.w], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (local[b])
      atomicAdd(&bins[b], local[b]);
}

int main() {
  const size_t n = e2e::scaled(size_t(32) << 20);
  std::vector<unsigned char> h(n);
  e2e::Rng rng(1234);
  for (size_t i = 0; i < n; ++i) {
    // Skewed: the sum of two uniform nibbles puts more mass in the middle bins, plus a hot bin 7.
    uint64_t r = rng.next();
    h[i] = (r & 7) == 0 ? 7 : static_cast<unsigned char>(((r >> 8) & 127) + ((r >> 16) & 127));
  }
  std::vector<unsigned> ref(256, 0);
  for (unsigned char c : h)
    ref[c]++;

  unsigned char* d = nullptr;
  unsigned* bins = nullptr;
  CHECK(cudaMalloc(&d, n));
  CHECK(cudaMalloc(&bins, 256 * sizeof(unsigned)));
  CHECK(cudaMemcpy(d, h.data(), n, cudaMemcpyHostToDevice));
  std::vector<unsigned> got(256);

  struct Variant {
    const char* name;
    int which;
  };
  for (const Variant& v : {Variant{"global atomics", 0}, Variant{"shared privatized", 1},
                           Variant{"shared, uchar4", 2}}) {
    CHECK(cudaMemset(bins, 0, 256 * sizeof(unsigned)));
    if (v.which == 0)
      hist_global<<<1024, 256>>>(d, n, bins);
    if (v.which == 1)
      hist_shared<<<264, 256>>>(d, n, bins);
    if (v.which == 2)
      hist_shared_vec4<<<264, 256>>>(reinterpret_cast<const uchar4*>(d), n / 4, bins);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got.data(), bins, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
    char what[64];
    std::snprintf(what, sizeof what, "histogram (%s)", v.name);
    e2e::expect(got == ref, what);
  }
  int nonzero = 0;
  unsigned maxc = 0;
  int maxbin = 0;
  for (int b = 0; b < 256; ++b) {
    nonzero += got[b] != 0;
    if (got[b] > maxc) {
      maxc = got[b];
      maxbin = b;
    }
  }
  std::printf("histogram of %zu bytes: %d non-empty bins, fullest bin %d with %u, bins 126..129: "
              "%u %u %u %u\n",
              n, nonzero, maxbin, maxc, got[126], got[127], got[128], got[129]);
  std::printf("bins checksum: %016llx\n",
              (unsigned long long)e2e::fnv1a(got.data(), 256 * sizeof(unsigned)));
  CHECK(cudaFree(d));
  CHECK(cudaFree(bins));
  return e2e::finish();
}
