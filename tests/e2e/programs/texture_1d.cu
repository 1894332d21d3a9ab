// 1D texture objects: a linear-memory resource (cudaResourceTypeLinear) read with tex1Dfetch for
// float and int4 elements, and a 1D CUDA array read with tex1D using point and linear filtering,
// unnormalized and normalized coordinates, clamp / border / wrap / mirror addressing.
// Linear filtering is sampled at fractions 0, 1/4, 1/2 and 3/4, which the hardware's 8-bit
// fractional weights represent exactly, so the filtered results are exact and printable.
// Also cudaGetTextureObjectResourceDesc / TextureDesc round trips and cudaGetChannelDesc.
#include "e2e_common.h"

#include <cmath>
#include <vector>

__global__ void fetch_linear(cudaTextureObject_t tf, cudaTextureObject_t ti4, const int* idx,
                             float* outf, int4* outi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    outf[i] = tex1Dfetch<float>(tf, idx[i]);
    outi[i] = tex1Dfetch<int4>(ti4, idx[i]);
  }
}

__global__ void sample_1d(cudaTextureObject_t t, const float* coords, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1D<float>(t, coords[i]);
}

static cudaTextureObject_t make_array_tex(cudaArray_t arr, cudaTextureFilterMode filter,
                                          cudaTextureAddressMode addr, int normalized) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  cudaTextureDesc td = {};
  td.addressMode[0] = addr;
  td.filterMode = filter;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = normalized;
  td.borderColor[0] = 0.0f;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
  return t;
}

// Host model of the texture unit for 1D float arrays.
static float fetch_clamped(const std::vector<float>& v, int i, cudaTextureAddressMode mode) {
  int n = static_cast<int>(v.size());
  switch (mode) {
  case cudaAddressModeBorder:
    return (i < 0 || i >= n) ? 0.0f : v[i];
  case cudaAddressModeWrap:
    return v[((i % n) + n) % n];
  case cudaAddressModeMirror: {
    int p = ((i % (2 * n)) + 2 * n) % (2 * n);
    return v[p < n ? p : 2 * n - 1 - p];
  }
  default:
    return v[i < 0 ? 0 : (i >= n ? n - 1 : i)];
  }
}

static float reference(const std::vector<float>& v, float coord, cudaTextureFilterMode filter,
                       cudaTextureAddressMode mode, bool normalized) {
  float x = normalized ? coord * static_cast<float>(v.size()) : coord;
  if (filter == cudaFilterModePoint)
    return fetch_clamped(v, static_cast<int>(std::floor(x)), mode);
  float xb = x - 0.5f;
  int i = static_cast<int>(std::floor(xb));
  float a = xb - std::floor(xb);
  return (1.0f - a) * fetch_clamped(v, i, mode) + a * fetch_clamped(v, i + 1, mode);
}

int main() {
  // ---- linear memory, tex1Dfetch ----
  const int n = 4096;
  std::vector<float> hf(n);
  std::vector<int4> hi(n);
  std::vector<int> idx(n);
  for (int i = 0; i < n; ++i) {
    hf[i] = static_cast<float>(i % 113) * 0.5f;
    hi[i] = make_int4(i, -i, i * 3, i ^ 0x55);
    idx[i] = (i * 769) % n; // a permutation
  }
  float* df = nullptr;
  int4* di4 = nullptr;
  int* didx = nullptr;
  float* outf = nullptr;
  int4* outi = nullptr;
  CHECK(cudaMalloc(&df, n * sizeof(float)));
  CHECK(cudaMalloc(&di4, n * sizeof(int4)));
  CHECK(cudaMalloc(&didx, n * sizeof(int)));
  CHECK(cudaMalloc(&outf, n * sizeof(float)));
  CHECK(cudaMalloc(&outi, n * sizeof(int4)));
  CHECK(cudaMemcpy(df, hf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(di4, hi.data(), n * sizeof(int4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(didx, idx.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = df;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = n * sizeof(float);
  cudaTextureDesc td = {};
  td.addressMode[0] =
      cudaAddressModeClamp; // (the default, 0, is Wrap: for normalized coordinates only)
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tf = 0, ti4 = 0;
  CHECK(cudaCreateTextureObject(&tf, &res, &td, nullptr));
  res.res.linear.devPtr = di4;
  res.res.linear.desc = cudaCreateChannelDesc<int4>();
  res.res.linear.sizeInBytes = n * sizeof(int4);
  CHECK(cudaCreateTextureObject(&ti4, &res, &td, nullptr));

  cudaResourceDesc back = {};
  CHECK(cudaGetTextureObjectResourceDesc(&back, ti4));
  std::printf("resource desc of int4 texture: type %d, size %zu, channel bits %d %d %d %d kind %d, "
              "same pointer %s\n",
              static_cast<int>(back.resType), back.res.linear.sizeInBytes, back.res.linear.desc.x,
              back.res.linear.desc.y, back.res.linear.desc.z, back.res.linear.desc.w,
              static_cast<int>(back.res.linear.desc.f),
              back.res.linear.devPtr == di4 ? "yes" : "no");

  fetch_linear<<<n / 256, 256>>>(tf, ti4, didx, outf, outi, n);
  CHECK_LAUNCH();
  std::vector<float> gf(n);
  std::vector<int4> gi(n);
  CHECK(cudaMemcpy(gf.data(), outf, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gi.data(), outi, n * sizeof(int4), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    const int4& w = hi[idx[i]];
    ok = ok && gf[i] == hf[idx[i]] && gi[i].x == w.x && gi[i].y == w.y && gi[i].z == w.z &&
         gi[i].w == w.w;
  }
  e2e::expect(ok, "tex1Dfetch float and int4 gather");

  // ---- 1D CUDA array, tex1D ----
  const int w = 16;
  std::vector<float> tv(w);
  for (int i = 0; i < w; ++i)
    tv[i] = static_cast<float>((i * 5) % 16);
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr = nullptr;
  CHECK(cudaMallocArray(&arr, &fd, w, 0));
  CHECK(cudaMemcpy2DToArray(arr, 0, 0, tv.data(), w * sizeof(float), w * sizeof(float), 1,
                            cudaMemcpyHostToDevice));
  cudaChannelFormatDesc got_fd;
  CHECK(cudaGetChannelDesc(&got_fd, arr));
  std::printf("cudaGetChannelDesc: %d %d %d %d kind %d\n", got_fd.x, got_fd.y, got_fd.z, got_fd.w,
              static_cast<int>(got_fd.f));

  // Coordinates: in range at fractions 0, 1/4, 1/2, 3/4 and out of range on both sides.
  std::vector<float> coords;
  for (int i = -3; i < w + 3; ++i)
    for (float f : {0.0f, 0.25f, 0.5f, 0.75f})
      coords.push_back(static_cast<float>(i) + f);
  const int nc = static_cast<int>(coords.size());
  float *dcoords = nullptr, *dout = nullptr;
  CHECK(cudaMalloc(&dcoords, nc * sizeof(float)));
  CHECK(cudaMalloc(&dout, nc * sizeof(float)));

  struct Mode {
    cudaTextureFilterMode filter;
    cudaTextureAddressMode addr;
    int normalized;
    const char* name;
  };
  const Mode modes[] = {
      {cudaFilterModePoint, cudaAddressModeClamp, 0, "point/clamp"},
      {cudaFilterModeLinear, cudaAddressModeClamp, 0, "linear/clamp"},
      {cudaFilterModePoint, cudaAddressModeBorder, 0, "point/border"},
      {cudaFilterModeLinear, cudaAddressModeBorder, 0, "linear/border"},
      {cudaFilterModePoint, cudaAddressModeWrap, 1, "point/wrap/normalized"},
      {cudaFilterModeLinear, cudaAddressModeWrap, 1, "linear/wrap/normalized"},
      {cudaFilterModePoint, cudaAddressModeMirror, 1, "point/mirror/normalized"},
  };
  std::vector<float> out(nc), c2(nc);
  for (const Mode& m : modes) {
    for (int i = 0; i < nc; ++i)
      c2[i] = m.normalized ? coords[i] / static_cast<float>(w) : coords[i];
    CHECK(cudaMemcpy(dcoords, c2.data(), nc * sizeof(float), cudaMemcpyHostToDevice));
    cudaTextureObject_t t = make_array_tex(arr, m.filter, m.addr, m.normalized);
    cudaTextureDesc tdb = {};
    CHECK(cudaGetTextureObjectTextureDesc(&tdb, t));
    sample_1d<<<(nc + 63) / 64, 64>>>(t, dcoords, dout, nc);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out.data(), dout, nc * sizeof(float), cudaMemcpyDeviceToHost));
    bool good = tdb.filterMode == m.filter && tdb.addressMode[0] == m.addr &&
                tdb.normalizedCoords == m.normalized;
    for (int i = 0; i < nc; ++i) {
      // Mirror addressing of a coordinate exactly on a texel edge outside [0, 1) may pick either
      // neighbouring texel; only interior points are compared for it.
      bool edge = coords[i] == std::floor(coords[i]) && (coords[i] < 0 || coords[i] >= w);
      if (m.addr == cudaAddressModeMirror && edge)
        continue;
      good = good &&
             e2e::close(out[i], reference(tv, c2[i], m.filter, m.addr, m.normalized != 0), 0, 1e-4);
    }
    std::printf("%-24s samples at 2.0 2.25 2.5 2.75: %.4f %.4f %.4f %.4f\n", m.name, out[20],
                out[21], out[22], out[23]);
    char what[64];
    std::snprintf(what, sizeof what, "tex1D %s", m.name);
    e2e::expect(good, what);
    CHECK(cudaDestroyTextureObject(t));
  }

  CHECK(cudaDestroyTextureObject(tf));
  CHECK(cudaDestroyTextureObject(ti4));
  CHECK(cudaFreeArray(arr));
  for (void* p : {static_cast<void*>(df), static_cast<void*>(di4), static_cast<void*>(didx),
                  static_cast<void*>(outf), static_cast<void*>(outi), static_cast<void*>(dcoords),
                  static_cast<void*>(dout)})
    CHECK(cudaFree(p));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
