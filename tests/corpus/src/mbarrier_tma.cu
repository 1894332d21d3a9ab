// Hopper data movement: raw mbarrier PTX (init, arrive, expect_tx, try_wait.parity loops with
// their own labels, inval), the bulk copies cp.async.bulk (global <-> shared, with
// commit/wait groups), the tensor-map copies cp.async.bulk.tensor (1D..5D, through cuda::ptx and
// through inline asm), cp.reduce.async.bulk, fence.proxy.async, prefetch.tensormap, and
// tensormap.replace. Everything sm_90-only is guarded so the file also builds for sm_75.
#include <cuda.h>
#include <cuda/ptx>

#include <cstdint>

namespace ptx = cuda::ptx;

__device__ __forceinline__ uint32_t toShared(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// A phase-parity wait written as inline PTX with a loop label local to the asm scope.
__device__ __forceinline__ void waitParity(uint64_t* bar, uint32_t parity) {
  asm volatile("{\n\t"
               ".reg .pred done;\n"
               "WAIT_LOOP:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
               "@!done bra WAIT_LOOP;\n\t"
               "}" ::"r"(toShared(bar)),
               "r"(parity)
               : "memory");
}

__global__ void rawMbarrier(const int* in, int* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 // mbarrier exists from sm_80
  __shared__ alignas(8) uint64_t bar;
  __shared__ int data[128];
  if (threadIdx.x == 0)
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(toShared(&bar)), "r"(blockDim.x));
  __syncthreads();
  data[threadIdx.x] = in[threadIdx.x] * 3;
  uint64_t state;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];"
               : "=l"(state)
               : "r"(toShared(&bar))
               : "memory");
  // Wait with test_wait in a C++ loop (the sm_80 form).
  uint32_t ready = 0;
  while (!ready)
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.test_wait.shared.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(ready)
                 : "r"(toShared(&bar)), "l"(state)
                 : "memory");
  uint32_t pending;
  asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pending) : "l"(state));
  out[threadIdx.x] = data[(threadIdx.x + 1) % blockDim.x] + static_cast<int>(pending);
  __syncthreads();
  if (threadIdx.x == 0)
    asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(toShared(&bar)) : "memory");
#else
  out[threadIdx.x] = in[threadIdx.x];
#endif
}

__global__ void bulkCopies(const float4* in, float4* out, int bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ alignas(128) float4 buffer[256];
  __shared__ alignas(8) uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, buffer, in, bytes, &bar);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar,
                                   bytes);
  }
  waitParity(&bar, 0);
  buffer[threadIdx.x].x += 1.0f;
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out, buffer, bytes);
    ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_add,
                              reinterpret_cast<float*>(out + 256), reinterpret_cast<float*>(buffer),
                              bytes);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
#else
  out[threadIdx.x] = in[threadIdx.x];
  (void)bytes;
#endif
}

// TMA: the tensor map is a __grid_constant__ kernel parameter (.param .align 64 .b8 [128]).
__global__ void tensorCopies(const __grid_constant__ CUtensorMap map2d,
                             const __grid_constant__ CUtensorMap map3d,
                             const __grid_constant__ CUtensorMap map5d, float* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ alignas(8) uint64_t bar;
  if (threadIdx.x == 0) {
    asm volatile("prefetch.tensormap [%0];" ::"l"(&map2d) : "memory");
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  int32_t coords2[2] = {static_cast<int32_t>(blockIdx.x) * 64,
                        static_cast<int32_t>(blockIdx.y) * 64};
  int32_t coords3[3] = {0, static_cast<int32_t>(blockIdx.x), 1};
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile, &map2d, coords2, &bar);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar,
                                   sizeof(tile));
  }
  waitParity(&bar, 0);
  float acc = tile[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    // The same copy written by hand, 3D, with an L2 cache hint.
    uint64_t policy;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 ".L2::cache_hint [%0], [%1, {%2, %3, %4}], [%5], %6;" ::"r"(toShared(tile)),
                 "l"(&map3d), "r"(coords3[0]), "r"(coords3[1]), "r"(coords3[2]),
                 "r"(toShared(&bar)), "l"(policy)
                 : "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(toShared(&bar)),
                 "r"(static_cast<uint32_t>(sizeof(tile)))
                 : "memory");
  }
  waitParity(&bar, 1);
  acc += tile[threadIdx.x + 64];
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    int32_t coords5[5] = {0, 0, 0, 0, static_cast<int32_t>(blockIdx.x)};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &map5d, coords5, tile);
    ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_add, &map2d,
                                     coords2, tile);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
#else
  out[threadIdx.x] = static_cast<float>(threadIdx.x);
  (void)map2d;
  (void)map3d;
  (void)map5d;
#endif
}

// Rewriting a tensor map in global memory (tensormap.replace, sm_90a) and publishing it with
// fence.proxy.tensormap.
__global__ void editTensorMap(CUtensorMap* map, uint64_t newBase) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if (threadIdx.x == 0) {
    asm volatile("tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;" ::"l"(map),
                 "l"(newBase)
                 : "memory");
    asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
  }
#else
  if (threadIdx.x == 0)
    reinterpret_cast<uint64_t*>(map)[0] = newBase;
#endif
}
