// Primary context semantics: device flags set before the context exists, cudaInitDevice,
// cudaSetDevice/cudaGetDevice, lazy context creation, cudaDeviceReset (which destroys the primary
// context: device globals return to their initial values and flags to their defaults) and reuse of
// the device after each of several resets.
#include "e2e_common.h"

__device__ int g_counter = 5;

__global__ void bump(int amount) {
  atomicAdd(&g_counter, amount);
}

__global__ void square(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = data[i] * data[i];
}

static int read_counter() {
  int v = -1;
  CHECK(cudaMemcpyFromSymbol(&v, g_counter, sizeof v));
  return v;
}

static bool run_square(int round) {
  const int n = 3000;
  int* h = new int[n];
  for (int i = 0; i < n; ++i)
    h[i] = i - 1500 + round;
  int* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
  square<<<(n + 255) / 256, 256>>>(d, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && h[i] == (i - 1500 + round) * (i - 1500 + round);
  delete[] h;
  return ok;
}

int main() {
  // Before any context exists: set the flags the primary context will be created with.
  CHECK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
  unsigned flags = 0;
  CHECK(cudaGetDeviceFlags(&flags));
  std::printf("flags before init: 0x%x\n", flags);
  e2e::expect((flags & cudaDeviceScheduleMask) == cudaDeviceScheduleBlockingSync,
              "blocking-sync schedule flag recorded");

  CHECK(cudaInitDevice(0, 0, 0));
  CHECK(cudaSetDevice(0));
  int dev = -1;
  CHECK(cudaGetDevice(&dev));
  std::printf("cudaGetDevice: %d\n", dev);
  CHECK(cudaGetDeviceFlags(&flags));
  std::printf("flags after init: 0x%x\n", flags);

  e2e::expect(read_counter() == 5, "device global starts at its initializer");
  bump<<<2, 64>>>(1);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());
  std::printf("g_counter after 128 increments: %d\n", read_counter());

  for (int round = 1; round <= 3; ++round) {
    CHECK(cudaDeviceReset());
    CHECK(cudaGetDeviceFlags(&flags));
    std::printf("round %d: flags after reset 0x%x\n", round, flags);
    // The module is loaded again in the new context: the global is back to its initial value.
    int v = read_counter();
    std::printf("round %d: g_counter after reset %d\n", round, v);
    e2e::expect(v == 5, "device global reinitialised by reset");
    char what[64];
    std::snprintf(what, sizeof what, "kernel works after reset %d", round);
    e2e::expect(run_square(round), what);
    bump<<<1, 32>>>(round);
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());
    std::printf("round %d: counter after 32 x %d: %d\n", round, round, read_counter());
  }

  // cudaSetDevice after a reset re-creates the context lazily as well.
  CHECK(cudaDeviceReset());
  CHECK(cudaSetDevice(0));
  CHECK(cudaDeviceSynchronize());
  e2e::expect(run_square(10), "kernel works after reset + cudaSetDevice");
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
