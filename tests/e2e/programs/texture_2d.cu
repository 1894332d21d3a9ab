// 2D and 3D texture objects: a pitched linear resource (cudaResourceTypePitch2D) with point
// sampling, an array-backed float texture with bilinear filtering (at fractions the hardware's
// 8-bit weights represent exactly), normalized coordinates with wrap addressing, uchar4 texels read
// with cudaReadModeNormalizedFloat, a layered 2D texture (tex2DLayered), a 3D texture (tex3D) and a
// mipmapped array (cudaMallocMipmappedArray, cudaGetMipmappedArrayLevel, tex2DLod).
#include "e2e_common.h"

#include <cmath>
#include <vector>

__global__ void sample_2d(cudaTextureObject_t t, const float2* uv, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex2D<float>(t, uv[i].x, uv[i].y);
}

__global__ void sample_rgba(cudaTextureObject_t t, int w, int h, float4* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x < w && y < h)
    out[y * w + x] = tex2D<float4>(t, x + 0.5f, y + 0.5f);
}

__global__ void sample_layered(cudaTextureObject_t t, int w, int h, int layers, float* out) {
  int x = threadIdx.x, y = blockIdx.x, l = blockIdx.y;
  if (x < w && y < h && l < layers)
    out[(l * h + y) * w + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, l);
}

__global__ void sample_3d(cudaTextureObject_t t, int w, int h, int d, int* out) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  if (x < w && y < h && z < d)
    out[(z * h + y) * w + x] = tex3D<int>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

__global__ void sample_lod(cudaTextureObject_t t, int w, int h, float lod, float* out) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h)
    out[y * w + x] = tex2DLod<float>(t, (x + 0.5f) / w, (y + 0.5f) / h, lod);
}

static float texel(const std::vector<float>& v, int w, int h, int x, int y) {
  x = x < 0 ? 0 : (x >= w ? w - 1 : x); // clamp addressing
  y = y < 0 ? 0 : (y >= h ? h - 1 : y);
  return v[y * w + x];
}

static float bilinear(const std::vector<float>& v, int w, int h, float x, float y) {
  float xb = x - 0.5f, yb = y - 0.5f;
  int i = static_cast<int>(std::floor(xb)), j = static_cast<int>(std::floor(yb));
  float a = xb - std::floor(xb), b = yb - std::floor(yb);
  return (1 - a) * (1 - b) * texel(v, w, h, i, j) + a * (1 - b) * texel(v, w, h, i + 1, j) +
         (1 - a) * b * texel(v, w, h, i, j + 1) + a * b * texel(v, w, h, i + 1, j + 1);
}

int main() {
  const int w = 32, h = 24;
  std::vector<float> img(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      img[y * w + x] = static_cast<float>((x * 3 + y * 7) % 16);

  // Sample points: texel centres and points at quarter fractions.
  std::vector<float2> uv;
  for (int y = 0; y < h; y += 3)
    for (int x = 0; x < w; x += 2) {
      uv.push_back(make_float2(x + 0.5f, y + 0.5f));
      uv.push_back(make_float2(x + 0.75f, y + 0.25f));
      uv.push_back(make_float2(x + 1.0f, y + 0.5f));
    }
  const int n = static_cast<int>(uv.size());
  float2* duv = nullptr;
  float* dout = nullptr;
  CHECK(cudaMalloc(&duv, n * sizeof(float2)));
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaMemcpy(duv, uv.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
  std::vector<float> out(n);

  // ---- pitched linear memory, point sampling ----
  float* pitched = nullptr;
  size_t pitch = 0;
  CHECK(cudaMallocPitch(&pitched, &pitch, w * sizeof(float), h));
  CHECK(cudaMemcpy2D(pitched, pitch, img.data(), w * sizeof(float), w * sizeof(float), h,
                     cudaMemcpyHostToDevice));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypePitch2D;
  res.res.pitch2D.devPtr = pitched;
  res.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  res.res.pitch2D.width = w;
  res.res.pitch2D.height = h;
  res.res.pitch2D.pitchInBytes = pitch;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tp = 0;
  CHECK(cudaCreateTextureObject(&tp, &res, &td, nullptr));
  sample_2d<<<(n + 127) / 128, 128>>>(tp, duv, dout, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && out[i] == texel(img, w, h, static_cast<int>(std::floor(uv[i].x)),
                               static_cast<int>(std::floor(uv[i].y)));
  e2e::expect(ok, "Pitch2D point sampling");
  std::printf("pitch2D checksum: %016llx\n",
              (unsigned long long)e2e::fnv1a(out.data(), n * sizeof(float)));

  // ---- CUDA array, bilinear filtering ----
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr = nullptr;
  CHECK(cudaMallocArray(&arr, &fd, w, h));
  CHECK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h,
                            cudaMemcpyHostToDevice));
  cudaResourceDesc ares = {};
  ares.resType = cudaResourceTypeArray;
  ares.res.array.array = arr;
  td.filterMode = cudaFilterModeLinear;
  cudaTextureObject_t ta = 0;
  CHECK(cudaCreateTextureObject(&ta, &ares, &td, nullptr));
  sample_2d<<<(n + 127) / 128, 128>>>(ta, duv, dout, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && e2e::close(out[i], bilinear(img, w, h, uv[i].x, uv[i].y), 0, 1e-4);
  e2e::expect(ok, "array bilinear filtering");
  std::printf("bilinear samples: %.4f %.4f %.4f %.4f %.4f %.4f\n", out[0], out[1], out[2], out[50],
              out[51], out[52]);
  std::printf("bilinear checksum: %016llx\n",
              (unsigned long long)e2e::fnv1a(out.data(), n * sizeof(float)));

  // ---- normalized coordinates with wrap addressing (point) ----
  td.filterMode = cudaFilterModePoint;
  td.normalizedCoords = 1;
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
  cudaTextureObject_t tw = 0;
  CHECK(cudaCreateTextureObject(&tw, &ares, &td, nullptr));
  std::vector<float2> nuv(n);
  for (int i = 0; i < n; ++i) {
    // Shift by whole periods (+1 and -2): wrapping must give the same texel.
    float sx = (std::floor(uv[i].x) + 0.5f) / w + 1.0f;
    float sy = (std::floor(uv[i].y) + 0.5f) / h - 2.0f;
    nuv[i] = make_float2(sx, sy);
  }
  CHECK(cudaMemcpy(duv, nuv.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
  sample_2d<<<(n + 127) / 128, 128>>>(tw, duv, dout, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && out[i] == texel(img, w, h, static_cast<int>(std::floor(uv[i].x)),
                               static_cast<int>(std::floor(uv[i].y)));
  e2e::expect(ok, "normalized coordinates with wrap");

  // ---- uchar4 with cudaReadModeNormalizedFloat ----
  std::vector<uchar4> rgba(w * h);
  for (int i = 0; i < w * h; ++i)
    rgba[i] =
        make_uchar4(static_cast<unsigned char>(i % 256), static_cast<unsigned char>(255 - i % 256),
                    static_cast<unsigned char>((i * 7) % 256), 255);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t carr = nullptr;
  CHECK(cudaMallocArray(&carr, &cd, w, h));
  CHECK(cudaMemcpy2DToArray(carr, 0, 0, rgba.data(), w * sizeof(uchar4), w * sizeof(uchar4), h,
                            cudaMemcpyHostToDevice));
  cudaResourceDesc cres = {};
  cres.resType = cudaResourceTypeArray;
  cres.res.array.array = carr;
  cudaTextureDesc ctd = {};
  ctd.addressMode[0] = ctd.addressMode[1] = cudaAddressModeClamp;
  ctd.filterMode = cudaFilterModePoint;
  ctd.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t tc = 0;
  CHECK(cudaCreateTextureObject(&tc, &cres, &ctd, nullptr));
  float4* d4 = nullptr;
  CHECK(cudaMalloc(&d4, w * h * sizeof(float4)));
  sample_rgba<<<dim3(1, h), w>>>(tc, w, h, d4);
  CHECK_LAUNCH();
  std::vector<float4> o4(w * h);
  CHECK(cudaMemcpy(o4.data(), d4, w * h * sizeof(float4), cudaMemcpyDeviceToHost));
  ok = true;
  for (int i = 0; i < w * h; ++i) {
    ok = ok && std::lround(o4[i].x * 255.0f) == rgba[i].x &&
         std::lround(o4[i].y * 255.0f) == rgba[i].y && std::lround(o4[i].z * 255.0f) == rgba[i].z &&
         o4[i].w == 1.0f;
  }
  e2e::expect(ok, "uchar4 read as normalized float");

  // ---- layered 2D texture ----
  const int layers = 3, lw = 16, lh = 8;
  std::vector<float> lay(layers * lw * lh);
  for (size_t i = 0; i < lay.size(); ++i)
    lay[i] = static_cast<float>(i);
  cudaArray_t larr = nullptr;
  CHECK(cudaMalloc3DArray(&larr, &fd, make_cudaExtent(lw, lh, layers), cudaArrayLayered));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(lay.data(), lw * sizeof(float), lw, lh);
  p.dstArray = larr;
  p.extent = make_cudaExtent(lw, lh, layers);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  cudaResourceDesc lres = {};
  lres.resType = cudaResourceTypeArray;
  lres.res.array.array = larr;
  cudaTextureDesc ltd = {};
  ltd.addressMode[0] = ltd.addressMode[1] = ltd.addressMode[2] = cudaAddressModeClamp;
  ltd.filterMode = cudaFilterModePoint;
  ltd.readMode = cudaReadModeElementType;
  cudaTextureObject_t tl = 0;
  CHECK(cudaCreateTextureObject(&tl, &lres, &ltd, nullptr));
  float* dl = nullptr;
  CHECK(cudaMalloc(&dl, lay.size() * sizeof(float)));
  sample_layered<<<dim3(lh, layers), lw>>>(tl, lw, lh, layers, dl);
  CHECK_LAUNCH();
  std::vector<float> ol(lay.size());
  CHECK(cudaMemcpy(ol.data(), dl, ol.size() * sizeof(float), cudaMemcpyDeviceToHost));
  e2e::expect(ol == lay, "tex2DLayered");

  // ---- 3D texture of ints ----
  const int W = 8, H = 6, D = 5;
  std::vector<int> vol(W * H * D);
  for (int i = 0; i < W * H * D; ++i)
    vol[i] = i * 13 - 100;
  cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
  cudaArray_t varr = nullptr;
  CHECK(cudaMalloc3DArray(&varr, &id, make_cudaExtent(W, H, D)));
  p = {};
  p.srcPtr = make_cudaPitchedPtr(vol.data(), W * sizeof(int), W, H);
  p.dstArray = varr;
  p.extent = make_cudaExtent(W, H, D);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  cudaResourceDesc vres = {};
  vres.resType = cudaResourceTypeArray;
  vres.res.array.array = varr;
  cudaTextureObject_t tv = 0;
  CHECK(cudaCreateTextureObject(&tv, &vres, &ltd, nullptr));
  int* dv = nullptr;
  CHECK(cudaMalloc(&dv, vol.size() * sizeof(int)));
  sample_3d<<<dim3(H, D), W>>>(tv, W, H, D, dv);
  CHECK_LAUNCH();
  std::vector<int> ov(vol.size());
  CHECK(cudaMemcpy(ov.data(), dv, ov.size() * sizeof(int), cudaMemcpyDeviceToHost));
  e2e::expect(ov == vol, "tex3D");

  // ---- mipmapped array: level 0 is img (32x24), level 1 is 16x12 filled separately ----
  cudaMipmappedArray_t mip = nullptr;
  CHECK(cudaMallocMipmappedArray(&mip, &fd, make_cudaExtent(w, h, 0), 2, 0));
  cudaArray_t level0 = nullptr, level1 = nullptr;
  CHECK(cudaGetMipmappedArrayLevel(&level0, mip, 0));
  CHECK(cudaGetMipmappedArrayLevel(&level1, mip, 1));
  std::vector<float> l1(16 * 12);
  for (int i = 0; i < 16 * 12; ++i)
    l1[i] = 1000.0f + i;
  CHECK(cudaMemcpy2DToArray(level0, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h,
                            cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2DToArray(level1, 0, 0, l1.data(), 16 * sizeof(float), 16 * sizeof(float), 12,
                            cudaMemcpyHostToDevice));
  cudaResourceDesc mres = {};
  mres.resType = cudaResourceTypeMipmappedArray;
  mres.res.mipmap.mipmap = mip;
  cudaTextureDesc mtd = {};
  mtd.addressMode[0] = mtd.addressMode[1] = cudaAddressModeClamp;
  mtd.filterMode = cudaFilterModePoint;
  mtd.mipmapFilterMode = cudaFilterModePoint;
  mtd.readMode = cudaReadModeElementType;
  mtd.normalizedCoords = 1;
  mtd.maxMipmapLevelClamp = 1.0f;
  cudaTextureObject_t tm = 0;
  CHECK(cudaCreateTextureObject(&tm, &mres, &mtd, nullptr));
  float* dm = nullptr;
  CHECK(cudaMalloc(&dm, 16 * 12 * sizeof(float)));
  sample_lod<<<12, 16>>>(tm, 16, 12, 1.0f, dm);
  CHECK_LAUNCH();
  std::vector<float> om(16 * 12);
  CHECK(cudaMemcpy(om.data(), dm, om.size() * sizeof(float), cudaMemcpyDeviceToHost));
  e2e::expect(om == l1, "tex2DLod at level 1");
  // Level 0 sampled at its own texel centres (32x24).
  float* dm0 = nullptr;
  CHECK(cudaMalloc(&dm0, w * h * sizeof(float)));
  sample_lod<<<h, w>>>(tm, w, h, 0.0f, dm0);
  CHECK_LAUNCH();
  std::vector<float> om0(w * h);
  CHECK(cudaMemcpy(om0.data(), dm0, om0.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dm0));
  ok = om0 == img;
  e2e::expect(ok, "tex2DLod at level 0");

  for (cudaTextureObject_t t : {tp, ta, tw, tc, tl, tv, tm})
    CHECK(cudaDestroyTextureObject(t));
  for (cudaArray_t a : {arr, carr, larr, varr})
    CHECK(cudaFreeArray(a));
  CHECK(cudaFreeMipmappedArray(mip));
  for (void* q : {static_cast<void*>(duv), static_cast<void*>(dout), static_cast<void*>(pitched),
                  static_cast<void*>(d4), static_cast<void*>(dl), static_cast<void*>(dv),
                  static_cast<void*>(dm)})
    CHECK(cudaFree(q));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
