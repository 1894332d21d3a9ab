// Hopper launch and scheduling controls: programmatic dependent launch (griddepcontrol through
// cudaGridDependencySynchronize/cudaTriggerProgrammaticLaunchCompletion and raw PTX),
// elect.sync, %clock/%globaltimer based spinning with __nanosleep, and warp-uniform leader
// election. sm_90-only parts are guarded.
#include <cooperative_groups.h>
#include <cstdint>

namespace cg = cooperative_groups;

__global__ void primaryKernel(const float* in, float* intermediate, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    intermediate[i] = in[i] * in[i];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // Let the dependent grid start its prologue while this grid finishes.
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

__global__ void secondaryKernel(const float* intermediate, float* out, const float* weights,
                                int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // Independent prologue: load weights before waiting for the primary grid.
  float w = i < n ? weights[i] : 0.0f;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
  if (i < n)
    out[i] = intermediate[i] * w;
}

__global__ void rawGridDependency(int* flags) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  flags[blockIdx.x] = 1;
  asm volatile("griddepcontrol.launch_dependents;");
#else
  flags[blockIdx.x] = 1;
#endif
}

// elect.sync picks one lane of the mask and returns its id plus a predicate for "is me".
__device__ __forceinline__ bool electOne(unsigned& leader) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  unsigned isElected = 0;
  asm volatile("{\n\t"
               ".reg .pred P1;\n\t"
               ".reg .b32 laneId;\n\t"
               "elect.sync laneId|P1, %2;\n\t"
               "@P1 mov.s32 %1, 1;\n\t"
               "mov.s32 %0, laneId;\n\t"
               "}"
               : "=r"(leader), "+r"(isElected)
               : "r"(0xffffffffu));
  return isElected != 0;
#else
  leader = __ffs(__activemask()) - 1;
  return (threadIdx.x & 31) == leader;
#endif
}

__global__ void electedLeaders(unsigned* counters, unsigned* leaders) {
  unsigned leader = 0;
  if (electOne(leader))
    atomicAdd(&counters[blockIdx.x], 1u);
  leaders[blockIdx.x * blockDim.x + threadIdx.x] = leader;
}

// Back-off with __nanosleep while polling a flag written by another block.
__global__ void pollWithBackoff(volatile int* flag, long long* waited) {
  long long start = clock64();
  unsigned sleep = 32;
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      __nanosleep(1000);
      __threadfence();
      *flag = 1;
    }
  } else {
    while (*flag == 0) {
      __nanosleep(sleep);
      if (sleep < 4096)
        sleep *= 2;
    }
  }
  waited[blockIdx.x * blockDim.x + threadIdx.x] = clock64() - start;
}

// A kernel that exits early with exit and uses the return-after-divergence pattern.
__global__ void earlyExit(const int* work, int* done) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (work[i] < 0)
    asm volatile("exit;");
  done[i] = work[i] + 1;
}
