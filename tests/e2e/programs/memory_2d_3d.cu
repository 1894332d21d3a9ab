// Pitched and 3D memory: cudaMallocPitch, cudaMemcpy2D (HtoD, DtoD sub-rectangle, DtoH),
// cudaMemset2D, cudaMemcpy2DAsync, cudaMalloc3D, cudaMemcpy3D, cudaMemset3D, cudaMemcpy3DAsync,
// CUDA arrays: cudaMallocArray, cudaMemcpy2DToArray/FromArray/ArrayToArray, cudaMalloc3DArray,
// cudaMemcpy3D to and from an array, cudaArrayGetInfo, cudaFreeArray.
#include "e2e_common.h"

#include <vector>

__global__ void add_coords_2d(float* base, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float* row = reinterpret_cast<float*>(reinterpret_cast<char*>(base) + y * pitch);
    row[x] += static_cast<float>(x + 1000 * y);
  }
}

__global__ void add_coords_3d(cudaPitchedPtr p, int w, int h, int d) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z;
  if (x < w && y < h && z < d) {
    char* slice = static_cast<char*>(p.ptr) + z * p.pitch * p.ysize;
    int* row = reinterpret_cast<int*>(slice + y * p.pitch);
    row[x] += x + 100 * y + 10000 * z;
  }
}

int main() {
  // ---- 2D pitched memory ----
  const int w = 250, h = 37; // 1000-byte rows
  std::vector<float> host(w * h), back(w * h);
  for (int i = 0; i < w * h; ++i)
    host[i] = static_cast<float>(i % 17);
  float* d2 = nullptr;
  size_t pitch = 0;
  CHECK(cudaMallocPitch(&d2, &pitch, w * sizeof(float), h));
  std::printf("cudaMallocPitch(1000 bytes x 37): pitch %zu\n", pitch);
  e2e::expect(pitch >= w * sizeof(float), "pitch >= row width");
  CHECK(cudaMemcpy2D(d2, pitch, host.data(), w * sizeof(float), w * sizeof(float), h,
                     cudaMemcpyHostToDevice));
  dim3 block(32, 8);
  dim3 grid((w + 31) / 32, (h + 7) / 8);
  add_coords_2d<<<grid, block>>>(d2, pitch, w, h);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy2D(back.data(), w * sizeof(float), d2, pitch, w * sizeof(float), h,
                     cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      ok = ok && back[y * w + x] == host[y * w + x] + static_cast<float>(x + 1000 * y);
  e2e::expect(ok, "cudaMemcpy2D HtoD + kernel + DtoH");

  // cudaMemset2D on a sub-rectangle, then a DeviceToDevice 2D copy into a second pitched buffer.
  CHECK(cudaMemset2D(reinterpret_cast<char*>(d2) + pitch * 5 + 40, pitch, 0, 100, 10));
  float* e2 = nullptr;
  size_t pitch2 = 0;
  CHECK(cudaMallocPitch(&e2, &pitch2, 64 * sizeof(float), 16));
  CHECK(cudaMemset2D(e2, pitch2, 0xFF, 64 * sizeof(float), 16));
  // Copy the 64x16 block at (x=8, y=3) of d2 into e2.
  CHECK(cudaMemcpy2D(e2, pitch2, reinterpret_cast<char*>(d2) + pitch * 3 + 8 * sizeof(float), pitch,
                     64 * sizeof(float), 16, cudaMemcpyDeviceToDevice));
  std::vector<float> sub(64 * 16);
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaMemcpy2DAsync(sub.data(), 64 * sizeof(float), e2, pitch2, 64 * sizeof(float), 16,
                          cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  ok = true;
  for (int y = 0; y < 16; ++y) {
    for (int x = 0; x < 64; ++x) {
      int gx = x + 8, gy = y + 3;
      float want = back[gy * w + gx];
      int bx = gx * 4; // byte column in the source row
      if (gy >= 5 && gy < 15 && bx >= 40 && bx < 140)
        want = 0.0f;
      ok = ok && sub[y * 64 + x] == want;
    }
  }
  e2e::expect(ok, "cudaMemset2D + cudaMemcpy2D DtoD + cudaMemcpy2DAsync");
  CHECK(cudaFree(e2));
  CHECK(cudaFree(d2));

  // ---- 3D pitched memory ----
  const int W = 100, H = 20, D = 10;
  cudaExtent ext = make_cudaExtent(W * sizeof(int), H, D);
  cudaPitchedPtr p3;
  CHECK(cudaMalloc3D(&p3, ext));
  std::printf("cudaMalloc3D: pitch >= width %s, xsize %zu, ysize %zu\n",
              p3.pitch >= W * sizeof(int) ? "yes" : "no", p3.xsize, p3.ysize);
  std::vector<int> h3(W * H * D), b3(W * H * D);
  for (int i = 0; i < W * H * D; ++i)
    h3[i] = i * 7 % 1013;
  cudaMemcpy3DParms cp;
  std::memset(&cp, 0, sizeof cp);
  cp.srcPtr = make_cudaPitchedPtr(h3.data(), W * sizeof(int), W, H);
  cp.dstPtr = p3;
  cp.extent = ext;
  cp.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&cp));
  add_coords_3d<<<dim3((W + 31) / 32, (H + 7) / 8, D), dim3(32, 8)>>>(p3, W, H, D);
  CHECK_LAUNCH();
  // Zero the first two slices' first 10 rows (40 bytes wide) with cudaMemset3D.
  cudaPitchedPtr corner = p3;
  CHECK(cudaMemset3D(corner, 0, make_cudaExtent(40, 10, 2)));
  std::memset(&cp, 0, sizeof cp);
  cp.srcPtr = p3;
  cp.dstPtr = make_cudaPitchedPtr(b3.data(), W * sizeof(int), W, H);
  cp.extent = ext;
  cp.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3DAsync(&cp, s));
  CHECK(cudaStreamSynchronize(s));
  ok = true;
  for (int z = 0; z < D; ++z)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) {
        int i = (z * H + y) * W + x;
        int want = h3[i] + x + 100 * y + 10000 * z;
        if (z < 2 && y < 10 && x < 10)
          want = 0;
        ok = ok && b3[i] == want;
      }
  e2e::expect(ok, "cudaMalloc3D + cudaMemcpy3D + cudaMemset3D + cudaMemcpy3DAsync");
  std::printf("3D checksum: %016llx\n",
              (unsigned long long)e2e::fnv1a(b3.data(), b3.size() * sizeof(int)));
  CHECK(cudaFree(p3.ptr));

  // ---- CUDA arrays ----
  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
  cudaArray_t arr = nullptr, arr2 = nullptr;
  CHECK(cudaMallocArray(&arr, &fdesc, w, h));
  CHECK(cudaMallocArray(&arr2, &fdesc, w, h));
  cudaChannelFormatDesc got;
  cudaExtent aext;
  unsigned aflags = 0;
  CHECK(cudaArrayGetInfo(&got, &aext, &aflags, arr));
  std::printf(
      "cudaArrayGetInfo: channel bits %d %d %d %d kind %d, extent %zu x %zu x %zu, flags 0x%x\n",
      got.x, got.y, got.z, got.w, static_cast<int>(got.f), aext.width, aext.height, aext.depth,
      aflags);
  CHECK(cudaMemcpy2DToArray(arr, 0, 0, host.data(), w * sizeof(float), w * sizeof(float), h,
                            cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2DArrayToArray(arr2, 0, 0, arr, 0, 0, w * sizeof(float), h,
                                 cudaMemcpyDeviceToDevice));
  std::fill(back.begin(), back.end(), -1.0f);
  CHECK(cudaMemcpy2DFromArray(back.data(), w * sizeof(float), arr2, 0, 0, w * sizeof(float), h,
                              cudaMemcpyDeviceToHost));
  e2e::expect(back == host, "2D array round trip (ToArray, ArrayToArray, FromArray)");
  // A sub-rectangle read at an offset.
  std::vector<float> win(10 * 4);
  CHECK(cudaMemcpy2DFromArray(win.data(), 10 * sizeof(float), arr, 20 * sizeof(float), 7,
                              10 * sizeof(float), 4, cudaMemcpyDeviceToHost));
  ok = true;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 10; ++x)
      ok = ok && win[y * 10 + x] == host[(y + 7) * w + x + 20];
  e2e::expect(ok, "cudaMemcpy2DFromArray at an offset");
  CHECK(cudaFreeArray(arr));
  CHECK(cudaFreeArray(arr2));

  cudaChannelFormatDesc idesc = cudaCreateChannelDesc<int>();
  cudaArray_t arr3 = nullptr;
  CHECK(cudaMalloc3DArray(&arr3, &idesc, make_cudaExtent(W, H, D)));
  std::memset(&cp, 0, sizeof cp);
  cp.srcPtr = make_cudaPitchedPtr(h3.data(), W * sizeof(int), W, H);
  cp.dstArray = arr3;
  cp.extent = make_cudaExtent(W, H, D); // elements for arrays
  cp.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&cp));
  std::fill(b3.begin(), b3.end(), 0);
  std::memset(&cp, 0, sizeof cp);
  cp.srcArray = arr3;
  cp.dstPtr = make_cudaPitchedPtr(b3.data(), W * sizeof(int), W, H);
  cp.extent = make_cudaExtent(W, H, D);
  cp.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&cp));
  e2e::expect(b3 == h3, "3D array round trip");
  CHECK(cudaArrayGetInfo(&got, &aext, &aflags, arr3));
  std::printf("3D array extent %zu x %zu x %zu\n", aext.width, aext.height, aext.depth);
  CHECK(cudaFreeArray(arr3));

  CHECK(cudaStreamDestroy(s));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
