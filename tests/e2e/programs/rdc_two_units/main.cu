// Separate compilation (-rdc=true) with device code in two translation units: main.cu's kernel
// calls
// __device__ functions defined in physics.cu, uses its __device__ counter and __constant__ table,
// and main() launches a kernel defined in physics.cu. The registration goes through the per-unit
// __cudaRegisterLinkedBinary_* stubs. Physics uses dt = 1/8 and small integers so every value is
// exact in float.
#include "e2e_common.h"
#include "shared.h"

#include <vector>

__global__ void simulate(Particle* ps, int n, int steps, int* bucket_counts, int buckets) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Particle p = ps[i];
  for (int s = 0; s < steps; ++s)
    p = integrate(p, 0.125f);
  ps[i] = p;
  atomicAdd(&bucket_counts[bucket_of(p, buckets)], 1);
}

static Particle host_integrate(Particle p, float dt, const float g[3]) {
  p.vx += g[0] * dt;
  p.vy += g[1] * dt;
  p.vz += g[2] * dt;
  p.x += p.vx * dt;
  p.y += p.vy * dt;
  p.z += p.vz * dt;
  return p;
}

int main() {
  const int n = 5000, steps = 8, buckets = 16;
  std::vector<Particle> ps(n);
  for (int i = 0; i < n; ++i)
    ps[i] = Particle{static_cast<float>(i % 50),    static_cast<float>(1000 + i % 300), 0.0f,
                     static_cast<float>(i % 7 - 3), static_cast<float>(i % 11),         1.0f};
  Particle* d = nullptr;
  int* counts = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(Particle)));
  CHECK(cudaMalloc(&counts, buckets * sizeof(int)));
  CHECK(cudaMemcpy(d, ps.data(), n * sizeof(Particle), cudaMemcpyHostToDevice));
  clear_counts<<<1, buckets>>>(counts, buckets); // kernel from the other unit
  CHECK_LAUNCH();

  float g[3] = {0.0f, 0.0f, 0.0f};
  CHECK(cudaMemcpyFromSymbol(g, c_gravity, sizeof g));
  std::printf("gravity from the other unit: %.1f %.1f %.1f\n", g[0], g[1], g[2]);

  simulate<<<(n + 127) / 128, 128>>>(d, n, steps, counts, buckets);
  CHECK_LAUNCH();
  std::vector<Particle> out(n);
  std::vector<int> hc(buckets);
  int step_count = 0;
  CHECK(cudaMemcpy(out.data(), d, n * sizeof(Particle), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hc.data(), counts, buckets * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpyFromSymbol(&step_count, g_step_count, sizeof step_count));

  std::vector<int> want_counts(buckets, 0);
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    Particle p = ps[i];
    for (int s = 0; s < steps; ++s)
      p = host_integrate(p, 0.125f, g);
    ok = ok && p.x == out[i].x && p.y == out[i].y && p.z == out[i].z && p.vy == out[i].vy;
    int b = static_cast<int>(p.y) % buckets;
    want_counts[b < 0 ? b + buckets : b]++;
  }
  e2e::expect(ok, "particles integrated by device functions of the other unit");
  e2e::expect(hc == want_counts, "bucket counts");
  std::printf("device step counter: %d\n", step_count);
  e2e::expect(step_count == n * steps, "device variable of the other unit");
  std::printf("buckets:");
  for (int c : hc)
    std::printf(" %d", c);
  std::printf("\n");
  std::printf("positions checksum: %016llx\n",
              (unsigned long long)e2e::fnv1a(out.data(), n * sizeof(Particle)));

  CHECK(cudaFree(d));
  CHECK(cudaFree(counts));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
