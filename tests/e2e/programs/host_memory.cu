// Page-locked host memory: cudaMallocHost, cudaHostAlloc with each flag, cudaHostGetFlags,
// cudaHostGetDevicePointer and zero-copy kernels on mapped memory, cudaHostRegister /
// cudaHostUnregister on ordinary allocations (default, mapped, read-only), cudaFreeHost.
#include "e2e_common.h"

#include <cstdlib>

// Reads and writes host memory directly through a device pointer (zero copy).
__global__ void zero_copy_square(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * in[i];
}

__global__ void sum_readonly(const int* in, int n, unsigned long long* out) {
  // One block, deterministic: each thread sums a strided part, then thread 0 adds in order.
  __shared__ unsigned long long part[256];
  unsigned long long acc = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    acc += static_cast<unsigned long long>(in[i]);
  part[threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long total = 0;
    for (int t = 0; t < blockDim.x; ++t)
      total += part[t];
    *out = total;
  }
}

int main() {
  const int n = 10000;
  const size_t bytes = n * sizeof(int);

  struct FlagCase {
    unsigned flags;
    const char* name;
  };
  const FlagCase cases[] = {
      {cudaHostAllocDefault, "Default"},
      {cudaHostAllocPortable, "Portable"},
      {cudaHostAllocMapped, "Mapped"},
      {cudaHostAllocWriteCombined, "WriteCombined"},
      {cudaHostAllocMapped | cudaHostAllocPortable, "Mapped|Portable"},
  };
  for (const FlagCase& c : cases) {
    int* h = nullptr;
    CHECK(cudaHostAlloc(&h, bytes, c.flags));
    unsigned got = 0;
    CHECK(cudaHostGetFlags(&got, h));
    int* d = nullptr;
    cudaError_t e = cudaHostGetDevicePointer(&d, h, 0);
    std::printf("cudaHostAlloc(%s): flags 0x%x, cudaHostGetDevicePointer %s, same address %s\n",
                c.name, got, cudaGetErrorName(e), d == h ? "yes" : "no");
    if (e != cudaSuccess)
      (void)cudaGetLastError(); // keep CHECK_LAUNCH below meaningful
    // Every allocation is usable as a copy source and destination.
    for (int i = 0; i < n; ++i)
      h[i] = i;
    int* dd = nullptr;
    CHECK(cudaMalloc(&dd, bytes));
    CHECK(cudaMemcpy(dd, h, bytes, cudaMemcpyHostToDevice));
    zero_copy_square<<<(n + 255) / 256, 256>>>(dd, dd, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h, dd, bytes, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n; ++i)
      ok = ok && h[i] == i * i;
    e2e::expect(ok, "copy through pinned buffer");
    CHECK(cudaFree(dd));
    CHECK(cudaFreeHost(h));
  }

  // Zero copy: the kernel reads and writes mapped host memory.
  int *in = nullptr, *out = nullptr;
  CHECK(cudaHostAlloc(&in, bytes, cudaHostAllocMapped));
  CHECK(cudaHostAlloc(&out, bytes, cudaHostAllocMapped));
  for (int i = 0; i < n; ++i) {
    in[i] = i % 97 - 48;
    out[i] = -1;
  }
  int *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaHostGetDevicePointer(&d_in, in, 0));
  CHECK(cudaHostGetDevicePointer(&d_out, out, 0));
  zero_copy_square<<<(n + 127) / 128, 128>>>(d_in, d_out, n);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && out[i] == in[i] * in[i];
  e2e::expect(ok, "zero-copy kernel on cudaHostAllocMapped memory");
  CHECK(cudaFreeHost(in));
  CHECK(cudaFreeHost(out));

  // cudaMallocHost (always portable, page-locked).
  void* mh = nullptr;
  CHECK(cudaMallocHost(&mh, 12345));
  unsigned mflags = 0;
  CHECK(cudaHostGetFlags(&mflags, mh));
  std::printf("cudaMallocHost: flags 0x%x\n", mflags);
  CHECK(cudaFreeHost(mh));

  // cudaHostRegister on memory from aligned_alloc.
  struct RegCase {
    unsigned flags;
    const char* name;
  };
  const RegCase regs[] = {
      {cudaHostRegisterDefault, "Default"},
      {cudaHostRegisterMapped, "Mapped"},
      {cudaHostRegisterPortable | cudaHostRegisterMapped, "Portable|Mapped"},
      {cudaHostRegisterReadOnly | cudaHostRegisterMapped, "ReadOnly|Mapped"},
  };
  int ro_supported = 0;
  CHECK(cudaDeviceGetAttribute(&ro_supported, cudaDevAttrHostRegisterReadOnlySupported, 0));
  std::printf("cudaDevAttrHostRegisterReadOnlySupported: %d\n", ro_supported);
  for (const RegCase& r : regs) {
    if ((r.flags & cudaHostRegisterReadOnly) && !ro_supported) {
      std::printf("cudaHostRegister(%s): skipped, not supported\n", r.name);
      continue;
    }
    int* h = static_cast<int*>(std::aligned_alloc(4096, 4096 * 10));
    for (int i = 0; i < 10240; ++i)
      h[i] = i;
    CHECK(cudaHostRegister(h, 4096 * 10, r.flags));
    unsigned got = 0;
    CHECK(cudaHostGetFlags(&got, h));
    int* d = nullptr;
    cudaError_t e = cudaHostGetDevicePointer(&d, h, 0);
    std::printf("cudaHostRegister(%s): flags 0x%x, cudaHostGetDevicePointer %s, same address %s\n",
                r.name, got, cudaGetErrorName(e), d == h ? "yes" : "no");
    if (e == cudaSuccess) {
      unsigned long long* d_sum = nullptr;
      CHECK(cudaMalloc(&d_sum, sizeof *d_sum));
      sum_readonly<<<1, 256>>>(d, 10240, d_sum);
      CHECK_LAUNCH();
      unsigned long long sum = 0;
      CHECK(cudaMemcpy(&sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost));
      std::printf("  device sum %llu\n", sum);
      e2e::expect(sum == 10240ull * 10239ull / 2, "kernel reads registered memory");
      CHECK(cudaFree(d_sum));
    } else {
      (void)cudaGetLastError();
    }
    // Registered memory is a valid asynchronous copy source.
    int* dd = nullptr;
    CHECK(cudaMalloc(&dd, 4096 * 10));
    CHECK(cudaMemcpyAsync(dd, h, 4096 * 10, cudaMemcpyHostToDevice, 0));
    int last = -1;
    CHECK(cudaMemcpy(&last, dd + 10239, sizeof last, cudaMemcpyDeviceToHost));
    e2e::expect(last == 10239, "copy from registered memory");
    CHECK(cudaFree(dd));
    CHECK(cudaHostUnregister(h));
    std::free(h);
  }

  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
