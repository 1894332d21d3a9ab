// Two GPUs of one host (issue 16): kernels on both devices, with peer copies between them. Under
// `ocelot run -i bbcount -o` every device is instrumented and each profile carries its device:
// device 0 runs `stamp` twice (4 x 128 threads), device 1 three times (8 x 64 threads); a peer copy
// brings device 1's data to device 0 and back. tests/tools/check_report.py (multigpu) checks the
// counts and the cross-device GCP/GLB; scripts/gpu-batch.sh (section multi-gpu) runs it on a 2-GPU
// machine. With fewer than two devices (one GPU, the CPU device) it says so and exits 77.
#include "e2e_common.h"

#include <cstring>
#include <vector>

__global__ void stamp(int* data, int n, int device, int round) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += 1000 * device + round;
}

int main() {
  int devices = 0;
  CHECK(cudaGetDeviceCount(&devices));
  if (devices < 2) {
    std::printf("SKIP: multi_gpu needs 2 devices, this machine has %d\n", devices);
    return 77;
  }
  constexpr int n = 512;
  constexpr size_t bytes = n * sizeof(int);
  int* data[2] = {nullptr, nullptr};
  const int rounds[2] = {2, 3};
  const dim3 grids[2] = {dim3(4), dim3(8)};
  const dim3 blocks[2] = {dim3(128), dim3(64)};
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaMalloc(&data[d], bytes));
    CHECK(cudaMemset(data[d], 0, bytes));
    for (int r = 1; r <= rounds[d]; ++r) {
      stamp<<<grids[d], blocks[d]>>>(data[d], n, d, r);
      CHECK_LAUNCH();
    }
  }
  // Device 1's memory asked about from device 0, and the devices' identities.
  CHECK(cudaSetDevice(0));
  cudaPointerAttributes where{};
  CHECK(cudaPointerGetAttributes(&where, data[1]));
  e2e::expect(where.type == cudaMemoryTypeDevice && where.device == 1,
              "device 1's allocation is device memory of device 1, asked from device 0");
  cudaDeviceProp props[2];
  CHECK(cudaGetDeviceProperties(&props[0], 0));
  CHECK(cudaGetDeviceProperties(&props[1], 1));
  e2e::expect(std::memcmp(props[0].uuid.bytes, props[1].uuid.bytes, sizeof props[0].uuid.bytes) != 0,
              "the two devices have different UUIDs");
  int canAccess = 0;
  CHECK(cudaDeviceCanAccessPeer(&canAccess, 0, 1));
  std::printf("hw: peer access 0 <- 1: %d\n", canAccess);
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaDeviceSynchronize());
  }
  // Device 1's data onto device 0 (a peer copy), and back into device 1's buffer, from device 0.
  CHECK(cudaSetDevice(0));
  int* staging = nullptr;
  CHECK(cudaMalloc(&staging, bytes));
  CHECK(cudaMemcpyPeer(staging, 0, data[1], 1, bytes));
  CHECK(cudaMemcpyPeerAsync(data[1], 1, staging, 0, bytes, nullptr));
  CHECK(cudaDeviceSynchronize());
  std::vector<int> first(n), second(n);
  CHECK(cudaMemcpy(first.data(), data[0], bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaSetDevice(1));
  CHECK(cudaMemcpy(second.data(), data[1], bytes, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && first[i] == 1 + 2 && second[i] == 3 * 1000 + 1 + 2 + 3;
  e2e::expect(ok, "two rounds on device 0, three on device 1, peer copies between them");
  CHECK(cudaFree(data[1]));
  CHECK(cudaSetDevice(0));
  CHECK(cudaFree(data[0]));
  CHECK(cudaFree(staging));
  return e2e::finish();
}
