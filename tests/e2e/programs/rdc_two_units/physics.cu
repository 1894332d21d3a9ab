// Second translation unit of the rdc_two_units program (built with -rdc=true): device functions,
// a device variable, a __constant__ table and a kernel that main.cu uses across the unit boundary.
#include "shared.h"

__device__ int g_step_count = 0;
__constant__ float c_gravity[3] = {0.0f, -10.0f, 0.0f};

__device__ Particle integrate(Particle p, float dt) {
  p.vx += c_gravity[0] * dt;
  p.vy += c_gravity[1] * dt;
  p.vz += c_gravity[2] * dt;
  p.x += p.vx * dt;
  p.y += p.vy * dt;
  p.z += p.vz * dt;
  atomicAdd(&g_step_count, 1);
  return p;
}

__device__ int bucket_of(const Particle& p, int buckets) {
  int b = static_cast<int>(p.y) % buckets;
  return b < 0 ? b + buckets : b;
}

// A kernel defined here and launched from main.cu.
__global__ void clear_counts(int* counts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    counts[i] = 0;
}
