// Kernels launching kernels (dynamic parallelism), compiled with -rdc=true -ptx at build time for
// tests/cpu/CpuSemanticsTest.cpp: nvcc lowers the device-side <<<>>> to the device runtime's
// __cudaCDP2GetParameterBufferV2 / __cudaCDP2LaunchDeviceV2, which the CPU device provides.
extern "C" __global__ void child(int* out, int base) {
  out[base + blockIdx.x * blockDim.x + threadIdx.x] = base + blockIdx.x * blockDim.x + threadIdx.x;
}

extern "C" __global__ void tail_check(const int* out, int n, int* seen) {
  int written = 0;
  for (int i = 0; i < n; ++i)
    written += out[i] != -1;
  *seen = written;
}

extern "C" __global__ void nested(int* counts, int depth) {
  atomicAdd(&counts[depth], 1);
  if (depth > 0 && threadIdx.x == 0)
    nested<<<2, 4>>>(counts, depth - 1);
}

extern "C" __global__ void launcher(int* out, int* seen, int* counts, int* errors) {
  if (threadIdx.x != 0)
    return;
  child<<<2, 32>>>(out, blockIdx.x * 64);
  if (blockIdx.x == 0) {
    tail_check<<<1, 1, 0, cudaStreamTailLaunch>>>(out, 3 * 64, seen);
    nested<<<1, 4>>>(counts, 2);
    child<<<1, 4096>>>(out, 0); // too many threads: the launch fails
    errors[0] = static_cast<int>(cudaGetLastError());
    errors[1] = static_cast<int>(cudaGetLastError());
  }
}
