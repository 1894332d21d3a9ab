// Surface objects: cudaCreateSurfaceObject on CUDA arrays allocated with cudaArraySurfaceLoadStore;
// surf2Dwrite / surf2Dread (x in bytes) for float and int2 elements, surf1Dwrite/read, surf3Dwrite,
// boundary modes Zero and Clamp for reads outside the array, a texture object reading the same
// array in a later kernel, cudaGetSurfaceObjectResourceDesc, and host copies from the arrays.
#include "e2e_common.h"

#include <vector>

__global__ void write_2d(cudaSurfaceObject_t s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    surf2Dwrite(static_cast<float>(x * 100 + y), s, x * static_cast<int>(sizeof(float)), y);
}

// In-place 3x3 box blur would race; instead, read from one surface and write the transpose-mirror
// into another.
__global__ void read_write_2d(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float v = surf2Dread<float>(src, x * 4, y);
    float m = surf2Dread<float>(src, (w - 1 - x) * 4, y);
    surf2Dwrite(v + 2.0f * m, dst, x * 4, y);
  }
}

__global__ void edge_reads(cudaSurfaceObject_t s, int w, float* out) {
  // Reads outside the array with zero and clamp boundary modes.
  out[0] = surf2Dread<float>(s, -4, 0, cudaBoundaryModeZero);
  out[1] = surf2Dread<float>(s, w * 4, 3, cudaBoundaryModeZero);
  out[2] = surf2Dread<float>(s, -4, 2, cudaBoundaryModeClamp);
  out[3] = surf2Dread<float>(s, (w + 5) * 4, 2, cudaBoundaryModeClamp);
}

__global__ void int2_ops(cudaSurfaceObject_t s, int w) {
  int x = threadIdx.x;
  if (x < w) {
    surf1Dwrite(make_int2(x, -x), s, x * static_cast<int>(sizeof(int2)));
    int2 v = surf1Dread<int2>(s, x * static_cast<int>(sizeof(int2)));
    surf1Dwrite(make_int2(v.x * 2, v.y * 3), s, x * static_cast<int>(sizeof(int2)));
  }
}

__global__ void write_3d(cudaSurfaceObject_t s, int w, int h, int d) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  if (x < w && y < h && z < d)
    surf3Dwrite(x + 10 * y + 100 * z, s, x * 4, y, z);
}

__global__ void tex_after_surface(cudaTextureObject_t t, int w, int h, float* out) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h)
    out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

static cudaSurfaceObject_t surface_of(cudaArray_t a) {
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaSurfaceObject_t s = 0;
  CHECK(cudaCreateSurfaceObject(&s, &r));
  return s;
}

int main() {
  const int w = 40, h = 30;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr, b = nullptr;
  CHECK(cudaMallocArray(&a, &fd, w, h, cudaArraySurfaceLoadStore));
  CHECK(cudaMallocArray(&b, &fd, w, h, cudaArraySurfaceLoadStore));
  cudaSurfaceObject_t sa = surface_of(a), sb = surface_of(b);
  cudaResourceDesc back = {};
  CHECK(cudaGetSurfaceObjectResourceDesc(&back, sa));
  std::printf("surface resource: type %d, same array %s\n", static_cast<int>(back.resType),
              back.res.array.array == a ? "yes" : "no");

  dim3 block(16, 8), grid((w + 15) / 16, (h + 7) / 8);
  write_2d<<<grid, block>>>(sa, w, h);
  read_write_2d<<<grid, block>>>(sa, sb, w, h);
  CHECK_LAUNCH();
  std::vector<float> hb(w * h);
  CHECK(cudaMemcpy2DFromArray(hb.data(), w * sizeof(float), b, 0, 0, w * sizeof(float), h,
                              cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float v = static_cast<float>(x * 100 + y), m = static_cast<float>((w - 1 - x) * 100 + y);
      ok = ok && hb[y * w + x] == v + 2.0f * m;
    }
  e2e::expect(ok, "surf2Dwrite then surf2Dread into another surface");
  std::printf("surface checksum: %016llx\n",
              (unsigned long long)e2e::fnv1a(hb.data(), hb.size() * sizeof(float)));

  float* dedge = nullptr;
  CHECK(cudaMalloc(&dedge, 4 * sizeof(float)));
  edge_reads<<<1, 1>>>(sa, w, dedge);
  CHECK_LAUNCH();
  float edge[4];
  CHECK(cudaMemcpy(edge, dedge, sizeof edge, cudaMemcpyDeviceToHost));
  std::printf("boundary reads: zero %.1f %.1f, clamp %.1f %.1f\n", edge[0], edge[1], edge[2],
              edge[3]);
  // (The clamped read past the right edge is printed, not checked: where a byte coordinate clamps
  // to is the hardware's business.)
  e2e::expect(edge[0] == 0.0f && edge[1] == 0.0f && edge[2] == 2.0f,
              "boundary modes zero and clamp");

  // A texture over the array the surface wrote (in an earlier kernel).
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t ta = 0;
  CHECK(cudaCreateTextureObject(&ta, &r, &td, nullptr));
  float* dt = nullptr;
  CHECK(cudaMalloc(&dt, w * h * sizeof(float)));
  tex_after_surface<<<h, w>>>(ta, w, h, dt);
  CHECK_LAUNCH();
  std::vector<float> ht(w * h);
  CHECK(cudaMemcpy(ht.data(), dt, ht.size() * sizeof(float), cudaMemcpyDeviceToHost));
  ok = true;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      ok = ok && ht[y * w + x] == static_cast<float>(x * 100 + y);
  e2e::expect(ok, "texture reads what a surface wrote");

  // 1D surface of int2.
  cudaChannelFormatDesc i2 = cudaCreateChannelDesc<int2>();
  cudaArray_t c = nullptr;
  CHECK(cudaMallocArray(&c, &i2, 64, 0, cudaArraySurfaceLoadStore));
  cudaSurfaceObject_t sc = surface_of(c);
  int2_ops<<<1, 64>>>(sc, 64);
  CHECK_LAUNCH();
  std::vector<int2> hc(64);
  CHECK(cudaMemcpy2DFromArray(hc.data(), 64 * sizeof(int2), c, 0, 0, 64 * sizeof(int2), 1,
                              cudaMemcpyDeviceToHost));
  ok = true;
  for (int x = 0; x < 64; ++x)
    ok = ok && hc[x].x == 2 * x && hc[x].y == -3 * x;
  e2e::expect(ok, "surf1D int2 read-modify-write");

  // 3D surface.
  const int W = 8, H = 4, D = 3;
  cudaChannelFormatDesc idesc = cudaCreateChannelDesc<int>();
  cudaArray_t v = nullptr;
  CHECK(cudaMalloc3DArray(&v, &idesc, make_cudaExtent(W, H, D), cudaArraySurfaceLoadStore));
  cudaSurfaceObject_t sv = surface_of(v);
  write_3d<<<dim3(H, D), W>>>(sv, W, H, D);
  CHECK_LAUNCH();
  std::vector<int> hv(W * H * D);
  cudaMemcpy3DParms p = {};
  p.srcArray = v;
  p.dstPtr = make_cudaPitchedPtr(hv.data(), W * sizeof(int), W, H);
  p.extent = make_cudaExtent(W, H, D);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&p));
  ok = true;
  for (int z = 0; z < D; ++z)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x)
        ok = ok && hv[(z * H + y) * W + x] == x + 10 * y + 100 * z;
  e2e::expect(ok, "surf3Dwrite");

  CHECK(cudaDestroyTextureObject(ta));
  for (cudaSurfaceObject_t s : {sa, sb, sc, sv})
    CHECK(cudaDestroySurfaceObject(s));
  for (cudaArray_t arr : {a, b, c, v})
    CHECK(cudaFreeArray(arr));
  CHECK(cudaFree(dedge));
  CHECK(cudaFree(dt));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
