// A chain of eight kernel nodes in one executable graph, replayed: ten launches on one stream,
// then one node given new arguments and one more launch, then a launch on a second stream, then
// one with no instrumentor active. Run under the fake driver (DriverPathTest) with an
// instrumentor active: the driver log shows which calls each graph launch made. Markers in the
// log are memsets of 1, 2 and 3 bytes (of a buffer of their own) between the steps. On a GPU
// (scripts/gpu-batch.sh, section graph-plan) the printed sums must be NVIDIA's.
#include <cuda_runtime.h>

#include <cstdio>
#include <dlfcn.h>

__global__ void addValue(int* data, int value) {
  data[threadIdx.x] += value;
}

static void report(const char* call, cudaError_t error) {
  std::printf("%-60s -> %s\n", call, cudaGetErrorName(error));
}
#define REPORT(call) report(#call, call)

constexpr int kNodes = 8;

int main() {
  int* data = nullptr;
  REPORT(cudaMalloc(&data, 64 * sizeof(int)));
  REPORT(cudaMemset(data, 0, 64 * sizeof(int)));
  char* marker = nullptr;
  REPORT(cudaMalloc(&marker, 4));
  int values[kNodes];
  void* arguments[kNodes][2];
  cudaKernelNodeParams params[kNodes] = {};
  cudaGraph_t graph = nullptr;
  REPORT(cudaGraphCreate(&graph, 0));
  cudaGraphNode_t nodes[kNodes] = {};
  for (int i = 0; i < kNodes; ++i) {
    values[i] = i + 1;
    arguments[i][0] = &data;
    arguments[i][1] = &values[i];
    params[i].func = reinterpret_cast<void*>(addValue);
    params[i].gridDim = dim3(1);
    params[i].blockDim = dim3(32);
    params[i].kernelParams = arguments[i];
    REPORT(cudaGraphAddKernelNode(&nodes[i], graph, i == 0 ? nullptr : &nodes[i - 1],
                                  i == 0 ? 0 : 1, &params[i]));
  }
  cudaGraphExec_t exec = nullptr;
  REPORT(cudaGraphInstantiate(&exec, graph, 0));
  cudaStream_t first = nullptr, second = nullptr;
  REPORT(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking));
  REPORT(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking));
  for (int launch = 0; launch < 10; ++launch)
    REPORT(cudaGraphLaunch(exec, first));
  REPORT(cudaStreamSynchronize(first));
  REPORT(cudaMemsetAsync(marker, 0, 1, first));
  // The executable graph's node 3 gets new arguments: the next launch runs them, instrumented.
  values[3] = 40;
  REPORT(cudaGraphExecKernelNodeSetParams(exec, nodes[3], &params[3]));
  REPORT(cudaGraphLaunch(exec, first));
  REPORT(cudaMemsetAsync(marker, 0, 2, first));
  // Another stream: the launch waits for the first stream's copy of the last launch's results.
  REPORT(cudaGraphLaunch(exec, second));
  REPORT(cudaStreamSynchronize(second));
  REPORT(cudaMemsetAsync(marker, 0, 3, first));
  // No instrumentor: the application's kernels run again.
  using RemoveAll = void (*)();
  auto removeAll =
      reinterpret_cast<RemoveAll>(dlsym(RTLD_DEFAULT, "ocelot_remove_all_instrumentors"));
  if (removeAll != nullptr)
    removeAll();
  REPORT(cudaGraphLaunch(exec, first));
  REPORT(cudaDeviceSynchronize());
  // Each thread's element: 10 launches of 1 + ... + 8, then three with node 3 adding 40 (576).
  int host[32] = {};
  REPORT(cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost));
  bool same = true;
  for (int value : host)
    same = same && value == host[0];
  std::printf("data[0] %d, all 32 equal: %s\n", host[0], same ? "yes" : "no");
  REPORT(cudaGraphExecDestroy(exec));
  REPORT(cudaGraphDestroy(graph));
  REPORT(cudaStreamDestroy(first));
  REPORT(cudaStreamDestroy(second));
  REPORT(cudaFree(marker));
  REPORT(cudaFree(data));
  return 0;
}
