// Warpgroup MMA (sm_90a only): wgmma.fence / mma_async / commit_group / wait_group with shared
// memory matrix descriptors, in several shapes and types (f16 and bf16 with f32 accumulators,
// A from registers, s8 with s32 accumulators, tf32), with the long vector operands they need
// (up to 64 registers), plus setmaxnreg for producer/consumer warpgroups. Everything is
// guarded by __CUDA_ARCH_FEAT_SM90_ALL so the file still compiles for compute_75/compute_90.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

__device__ __forceinline__ uint64_t matrixDescriptor(const void* smem, uint32_t leading,
                                                     uint32_t stride, uint32_t swizzle) {
  uint64_t address = static_cast<uint64_t>(__cvta_generic_to_shared(smem));
  uint64_t desc = 0;
  desc |= (address & 0x3FFFF) >> 4;
  desc |= static_cast<uint64_t>((leading & 0x3FFFF) >> 4) << 16;
  desc |= static_cast<uint64_t>((stride & 0x3FFFF) >> 4) << 32;
  desc |= static_cast<uint64_t>(swizzle & 3) << 62;
  return desc;
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define WG_FENCE() asm volatile("wgmma.fence.sync.aligned;" ::: "memory")
#define WG_COMMIT() asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory")
#define WG_WAIT(n) asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(n) : "memory")
#endif

__global__ void __launch_bounds__(128) wgmmaHalf(const __half* a, const __half* b, float* c) {
  __shared__ alignas(1024) __half sa[64 * 16];
  __shared__ alignas(1024) __half sb[64 * 16];
  for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x) {
    sa[i] = a[i];
    sb[i] = b[i];
  }
  __syncthreads();
  float d[32];
  for (int i = 0; i < 32; ++i)
    d[i] = 0.0f;
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  uint64_t da = matrixDescriptor(sa, 128, 256, 1);
  uint64_t db = matrixDescriptor(sb, 128, 256, 1);
  WG_FENCE();
  asm volatile("{\n\t"
               ".reg .pred p;\n\t"
               "setp.ne.b32 p, %34, 0;\n\t"
               "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
               "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
               "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
               "%32, %33, p, 1, 1, 0, 0;\n\t"
               "}"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                 "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]),
                 "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]),
                 "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
                 "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),
                 "+f"(d[31])
               : "l"(da), "l"(db), "r"(1));
  WG_COMMIT();
  WG_WAIT(0);
#else
  d[0] = __half2float(sa[threadIdx.x]) * __half2float(sb[threadIdx.x]);
#endif
  for (int i = 0; i < 32; ++i)
    c[threadIdx.x * 32 + i] = d[i];
}

__global__ void __launch_bounds__(128)
    wgmmaBf16RegisterA(const uint32_t* a, const __nv_bfloat16* b, float* c) {
  __shared__ alignas(1024) __nv_bfloat16 sb[128 * 16];
  for (int i = threadIdx.x; i < 128 * 16; i += blockDim.x)
    sb[i] = b[i];
  __syncthreads();
  uint32_t ra[4] = {a[threadIdx.x * 4], a[threadIdx.x * 4 + 1], a[threadIdx.x * 4 + 2],
                    a[threadIdx.x * 4 + 3]};
  float d[64];
  for (int i = 0; i < 64; ++i)
    d[i] = 0.0f;
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  uint64_t db = matrixDescriptor(sb, 256, 512, 0);
  WG_FENCE();
  asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
               "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
               "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
               "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
               "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
               "{%64, %65, %66, %67}, %68, 1, 1, 1, 1;"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                 "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]),
                 "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]),
                 "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
                 "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),
                 "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]),
                 "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),
                 "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
                 "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]),
                 "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]),
                 "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "l"(db));
  WG_COMMIT();
  WG_WAIT(0);
#else
  d[0] = __bfloat162float(sb[threadIdx.x]) + __uint_as_float(ra[0] ^ ra[1] ^ ra[2] ^ ra[3]);
#endif
  for (int i = 0; i < 64; ++i)
    c[threadIdx.x * 64 + i] = d[i];
}

__global__ void __launch_bounds__(128)
    wgmmaIntAndTf32(const int8_t* a, const int8_t* b, const float* fa, int* c, float* fc) {
  __shared__ alignas(1024) int8_t sa[64 * 32];
  __shared__ alignas(1024) int8_t sb[8 * 32];
  __shared__ alignas(1024) float sfa[64 * 8];
  for (int i = threadIdx.x; i < 64 * 32; i += blockDim.x)
    sa[i] = a[i];
  for (int i = threadIdx.x; i < 8 * 32; i += blockDim.x)
    sb[i] = b[i];
  for (int i = threadIdx.x; i < 64 * 8; i += blockDim.x)
    sfa[i] = fa[i];
  __syncthreads();
  int d[4] = {0, 0, 0, 0};
  float f[4] = {0, 0, 0, 0};
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  WG_FENCE();
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8.satfinite "
               "{%0, %1, %2, %3}, %4, %5, 0;"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
               : "l"(matrixDescriptor(sa, 128, 256, 0)), "l"(matrixDescriptor(sb, 128, 256, 0)));
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 "
               "{%0, %1, %2, %3}, %4, %5, 1, 1, 1;"
               : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3])
               : "l"(matrixDescriptor(sfa, 128, 256, 0)), "l"(matrixDescriptor(sb, 128, 256, 0)));
  WG_COMMIT();
  WG_WAIT(1);
  WG_WAIT(0);
#else
  d[0] = sa[threadIdx.x] * sb[threadIdx.x];
  f[0] = sfa[threadIdx.x];
#endif
  for (int i = 0; i < 4; ++i) {
    c[threadIdx.x * 4 + i] = d[i];
    fc[threadIdx.x * 4 + i] = f[i];
  }
}

// Producer/consumer warpgroups rebalance registers with setmaxnreg (sm_90a).
__global__ void __launch_bounds__(384, 1) registerRebalance(const float* in, float* out) {
  int warpgroup = threadIdx.x / 128;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (warpgroup == 0) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
#endif
    v *= 0.5f;
  } else {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
#endif
    for (int k = 0; k < 8; ++k)
      v = v * v + 0.25f;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
