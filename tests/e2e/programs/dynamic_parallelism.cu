// e2e-nvcc-flags: -rdc=true
// Dynamic parallelism (CDP2): kernels launching kernels from device code into the default stream,
// a stream created on the device, cudaStreamFireAndForget and cudaStreamTailLaunch; recursion
// three levels deep; cudaGetParameterBuffer/cudaLaunchDevice as nvcc 13 lowers `<<<>>>` in device
// code (the __cudaCDP2* calls of cudadevrt); device-side cudaGetLastError, including after a
// launch with an invalid configuration. The tail launch checks that every other grid of its
// parent has finished before it starts, as CUDA guarantees.
#include "e2e_common.h"

constexpr int kBlocks = 4;
constexpr int kChildThreads = 32;

__global__ void fill(int* data, int base, int value) {
  data[base + threadIdx.x] = value + static_cast<int>(threadIdx.x);
}

__global__ void count_done(const int* data, int n, int* done) {
  int ready = 0;
  for (int i = 0; i < n; ++i)
    ready += data[i] != 0;
  *done = ready;
}

// depth levels of recursion: each grid launches the next level and marks its own slot.
__global__ void recurse(int* marks, int depth) {
  if (threadIdx.x == 0) {
    atomicAdd(&marks[depth], 1);
    if (depth > 0)
      recurse<<<2, 32>>>(marks, depth - 1);
  }
}

__global__ void parent(int* data, int* done, int* marks, int* errors) {
  const int base = blockIdx.x * 3 * kChildThreads;
  if (threadIdx.x == 0) {
    fill<<<1, kChildThreads>>>(data, base, 1000 * (blockIdx.x + 1));
    fill<<<1, kChildThreads, 0, cudaStreamFireAndForget>>>(data, base + kChildThreads,
                                                           2000 * (blockIdx.x + 1));
    cudaStream_t stream;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    fill<<<1, kChildThreads, 0, stream>>>(data, base + 2 * kChildThreads, 3000 * (blockIdx.x + 1));
    cudaStreamDestroy(stream);
    errors[blockIdx.x] = static_cast<int>(cudaGetLastError());
    if (blockIdx.x == 0) {
      count_done<<<1, 1, 0, cudaStreamTailLaunch>>>(data, kBlocks * 3 * kChildThreads, done);
      recurse<<<1, 32>>>(marks, 2);
      fill<<<1, 2048>>>(data, 0, 0); // 2048 threads: an invalid configuration
      errors[kBlocks] = static_cast<int>(cudaGetLastError());
      errors[kBlocks + 1] = static_cast<int>(cudaGetLastError()); // cleared by the first call
    }
  }
}

int main() {
  const int n = kBlocks * 3 * kChildThreads;
  int *data, *done, *marks, *errors;
  CHECK(cudaMalloc(&data, n * sizeof(int)));
  CHECK(cudaMalloc(&done, sizeof(int)));
  CHECK(cudaMalloc(&marks, 3 * sizeof(int)));
  CHECK(cudaMalloc(&errors, (kBlocks + 2) * sizeof(int)));
  CHECK(cudaMemset(data, 0, n * sizeof(int)));
  CHECK(cudaMemset(done, 0, sizeof(int)));
  CHECK(cudaMemset(marks, 0, 3 * sizeof(int)));
  CHECK(cudaMemset(errors, 0xff, (kBlocks + 2) * sizeof(int)));
  parent<<<kBlocks, 64>>>(data, done, marks, errors);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());
  int host[n], host_done = 0, host_marks[3], host_errors[kBlocks + 2];
  CHECK(cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&host_done, done, sizeof host_done, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(host_marks, marks, sizeof host_marks, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(host_errors, errors, sizeof host_errors, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < kBlocks; ++b)
    for (int s = 0; s < 3; ++s)
      for (int t = 0; t < kChildThreads; ++t)
        bad += host[(b * 3 + s) * kChildThreads + t] != 1000 * (s + 1) * (b + 1) + t;
  e2e::expect(bad == 0, "children in the default, a created and the fire-and-forget stream");
  std::printf("tail launch saw %d of %d elements written\n", host_done, n);
  e2e::expect(host_done == n, "the tail launch runs after every other child");
  std::printf("recursion marks: depth 2: %d, depth 1: %d, depth 0: %d\n", host_marks[2],
              host_marks[1], host_marks[0]);
  e2e::expect(host_marks[2] == 1 && host_marks[1] == 2 && host_marks[0] == 4,
              "three levels of recursive launches");
  int launch_errors = 0;
  for (int b = 0; b < kBlocks; ++b)
    launch_errors += host_errors[b] != 0;
  e2e::expect(launch_errors == 0, "device-side cudaGetLastError after valid launches");
  std::printf("invalid launch: %s, then %s\n",
              cudaGetErrorName(static_cast<cudaError_t>(host_errors[kBlocks])),
              cudaGetErrorName(static_cast<cudaError_t>(host_errors[kBlocks + 1])));
  e2e::expect(host_errors[kBlocks] == cudaErrorInvalidConfiguration &&
                  host_errors[kBlocks + 1] == cudaSuccess,
              "an invalid device-side launch reports cudaErrorInvalidConfiguration once");
  CHECK(cudaFree(data));
  CHECK(cudaFree(done));
  CHECK(cudaFree(marks));
  CHECK(cudaFree(errors));
  return e2e::finish();
}
