// Stream-ordered allocation: cudaMallocAsync/cudaFreeAsync on the default pool, pool attributes
// (reuse policies, release threshold, reserved/used current and high), cudaMemPoolTrimTo,
// a custom pool (cudaMemPoolCreate, cudaMallocFromPoolAsync, access queries), cudaDeviceSetMemPool
// / cudaDeviceGetMemPool, cudaMemGetDefaultMemPool (CUDA 13) and cross-stream reuse with events.
#include "e2e_common.h"

#include <cstdint>
#include <vector>

__global__ void iota(int* p, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = base + i;
}

__global__ void add_arrays(const int* a, const int* b, int* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

static uint64_t pool_attr(cudaMemPool_t pool, cudaMemPoolAttr attr) {
  uint64_t v = 0;
  CHECK(cudaMemPoolGetAttribute(pool, attr, &v));
  return v;
}

static int pool_flag(cudaMemPool_t pool, cudaMemPoolAttr attr) {
  int v = -1;
  CHECK(cudaMemPoolGetAttribute(pool, attr, &v));
  return v;
}

int main() {
  int supported = 0;
  CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
  std::printf("cudaDevAttrMemoryPoolsSupported: %d\n", supported);

  cudaMemPool_t def = nullptr, cur = nullptr;
  CHECK(cudaDeviceGetDefaultMemPool(&def, 0));
  CHECK(cudaDeviceGetMemPool(&cur, 0));
  e2e::expect(def != nullptr && def == cur, "current pool is the default pool");
  cudaMemLocation loc;
  loc.type = cudaMemLocationTypeDevice;
  loc.id = 0;
  cudaMemPool_t def13 = nullptr;
  CHECK(cudaMemGetDefaultMemPool(&def13, &loc, cudaMemAllocationTypePinned));
  e2e::expect(def13 == def, "cudaMemGetDefaultMemPool(device 0) == cudaDeviceGetDefaultMemPool(0)");

  std::printf("default pool: ReuseFollowEventDependencies %d, ReuseAllowOpportunistic %d, "
              "ReuseAllowInternalDependencies %d, ReleaseThreshold %llu\n",
              pool_flag(def, cudaMemPoolReuseFollowEventDependencies),
              pool_flag(def, cudaMemPoolReuseAllowOpportunistic),
              pool_flag(def, cudaMemPoolReuseAllowInternalDependencies),
              (unsigned long long)pool_attr(def, cudaMemPoolAttrReleaseThreshold));

  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

  const int n = 1 << 21; // 8 MiB of ints
  int *a = nullptr, *b = nullptr, *c = nullptr;
  CHECK(cudaMallocAsync(&a, n * sizeof(int), s1));
  CHECK(cudaMallocAsync(&b, n * sizeof(int), s1));
  CHECK(cudaMallocAsync(&c, n * sizeof(int), s1));
  iota<<<n / 256, 256, 0, s1>>>(a, n, 0);
  iota<<<n / 256, 256, 0, s1>>>(b, n, 1000);
  add_arrays<<<n / 256, 256, 0, s1>>>(a, b, c, n);
  CHECK_LAUNCH();
  CHECK(cudaStreamSynchronize(s1));
  uint64_t used = pool_attr(def, cudaMemPoolAttrUsedMemCurrent);
  uint64_t reserved = pool_attr(def, cudaMemPoolAttrReservedMemCurrent);
  e2e::expect(used >= 3ull * n * sizeof(int), "UsedMemCurrent covers three 8 MiB allocations");
  e2e::expect(reserved >= used, "ReservedMemCurrent >= UsedMemCurrent");
  std::vector<int> h(n);
  CHECK(cudaMemcpyAsync(h.data(), c, n * sizeof(int), cudaMemcpyDeviceToHost, s1));
  CHECK(cudaFreeAsync(a, s1));
  CHECK(cudaFreeAsync(b, s1));
  CHECK(cudaFreeAsync(c, s1));
  CHECK(cudaStreamSynchronize(s1));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && h[i] == 2 * i + 1000;
  e2e::expect(ok, "kernels on stream-ordered allocations");
  std::printf("used after free: %llu\n",
              (unsigned long long)pool_attr(def, cudaMemPoolAttrUsedMemCurrent));
  e2e::expect(pool_attr(def, cudaMemPoolAttrUsedMemHigh) >= 3ull * n * sizeof(int), "UsedMemHigh");

  // Keep memory in the pool across synchronizations, then trim it.
  uint64_t keep = UINT64_MAX;
  CHECK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &keep));
  std::printf("release threshold set to max: %s\n",
              pool_attr(def, cudaMemPoolAttrReleaseThreshold) == UINT64_MAX ? "yes" : "no");
  CHECK(cudaMallocAsync(&a, n * sizeof(int), s1));
  CHECK(cudaFreeAsync(a, s1));
  CHECK(cudaStreamSynchronize(s1));
  e2e::expect(pool_attr(def, cudaMemPoolAttrReservedMemCurrent) > 0,
              "memory kept with a high release threshold");
  CHECK(cudaMemPoolTrimTo(def, 0));
  std::printf("reserved after cudaMemPoolTrimTo(0): %llu\n",
              (unsigned long long)pool_attr(def, cudaMemPoolAttrReservedMemCurrent));
  uint64_t zero = 0;
  CHECK(
      cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &zero)); // resets the high watermark
  std::printf("used high after reset: %llu\n",
              (unsigned long long)pool_attr(def, cudaMemPoolAttrUsedMemHigh));

  // Cross-stream: allocate on s1, use on s2 after an event, free on s2.
  cudaEvent_t ev;
  CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  CHECK(cudaMallocAsync(&a, 4096 * sizeof(int), s1));
  iota<<<16, 256, 0, s1>>>(a, 4096, 7);
  CHECK(cudaEventRecord(ev, s1));
  CHECK(cudaStreamWaitEvent(s2, ev, 0));
  CHECK(cudaMallocAsync(&c, 4096 * sizeof(int), s2));
  add_arrays<<<16, 256, 0, s2>>>(a, a, c, 4096);
  std::vector<int> small(4096);
  CHECK(cudaMemcpyAsync(small.data(), c, 4096 * sizeof(int), cudaMemcpyDeviceToHost, s2));
  CHECK(cudaFreeAsync(a, s2));
  CHECK(cudaFreeAsync(c, s2));
  CHECK(cudaStreamSynchronize(s2));
  ok = true;
  for (int i = 0; i < 4096; ++i)
    ok = ok && small[i] == 2 * (7 + i);
  e2e::expect(ok, "allocation used across streams with an event");

  // A custom pool.
  cudaMemPoolProps props;
  std::memset(&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool = nullptr;
  CHECK(cudaMemPoolCreate(&pool, &props));
  cudaMemAccessFlags access = cudaMemAccessFlagsProtNone;
  CHECK(cudaMemPoolGetAccess(&access, pool, &loc));
  std::printf("custom pool access from device 0: %d\n", static_cast<int>(access));
  cudaMemAccessDesc desc;
  desc.location = loc;
  desc.flags = cudaMemAccessFlagsProtReadWrite;
  cudaError_t access_err =
      cudaMemPoolSetAccess(pool, &desc, 1); // the owning device: a no-op or an error
  std::printf("cudaMemPoolSetAccess(owning device, read-write): %s\n",
              cudaGetErrorName(access_err));
  (void)cudaGetLastError();
  CHECK(cudaMallocFromPoolAsync(&b, n * sizeof(int), pool, s1));
  iota<<<n / 256, 256, 0, s1>>>(b, n, -5);
  CHECK_LAUNCH();
  CHECK(cudaStreamSynchronize(s1));
  e2e::expect(pool_attr(pool, cudaMemPoolAttrUsedMemCurrent) >= n * sizeof(int),
              "custom pool in use");
  int last = 0;
  CHECK(cudaMemcpy(&last, b + n - 1, sizeof last, cudaMemcpyDeviceToHost));
  e2e::expect(last == n - 1 - 5, "kernel on custom pool allocation");
  CHECK(cudaFreeAsync(b, s1));

  // Make the custom pool the device's current pool: cudaMallocAsync now uses it.
  CHECK(cudaDeviceSetMemPool(0, pool));
  CHECK(cudaDeviceGetMemPool(&cur, 0));
  e2e::expect(cur == pool, "cudaDeviceSetMemPool / cudaDeviceGetMemPool");
  CHECK(cudaMallocAsync(&c, 1 << 20, s1));
  CHECK(cudaStreamSynchronize(s1));
  e2e::expect(pool_attr(pool, cudaMemPoolAttrUsedMemCurrent) >= (1u << 20),
              "cudaMallocAsync used the set pool");
  CHECK(cudaFreeAsync(c, s1));
  CHECK(cudaStreamSynchronize(s1));
  CHECK(cudaDeviceSetMemPool(0, def));
  CHECK(cudaMemPoolDestroy(pool));

  CHECK(cudaEventDestroy(ev));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
