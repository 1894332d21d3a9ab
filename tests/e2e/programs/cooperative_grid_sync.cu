// Cooperative launches: cudaLaunchCooperativeKernel with grid-wide synchronization
// (cg::grid_group:: sync) across three phases and a deterministic grid reduction, the same kernel
// through cudaLaunchKernelExC with cudaLaunchAttributeCooperative, and the error for a cooperative
// grid that cannot be co-resident (cudaErrorCooperativeLaunchTooLarge, not sticky).
#include "e2e_common.h"

#include <algorithm>
#include <cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;

__global__ void three_phases(int* a, int* b, long long* partial, long long* result, int n) {
  cg::grid_group grid = cg::this_grid();
  int stride = static_cast<int>(grid.size());
  int tid = static_cast<int>(grid.thread_rank());
  // Phase 1: a[i] = f(i)
  for (int i = tid; i < n; i += stride)
    a[i] = (i * 37 + 11) % 1000;
  grid.sync();
  // Phase 2: b[i] = a[i] + a[i + 1] (wrapping): needs every block's phase-1 writes.
  for (int i = tid; i < n; i += stride)
    b[i] = a[i] + a[(i + 1) % n];
  grid.sync();
  // Phase 3: per-block partial sums in a fixed order, then block 0 adds them in block order.
  __shared__ long long part[256];
  long long acc = 0;
  for (int i = tid; i < n; i += stride)
    acc += b[i];
  part[threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long s = 0;
    for (int k = 0; k < blockDim.x; ++k)
      s += part[k];
    partial[blockIdx.x] = s;
  }
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    long long s = 0;
    for (unsigned k = 0; k < gridDim.x; ++k)
      s += partial[k];
    *result = s;
  }
}

int main() {
  int coop = 0;
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
  std::printf("cudaDevAttrCooperativeLaunch: %d\n", coop);
  int sms = 0, per_sm = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, three_phases, 256, 0));
  // 64 blocks, or as many as can be co-resident on a smaller device (Ocelot's CPU device has one
  // multiprocessor per worker thread); the results do not depend on the count.
  const int threads = 256, blocks = std::min(64, per_sm * sms);
  e2e::expect(blocks >= 1, "blocks of 256 threads can be co-resident");

  const int n = 1 << 20;
  int *a = nullptr, *b = nullptr;
  long long *partial = nullptr, *result = nullptr;
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMalloc(&partial, 1024 * sizeof(long long)));
  CHECK(cudaMalloc(&result, sizeof(long long)));
  int count = n;
  void* args[] = {&a, &b, &partial, &result, &count};

  long long want = 0;
  {
    std::vector<int> ha(n);
    for (int i = 0; i < n; ++i)
      ha[i] = (i * 37 + 11) % 1000;
    for (int i = 0; i < n; ++i)
      want += ha[i] + ha[(i + 1) % n];
  }

  CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(three_phases), dim3(blocks),
                                    dim3(threads), args, 0, 0));
  long long got = 0;
  CHECK(cudaMemcpy(&got, result, sizeof got, cudaMemcpyDeviceToHost));
  std::printf("cooperative result: %lld\n", got);
  e2e::expect(got == want, "cudaLaunchCooperativeKernel with grid.sync()");
  std::vector<int> hb(n);
  CHECK(cudaMemcpy(hb.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("phase 2 checksum: %016llx\n",
              (unsigned long long)e2e::fnv1a(hb.data(), n * sizeof(int)));

  // The same kernel through cudaLaunchKernelExC with the cooperative attribute, up to 32 blocks.
  CHECK(cudaMemset(result, 0, sizeof(long long)));
  cudaLaunchAttribute attr[1] = {};
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(std::min(32, blocks));
  cfg.blockDim = dim3(threads);
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  CHECK(cudaLaunchKernelExC(&cfg, reinterpret_cast<const void*>(three_phases), args));
  got = 0;
  CHECK(cudaMemcpy(&got, result, sizeof got, cudaMemcpyDeviceToHost));
  e2e::expect(got == want, "cooperative attribute through cudaLaunchKernelExC");

  // Too many blocks to be co-resident.
  cudaError_t e = cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(three_phases),
                                              dim3(per_sm * sms + 1000), dim3(threads), args, 0, 0);
  std::printf("oversized cooperative grid: %s\n", cudaGetErrorName(e));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("cudaGetLastError again: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(partial));
  CHECK(cudaFree(result));
  return e2e::finish();
}
