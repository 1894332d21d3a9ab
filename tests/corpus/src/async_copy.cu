// Asynchronous copies into shared memory: the __pipeline primitives (cp.async.ca/cg with
// commit_group/wait_group), cuda::pipeline with several stages, cuda::memcpy_async completing
// on a cuda::barrier, and raw inline PTX cp.async with zero-fill and wait_all.
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

namespace cg = cooperative_groups;

// Block-scoped synchronisation objects in __shared__ memory are initialised explicitly (init(),
// make_pipeline), which is the documented idiom; the front end's warning does not apply.
#pragma nv_diag_suppress static_var_with_dynamic_init

constexpr int kTile = 256;

__global__ void pipelinePrimitives(const float4* in, float4* out, int tiles) {
  __shared__ alignas(16) float4 stage[2][kTile];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&stage[0][t], &in[t], sizeof(float4));
  __pipeline_commit();
  for (int tile = 0; tile < tiles; ++tile) {
    int next = tile + 1;
    if (next < tiles)
      __pipeline_memcpy_async(&stage[next & 1][t], &in[next * kTile + t], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    float4 v = stage[tile & 1][(t + 1) % kTile];
    out[tile * kTile + t] = make_float4(v.w, v.z, v.y, v.x);
    __syncthreads();
  }
  // 4- and 8-byte copies use cp.async.ca; 16-byte ones may use cp.async.cg.
  __shared__ int small[kTile];
  __shared__ double medium[kTile];
  __pipeline_memcpy_async(&small[t], reinterpret_cast<const int*>(in) + t, sizeof(int));
  __pipeline_memcpy_async(&medium[t], reinterpret_cast<const double*>(in) + t, sizeof(double));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[t].x += small[kTile - 1 - t] + static_cast<float>(medium[t]);
}

// A multi-stage producer/consumer pipeline over a block-scoped cuda::pipeline.
template <int Stages> __global__ void blockPipeline(const int* in, int* out, int chunks) {
  __shared__ alignas(16) int buffers[Stages][kTile];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, Stages> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  int fetched = 0;
  int acc = 0;
  for (int chunk = 0; chunk < chunks; ++chunk) {
    for (; fetched < chunks && fetched < chunk + Stages; ++fetched) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buffers[fetched % Stages], in + fetched * kTile,
                         sizeof(int) * kTile, pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    acc += buffers[chunk % Stages][threadIdx.x] * (chunk + 1);
    pipe.consumer_release();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template __global__ void blockPipeline<2>(const int*, int*, int);
template __global__ void blockPipeline<4>(const int*, int*, int);

// cuda::memcpy_async that completes on a cuda::barrier (mbarrier-based on sm_80+, and the
// bulk-copy path with complete_tx on sm_90).
__global__ void barrierCopy(const double* in, double* out, int n) {
  __shared__ alignas(16) double buffer[kTile];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  for (int base = 0; base < n; base += kTile) {
    cuda::memcpy_async(block, buffer, in + base, cuda::aligned_size_t<16>(sizeof(double) * kTile),
                       bar);
    bar.arrive_and_wait();
    out[base + threadIdx.x] = buffer[kTile - 1 - threadIdx.x] * 2.0;
    block.sync();
  }
}

// cooperative_groups::memcpy_async + wait.
__global__ void cgCopy(const short* in, short* out) {
  __shared__ alignas(16) short buffer[2 * kTile];
  auto block = cg::this_thread_block();
  cg::memcpy_async(block, buffer, in + blockIdx.x * 2 * kTile, sizeof(short) * 2 * kTile);
  cg::wait(block);
  out[blockIdx.x * 2 * kTile + threadIdx.x] = static_cast<short>(buffer[threadIdx.x] + 1);
}

// Raw cp.async with a source size smaller than the copy size (zero fill) and wait_all.
__global__ void rawCpAsync(const char* in, int* out, int valid) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  __shared__ alignas(16) int words[4 * kTile];
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&words[4 * threadIdx.x]));
  const char* src = in + 16 * threadIdx.x;
  int srcBytes = threadIdx.x < static_cast<unsigned>(valid) ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(srcBytes)
               : "memory");
  asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], 8;" ::"r"(dst + 8), "l"(src)
               : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  out[threadIdx.x] = words[4 * threadIdx.x] + words[4 * threadIdx.x + 3];
#else
  out[threadIdx.x] = in[threadIdx.x] + valid;
#endif
}
