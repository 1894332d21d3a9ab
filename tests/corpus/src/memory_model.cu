// Memory ordering and cache control: __threadfence (fence.sc/acq_rel at cta/gpu/sys), volatile
// accesses, ld.acquire/st.release via cuda::atomic_ref and inline PTX, cache-operator loads
// and stores (__ldg, __ldcg, __ldca, __ldcs, __ldlu, __ldcv, __stwb, __stcg, __stcs, __stwt),
// L2 eviction-policy hints (createpolicy + .L2::cache_hint), prefetch, discard, and the
// state-space conversions cvta/isspacep.
#include <cuda/atomic>

#include <cstdint>

__global__ void fences(int* data, volatile int* flag, int* out) {
  data[threadIdx.x] = static_cast<int>(threadIdx.x);
  __threadfence_block();
  __threadfence();
  __threadfence_system();
  if (threadIdx.x == 0)
    *flag = 1;
  cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);
  cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_system);
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  asm volatile("fence.sc.cta;" ::: "memory");
  asm volatile("membar.gl;" ::: "memory");
  asm volatile("fence.proxy.alias;" ::: "memory");
  out[threadIdx.x] = *flag + data[(threadIdx.x + 1) % blockDim.x];
}

// A message-passing pair: release store of data then flag, acquire load on the other side.
__global__ void messagePassing(int* payload, int* flag, int* received) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      payload[0] = 1234;
      f.store(1, cuda::memory_order_release);
    }
  } else if (threadIdx.x == 0) {
    while (f.load(cuda::memory_order_acquire) == 0) {
    }
    received[blockIdx.x] = payload[0];
  }
  int relaxed;
  asm volatile("ld.relaxed.gpu.global.s32 %0, [%1];" : "=r"(relaxed) : "l"(flag) : "memory");
  int acquired;
  asm volatile("ld.acquire.sys.global.s32 %0, [%1];" : "=r"(acquired) : "l"(flag) : "memory");
  asm volatile("st.release.cta.global.s32 [%0], %1;" ::"l"(payload + 1), "r"(relaxed + acquired)
               : "memory");
  asm volatile("st.volatile.global.s32 [%0], %1;" ::"l"(payload + 2), "r"(relaxed) : "memory");
  asm volatile("red.release.gpu.global.add.s32 [%0], %1;" ::"l"(payload + 3), "r"(1) : "memory");
}

__global__ void cacheOperators(const float4* in, float4* out, const int* ints, int* iout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 a = __ldg(&in[i]);
  float4 b = __ldcg(&in[(i + 1) % n]);
  float4 c = __ldca(&in[(i + 2) % n]);
  float4 d = __ldcs(&in[(i + 3) % n]);
  int e = __ldlu(&ints[i]);
  int f = __ldcv(&ints[(i + 7) % n]);
  float4 s = make_float4(a.x + b.x, a.y + c.y, a.z + d.z, a.w + static_cast<float>(e + f));
  __stwb(&out[i], s);
  __stcg(&iout[i], e);
  __stcs(&iout[n + i], f);
  __stwt(&iout[2 * n + i], e ^ f);
}

__global__ void evictionPolicies(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  uint64_t first, last, normal;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(first));
  asm volatile("createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %0, 0.5;"
               : "=l"(last));
  asm volatile("createpolicy.range.L2::evict_normal.L2::evict_first.b64 %0, [%1], %2, %3;"
               : "=l"(normal)
               : "l"(in), "r"(4096u), "r"(65536u));
  float v;
  asm volatile("ld.global.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(v) : "l"(in + i), "l"(first));
  float w;
  asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.f32 %0, [%1], %2;"
               : "=f"(w)
               : "l"(in + (i + 32) % n), "l"(last));
  asm volatile("st.global.L1::no_allocate.L2::cache_hint.f32 [%0], %1, %2;" ::"l"(out + i),
               "f"(v + w), "l"(normal)
               : "memory");
  asm volatile("prefetch.global.L2::evict_last [%0];" ::"l"(in + (i + 1024) % n));
  asm volatile("ld.global.L1::evict_last.L2::256B.f32 %0, [%1];" : "=f"(v) : "l"(in + i));
  out[n + i] = v;
#else
  out[i] = in[i];
#endif
  asm volatile("prefetch.global.L1 [%0];" ::"l"(in + (i + 64) % n));
  asm volatile("prefetch.global.L2 [%0];" ::"l"(in + (i + 128) % n));
  asm volatile("prefetchu.L1 [%0];" ::"l"(in + (i + 256) % n));
}

__global__ void discardAndSpaces(float* scratch, int* kinds, int n) {
  __shared__ float tile[128];
  float local[4] = {1, 2, 3, 4};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x % 128] = local[i & 3];
  const void* pointers[4] = {scratch, tile, local, kinds};
  int k = 0;
  for (int p = 0; p < 4; ++p)
    k = k * 8 + __isGlobal(pointers[p]) * 1 + __isShared(pointers[p]) * 2 +
        __isLocal(pointers[p]) * 4 + __isConstant(pointers[p]) * 3;
  size_t sharedOffset = __cvta_generic_to_shared(&tile[threadIdx.x % 128]);
  void* back = __cvta_shared_to_generic(sharedOffset);
  kinds[i] = k + static_cast<int>(static_cast<float*>(back) - tile);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if (threadIdx.x == 0 && n >= 128)
    asm volatile("discard.global.L2 [%0], 128;" ::"l"(scratch) : "memory");
#endif
  (void)n;
}
