// Workload: all-pairs gravitational n-body in single precision, 4096 bodies, shared-memory tiles of
// 256 bodies, 4 leapfrog steps; checked against a CPU double-precision simulation (relative
// position error < 1e-3) and momentum conservation.
//
// Structure for instrumentation: grid = 16 blocks x 256 threads per step; per thread the tile loop
// runs 4096 / 256 = 16 times and the inner interaction loop 256 times per tile (4096 interactions
// per thread per step, 16.8 M per step).
#include "e2e_common.h"

#include <cmath>
#include <vector>

constexpr int kTile = 256;
constexpr float kSoftening2 = 0.01f;

__global__ void accelerations(const float4* pos, float3* acc, int n) {
  __shared__ float4 tile[kTile];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 pi = pos[i];
  float3 a = make_float3(0.0f, 0.0f, 0.0f);
  for (int base = 0; base < n; base += kTile) {
    tile[threadIdx.x] = pos[base + threadIdx.x];
    __syncthreads();
#pragma unroll 4
    for (int j = 0; j < kTile; ++j) {
      float4 pj = tile[j];
      float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
      float r2 = dx * dx + dy * dy + dz * dz + kSoftening2;
      float inv = rsqrtf(r2);
      float s = pj.w * inv * inv * inv;
      a.x += dx * s;
      a.y += dy * s;
      a.z += dz * s;
    }
    __syncthreads();
  }
  acc[i] = a;
}

__global__ void kick_drift(float4* pos, float3* vel, const float3* acc, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float3 v = vel[i];
  v.x += acc[i].x * dt;
  v.y += acc[i].y * dt;
  v.z += acc[i].z * dt;
  vel[i] = v;
  pos[i].x += v.x * dt;
  pos[i].y += v.y * dt;
  pos[i].z += v.z * dt;
}

int main() {
  const int n = static_cast<int>(e2e::scaled(4096, kTile)), steps = 4;
  const float dt = 0.001f;
  std::vector<float4> pos(n);
  std::vector<float3> vel(n, make_float3(0, 0, 0));
  e2e::Rng rng(99);
  for (int i = 0; i < n; ++i)
    pos[i] =
        make_float4(rng.unit() * 2 - 1, rng.unit() * 2 - 1, rng.unit() * 2 - 1, 0.5f + rng.unit());
  float4* dpos = nullptr;
  float3 *dvel = nullptr, *dacc = nullptr;
  CHECK(cudaMalloc(&dpos, n * sizeof(float4)));
  CHECK(cudaMalloc(&dvel, n * sizeof(float3)));
  CHECK(cudaMalloc(&dacc, n * sizeof(float3)));
  CHECK(cudaMemcpy(dpos, pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dvel, vel.data(), n * sizeof(float3), cudaMemcpyHostToDevice));
  for (int s = 0; s < steps; ++s) {
    accelerations<<<n / kTile, kTile>>>(dpos, dacc, n);
    kick_drift<<<n / 256, 256>>>(dpos, dvel, dacc, dt, n);
  }
  CHECK_LAUNCH();
  std::vector<float4> gpos(n);
  std::vector<float3> gvel(n);
  CHECK(cudaMemcpy(gpos.data(), dpos, n * sizeof(float4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gvel.data(), dvel, n * sizeof(float3), cudaMemcpyDeviceToHost));

  // CPU reference in double.
  std::vector<double> px(n), py(n), pz(n), m(n), vx(n, 0), vy(n, 0), vz(n, 0);
  for (int i = 0; i < n; ++i) {
    px[i] = pos[i].x;
    py[i] = pos[i].y;
    pz[i] = pos[i].z;
    m[i] = pos[i].w;
  }
  std::vector<double> ax(n), ay(n), az(n);
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) {
      double sx = 0, sy = 0, sz = 0;
      for (int j = 0; j < n; ++j) {
        double dx = px[j] - px[i], dy = py[j] - py[i], dz = pz[j] - pz[i];
        double r2 = dx * dx + dy * dy + dz * dz + kSoftening2;
        double inv = 1.0 / std::sqrt(r2);
        double f = m[j] * inv * inv * inv;
        sx += dx * f;
        sy += dy * f;
        sz += dz * f;
      }
      ax[i] = sx;
      ay[i] = sy;
      az[i] = sz;
    }
    for (int i = 0; i < n; ++i) {
      vx[i] += ax[i] * dt;
      vy[i] += ay[i] * dt;
      vz[i] += az[i] * dt;
      px[i] += vx[i] * dt;
      py[i] += vy[i] * dt;
      pz[i] += vz[i] * dt;
    }
  }
  bool ok = true;
  double mom[3] = {0, 0, 0};
  for (int i = 0; i < n; ++i) {
    ok = ok && e2e::close(gpos[i].x, px[i], 1e-3, 1e-4) &&
         e2e::close(gpos[i].y, py[i], 1e-3, 1e-4) && e2e::close(gpos[i].z, pz[i], 1e-3, 1e-4);
    mom[0] += m[i] * gvel[i].x;
    mom[1] += m[i] * gvel[i].y;
    mom[2] += m[i] * gvel[i].z;
  }
  double total_mass = 0;
  for (int i = 0; i < n; ++i)
    total_mass += m[i];
  std::printf("n-body: %d bodies, %d steps, tile %d\n", n, steps, kTile);
  e2e::expect(ok, "positions match the double-precision reference");
  e2e::expect(std::fabs(mom[0]) + std::fabs(mom[1]) + std::fabs(mom[2]) < 1e-2 * total_mass,
              "total momentum stays near zero");
  CHECK(cudaFree(dpos));
  CHECK(cudaFree(dvel));
  CHECK(cudaFree(dacc));
  return e2e::finish();
}
