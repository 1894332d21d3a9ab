// Explicit launch APIs: cudaLaunchKernel (C API with an argument array, and the C++ template),
// cudaLaunchKernelExC with launch attributes (priority, large dynamic shared memory after
// cudaFuncSetAttribute, programmatic dependent launch between a primary and a secondary kernel via
// cudaLaunchAttributeProgrammaticStreamSerialization + cudaGridDependencySynchronize), and the
// C++ cudaLaunchKernelEx template.
#include "e2e_common.h"

#include <vector>

__global__ void axpy(int* y, const int* x, int a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}

// Block-wise rotate by `shift` through a large dynamic shared-memory buffer (one int per thread,
// the rest of the buffer is padding written and read back to prove it is usable).
__global__ void rotate_big_smem(const int* in, int* out, int shift, int smem_ints) {
  extern __shared__ int buf[];
  int t = threadIdx.x;
  int n = blockDim.x;
  for (int k = t; k < smem_ints; k += n)
    buf[k] = k;
  __syncthreads();
  buf[t] = in[blockIdx.x * n + t];
  __syncthreads();
  int pad_ok = buf[smem_ints - 1 - t] == smem_ints - 1 - t;
  out[blockIdx.x * n + t] = buf[(t + shift) % n] + (pad_ok ? 0 : 1000000);
}

__global__ void pdl_primary(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = i * 2;
  cudaTriggerProgrammaticLaunchCompletion();
}

__global__ void pdl_secondary(const int* data, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int local = i + 1;               // work that may overlap the primary
  cudaGridDependencySynchronize(); // the primary's results are visible after this
  if (i < n)
    out[i] = data[i] + local;
}

int main() {
  const int n = 10000;
  std::vector<int> hx(n), hy(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = i % 100;
    hy[i] = -i;
  }
  int *x = nullptr, *y = nullptr, *z = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(int)));
  CHECK(cudaMalloc(&y, n * sizeof(int)));
  CHECK(cudaMalloc(&z, n * sizeof(int)));
  CHECK(cudaMemcpy(x, hx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(y, hy.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  // cudaLaunchKernel, C API.
  int a = 3;
  int count = n;
  void* args[] = {&y, &x, &a, &count};
  CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(axpy), dim3((n + 127) / 128), dim3(128),
                         args, 0, s));
  // cudaLaunchKernel, C++ template (same argument array).
  a = 5;
  CHECK(cudaLaunchKernel(axpy, dim3((n + 255) / 256), dim3(256), args, 0, s));
  std::vector<int> out(n);
  CHECK(cudaMemcpyAsync(out.data(), y, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && out[i] == -i + 8 * hx[i];
  e2e::expect(ok, "cudaLaunchKernel (C and C++)");

  // cudaLaunchKernelExC with a priority attribute and 100 KiB of dynamic shared memory.
  const int smem_bytes = 100 * 1024;
  int smem_ints = smem_bytes / static_cast<int>(sizeof(int));
  CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(rotate_big_smem),
                             cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  int least = 0, greatest = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  cudaLaunchAttribute attrs[1] = {};
  attrs[0].id = cudaLaunchAttributePriority;
  attrs[0].val.priority = greatest;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(n / 250);
  cfg.blockDim = dim3(250);
  cfg.dynamicSmemBytes = smem_bytes;
  cfg.stream = s;
  cfg.attrs = attrs;
  cfg.numAttrs = 1;
  int shift = 17;
  void* rargs[] = {&x, &z, &shift, &smem_ints};
  CHECK(cudaLaunchKernelExC(&cfg, reinterpret_cast<const void*>(rotate_big_smem), rargs));
  CHECK(cudaMemcpyAsync(out.data(), z, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  ok = true;
  for (int b = 0; b < n / 250; ++b)
    for (int t = 0; t < 250; ++t)
      ok = ok && out[b * 250 + t] == hx[b * 250 + (t + 17) % 250];
  e2e::expect(ok, "cudaLaunchKernelExC with priority and 100 KiB dynamic shared memory");

  // cudaLaunchKernelEx (C++ template) with no attributes.
  cfg.dynamicSmemBytes = 0;
  cfg.numAttrs = 0;
  cfg.attrs = nullptr;
  cfg.gridDim = dim3((n + 511) / 512);
  cfg.blockDim = dim3(512);
  CHECK(cudaLaunchKernelEx(&cfg, axpy, y, static_cast<const int*>(x), -8, n));
  CHECK(cudaMemcpyAsync(out.data(), y, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && out[i] == -i;
  e2e::expect(ok, "cudaLaunchKernelEx template");

  // Programmatic dependent launch.
  pdl_primary<<<(n + 255) / 256, 256, 0, s>>>(y, n);
  CHECK_LAUNCH();
  cudaLaunchAttribute pdl[1] = {};
  pdl[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  pdl[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.gridDim = dim3((n + 255) / 256);
  cfg.blockDim = dim3(256);
  cfg.attrs = pdl;
  cfg.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&cfg, pdl_secondary, static_cast<const int*>(y), z, n));
  CHECK(cudaMemcpyAsync(out.data(), z, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && out[i] == 2 * i + i + 1;
  e2e::expect(ok, "programmatic dependent launch");

  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(z));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
