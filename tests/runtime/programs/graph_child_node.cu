// One kernel node inside a child graph node, launched twice after the graphs were destroyed. Run
// under the fake driver (DriverPathTest) with an instrumentor active: the driver log shows what
// each graph launch ran for the node, and what the executable graph holds when it is destroyed.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void addValue(int* data, int value) {
  data[blockIdx.x * blockDim.x + threadIdx.x] += value;
}

static void report(const char* call, cudaError_t error) {
  std::printf("%-60s -> %s\n", call, cudaGetErrorName(error));
}
#define REPORT(call) report(#call, call)

int main() {
  int* data = nullptr;
  REPORT(cudaMalloc(&data, 256 * sizeof(int)));
  int value = 5;
  void* arguments[] = {&data, &value};
  cudaKernelNodeParams params = {};
  params.func = reinterpret_cast<void*>(addValue);
  params.gridDim = dim3(3);
  params.blockDim = dim3(32);
  params.kernelParams = arguments;
  cudaGraph_t child = nullptr, graph = nullptr;
  REPORT(cudaGraphCreate(&child, 0));
  cudaGraphNode_t node = nullptr;
  REPORT(cudaGraphAddKernelNode(&node, child, nullptr, 0, &params));
  REPORT(cudaGraphCreate(&graph, 0));
  cudaGraphNode_t embedded = nullptr;
  REPORT(cudaGraphAddChildGraphNode(&embedded, graph, nullptr, 0, child));
  cudaGraphExec_t exec = nullptr;
  REPORT(cudaGraphInstantiate(&exec, graph, 0));
  // Both graphs go before the launches, as applications often do.
  REPORT(cudaGraphDestroy(graph));
  REPORT(cudaGraphDestroy(child));
  REPORT(cudaGraphLaunch(exec, 0));
  REPORT(cudaGraphLaunch(exec, 0));
  REPORT(cudaDeviceSynchronize());
  REPORT(cudaGraphExecDestroy(exec));
  REPORT(cudaFree(data));
  return 0;
}
