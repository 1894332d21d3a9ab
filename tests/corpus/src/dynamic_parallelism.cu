// Dynamic parallelism (compiled with -rdc=true): kernels launching child kernels with <<<>>>
// from the device (cudaGetParameterBuffer + cudaLaunchDevice call sequences), recursive
// launches with a depth limit, device-side streams, tail launches and fire-and-forget
// launches, and device runtime queries.
#include <cstdio>

__global__ void childScale(float* data, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= factor;
}

__global__ void childAdd(float* data, int n, const float* other) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += other[i];
}

__global__ void parentLaunch(float* data, const float* other, int n) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    int blocks = (n + 255) / 256;
    childScale<<<blocks, 256>>>(data, n, 2.0f);
    childAdd<<<blocks, 256, 0, cudaStreamTailLaunch>>>(data, n, other);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
      printf("launch failed: %d\n", static_cast<int>(err));
  }
}

// Recursive subdivision: each level launches two children on halves of the range.
__global__ void recursiveSum(const int* in, unsigned long long* out, int begin, int end,
                             int depth) {
  if (end - begin <= 1024 || depth >= 4) {
    unsigned long long local = 0;
    for (int i = begin + static_cast<int>(threadIdx.x); i < end; i += blockDim.x)
      local += static_cast<unsigned long long>(in[i]);
    atomicAdd(out, local);
    return;
  }
  if (threadIdx.x == 0) {
    int mid = begin + (end - begin) / 2;
    cudaStream_t s1, s2;
    cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
    recursiveSum<<<1, blockDim.x, 0, s1>>>(in, out, begin, mid, depth + 1);
    recursiveSum<<<1, blockDim.x, 0, s2>>>(in, out, mid, end, depth + 1);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
  }
}

__global__ void fireAndForget(int* flags, int count) {
  if (threadIdx.x < static_cast<unsigned>(count)) {
    int device = -1;
    cudaGetDevice(&device);
    int smCount = 0;
    cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount, device);
    flags[threadIdx.x] = smCount;
    childScale<<<1, 32, 0, cudaStreamFireAndForget>>>(reinterpret_cast<float*>(flags), count, 1.0f);
  }
}

// A child launch with dynamic shared memory and a 3D configuration.
__global__ void childWithShared(int* data) {
  extern __shared__ int scratch[];
  int t = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
  scratch[t] = data[t];
  __syncthreads();
  data[t] = scratch[(t + 1) % (blockDim.x * blockDim.y * blockDim.z)];
}

__global__ void parent3D(int* data) {
  if (threadIdx.x == 0)
    childWithShared<<<dim3(1, 1, 1), dim3(4, 4, 2), 32 * sizeof(int)>>>(data);
}
