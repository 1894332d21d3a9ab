// Declarations shared by the two translation units of rdc_two_units.
#pragma once

struct Particle {
  float x, y, z;
  float vx, vy, vz;
};

// Defined in physics.cu.
extern __device__ int g_step_count;
extern __constant__ float c_gravity[3];
__device__ Particle integrate(Particle p, float dt);
__device__ int bucket_of(const Particle& p, int buckets);
__global__ void clear_counts(int* counts, int n);
