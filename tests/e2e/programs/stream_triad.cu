// Workload: the STREAM kernels (copy, scale, add, triad) on 8M doubles, plus a float4-vectorized
// triad, each run 3 times. Inputs are multiples of 1/2 and the scalar is 3, so every result is
// exact and the checksums are reproducible. Memory-bound: 64 MiB per array. Bandwidth is measured
// with events but not printed (only that it is positive), to keep the output deterministic.
//
// Structure for instrumentation: grid-stride loops, grid = 1056 blocks x 256 threads; per thread
// ceil(8M / 270336) = 32 or 31 iterations.
#include "e2e_common.h"

#include <vector>

__global__ void stream_copy(const double* a, double* c, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(blockDim.x) * gridDim.x)
    c[i] = a[i];
}
__global__ void stream_scale(double* b, const double* c, double s, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(blockDim.x) * gridDim.x)
    b[i] = s * c[i];
}
__global__ void stream_add(const double* a, const double* b, double* c, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(blockDim.x) * gridDim.x)
    c[i] = a[i] + b[i];
}
__global__ void stream_triad(double* a, const double* b, const double* c, double s, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(blockDim.x) * gridDim.x)
    a[i] = b[i] + s * c[i];
}
__global__ void triad_float4(float4* a, const float4* b, const float4* c, float s, size_t n4) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4;
       i += size_t(blockDim.x) * gridDim.x) {
    float4 x = b[i], y = c[i];
    a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
  }
}

int main() {
  const size_t n = e2e::scaled(size_t(8) << 20);
  const double s = 3.0;
  std::vector<double> h(n);
  for (size_t i = 0; i < n; ++i)
    h[i] = static_cast<double>(i % 1000) * 0.5;
  double *a, *b, *c;
  for (double** p : {&a, &b, &c})
    CHECK(cudaMalloc(p, n * sizeof(double)));
  CHECK(cudaMemcpy(a, h.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(b, 0, n * sizeof(double)));
  CHECK(cudaMemset(c, 0, n * sizeof(double)));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  const int blocks = 1056, threads = 256;
  CHECK(cudaEventRecord(start));
  for (int rep = 0; rep < 3; ++rep) {
    stream_copy<<<blocks, threads>>>(a, c, n);        // c = a
    stream_scale<<<blocks, threads>>>(b, c, s, n);    // b = 3a
    stream_add<<<blocks, threads>>>(a, b, c, n);      // c = 4a
    stream_triad<<<blocks, threads>>>(a, b, c, s, n); // a = 3a + 12a = 15a
  }
  CHECK(cudaEventRecord(stop));
  CHECK_LAUNCH();
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  std::printf("stream: %zu doubles per array, 3 repetitions, elapsed > 0: %s\n", n,
              ms > 0 ? "yes" : "no");

  std::vector<double> ha(n), hb(n), hc(n);
  CHECK(cudaMemcpy(ha.data(), a, n * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hb.data(), b, n * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hc.data(), c, n * sizeof(double), cudaMemcpyDeviceToHost));
  // After each repetition a grows by 15x: a = 3375 * a0, b = 3 * 225 a0, c = 4 * 225 a0.
  bool ok = true;
  for (size_t i = 0; i < n; ++i) {
    double a0 = h[i];
    ok = ok && ha[i] == 3375.0 * a0 && hb[i] == 675.0 * a0 && hc[i] == 900.0 * a0;
  }
  e2e::expect(ok, "copy/scale/add/triad results");
  std::printf("checksums: a %016llx b %016llx c %016llx\n",
              (unsigned long long)e2e::fnv1a(ha.data(), n * 8),
              (unsigned long long)e2e::fnv1a(hb.data(), n * 8),
              (unsigned long long)e2e::fnv1a(hc.data(), n * 8));

  // float4 triad over the same bytes.
  size_t n4 = n * sizeof(double) / sizeof(float4);
  std::vector<float> fb(n4 * 4), fc(n4 * 4);
  for (size_t i = 0; i < n4 * 4; ++i) {
    fb[i] = static_cast<float>(i % 512) * 0.5f;
    fc[i] = static_cast<float>(i % 256);
  }
  CHECK(cudaMemcpy(b, fb.data(), n4 * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(c, fc.data(), n4 * sizeof(float4), cudaMemcpyHostToDevice));
  triad_float4<<<blocks, threads>>>(reinterpret_cast<float4*>(a),
                                    reinterpret_cast<const float4*>(b),
                                    reinterpret_cast<const float4*>(c), 3.0f, n4);
  CHECK_LAUNCH();
  std::vector<float> fa(n4 * 4);
  CHECK(cudaMemcpy(fa.data(), a, n4 * sizeof(float4), cudaMemcpyDeviceToHost));
  ok = true;
  for (size_t i = 0; i < n4 * 4; ++i)
    ok = ok && fa[i] == fb[i] + 3.0f * fc[i];
  e2e::expect(ok, "float4 triad");
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  for (double* p : {a, b, c})
    CHECK(cudaFree(p));
  return e2e::finish();
}
