// Blackwell (sm_100a) tensor memory and scheduling: tcgen05.alloc/dealloc/relinquish, tcgen05.mma
// (kind::f16 and kind::tf32, accumulating into tensor memory), tcgen05.commit to an mbarrier,
// tcgen05.ld/st with wide vector operands, tcgen05.fence/wait, and clusterlaunchcontrol
// (try_cancel/query_cancel, 128-bit responses). Guarded by __CUDA_ARCH_FEAT_SM100_ALL so the
// file compiles, as stubs, for every other target too.
#include <cuda/ptx>

#include <cstdint>

namespace ptx = cuda::ptx;

__device__ __forceinline__ uint32_t toShared(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ uint64_t descriptor(const void* smem) {
  return (static_cast<uint64_t>(toShared(smem)) & 0x3FFFF) >> 4 | uint64_t{1} << 46;
}

__global__ void __launch_bounds__(128)
    tensorMemoryGemm(const uint16_t* a, const uint16_t* b, float* c, uint32_t instrDesc) {
  __shared__ alignas(1024) uint16_t sa[128 * 16];
  __shared__ alignas(1024) uint16_t sb[128 * 16];
  __shared__ alignas(8) uint64_t bar;
  __shared__ uint32_t tmemBase;
  for (int i = threadIdx.x; i < 128 * 16; i += blockDim.x) {
    sa[i] = a[i];
    sb[i] = b[i];
  }
  float out[8] = {0, 0, 0, 0, 0, 0, 0, 0};
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  int warp = threadIdx.x / 32;
  if (warp == 0) {
    ptx::tcgen05_alloc(ptx::cta_group_1, &tmemBase, 128u);
    ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1);
  }
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  ptx::tcgen05_fence_after_thread_sync();
  uint32_t tmem = tmemBase;
  if (threadIdx.x == 0) {
    asm volatile("{\n\t"
                 ".reg .pred accumulate;\n\t"
                 "setp.ne.b32 accumulate, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, accumulate;\n\t"
                 "tcgen05.mma.cta_group::1.kind::tf32 [%0], %1, %2, %3, 1;\n\t"
                 "}" ::"r"(tmem),
                 "l"(descriptor(sa)), "l"(descriptor(sb)), "r"(instrDesc), "r"(0)
                 : "memory");
    ptx::tcgen05_commit(ptx::cta_group_1, &bar);
  }
  asm volatile("{\n\t"
               ".reg .pred done;\n"
               "WAIT:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n\t"
               "@!done bra WAIT;\n\t"
               "}" ::"r"(toShared(&bar))
               : "memory");
  ptx::tcgen05_fence_after_thread_sync();
  uint32_t lane = tmem + ((threadIdx.x / 32 * 32) << 16);
  uint32_t r[8];
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]),
                 "=r"(r[7])
               : "r"(lane));
  ptx::tcgen05_wait_ld();
  for (int k = 0; k < 8; ++k)
    out[k] = __uint_as_float(r[k]);
  uint32_t back[2] = {r[1], r[0]};
  asm volatile("tcgen05.st.sync.aligned.32x32b.x2.b32 [%0], {%1, %2};" ::"r"(lane + 8),
               "r"(back[0]), "r"(back[1])
               : "memory");
  ptx::tcgen05_wait_st();
  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  if (warp == 0)
    ptx::tcgen05_dealloc(ptx::cta_group_1, tmem, 128u);
#else
  __syncthreads();
  out[0] = static_cast<float>(sa[threadIdx.x] + sb[threadIdx.x]) + static_cast<float>(instrDesc);
  bar = 0;
  tmemBase = static_cast<uint32_t>(bar);
  out[1] = static_cast<float>(tmemBase);
#endif
  for (int k = 0; k < 8; ++k)
    c[threadIdx.x * 8 + k] = out[k];
}

// A persistent kernel that steals work from blocks not yet launched (clusterlaunchcontrol).
__global__ void workStealing(const float* in, float* out, int n) {
  __shared__ alignas(16) uint4 response;
  __shared__ alignas(8) uint64_t bar;
  int block = blockIdx.x;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
  if (threadIdx.x == 0)
    ptx::mbarrier_init(&bar, 1);
  __syncthreads();
  for (uint32_t phase = 0;; phase ^= 1) {
    int i = block * blockDim.x + threadIdx.x;
    if (i < n)
      out[i] = in[i] * 2.0f;
    if (threadIdx.x == 0) {
      ptx::clusterlaunchcontrol_try_cancel(&response, &bar);
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar,
                                     sizeof(response));
    }
    asm volatile("{\n\t"
                 ".reg .pred done;\n"
                 "WAIT:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
                 "@!done bra WAIT;\n\t"
                 "}" ::"r"(toShared(&bar)),
                 "r"(phase)
                 : "memory");
    int canceled;
    asm volatile("{\n\t"
                 ".reg .b128 resp;\n\t"
                 ".reg .pred isCanceled;\n\t"
                 "ld.shared.b128 resp, [%1];\n\t"
                 "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 isCanceled, resp;\n\t"
                 "selp.s32 %0, 1, 0, isCanceled;\n\t"
                 "}"
                 : "=r"(canceled)
                 : "r"(toShared(&response)));
    if (!canceled)
      break;
    uint32_t x;
    asm volatile("{\n\t"
                 ".reg .b128 resp;\n\t"
                 "ld.shared.b128 resp, [%1];\n\t"
                 "clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 %0, resp;\n\t"
                 "}"
                 : "=r"(x)
                 : "r"(toShared(&response)));
    block = static_cast<int>(x);
    __syncthreads();
  }
#else
  response = make_uint4(0, 0, 0, 0);
  bar = response.x;
  int i = block * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f + static_cast<float>(bar);
#endif
}
