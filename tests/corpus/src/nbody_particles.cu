// Particle simulation: all-pairs N-body with float4 tiles in shared memory and rsqrtf, a
// leapfrog integrator, a uniform-grid cell assignment with 64-bit Morton keys, and a
// softened-gravity variant in double precision.
#include <cstdint>

__device__ float3 bodyInteraction(float4 bi, float4 bj, float3 acc, float softening) {
  float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
  float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + softening;
  float invDist = rsqrtf(distSqr);
  float s = bj.w * invDist * invDist * invDist;
  acc.x += r.x * s;
  acc.y += r.y * s;
  acc.z += r.z * s;
  return acc;
}

__global__ void allPairs(const float4* positions, float4* velocities, int n, float dt,
                         float softening) {
  extern __shared__ float4 tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 me = i < n ? positions[i] : make_float4(0, 0, 0, 0);
  float3 acc = make_float3(0, 0, 0);
  for (int base = 0; base < n; base += blockDim.x) {
    int j = base + threadIdx.x;
    tile[threadIdx.x] = j < n ? positions[j] : make_float4(0, 0, 0, 0);
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < blockDim.x; ++k)
      acc = bodyInteraction(me, tile[k], acc, softening);
    __syncthreads();
  }
  if (i < n) {
    float4 v = velocities[i];
    velocities[i] = make_float4(v.x + acc.x * dt, v.y + acc.y * dt, v.z + acc.z * dt, v.w);
  }
}

__global__ void integrate(float4* positions, const float4* velocities, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 p = positions[i], v = velocities[i];
  positions[i] = make_float4(p.x + v.x * dt, p.y + v.y * dt, p.z + v.z * dt, p.w);
}

__device__ uint64_t spreadBits(uint64_t x) {
  x &= 0x1fffff;
  x = (x | x << 32) & 0x1f00000000ffffull;
  x = (x | x << 16) & 0x1f0000ff0000ffull;
  x = (x | x << 8) & 0x100f00f00f00f00full;
  x = (x | x << 4) & 0x10c30c30c30c30c3ull;
  x = (x | x << 2) & 0x1249249249249249ull;
  return x;
}

__global__ void mortonKeys(const float4* positions, uint64_t* keys, int n, float cellSize) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 p = positions[i];
  uint64_t x = static_cast<uint64_t>(fmaxf(p.x / cellSize + 1048576.0f, 0.0f));
  uint64_t y = static_cast<uint64_t>(fmaxf(p.y / cellSize + 1048576.0f, 0.0f));
  uint64_t z = static_cast<uint64_t>(fmaxf(p.z / cellSize + 1048576.0f, 0.0f));
  keys[i] = spreadBits(x) | spreadBits(y) << 1 | spreadBits(z) << 2;
}

__global__ void doublePrecisionForces(const double4_32a* bodies, double3* forces, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double4_32a me = bodies[i];
  double3 f = make_double3(0, 0, 0);
  for (int j = 0; j < n; ++j) {
    double4_32a o = bodies[j];
    double dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
    double d2 = dx * dx + dy * dy + dz * dz + 1e-9;
    double inv = rsqrt(d2);
    double s = o.w * inv * inv * inv;
    f.x += dx * s;
    f.y += dy * s;
    f.z += dz * s;
  }
  forces[i] = f;
}
