// The second unit of the -rdc program (see rdc_main.cu).
__device__ int helperOffset;

__device__ int triple(int value) {
  return 3 * value;
}

__global__ void helperKernel(int* data) {
  data[threadIdx.x] -= helperOffset;
}
