// The device after cudaDeviceReset: each call that needs it, in this thread and in a new one, and
// what it answers ("call -> error name"). On a healthy device every call succeeds; on a GPU that
// cannot make a context after an unrecoverable fault, NVIDIA's runtime answers
// cudaErrorDevicesUnavailable (DriverPathTest runs this with a fake driver of each kind).
#include <cuda_runtime.h>

#include <cstdio>
#include <thread>

static void report(const char* call, cudaError_t error) {
  std::printf("%s -> %s\n", call, cudaGetErrorName(error));
}

int main() {
  void* before = nullptr;
  report("cudaMalloc before the reset", cudaMalloc(&before, 64));
  report("cudaDeviceReset", cudaDeviceReset());
  void* after = nullptr;
  report("cudaMalloc after the reset", cudaMalloc(&after, 64));
  report("cudaFree(0) after the reset", cudaFree(nullptr));
  std::thread([] {
    void* other = nullptr;
    report("cudaMalloc in a new thread", cudaMalloc(&other, 64));
  }).join();
  report("cudaDeviceReset again", cudaDeviceReset());
  report("cudaMalloc after the second reset", cudaMalloc(&after, 64));
  return 0;
}
