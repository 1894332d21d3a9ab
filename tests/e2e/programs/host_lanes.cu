// Host-side measures, API lanes and NVTX ranges (issue 16): copies, memsets and kernels on two
// streams, inside NVTX ranges of the default domain and of a domain "mylib". Under `ocelot run -o`
// the profile records every copy and memset with its device time (GCP, GLB), the API calls of the
// host thread, and the NVTX range stack at each launch; `--nvtx-include` selects kernels by range.
// tests/tools/check_report.py (hostlanes, nvtx) checks that on the CPU device; under NVIDIA's
// runtime (no injection library) the NVTX calls do nothing and the program checks its results.
//
// The launches, by range:   scale   "compute/phase1" and "mylib@solve"
//                           offset  "compute"
//                           finish  none
#include "e2e_common.h"

#include <nvtx3/nvToolsExt.h>

#include <vector>

__global__ void scale(float* data, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= factor;
}

__global__ void offset(float* data, int n, float amount) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += amount;
}

__global__ void finish(float* data, const float* other, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += other[i];
}

int main() {
  constexpr int n = 4096;
  constexpr size_t bytes = n * sizeof(float);
  std::vector<float> host(n), back(n);
  for (int i = 0; i < n; ++i)
    host[i] = static_cast<float>(i % 97);
  float *a = nullptr, *b = nullptr;
  cudaStream_t s1, s2;

  nvtxRangePushA("setup");
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaMemcpy(a, host.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(b, 0, bytes));
  nvtxRangePop();

  nvtxRangePushA("compute");
  nvtxRangePushA("phase1");
  scale<<<n / 256, 256, 0, s1>>>(a, n, 2.0f);
  CHECK_LAUNCH();
  nvtxRangePop();
  CHECK(cudaMemsetAsync(b, 0, bytes, s2));
  offset<<<n / 256, 256, 0, s2>>>(b, n, 1.0f);
  CHECK_LAUNCH();
  nvtxRangePop();
  nvtxMarkA("computed");

  nvtxDomainHandle_t domain = nvtxDomainCreateA("mylib");
  nvtxEventAttributes_t attributes = {};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = "solve";
  nvtxDomainRangePushEx(domain, &attributes);
  scale<<<n / 256, 256, 0, s1>>>(a, n, 0.5f);
  CHECK_LAUNCH();
  nvtxDomainRangePop(domain);
  nvtxDomainDestroy(domain);

  CHECK(cudaDeviceSynchronize());
  finish<<<n / 256, 256>>>(a, b, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(back.data(), a, bytes, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && back[i] == host[i] + 1.0f;
  e2e::expect(ok, "scale, offset and finish on two streams");

  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  return e2e::finish();
}
