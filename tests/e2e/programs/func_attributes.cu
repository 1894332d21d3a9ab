// Kernel attributes: cudaGetFuncBySymbol, cudaGetKernel, cudaFuncGetName, cudaFuncGetParamInfo,
// cudaFuncGetAttributes (printing only compiler-independent fields: static shared memory, launch
// bounds, versions, dynamic shared memory limit, carveout and cluster requirements; not registers
// or local memory, which a JIT may choose differently), cudaFuncSetAttribute for maximum dynamic
// shared memory (then a launch using 200 KiB) and carveout, cudaFuncSetCacheConfig and
// cudaKernelSetAttributeForDevice.
#include "e2e_common.h"

#include <vector>

// 4 KiB of static shared memory; block-local reversal through it.
__global__ void __launch_bounds__(256) static_smem(const int* in, int* out) {
  __shared__ int tile[1024];
  int t = threadIdx.x;
  for (int k = 0; k < 4; ++k)
    tile[t * 4 + k] = in[blockIdx.x * 1024 + t * 4 + k];
  __syncthreads();
  for (int k = 0; k < 4; ++k)
    out[blockIdx.x * 1024 + t * 4 + k] = tile[1023 - (t * 4 + k)];
}

// Uses all dynamic shared memory it is given: sums a block-wide prefix of it.
__global__ void dynamic_smem(int* out, int ints) {
  extern __shared__ int buf[];
  for (int k = threadIdx.x; k < ints; k += blockDim.x)
    buf[k] = k % 7;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long s = 0;
    for (int k = 0; k < ints; ++k)
      s += buf[k];
    out[blockIdx.x] = static_cast<int>(s);
  }
}

__global__ void __cluster_dims__(2, 1, 1) clustered(int* out) {
  out[blockIdx.x] = static_cast<int>(blockIdx.x);
}

struct Pod {
  double d;
  char c;
};
__global__ void param_layout(char a, double b, Pod p, int* q, short s) {
  if (q)
    *q = a + static_cast<int>(b) + p.c + s;
}

static void show_attributes(const char* name, const void* func) {
  cudaFuncAttributes a;
  std::memset(&a, 0, sizeof a);
  CHECK(cudaFuncGetAttributes(&a, func));
  std::printf("%s: sharedSizeBytes %zu, maxThreadsPerBlock %d, ptxVersion %d, binaryVersion %d, "
              "maxDynamicSharedSizeBytes %d, preferredShmemCarveout %d, clusterDimMustBeSet %d, "
              "requiredCluster %dx%dx%d, nonPortableClusterSizeAllowed %d\n",
              name, a.sharedSizeBytes, a.maxThreadsPerBlock, a.ptxVersion, a.binaryVersion,
              a.maxDynamicSharedSizeBytes, a.preferredShmemCarveout, a.clusterDimMustBeSet,
              a.requiredClusterWidth, a.requiredClusterHeight, a.requiredClusterDepth,
              a.nonPortableClusterSizeAllowed);
}

int main() {
  const void* funcs[] = {
      reinterpret_cast<const void*>(static_smem), reinterpret_cast<const void*>(dynamic_smem),
      reinterpret_cast<const void*>(clustered), reinterpret_cast<const void*>(param_layout)};
  for (const void* f : funcs) {
    cudaFunction_t fn = nullptr;
    CHECK(cudaGetFuncBySymbol(&fn, f));
    cudaKernel_t k = nullptr;
    CHECK(cudaGetKernel(&k, f));
    const char* name = nullptr;
    CHECK(cudaFuncGetName(&name, f));
    std::printf("kernel %s: cudaGetFuncBySymbol %s, cudaGetKernel %s\n", name ? name : "(null)",
                fn ? "non-null" : "null", k ? "non-null" : "null");
  }

  // Parameter layout as the runtime reports it.
  for (size_t i = 0;; ++i) {
    size_t off = 0, size = 0;
    cudaError_t e =
        cudaFuncGetParamInfo(reinterpret_cast<const void*>(param_layout), i, &off, &size);
    if (e != cudaSuccess) {
      std::printf("param %zu: %s\n", i, cudaGetErrorName(e));
      (void)cudaGetLastError();
      break;
    }
    std::printf("param %zu: offset %zu size %zu\n", i, off, size);
  }

  show_attributes("static_smem", reinterpret_cast<const void*>(static_smem));
  show_attributes("dynamic_smem", reinterpret_cast<const void*>(dynamic_smem));
  show_attributes("clustered", reinterpret_cast<const void*>(clustered));

  // Opt in to 200 KiB of dynamic shared memory and a carveout preference.
  const int big = 200 * 1024;
  CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(dynamic_smem),
                             cudaFuncAttributeMaxDynamicSharedMemorySize, big));
  CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(dynamic_smem),
                             cudaFuncAttributePreferredSharedMemoryCarveout, 100));
  CHECK(cudaFuncSetCacheConfig(reinterpret_cast<const void*>(static_smem),
                               cudaFuncCachePreferShared));
  show_attributes("dynamic_smem after set", reinterpret_cast<const void*>(dynamic_smem));

  int* out = nullptr;
  CHECK(cudaMalloc(&out, 8192 * sizeof(int)));
  int ints = big / 4;
  dynamic_smem<<<4, 512, big>>>(out, ints);
  CHECK_LAUNCH();
  int h[4];
  CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  long long want = 0;
  for (int k = 0; k < ints; ++k)
    want += k % 7;
  std::printf("200 KiB dynamic shared memory sums: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
  e2e::expect(h[0] == want && h[3] == want, "launch with 200 KiB dynamic shared memory");

  // One byte more than the opt-in limit fails at launch (not sticky).
  dynamic_smem<<<1, 32, big + 1>>>(out, 1);
  std::printf("launch above the opt-in limit: %s\n", cudaGetErrorName(cudaGetLastError()));

  // cudaKernelSetAttributeForDevice on the cudaKernel_t of a kernel.
  cudaKernel_t kd = nullptr;
  CHECK(cudaGetKernel(&kd, reinterpret_cast<const void*>(static_smem)));
  CHECK(cudaKernelSetAttributeForDevice(kd, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024,
                                        0));
  show_attributes("static_smem after cudaKernelSetAttributeForDevice",
                  reinterpret_cast<const void*>(static_smem));

  // static_smem still computes correctly.
  std::vector<int> hin(8192), hout(8192);
  for (int i = 0; i < 8192; ++i)
    hin[i] = i * 3;
  int* in = nullptr;
  CHECK(cudaMalloc(&in, 8192 * sizeof(int)));
  CHECK(cudaMemcpy(in, hin.data(), 8192 * sizeof(int), cudaMemcpyHostToDevice));
  static_smem<<<8, 256>>>(in, out);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(hout.data(), out, 8192 * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int b = 0; b < 8; ++b)
    for (int i = 0; i < 1024; ++i)
      ok = ok && hout[b * 1024 + i] == hin[b * 1024 + 1023 - i];
  e2e::expect(ok, "static shared memory kernel");
  // A __launch_bounds__(256) kernel cannot be launched with 512 threads.
  static_smem<<<1, 512>>>(in, out);
  std::printf("launch above __launch_bounds__: %s\n", cudaGetErrorName(cudaGetLastError()));

  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
