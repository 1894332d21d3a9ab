// Updating instantiated graphs: cudaGraphExecUpdate with a re-captured graph of the same topology
// (new kernel arguments), with a changed topology (cudaErrorGraphExecUpdateFailure and
// cudaGraphExecUpdateErrorTopologyChanged), with a different kernel function in a kernel node,
// cudaGraphKernelNodeSetParams on the template graph followed by an update, and the generic
// cudaGraphExecNodeSetParams / cudaGraphNodeSetParams.
#include "e2e_common.h"

#include <vector>

__global__ void scale(const int* in, int* out, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * k;
}

__global__ void offset(const int* in, int* out, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + k;
}

static const int N = 4096;

static cudaGraph_t capture(cudaStream_t s, const int* in, int* out, int* host, int k,
                           bool extra_node, bool use_offset) {
  cudaGraph_t g = nullptr;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  if (use_offset) {
    offset<<<N / 256, 256, 0, s>>>(in, out, N, k);
  } else {
    scale<<<N / 256, 256, 0, s>>>(in, out, N, k);
  }
  if (extra_node)
    scale<<<N / 256, 256, 0, s>>>(out, out, N, 1);
  CHECK(cudaMemcpyAsync(host, out, N * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamEndCapture(s, &g));
  return g;
}

static const char* result_name(cudaGraphExecUpdateResult r) {
  switch (r) {
  case cudaGraphExecUpdateSuccess:
    return "Success";
  case cudaGraphExecUpdateError:
    return "Error";
  case cudaGraphExecUpdateErrorTopologyChanged:
    return "ErrorTopologyChanged";
  case cudaGraphExecUpdateErrorNodeTypeChanged:
    return "ErrorNodeTypeChanged";
  case cudaGraphExecUpdateErrorFunctionChanged:
    return "ErrorFunctionChanged";
  case cudaGraphExecUpdateErrorParametersChanged:
    return "ErrorParametersChanged";
  case cudaGraphExecUpdateErrorNotSupported:
    return "ErrorNotSupported";
  case cudaGraphExecUpdateErrorUnsupportedFunctionChange:
    return "ErrorUnsupportedFunctionChange";
  case cudaGraphExecUpdateErrorAttributesChanged:
    return "ErrorAttributesChanged";
  }
  return "?";
}

static bool check_output(const int* host, const std::vector<int>& in, int mul, int add) {
  for (int i = 0; i < N; ++i)
    if (host[i] != in[i] * mul + add)
      return false;
  return true;
}

static cudaGraphNode_t first_kernel_node(cudaGraph_t g) {
  size_t count = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  CHECK(cudaGraphGetNodes(g, nodes.data(), &count));
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(node, &t));
    if (t == cudaGraphNodeTypeKernel)
      return node;
  }
  return nullptr;
}

int main() {
  std::vector<int> in(N);
  for (int i = 0; i < N; ++i)
    in[i] = i % 321 - 160;
  int *d_in = nullptr, *d_out = nullptr, *host = nullptr;
  CHECK(cudaMalloc(&d_in, N * sizeof(int)));
  CHECK(cudaMalloc(&d_out, N * sizeof(int)));
  CHECK(cudaMallocHost(&host, N * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  cudaGraph_t g1 = capture(s, d_in, d_out, host, 2, false, false);
  cudaGraphExec_t exec = nullptr;
  CHECK(cudaGraphInstantiate(&exec, g1, 0));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  e2e::expect(check_output(host, in, 2, 0), "original graph (x2)");

  // Same topology, new argument.
  cudaGraph_t g2 = capture(s, d_in, d_out, host, 5, false, false);
  cudaGraphExecUpdateResultInfo info = {};
  cudaError_t e = cudaGraphExecUpdate(exec, g2, &info);
  std::printf("update with new arguments: %s, result %s\n", cudaGetErrorName(e),
              result_name(info.result));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  e2e::expect(check_output(host, in, 5, 0), "updated graph (x5)");

  // Changed topology: the update fails and the executable graph keeps working as before.
  cudaGraph_t g3 = capture(s, d_in, d_out, host, 7, true, false);
  info = {};
  e = cudaGraphExecUpdate(exec, g3, &info);
  std::printf("update with changed topology: %s, result %s\n", cudaGetErrorName(e),
              result_name(info.result));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  e2e::expect(check_output(host, in, 5, 0), "graph unchanged after failed update");

  // A different kernel function in the kernel node.
  cudaGraph_t g4 = capture(s, d_in, d_out, host, 9, false, true);
  info = {};
  e = cudaGraphExecUpdate(exec, g4, &info);
  std::printf("update with a different kernel function: %s, result %s\n", cudaGetErrorName(e),
              result_name(info.result));
  (void)cudaGetLastError();
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  bool as_offset = check_output(host, in, 1, 9);
  bool as_scale = check_output(host, in, 5, 0);
  std::printf("after function update the graph computes: %s\n", as_offset  ? "offset 9"
                                                                : as_scale ? "x5"
                                                                           : "other");
  e2e::expect(e == cudaSuccess ? as_offset : as_scale,
              "function change consistent with the update result");

  // Edit the template graph's kernel node, then update from it.
  cudaGraphNode_t k1 = first_kernel_node(g1);
  cudaKernelNodeParams kp = {};
  CHECK(cudaGraphKernelNodeGetParams(k1, &kp));
  int count = N, k = -3;
  void* args[] = {&d_in, &d_out, &count, &k};
  kp.kernelParams = args;
  CHECK(cudaGraphKernelNodeSetParams(k1, &kp));
  info = {};
  CHECK(cudaGraphExecUpdate(exec, g1, &info));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  e2e::expect(check_output(host, in, -3, 0), "cudaGraphKernelNodeSetParams + update (x-3)");

  // Generic node-parameter APIs.
  cudaGraphNodeParams np = {};
  np.type = cudaGraphNodeTypeKernel;
  np.kernel.func = reinterpret_cast<void*>(scale);
  np.kernel.gridDim = dim3(N / 256);
  np.kernel.blockDim = dim3(256);
  int k2 = 11;
  void* args2[] = {&d_in, &d_out, &count, &k2};
  np.kernel.kernelParams = args2;
  CHECK(cudaGraphExecNodeSetParams(exec, k1, &np));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  e2e::expect(check_output(host, in, 11, 0), "cudaGraphExecNodeSetParams (x11)");
  int k3 = 4;
  void* args3[] = {&d_in, &d_out, &count, &k3};
  np.kernel.kernelParams = args3;
  CHECK(cudaGraphNodeSetParams(k1, &np));
  CHECK(cudaGraphExecUpdate(exec, g1, &info));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  e2e::expect(check_output(host, in, 4, 0), "cudaGraphNodeSetParams + update (x4)");

  CHECK(cudaGraphExecDestroy(exec));
  for (cudaGraph_t g : {g1, g2, g3, g4})
    CHECK(cudaGraphDestroy(g));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFreeHost(host));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
