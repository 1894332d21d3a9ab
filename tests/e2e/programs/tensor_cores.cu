// Tensor cores through the WMMA API (f16 with f32 and f16 accumulators, bf16, tf32, f64, s8) and
// through inline mma.sync and ldmatrix with the PTX ISA's fragment layouts (f16 m16n8k16, tf32
// m16n8k8, s8 m16n8k32, f64 m8n8k4, ldmatrix.x4 with and without .trans). One warp per tile;
// every result is compared with a CPU matrix product of small integers (exact in any order).
#include "e2e_common.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <mma.h>
#include <vector>

namespace wmma = nvcuda::wmma;

template <class In, class Acc, int M, int N, int K>
__global__ void wmma_tile(const In* a, const In* b, const Acc* c, Acc* d) {
  wmma::fragment<wmma::matrix_a, M, N, K, In, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, In, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> fc;
  wmma::load_matrix_sync(fa, a, K);
  wmma::load_matrix_sync(fb, b, K);
  wmma::load_matrix_sync(fc, c, N, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, N, wmma::mem_row_major);
}

__global__ void wmma_tf32(const float* a, const float* b, float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 8);
  wmma::load_matrix_sync(fb, b, 8);
  for (int i = 0; i < fa.num_elements; ++i)
    fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
  for (int i = 0; i < fb.num_elements; ++i)
    fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

// A and B row-major (m x k, k x n); D row-major m x n. g = lane / 4, t = lane % 4.
__global__ void mma_f16(const __half* a, const __half* b, float* d) {
  const int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  unsigned ra[4], rb[2];
  for (int r = 0; r < 4; ++r) {
    const int row = g + 8 * (r & 1), col = 2 * t + 8 * (r >> 1);
    ra[r] = __half_as_ushort(a[row * 16 + col]) |
            (static_cast<unsigned>(__half_as_ushort(a[row * 16 + col + 1])) << 16);
  }
  for (int r = 0; r < 2; ++r) {
    const int row = 2 * t + 8 * r;
    rb[r] = __half_as_ushort(b[row * 8 + g]) |
            (static_cast<unsigned>(__half_as_ushort(b[(row + 1) * 8 + g])) << 16);
  }
  float rd[4];
  const float zero = 0.0f;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%10, %10, %10, %10};"
               : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "f"(zero));
  for (int i = 0; i < 4; ++i)
    d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = rd[i];
}

__global__ void mma_tf32(const float* a, const float* b, float* d) {
  const int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  unsigned ra[4], rb[2];
  for (int i = 0; i < 4; ++i)
    ra[i] = __float_as_uint(a[(g + 8 * (i & 1)) * 8 + t + 4 * (i >> 1)]);
  for (int i = 0; i < 2; ++i)
    rb[i] = __float_as_uint(b[(t + 4 * i) * 8 + g]);
  float rd[4];
  const float zero = 0.0f;
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%10, %10, %10, %10};"
               : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "f"(zero));
  for (int i = 0; i < 4; ++i)
    d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = rd[i];
}

__global__ void mma_s8(const signed char* a, const signed char* b, int* d) {
  const int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  unsigned ra[4] = {0, 0, 0, 0}, rb[2] = {0, 0};
  for (int i = 0; i < 16; ++i) {
    const int row = g + 8 * ((i >> 2) & 1), col = 4 * t + (i & 3) + 16 * (i >> 3);
    ra[i / 4] |= static_cast<unsigned>(static_cast<unsigned char>(a[row * 32 + col]))
                 << (8 * (i % 4));
  }
  for (int i = 0; i < 8; ++i) {
    const int row = 4 * t + (i & 3) + 16 * (i >> 2);
    rb[i / 4] |= static_cast<unsigned>(static_cast<unsigned char>(b[row * 8 + g])) << (8 * (i % 4));
  }
  int rd[4];
  const int zero = 0;
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%10, %10, %10, %10};"
               : "=r"(rd[0]), "=r"(rd[1]), "=r"(rd[2]), "=r"(rd[3])
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "r"(zero));
  for (int i = 0; i < 4; ++i)
    d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = rd[i];
}

__global__ void mma_f64(const double* a, const double* b, double* d) {
  const int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  double rd[2];
  const double zero = 0.0;
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %4};"
               : "=d"(rd[0]), "=d"(rd[1])
               : "d"(a[g * 4 + t]), "d"(b[t * 8 + g]), "d"(zero));
  d[g * 8 + 2 * t] = rd[0];
  d[g * 8 + 2 * t + 1] = rd[1];
}

__global__ void ldmatrix_tile(const __half* tile, unsigned* out) {
  __shared__ __align__(16) __half s[256];
  const int lane = threadIdx.x;
  for (int i = lane; i < 256; i += 32)
    s[i] = tile[i];
  __syncwarp();
  const unsigned address =
      static_cast<unsigned>(__cvta_generic_to_shared(&s[(lane % 16) * 16 + (lane / 16) * 8]));
  unsigned r[4], q[4];
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(q[0]), "=r"(q[1]), "=r"(q[2]), "=r"(q[3])
               : "r"(address));
  for (int i = 0; i < 4; ++i) {
    out[lane * 8 + i] = r[i];
    out[lane * 8 + 4 + i] = q[i];
  }
}

static std::vector<int> integers(int count, int low, int high, e2e::Rng& rng) {
  std::vector<int> v(count);
  for (int& x : v)
    x = rng.range(low, high);
  return v;
}

// sum_k a[i][k] b[k][j] (+ c), a row-major m x k, b row-major k x n.
static std::vector<long long> product(const std::vector<int>& a, const std::vector<int>& b,
                                      const std::vector<int>& c, int m, int n, int k) {
  std::vector<long long> d(m * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      long long s = c.empty() ? 0 : c[i * n + j];
      for (int x = 0; x < k; ++x)
        s += static_cast<long long>(a[i * k + x]) * b[x * n + j];
      d[i * n + j] = s;
    }
  return d;
}

static std::vector<int> transpose(const std::vector<int>& v, int rows, int cols) {
  std::vector<int> t(v.size());
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      t[j * rows + i] = v[i * cols + j];
  return t;
}

template <class T, class F> static T* to_device(const std::vector<int>& v, F convert) {
  std::vector<T> host(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    host[i] = convert(v[i]);
  T* device = nullptr;
  CHECK(cudaMalloc(&device, host.size() * sizeof(T)));
  CHECK(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}

template <class T> static std::vector<T> from_device(const T* device, int count) {
  std::vector<T> host(count);
  CHECK(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

template <class T> static T* scratch(int count) {
  T* device = nullptr;
  CHECK(cudaMalloc(&device, count * sizeof(T)));
  return device;
}

int main() {
  e2e::Rng rng(31337);
  auto half_of = [](int v) { return __float2half_rn(static_cast<float>(v)); };
  auto float_of = [](int v) { return static_cast<float>(v); };
  {
    auto a = integers(256, -8, 8, rng), b = integers(256, -8, 8, rng),
         c = integers(256, -40, 40, rng);
    auto* da = to_device<__half>(a, half_of);
    auto* db = to_device<__half>(transpose(b, 16, 16), half_of);
    auto* dc = to_device<float>(c, float_of);
    auto* dd = scratch<float>(256);
    wmma_tile<__half, float, 16, 16, 16><<<1, 32>>>(da, db, dc, dd);
    CHECK_LAUNCH();
    auto got = from_device(dd, 256);
    auto want = product(a, b, c, 16, 16, 16);
    int bad = 0;
    for (int i = 0; i < 256; ++i)
      bad += got[i] != static_cast<float>(want[i]);
    e2e::expect(bad == 0, "wmma f16 m16n16k16, f32 accumulator");
    auto* dch = to_device<__half>(c, half_of);
    auto* ddh = scratch<__half>(256);
    wmma_tile<__half, __half, 16, 16, 16><<<1, 32>>>(da, db, dch, ddh);
    CHECK_LAUNCH();
    auto goth = from_device(ddh, 256);
    bad = 0;
    for (int i = 0; i < 256; ++i)
      bad += __half2float(goth[i]) != static_cast<float>(want[i]);
    e2e::expect(bad == 0, "wmma f16 m16n16k16, f16 accumulator");
  }
  {
    auto a = integers(8 * 16, -16, 16, rng), b = integers(16 * 32, -16, 16, rng);
    std::vector<int> c(8 * 32, 0);
    auto bf = [](int v) { return __float2bfloat16(static_cast<float>(v)); };
    auto* da = to_device<__nv_bfloat16>(a, bf);
    auto* db = to_device<__nv_bfloat16>(transpose(b, 16, 32), bf);
    auto* dc = to_device<float>(c, float_of);
    auto* dd = scratch<float>(8 * 32);
    wmma_tile<__nv_bfloat16, float, 8, 32, 16><<<1, 32>>>(da, db, dc, dd);
    CHECK_LAUNCH();
    auto got = from_device(dd, 8 * 32);
    auto want = product(a, b, c, 8, 32, 16);
    int bad = 0;
    for (int i = 0; i < 8 * 32; ++i)
      bad += got[i] != static_cast<float>(want[i]);
    e2e::expect(bad == 0, "wmma bf16 m8n32k16");
  }
  {
    auto a = integers(16 * 8, -100, 100, rng), b = integers(8 * 16, -100, 100, rng);
    auto* da = to_device<float>(a, float_of);
    auto* db = to_device<float>(transpose(b, 8, 16), float_of);
    auto* dd = scratch<float>(256);
    wmma_tf32<<<1, 32>>>(da, db, dd);
    CHECK_LAUNCH();
    auto got = from_device(dd, 256);
    auto want = product(a, b, {}, 16, 16, 8);
    int bad = 0;
    for (int i = 0; i < 256; ++i)
      bad += got[i] != static_cast<float>(want[i]);
    e2e::expect(bad == 0, "wmma tf32 m16n16k8");
  }
  {
    auto a = integers(32, -999, 999, rng), b = integers(32, -999, 999, rng),
         c = integers(64, -999, 999, rng);
    auto dbl = [](int v) { return static_cast<double>(v); };
    auto* da = to_device<double>(a, dbl);
    auto* db = to_device<double>(transpose(b, 4, 8), dbl);
    auto* dc = to_device<double>(c, dbl);
    auto* dd = scratch<double>(64);
    wmma_tile<double, double, 8, 8, 4><<<1, 32>>>(da, db, dc, dd);
    CHECK_LAUNCH();
    auto got = from_device(dd, 64);
    auto want = product(a, b, c, 8, 8, 4);
    int bad = 0;
    for (int i = 0; i < 64; ++i)
      bad += got[i] != static_cast<double>(want[i]);
    e2e::expect(bad == 0, "wmma f64 m8n8k4");
    auto* dbr = to_device<double>(b, dbl);
    mma_f64<<<1, 32>>>(da, dbr, dd);
    CHECK_LAUNCH();
    got = from_device(dd, 64);
    want = product(a, b, {}, 8, 8, 4);
    bad = 0;
    for (int i = 0; i < 64; ++i)
      bad += got[i] != static_cast<double>(want[i]);
    e2e::expect(bad == 0, "mma.sync f64 m8n8k4 (ISA layout)");
  }
  {
    auto a = integers(256, -128, 127, rng), b = integers(256, -128, 127, rng),
         c = integers(256, -9, 9, rng);
    auto s8 = [](int v) { return static_cast<signed char>(v); };
    auto* da = to_device<signed char>(a, s8);
    auto* db = to_device<signed char>(transpose(b, 16, 16), s8);
    auto* dc = to_device<int>(c, [](int v) { return v; });
    auto* dd = scratch<int>(256);
    wmma_tile<signed char, int, 16, 16, 16><<<1, 32>>>(da, db, dc, dd);
    CHECK_LAUNCH();
    auto got = from_device(dd, 256);
    auto want = product(a, b, c, 16, 16, 16);
    int bad = 0;
    for (int i = 0; i < 256; ++i)
      bad += got[i] != want[i];
    e2e::expect(bad == 0, "wmma s8 m16n16k16");
  }
  {
    auto a = integers(16 * 16, -8, 8, rng), b = integers(16 * 8, -8, 8, rng);
    auto* da = to_device<__half>(a, half_of);
    auto* db = to_device<__half>(b, half_of);
    auto* dd = scratch<float>(128);
    mma_f16<<<1, 32>>>(da, db, dd);
    CHECK_LAUNCH();
    auto got = from_device(dd, 128);
    auto want = product(a, b, {}, 16, 8, 16);
    int bad = 0;
    for (int i = 0; i < 128; ++i)
      bad += got[i] != static_cast<float>(want[i]);
    e2e::expect(bad == 0, "mma.sync f16 m16n8k16 (ISA layout)");
  }
  {
    auto a = integers(16 * 8, -300, 300, rng), b = integers(8 * 8, -300, 300, rng);
    auto* da = to_device<float>(a, float_of);
    auto* db = to_device<float>(b, float_of);
    auto* dd = scratch<float>(128);
    mma_tf32<<<1, 32>>>(da, db, dd);
    CHECK_LAUNCH();
    auto got = from_device(dd, 128);
    auto want = product(a, b, {}, 16, 8, 8);
    int bad = 0;
    for (int i = 0; i < 128; ++i)
      bad += got[i] != static_cast<float>(want[i]);
    e2e::expect(bad == 0, "mma.sync tf32 m16n8k8 (ISA layout)");
  }
  {
    auto a = integers(16 * 32, -128, 127, rng), b = integers(32 * 8, -128, 127, rng);
    auto s8 = [](int v) { return static_cast<signed char>(v); };
    auto* da = to_device<signed char>(a, s8);
    auto* db = to_device<signed char>(b, s8);
    auto* dd = scratch<int>(128);
    mma_s8<<<1, 32>>>(da, db, dd);
    CHECK_LAUNCH();
    auto got = from_device(dd, 128);
    auto want = product(a, b, {}, 16, 8, 32);
    int bad = 0;
    for (int i = 0; i < 128; ++i)
      bad += got[i] != want[i];
    e2e::expect(bad == 0, "mma.sync s8 m16n8k32 (ISA layout)");
  }
  {
    std::vector<int> tile(256);
    for (int i = 0; i < 256; ++i)
      tile[i] = i;
    auto* dt = to_device<__half>(tile, half_of);
    auto* dout = scratch<unsigned>(32 * 8);
    ldmatrix_tile<<<1, 32>>>(dt, dout);
    CHECK_LAUNCH();
    auto got = from_device(dout, 32 * 8);
    int bad = 0;
    for (int lane = 0; lane < 32; ++lane)
      for (int q = 0; q < 4; ++q)
        for (int h = 0; h < 2; ++h) {
          const int r = lane / 4, c = 2 * (lane % 4) + h, rb = (q % 2) * 8, cb = (q / 2) * 8;
          const unsigned short plain = static_cast<unsigned short>(got[lane * 8 + q] >> (16 * h));
          const unsigned short trans =
              static_cast<unsigned short>(got[lane * 8 + 4 + q] >> (16 * h));
          bad +=
              __half2float(__ushort_as_half(plain)) != static_cast<float>((rb + r) * 16 + cb + c);
          bad +=
              __half2float(__ushort_as_half(trans)) != static_cast<float>((rb + c) * 16 + cb + r);
        }
    e2e::expect(bad == 0, "ldmatrix.x4 and .trans (ISA layout)");
  }
  return e2e::finish();
}
