// Occupancy queries: cudaOccupancyMaxActiveBlocksPerMultiprocessor (+WithFlags),
// cudaOccupancyMaxPotentialBlockSize, cudaOccupancyMaxPotentialBlockSizeVariableSMem and
// cudaOccupancyAvailableDynamicSMemPerBlock. Every kernel here has __launch_bounds__ that cap its
// registers (so a JIT or an instrumentation pass cannot change the answer through register
// allocation), and the printed values are the H100's limits: threads, blocks and shared memory per
// SM. The grid size from MaxPotentialBlockSize is printed per SM (the SM count differs between
// H100 variants).
#include "e2e_common.h"

// At most 32 registers: 2 blocks of 1024 threads fill an SM's 2048 threads and 64K registers.
__global__ void __launch_bounds__(1024, 2) big_blocks(int* p) {
  p[blockIdx.x * blockDim.x + threadIdx.x] += 1;
}

// At most 32 registers with 128-thread blocks: 16 blocks = 2048 threads.
__global__ void __launch_bounds__(128, 16) small_blocks(int* p) {
  p[blockIdx.x * blockDim.x + threadIdx.x] *= 2;
}

// Shared-memory limited: 40 KiB dynamic shared memory per 64-thread block.
__global__ void __launch_bounds__(64, 1) smem_hungry(int* p) {
  extern __shared__ int buf[];
  buf[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = buf[63 - threadIdx.x];
}

struct SmemPerThread {
  __host__ __device__ size_t operator()(int block) const { return static_cast<size_t>(block) * 64; }
};

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));

  struct Query {
    const char* name;
    const void* func;
    int block;
    size_t smem;
  };
  const Query queries[] = {
      {"big_blocks, 1024 threads", reinterpret_cast<const void*>(big_blocks), 1024, 0},
      {"big_blocks, 512 threads", reinterpret_cast<const void*>(big_blocks), 512, 0},
      {"small_blocks, 128 threads", reinterpret_cast<const void*>(small_blocks), 128, 0},
      {"small_blocks, 32 threads", reinterpret_cast<const void*>(small_blocks), 32, 0},
      {"smem_hungry, 64 threads, 40 KiB", reinterpret_cast<const void*>(smem_hungry), 64,
       40 * 1024},
      {"smem_hungry, 64 threads, 20 KiB", reinterpret_cast<const void*>(smem_hungry), 64,
       20 * 1024},
  };
  for (const Query& q : queries) {
    int blocks = -1, blocks_nc = -1;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, q.func, q.block, q.smem));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        &blocks_nc, q.func, q.block, q.smem, cudaOccupancyDisableCachingOverride));
    std::printf("max active blocks per SM (%s): %d, with DisableCachingOverride: %d\n", q.name,
                blocks, blocks_nc);
  }

  int min_grid = 0, block = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, big_blocks, 0, 0));
  std::printf("MaxPotentialBlockSize(big_blocks): block %d, min grid per SM %d, divisible %s\n",
              block, min_grid / sms, min_grid % sms == 0 ? "yes" : "no");
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, small_blocks, 0, 0));
  std::printf("MaxPotentialBlockSize(small_blocks): block %d, min grid per SM %d\n", block,
              min_grid / sms);
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, small_blocks, 0, 96));
  std::printf("MaxPotentialBlockSize(small_blocks, limit 96): block %d, min grid per SM %d\n",
              block, min_grid / sms);
  CHECK(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, &block, big_blocks,
                                                       SmemPerThread(), 0));
  std::printf(
      "MaxPotentialBlockSizeVariableSMem(big_blocks, 64 B/thread): block %d, min grid per SM %d\n",
      block, min_grid / sms);

  size_t avail = 0;
  CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, smem_hungry, 2, 64));
  std::printf("available dynamic smem per block (smem_hungry, 2 blocks of 64): %zu\n", avail);
  CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, smem_hungry, 5, 64));
  std::printf("available dynamic smem per block (smem_hungry, 5 blocks of 64): %zu\n", avail);

  // The kernels run.
  int* d = nullptr;
  CHECK(cudaMalloc(&d, 4096 * sizeof(int)));
  CHECK(cudaMemset(d, 0, 4096 * sizeof(int)));
  big_blocks<<<4, 1024>>>(d);
  small_blocks<<<32, 128>>>(d);
  smem_hungry<<<1, 64, 40 * 1024>>>(d);
  CHECK_LAUNCH();
  int h[4096];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < 4096; ++i)
    ok = ok && h[i] == 2;
  e2e::expect(ok, "kernels computed");
  CHECK(cudaFree(d));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
