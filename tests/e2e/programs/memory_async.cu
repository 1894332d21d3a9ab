// Asynchronous memory operations: cudaMemcpyAsync in every direction (pinned and pageable host
// memory, DeviceToDevice, HostToHost, Default), cudaMemsetAsync, a 4-stream copy/compute pipeline
// over chunks, and cudaMemcpyBatchAsync (CUDA 12.8+) with stream-ordered attributes.
#include "e2e_common.h"

#include <vector>

__global__ void scale_add(int* data, int n, int mul, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = data[i] * mul + add;
}

int main() {
  const int n = 1 << 20;
  const int chunks = 8;
  const int chunk = n / chunks;
  const size_t bytes = size_t(n) * sizeof(int);

  int *h_in = nullptr, *h_out = nullptr, *h_copy = nullptr;
  CHECK(cudaMallocHost(&h_in, bytes));
  CHECK(cudaMallocHost(&h_out, bytes));
  CHECK(cudaMallocHost(&h_copy, bytes));
  for (int i = 0; i < n; ++i)
    h_in[i] = (i * 37) % 1001 - 500;

  int *d_a = nullptr, *d_b = nullptr;
  CHECK(cudaMalloc(&d_a, bytes));
  CHECK(cudaMalloc(&d_b, bytes));

  cudaStream_t streams[4];
  for (auto& s : streams)
    CHECK(cudaStreamCreate(&s));

  // Pipeline: chunk c goes HtoD, kernel, DtoH on stream c % 4.
  for (int c = 0; c < chunks; ++c) {
    cudaStream_t s = streams[c % 4];
    int off = c * chunk;
    CHECK(cudaMemcpyAsync(d_a + off, h_in + off, chunk * sizeof(int), cudaMemcpyHostToDevice, s));
    scale_add<<<(chunk + 255) / 256, 256, 0, s>>>(d_a + off, chunk, 3, c);
    CHECK_LAUNCH();
    CHECK(cudaMemcpyAsync(h_out + off, d_a + off, chunk * sizeof(int), cudaMemcpyDeviceToHost, s));
  }
  for (auto& s : streams)
    CHECK(cudaStreamSynchronize(s));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && h_out[i] == h_in[i] * 3 + i / chunk;
  e2e::expect(ok, "4-stream pipeline");
  std::printf("pipeline checksum: %016llx\n", (unsigned long long)e2e::fnv1a(h_out, bytes));

  // DeviceToDevice, memset and HostToHost, all async on one stream.
  cudaStream_t s = streams[0];
  CHECK(cudaMemsetAsync(d_b, 0, bytes, s));
  CHECK(cudaMemcpyAsync(d_b, d_a, bytes / 2, cudaMemcpyDeviceToDevice, s));
  CHECK(cudaMemsetAsync(reinterpret_cast<char*>(d_b) + bytes / 2, 0x7F, bytes / 2, s));
  CHECK(cudaMemcpyAsync(h_copy, d_b, bytes, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  ok = true;
  for (int i = 0; i < n / 2; ++i)
    ok = ok && h_copy[i] == h_out[i];
  for (int i = n / 2; i < n; ++i)
    ok = ok && h_copy[i] == 0x7F7F7F7F;
  e2e::expect(ok, "async DtoD + memset + DtoH");

  CHECK(cudaMemcpyAsync(h_copy, h_in, bytes, cudaMemcpyHostToHost, s));
  CHECK(cudaStreamSynchronize(s));
  e2e::expect(std::memcmp(h_copy, h_in, bytes) == 0, "async HostToHost");

  // Pageable host memory with cudaMemcpyAsync and cudaMemcpyDefault.
  std::vector<int> pageable(n, -1);
  CHECK(cudaMemcpyAsync(d_b, h_in, bytes, cudaMemcpyDefault, s));
  CHECK(cudaMemcpyAsync(pageable.data(), d_b, bytes, cudaMemcpyDefault, s));
  CHECK(cudaStreamSynchronize(s));
  e2e::expect(std::memcmp(pageable.data(), h_in, bytes) == 0,
              "async Default with pageable host memory");

  // cudaMemcpyBatchAsync: three independent HostToDevice copies in one batch, then one back.
  CHECK(cudaMemsetAsync(d_b, 0, bytes, s));
  void* dsts[3] = {d_b, d_b + n / 4, d_b + n / 2};
  const void* srcs[3] = {h_in, h_in + n / 4, h_in + n / 2};
  size_t sizes[3] = {sizeof(int) * (n / 4), sizeof(int) * (n / 4), sizeof(int) * 1000};
  cudaMemcpyAttributes attr;
  std::memset(&attr, 0, sizeof attr);
  attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  size_t attr_index = 0;
  CHECK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 3, &attr, &attr_index, 1, s));
  CHECK(cudaMemcpyAsync(h_copy, d_b, bytes, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  ok = true;
  for (int i = 0; i < n; ++i) {
    int want = (i < n / 2 + 1000) ? h_in[i] : 0;
    ok = ok && h_copy[i] == want;
  }
  e2e::expect(ok, "cudaMemcpyBatchAsync");

  for (auto& st : streams)
    CHECK(cudaStreamDestroy(st));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFreeHost(h_in));
  CHECK(cudaFreeHost(h_out));
  CHECK(cudaFreeHost(h_copy));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
