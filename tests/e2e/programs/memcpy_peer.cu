// Peer copies on one device: cudaMemcpyPeer, cudaMemcpyPeerAsync and cudaMemcpy3DPeer with source
// and destination on device 0, cudaDeviceCanAccessPeer(0, 0). (The lead's machine has one GPU.)
#include "e2e_common.h"

#include <vector>

int main() {
  int can = -1;
  cudaError_t e = cudaDeviceCanAccessPeer(&can, 0, 0);
  std::printf("cudaDeviceCanAccessPeer(0, 0): %s, %d\n", cudaGetErrorName(e), can);
  (void)cudaGetLastError();

  const int n = 300000;
  std::vector<int> h(n), back(n);
  for (int i = 0; i < n; ++i)
    h[i] = i ^ 0x5a5a;
  int *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMemcpy(a, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  CHECK(cudaMemcpyPeer(b, 0, a, 0, n * sizeof(int)));
  CHECK(cudaMemcpy(back.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost));
  e2e::expect(back == h, "cudaMemcpyPeer on one device");

  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaMemsetAsync(b, 0, n * sizeof(int), s));
  CHECK(cudaMemcpyPeerAsync(b + 100, 0, a + 200, 0, 1000 * sizeof(int), s));
  CHECK(cudaMemcpyAsync(back.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && back[i] == ((i >= 100 && i < 1100) ? h[i + 100] : 0);
  e2e::expect(ok, "cudaMemcpyPeerAsync with offsets");

  // cudaMemcpy3DPeer: a 64 x 32 x 4 box between two pitched allocations on device 0.
  cudaExtent ext = make_cudaExtent(64 * sizeof(int), 32, 4);
  cudaPitchedPtr p, q;
  CHECK(cudaMalloc3D(&p, ext));
  CHECK(cudaMalloc3D(&q, ext));
  std::vector<int> box(64 * 32 * 4), box_back(64 * 32 * 4, -1);
  for (size_t i = 0; i < box.size(); ++i)
    box[i] = static_cast<int>(i * 31 % 977);
  cudaMemcpy3DParms up;
  std::memset(&up, 0, sizeof up);
  up.srcPtr = make_cudaPitchedPtr(box.data(), 64 * sizeof(int), 64, 32);
  up.dstPtr = p;
  up.extent = ext;
  up.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&up));
  cudaMemcpy3DPeerParms pp;
  std::memset(&pp, 0, sizeof pp);
  pp.srcPtr = p;
  pp.srcDevice = 0;
  pp.dstPtr = q;
  pp.dstDevice = 0;
  pp.extent = ext;
  CHECK(cudaMemcpy3DPeer(&pp));
  cudaMemcpy3DParms down;
  std::memset(&down, 0, sizeof down);
  down.srcPtr = q;
  down.dstPtr = make_cudaPitchedPtr(box_back.data(), 64 * sizeof(int), 64, 32);
  down.extent = ext;
  down.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&down));
  e2e::expect(box_back == box, "cudaMemcpy3DPeer on one device");

  CHECK(cudaFree(p.ptr));
  CHECK(cudaFree(q.ptr));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
