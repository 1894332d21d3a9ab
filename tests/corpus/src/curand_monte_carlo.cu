// Monte Carlo with the cuRAND device API: XORWOW, Philox and MRG32k3a generator states
// (curand_init pulls in the large precomputed skip-ahead tables as `.global` initializers),
// uniform/normal/log-normal/Poisson draws, and a pi estimate with a block reduction.
#include <curand_kernel.h>

__global__ void setupXorwow(curandState* states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void estimatePi(curandState* states, int samples, unsigned long long* hits) {
  __shared__ unsigned long long blockHits;
  if (threadIdx.x == 0)
    blockHits = 0;
  __syncthreads();
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  unsigned long long inside = 0;
  for (int s = 0; s < samples; ++s) {
    float x = curand_uniform(&local), y = curand_uniform(&local);
    inside += (x * x + y * y <= 1.0f);
  }
  states[id] = local;
  atomicAdd(&blockHits, inside);
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(hits, blockHits);
}

__global__ void philoxDistributions(unsigned long long seed, float* normals, double* logNormals,
                                    unsigned* poissons, float4* quads) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t state;
  curand_init(seed, id, 0, &state);
  normals[id] = curand_normal(&state);
  logNormals[id] = curand_log_normal_double(&state, 0.0, 0.5);
  poissons[id] = curand_poisson(&state, 4.0);
  quads[id] = curand_uniform4(&state);
}

__global__ void mrgPaths(unsigned long long seed, double* finalPrices, int steps) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandStateMRG32k3a state;
  curand_init(seed, id, 0, &state);
  double price = 100.0;
  for (int s = 0; s < steps; ++s) {
    double z = curand_normal_double(&state);
    price *= exp(-0.5 * 0.04 / steps + 0.2 * sqrt(1.0 / steps) * z);
  }
  finalPrices[id] = price;
}
