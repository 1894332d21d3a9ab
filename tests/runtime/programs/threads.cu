// Several host threads using the runtime at once: each allocates, launches, copies and frees on
// its own. The main thread prints every thread's results afterwards, in thread order, so the
// output is deterministic (and must be the same with NVIDIA's runtime and with Ocelot's).
#include <cuda_runtime.h>

#include <cstdio>
#include <thread>
#include <vector>

__global__ void fill(int* data, int value) {
  data[threadIdx.x] = value + threadIdx.x;
}

struct Results {
  cudaError_t count, malloc, launch, copy, free, last;
  long sum = 0;
};

static void work(int id, Results& results) {
  int devices = 0;
  results.count = cudaGetDeviceCount(&devices);
  int* data = nullptr;
  results.malloc = cudaMalloc(&data, 32 * sizeof(int));
  fill<<<1, 32>>>(data, id * 100);
  results.launch = cudaGetLastError();
  int host[32] = {};
  results.copy = cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost);
  for (int value : host)
    results.sum += value;
  results.free = cudaFree(data);
  results.last = cudaGetLastError();
}

int main() {
  constexpr int kThreads = 8;
  std::vector<Results> results(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back(work, i, std::ref(results[i]));
  for (std::thread& thread : threads)
    thread.join();
  for (int i = 0; i < kThreads; ++i) {
    const Results& r = results[i];
    std::printf("thread %d: count %s malloc %s launch %s copy %s free %s last %s sum %ld\n", i,
                cudaGetErrorName(r.count), cudaGetErrorName(r.malloc), cudaGetErrorName(r.launch),
                cudaGetErrorName(r.copy), cudaGetErrorName(r.free), cudaGetErrorName(r.last),
                r.copy == cudaSuccess ? r.sum : -1L);
  }
  return 0;
}
