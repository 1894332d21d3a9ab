// One kernel node in an explicit CUDA graph, launched twice, then the executable graph's node
// given new arguments and launched again, then updated from another graph and launched again. Run
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
  int value = 7;
  void* arguments[] = {&data, &value};
  cudaKernelNodeParams params = {};
  params.func = reinterpret_cast<void*>(addValue);
  params.gridDim = dim3(2);
  params.blockDim = dim3(32);
  params.kernelParams = arguments;
  cudaGraph_t graph = nullptr;
  REPORT(cudaGraphCreate(&graph, 0));
  cudaGraphNode_t node = nullptr;
  REPORT(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &params));
  cudaGraphExec_t exec = nullptr;
  REPORT(cudaGraphInstantiate(&exec, graph, 0));
  REPORT(cudaGraphLaunch(exec, 0));
  REPORT(cudaGraphLaunch(exec, 0));
  // The executable graph's own parameters change; the template's stay.
  value = 9;
  params.gridDim = dim3(4);
  REPORT(cudaGraphExecKernelNodeSetParams(exec, node, &params));
  REPORT(cudaGraphLaunch(exec, 0));
  // cudaGraphExecUpdate from a graph of the same shape: its node's kernel and arguments.
  value = 11;
  params.gridDim = dim3(5);
  cudaGraph_t next = nullptr;
  REPORT(cudaGraphCreate(&next, 0));
  cudaGraphNode_t nextNode = nullptr;
  REPORT(cudaGraphAddKernelNode(&nextNode, next, nullptr, 0, &params));
  value = 0; // the node holds its own copy
  cudaGraphExecUpdateResultInfo info = {};
  REPORT(cudaGraphExecUpdate(exec, next, &info));
  REPORT(cudaGraphDestroy(next));
  REPORT(cudaGraphLaunch(exec, 0));
  REPORT(cudaDeviceSynchronize());
  REPORT(cudaGraphExecDestroy(exec));
  REPORT(cudaGraphDestroy(graph));
  REPORT(cudaFree(data));
  return 0;
}
