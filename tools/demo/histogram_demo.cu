// The program the README's main job runs under Ocelot: a small but real CUDA application with the
// shapes instrumentation should reveal (a loop with a data-dependent trip count, a divergent
// branch, shared-memory atomics, a block-level reduction).

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cudaError_t status_ = (call);                                                            \
    if (status_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,              \
                   cudaGetErrorString(status_));                                             \
      return 1;                                                                              \
    }                                                                                        \
  } while (0)

constexpr int kBins = 64;

// Collatz path lengths: a loop whose trip count differs per thread (divergence).
__global__ void collatzLengths(const unsigned* seeds, unsigned* lengths, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned long long x = seeds[i];
  unsigned steps = 0;
  while (x != 1 && steps < 1000) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++steps;
  }
  lengths[i] = steps;
}

// Histogram with per-block shared-memory bins, merged into global bins.
__global__ void histogram(const unsigned* values, int n, unsigned* bins) {
  __shared__ unsigned local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[values[i] % kBins], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x)
    if (local[b] != 0)
      atomicAdd(&bins[b], local[b]);
}

// Block-level sum reduction in shared memory.
__global__ void blockSums(const unsigned* values, int n, unsigned long long* total) {
  __shared__ unsigned long long partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? values[i] : 0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(total, partial[0]);
}

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 14;
  if (n <= 0)
    n = 1 << 14;
  std::vector<unsigned> seeds(n);
  for (int i = 0; i < n; ++i)
    seeds[i] = static_cast<unsigned>(i) + 1;

  unsigned *dSeeds, *dLengths, *dBins;
  unsigned long long* dTotal;
  CHECK(cudaMalloc(&dSeeds, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dLengths, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dBins, kBins * sizeof(unsigned)));
  CHECK(cudaMalloc(&dTotal, sizeof(unsigned long long)));
  CHECK(cudaMemcpy(dSeeds, seeds.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dBins, 0, kBins * sizeof(unsigned)));
  CHECK(cudaMemset(dTotal, 0, sizeof(unsigned long long)));

  int threads = 256, blocks = (n + threads - 1) / threads;
  collatzLengths<<<blocks, threads>>>(dSeeds, dLengths, n);
  CHECK(cudaGetLastError());
  histogram<<<32, threads>>>(dLengths, n, dBins);
  CHECK(cudaGetLastError());
  blockSums<<<blocks, threads>>>(dLengths, n, dTotal);
  CHECK(cudaGetLastError());

  std::vector<unsigned> bins(kBins);
  unsigned long long total = 0;
  CHECK(cudaMemcpy(bins.data(), dBins, kBins * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&total, dTotal, sizeof total, cudaMemcpyDeviceToHost));

  // The same results computed on the host, so the program checks itself.
  std::vector<unsigned> expectBins(kBins);
  unsigned long long expectTotal = 0;
  for (int i = 0; i < n; ++i) {
    unsigned long long x = seeds[i];
    unsigned steps = 0;
    while (x != 1 && steps < 1000) {
      x = (x & 1) ? 3 * x + 1 : x / 2;
      ++steps;
    }
    ++expectBins[steps % kBins];
    expectTotal += steps;
  }
  bool ok = total == expectTotal;
  for (int b = 0; b < kBins; ++b)
    ok = ok && bins[b] == expectBins[b];
  std::printf("collatz path lengths of 1..%d: total %llu steps, mean %.2f\n", n, total,
              double(total) / n);
  std::printf("histogram (length %% %d), first bins:", kBins);
  for (int b = 0; b < 8; ++b)
    std::printf(" %u", bins[b]);
  std::printf("\n%s\n", ok ? "results match the host reference" : "MISMATCH with the host reference");
  CHECK(cudaFree(dSeeds));
  CHECK(cudaFree(dLengths));
  CHECK(cudaFree(dBins));
  CHECK(cudaFree(dTotal));
  return ok ? 0 : 1;
}
