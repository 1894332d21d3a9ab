// Double- and single-precision math library calls that expand into large PTX: sin/cos/tan
// (with their Payne-Hanek reduction paths), pow, exp/log families, erf/erfc/erfinv, lgamma/
// tgamma, Bessel functions, cbrt/hypot/rhypot, fmod/remainder/remquo, sincospi, and the fast
// intrinsics (__sinf, __expf, rcp/rsqrt approximations) for contrast.
#include <cmath>

__global__ void trigonometry(const double* x, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double v = x[i];
  double s, c;
  sincos(v, &s, &c);
  double sp, cp;
  sincospi(v, &sp, &cp);
  out[i] = sin(v) + cos(v * 3.0) + tan(v) + s * c + asin(v / 1e3) + acos(v / 2e3) + atan(v) +
           atan2(v, 2.0) + sinh(v / 100) + cosh(v / 100) + tanh(v) + asinh(v) + acosh(fabs(v) + 1) +
           atanh(v / 1e4) + sp * cp;
}

__global__ void powersAndLogs(const double* x, const double* y, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double a = x[i], b = y[i];
  out[i] = pow(a, b) + exp(a) + exp2(b) + exp10(a / 10) + expm1(a / 100) + log(fabs(a) + 1) +
           log2(fabs(b) + 1) + log10(fabs(a) + 2) + log1p(fabs(b)) + sqrt(fabs(a)) +
           rsqrt(fabs(b) + 1) + cbrt(a) + hypot(a, b) + rhypot(a, b) + norm3d(a, b, a * b) +
           scalbn(a, 3) + ldexp(b, -2) + logb(fabs(a) + 1) +
           static_cast<double>(ilogb(fabs(b) + 1));
}

__global__ void specialFunctions(const double* x, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double v = x[i];
  out[i] = erf(v) + erfc(v) + erfinv(v / 10) + erfcinv(0.5 + v / 100) + erfcx(v) +
           lgamma(fabs(v) + 1) + tgamma(v / 10 + 2) + j0(v) + j1(v) + jn(3, v) + y0(fabs(v) + 1) +
           y1(fabs(v) + 1) + yn(2, fabs(v) + 1) + cyl_bessel_i0(v) + cyl_bessel_i1(v) + normcdf(v) +
           normcdfinv(0.3) + static_cast<double>(isnan(v)) + static_cast<double>(isinf(v));
}

__global__ void remaindersAndRounding(const double* x, const double* y, double* out, int* quo,
                                      int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double a = x[i], b = y[i];
  int q = 0;
  out[i] = fmod(a, b) + remainder(a, b) + remquo(a, b, &q) + floor(a) + ceil(b) + trunc(a) +
           round(b) + rint(a) + nearbyint(b) + static_cast<double>(llround(a)) +
           static_cast<double>(lrint(b)) + fdim(a, b) + fma(a, b, 1.0) + copysign(a, b) +
           nextafter(a, b) + fmax(a, b) + fmin(a, b);
  double ipart;
  out[i] += modf(a, &ipart) + ipart;
  int e;
  out[i] += frexp(b, &e) + e;
  quo[i] = q;
}

__global__ void singlePrecision(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  float accurate = sinf(v) + cosf(v) + tanf(v) + powf(v, 2.5f) + expf(v) + logf(fabsf(v) + 1) +
                   erff(v) + lgammaf(fabsf(v) + 1) + cbrtf(v) + atan2f(v, 3.0f) + fmodf(v, 1.5f);
  float fast = __sinf(v) + __cosf(v) + __tanf(v) + __powf(fabsf(v), 1.5f) + __expf(v) +
               __logf(fabsf(v) + 1) + __log2f(fabsf(v) + 1) + __fdividef(v, 3.0f) +
               __frsqrt_rn(fabsf(v) + 1) + __fsqrt_rd(fabsf(v)) + __frcp_rz(v + 2) +
               __fadd_ru(v, 1.0f) + __fmul_rd(v, v) + __fmaf_rz(v, v, v) + __saturatef(v);
  out[i] = accurate + fast;
}

__global__ void doubleRoundingModes(const double* x, double* out, long long* ints, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double v = x[i];
  out[i] = __dadd_rn(v, 1.0) + __dadd_rz(v, 2.0) + __dmul_ru(v, 3.0) + __dmul_rd(v, v) +
           __fma_rn(v, v, 1.0) + __fma_rz(v, 2.0, v) + __ddiv_rn(v, 3.0) + __drcp_rn(v + 4) +
           __dsqrt_ru(fabs(v));
  ints[i] = __double2ll_rn(v) + __double2ll_rz(v * 2) + __double2ll_ru(v) + __double2ll_rd(v) +
            static_cast<long long>(__double2uint_rz(fabs(v))) +
            static_cast<long long>(__double_as_longlong(v) >> 52);
}
