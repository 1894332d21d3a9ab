// 64-bit and 128-bit arithmetic: __int128 and unsigned __int128 (add/mul/div/shift across
// register pairs), 64-bit division and remainder (call-free but long PTX), vector loads and
// stores of 128 bits (float4, double2, longlong2, uint4, int4), misaligned byte access, and
// conversions between every integer and float width.
#include <cstdint>

__global__ void int128Arithmetic(const unsigned long long* in, unsigned long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned __int128 a = (static_cast<unsigned __int128>(in[2 * i]) << 64) | in[2 * i + 1];
  unsigned __int128 b = static_cast<unsigned __int128>(in[2 * i + 1]) * 0x9E3779B97F4A7C15ull;
  unsigned __int128 sum = a + b;
  unsigned __int128 product = a * b;
  unsigned __int128 quotient = b != 0 ? a / (b | 1) : a;
  unsigned __int128 remainder = a % ((b >> 3) | 7);
  __int128 s = static_cast<__int128>(a) >> 17;
  s = -s * 3 + static_cast<__int128>(remainder);
  bool less = a < b;
  out[4 * i + 0] = static_cast<unsigned long long>(sum ^ (sum >> 64));
  out[4 * i + 1] = static_cast<unsigned long long>(product >> 64);
  out[4 * i + 2] = static_cast<unsigned long long>(quotient) + less;
  out[4 * i + 3] = static_cast<unsigned long long>(s >> 32);
}

__global__ void int64Arithmetic(const long long* a, const long long* b, long long* out,
                                unsigned long long* uout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  long long x = a[i], y = b[i] | 1;
  unsigned long long ux = static_cast<unsigned long long>(x),
                     uy = static_cast<unsigned long long>(y);
  out[i] =
      x / y + x % y + (x >> 13) + (x << 7) + __mul64hi(x, y) + llabs(x) + llmin(x, y) + llmax(x, y);
  uout[i] = ux / uy + ux % uy + (ux >> 61) + __umul64hi(ux, uy) + __brevll(ux) + __popcll(ux) +
            __clzll(static_cast<long long>(uy)) + __ffsll(static_cast<long long>(ux)) +
            ullmin(ux, uy);
}

__global__ void vectorLoads(const float4* f4, const double2* d2, const longlong2* l2,
                            const uint4* u4, const int4* i4, float4* of, double2* od, longlong2* ol,
                            uint4* ou, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 a = f4[i];
  double2 b = d2[i];
  longlong2 c = l2[i];
  uint4 d = __ldg(&u4[i]);
  int4 e = __ldcs(&i4[i]);
  of[i] = make_float4(a.w, a.z + e.x, a.y, a.x);
  od[i] = make_double2(b.y + static_cast<double>(c.x), b.x);
  ol[i] = make_longlong2(c.y + e.w, c.x - d.x);
  __stcs(&ou[i], make_uint4(d.w, d.z, d.y, d.x + static_cast<unsigned>(e.y)));
}

// Byte-granular access to unaligned data and packing through unions.
union Packed {
  uint64_t word;
  uint8_t bytes[8];
  uint16_t halves[4];
  float floats[2];
};

__global__ void bytePacking(const uint8_t* data, uint64_t* out, int stride) {
  Packed p;
  const uint8_t* src = data + threadIdx.x * stride + 3; // deliberately misaligned
  for (int k = 0; k < 8; ++k)
    p.bytes[k] = src[k];
  p.halves[1] ^= 0xBEEF;
  p.floats[1] *= 2.0f;
  out[threadIdx.x] = p.word;
}

__global__ void conversions(const double* d, float* f, long long* ll, unsigned* u, short* s,
                            signed char* c, double* back, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double v = d[i];
  f[i] = static_cast<float>(v);
  ll[i] = static_cast<long long>(v);
  u[i] = static_cast<unsigned>(v);
  s[i] = static_cast<short>(v);
  c[i] = static_cast<signed char>(v);
  back[i] = static_cast<double>(ll[i]) + static_cast<double>(u[i]) + static_cast<double>(s[i]) +
            static_cast<double>(c[i]) + static_cast<double>(static_cast<unsigned long long>(v)) +
            __ll2double_rd(ll[i]) + __uint2double_rn(u[i]) + __int2float_rz(s[i]) +
            __ull2float_ru(static_cast<unsigned long long>(ll[i]));
}
