// Half and bfloat16: scalar and packed (half2/bfloat162) arithmetic, fused multiply-add,
// comparisons, min/max with NaN handling, conversions with every rounding mode, math
// functions (h2exp, hsqrt...), and fp8 conversions where the architecture has them.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

__global__ void halfArithmetic(const __half2* a, const __half2* b, __half2* out, __half* scalar,
                               int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __half2 x = a[i], y = b[i];
  __half2 r = __hadd2(x, y);
  r = __hmul2(r, __hsub2(x, y));
  r = __hfma2(r, x, y);
  r = __hfma2_relu(r, y, x);
  r = __h2div(r, __hadd2(y, __float2half2_rn(1.0f)));
  r = __hmax2(r, __hneg2(x));
  r = __hmin2_nan(r, y);
  __half2 m = __hlt2(x, y);
  r = __hadd2_sat(r, m);
  r = __habs2(r);
  out[i] = __lowhigh2highlow(r);
  __half s = __hadd(__low2half(x), __high2half(y));
  s = __hmul(s, __float2half_rz(0.5f));
  s = __hfma(s, __low2half(r), __ushort2half_rn(3));
  if (__hgt(s, __float2half(2.0f)) || __hisnan(s))
    s = __hneg(s);
  scalar[i] = s;
}

__global__ void halfMath(const __half2* in, __half2* out, float* f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __half2 v = in[i];
  __half2 r = h2exp(v);
  r = __hadd2(r, h2log(__habs2(v)));
  r = __hadd2(r, h2sqrt(__habs2(v)));
  r = __hadd2(r, h2rcp(v));
  r = __hadd2(r, h2sin(v));
  r = __hadd2(r, h2cos(v));
  r = __hadd2(r, h2floor(v));
  r = __hadd2(r, h2trunc(v));
  out[i] = r;
  float2 ff = __half22float2(r);
  f[i] = ff.x * ff.y + __half2float(hrsqrt(__low2half(v)));
}

__global__ void bfloatArithmetic(const __nv_bfloat162* a, const __nv_bfloat162* b,
                                 __nv_bfloat162* out, __nv_bfloat16* scalar, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __nv_bfloat162 x = a[i], y = b[i];
  __nv_bfloat162 r = __hadd2(x, y);
  r = __hmul2(r, x);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  r = __hfma2(r, y, x); // fma.rn.bf16x2 from sm_80
#else
  r = __hadd2(__hmul2(r, y), x);
#endif
  r = __hmax2(r, __hneg2(y));
  r = __hmin2(r, x);
  r = __hadd2(r, h2exp(x));
  out[i] = r;
  __nv_bfloat16 s = __hadd(__low2bfloat16(x), __high2bfloat16(y));
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  s = __hfma(s, __float2bfloat16_rz(0.25f), __int2bfloat16_rn(i));
#else
  s = __hadd(__hmul(s, __float2bfloat16_rz(0.25f)), __int2bfloat16_rn(i));
#endif
  scalar[i] = __hgt(s, __float2bfloat16(1.0f)) ? s : __hneg(s);
}

__global__ void conversions(const float* in, __half* h, __nv_bfloat16* b, int* iout,
                            unsigned short* raw, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  h[4 * i + 0] = __float2half_rn(v);
  h[4 * i + 1] = __float2half_rz(v);
  h[4 * i + 2] = __float2half_rd(v);
  h[4 * i + 3] = __float2half_ru(v);
  b[2 * i + 0] = __float2bfloat16_rn(v);
  b[2 * i + 1] = __double2bfloat16(static_cast<double>(v) * 3.0);
  __half hv = __double2half(static_cast<double>(v));
  iout[3 * i + 0] = __half2int_rz(hv);
  iout[3 * i + 1] = __half2int_rn(hv) + __bfloat162int_rd(b[2 * i]);
  iout[3 * i + 2] = static_cast<int>(__half2uint_ru(hv)) + __half2short_rd(hv);
  raw[i] = __half_as_ushort(hv) ^ __bfloat16_as_ushort(b[2 * i + 1]);
  __half2 packed = __floats2half2_rn(v, -v);
  __nv_bfloat162 bpacked = __float22bfloat162_rn(make_float2(v, v * 2));
  raw[n + i] = __half_as_ushort(__high2half(packed)) + __bfloat16_as_ushort(bpacked.y);
}

// fp8 (e4m3/e5m2) conversions: cvt.rn.satfinite.e4m3x2.f32 exists from sm_89; older targets
// get the software path from cuda_fp8.h.
__global__ void fp8Conversions(const float2* in, __nv_fp8x2_e4m3* e4, __nv_fp8x2_e5m2* e5,
                               float2* back, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __nv_fp8x2_e4m3 a(in[i]);
  __nv_fp8x2_e5m2 b(in[i]);
  e4[i] = a;
  e5[i] = b;
  float2 fa = static_cast<float2>(a);
  float2 fb = static_cast<float2>(b);
  back[i] = make_float2(fa.x + fb.x, fa.y - fb.y);
}
