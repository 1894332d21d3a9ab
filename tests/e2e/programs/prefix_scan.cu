// Workload: exclusive prefix sum of 4M 32-bit integers with a three-kernel work-efficient scan:
// (1) each block scans 1024 elements in shared memory (Blelloch up-sweep / down-sweep) and writes
// its total, (2) the 4096 block totals are scanned by the same kernel recursively, (3) the scanned
// totals are added back. Integer arithmetic, exact; checked against a CPU scan.
//
// Structure for instrumentation: block scan = 512 threads x 1024 elements, log2(1024) = 10 up-sweep
// and 10 down-sweep levels, each with a __syncthreads and an active-thread test (512, 256, ..., 1).
#include "e2e_common.h"

#include <vector>

constexpr int kBlock = 1024; // elements per block
constexpr int kThreads = kBlock / 2;

__global__ void scan_blocks(const unsigned* in, unsigned* out, unsigned* block_sums, int n) {
  __shared__ unsigned s[kBlock];
  int base = blockIdx.x * kBlock;
  int t = threadIdx.x;
  s[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
  s[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
  int offset = 1;
  for (int d = kBlock >> 1; d > 0; d >>= 1) { // up-sweep
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      s[bi] += s[ai];
    }
    offset <<= 1;
  }
  if (t == 0) {
    if (block_sums)
      block_sums[blockIdx.x] = s[kBlock - 1];
    s[kBlock - 1] = 0;
  }
  for (int d = 1; d < kBlock; d <<= 1) { // down-sweep
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      unsigned v = s[ai];
      s[ai] = s[bi];
      s[bi] += v;
    }
  }
  __syncthreads();
  if (base + 2 * t < n)
    out[base + 2 * t] = s[2 * t];
  if (base + 2 * t + 1 < n)
    out[base + 2 * t + 1] = s[2 * t + 1];
}

__global__ void add_offsets(unsigned* data, const unsigned* offsets, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += offsets[i / kBlock];
}

// Scans `n` elements in place on the device (recursively for the block totals).
static void scan(const unsigned* in, unsigned* out, int n) {
  int blocks = (n + kBlock - 1) / kBlock;
  if (blocks == 1) {
    scan_blocks<<<1, kThreads>>>(in, out, nullptr, n);
    CHECK_LAUNCH();
    return;
  }
  unsigned *sums = nullptr, *scanned = nullptr;
  CHECK(cudaMalloc(&sums, blocks * sizeof(unsigned)));
  CHECK(cudaMalloc(&scanned, blocks * sizeof(unsigned)));
  scan_blocks<<<blocks, kThreads>>>(in, out, sums, n);
  CHECK_LAUNCH();
  scan(sums, scanned, blocks);
  add_offsets<<<(n + 255) / 256, 256>>>(out, scanned, n);
  CHECK_LAUNCH();
  CHECK(cudaFree(sums));
  CHECK(cudaFree(scanned));
}

int main() {
  const int sizes[] = {1000, 1024, static_cast<int>(e2e::scaled(4 * 1024 * 1024)) + 17};
  for (int n : sizes) {
    std::vector<unsigned> h(n), got(n);
    e2e::Rng rng(static_cast<uint64_t>(n));
    for (int i = 0; i < n; ++i)
      h[i] = static_cast<unsigned>(rng.next() % 1000);
    unsigned *din = nullptr, *dout = nullptr;
    CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&dout, n * sizeof(unsigned)));
    CHECK(cudaMemcpy(din, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    scan(din, dout, n);
    CHECK(cudaMemcpy(got.data(), dout, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    bool ok = true;
    unsigned acc = 0;
    for (int i = 0; i < n; ++i) {
      ok = ok && got[i] == acc;
      acc += h[i];
    }
    std::printf("scan of %d elements: total %u, last prefix %u, checksum %016llx\n", n, acc,
                got[n - 1], (unsigned long long)e2e::fnv1a(got.data(), n * sizeof(unsigned)));
    char what[64];
    std::snprintf(what, sizeof what, "exclusive scan of %d elements", n);
    e2e::expect(ok, what);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
  }
  return e2e::finish();
}
