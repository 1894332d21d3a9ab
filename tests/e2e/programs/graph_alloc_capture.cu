// Two graph shapes that public sample programs use (issue 14, bugs 1 and 2):
//   1. an explicit graph whose 1D copy nodes read and write the memory of a mem-alloc node they
//      depend on (cudaGraphAddMemcpyNode1D after cudaGraphAddMemAllocNode), freed by a mem-free
//      node; launched twice;
//   2. a conditional do-while loop (a WHILE node whose handle defaults to 1) whose body graph is
//      built by stream capture into it (cudaStreamBeginCaptureToGraph, then cudaStreamEndCapture
//      with no graph to return, as the CUDA samples call it).
#include "e2e_common.h"

constexpr int kN = 256;

__global__ void scale(int* data, int n, int factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= factor;
}

// One iteration of the loop body: count down, continue while positive.
__global__ void countdown(cudaGraphConditionalHandle handle, int* counter, int* steps) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    int c = *counter - 1;
    *counter = c;
    *steps += 1;
    cudaGraphSetConditional(handle, c > 0 ? 1u : 0u);
  }
}

static void allocCopyGraph(cudaStream_t stream) {
  static int input[kN], output[kN];
  for (int i = 0; i < kN; ++i)
    input[i] = i - 100;
  cudaGraph_t graph = nullptr;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaMemAllocNodeParams alloc = {};
  alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  alloc.poolProps.location.id = 0;
  alloc.bytesize = kN * sizeof(int);
  cudaGraphNode_t allocNode = nullptr, toDevice = nullptr, kernel = nullptr, toHost = nullptr,
                  freeNode = nullptr;
  CHECK(cudaGraphAddMemAllocNode(&allocNode, graph, nullptr, 0, &alloc));
  int* data = static_cast<int*>(alloc.dptr);
  CHECK(cudaGraphAddMemcpyNode1D(&toDevice, graph, &allocNode, 1, data, input, sizeof input,
                                 cudaMemcpyHostToDevice));
  int n = kN, factor = 3;
  void* args[] = {&data, &n, &factor};
  cudaKernelNodeParams params = {};
  params.func = reinterpret_cast<void*>(scale);
  params.gridDim = dim3((kN + 127) / 128);
  params.blockDim = dim3(128);
  params.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&kernel, graph, &toDevice, 1, &params));
  CHECK(cudaGraphAddMemcpyNode1D(&toHost, graph, &kernel, 1, output, data, sizeof output,
                                 cudaMemcpyDeviceToHost));
  CHECK(cudaGraphAddMemFreeNode(&freeNode, graph, &toHost, 1, data));
  cudaGraphExec_t exec = nullptr;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int round = 0; round < 2; ++round) {
    std::memset(output, 0, sizeof output);
    CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    long long sum = 0;
    bool exact = true;
    for (int i = 0; i < kN; ++i) {
      sum += output[i];
      exact = exact && output[i] == 3 * input[i];
    }
    std::printf("alloc/copy graph launch %d: sum %lld\n", round, sum);
    e2e::expect(exact, "copies through a graph allocation");
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
}

static void capturedDoWhile(cudaStream_t stream) {
  int* d = nullptr; // [0] counter, [1] steps
  CHECK(cudaMalloc(&d, 2 * sizeof(int)));
  int* counter = d;
  int* steps = d + 1;
  cudaGraph_t graph = nullptr;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle handle;
  CHECK(cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams cp = {};
  cp.type = cudaGraphNodeTypeConditional;
  cp.conditional.handle = handle;
  cp.conditional.type = cudaGraphCondTypeWhile;
  cp.conditional.size = 1;
  cudaGraphNode_t loop = nullptr;
  CHECK(cudaGraphAddNode(&loop, graph, nullptr, nullptr, 0, &cp));
  cudaGraph_t body = cp.conditional.phGraph_out[0];
  // The body, captured from a stream into the conditional node's graph.
  cudaStream_t capture = nullptr;
  CHECK(cudaStreamCreateWithFlags(&capture, cudaStreamNonBlocking));
  CHECK(cudaStreamBeginCaptureToGraph(capture, body, nullptr, nullptr, 0,
                                      cudaStreamCaptureModeRelaxed));
  countdown<<<1, 32, 0, capture>>>(handle, counter, steps);
  CHECK_LAUNCH();
  // Into the caller's graph there is nothing to hand back: the samples pass no graph here.
  CHECK(cudaStreamEndCapture(capture, nullptr));
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(body, nullptr, &nodes));
  e2e::expect(nodes >= 1, "the captured kernel is in the body");
  cudaGraphExec_t exec = nullptr;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int start : {4, 1, 9}) {
    int init[2] = {start, 0};
    CHECK(cudaMemcpyAsync(d, init, sizeof init, cudaMemcpyHostToDevice, stream));
    CHECK(cudaGraphLaunch(exec, stream));
    int out[2];
    CHECK(cudaMemcpyAsync(out, d, sizeof out, cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    std::printf("do-while from %d: counter %d, body ran %d times\n", start, out[0], out[1]);
    e2e::expect(out[0] == 0 && out[1] == start, "captured do-while iterations");
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(capture));
  CHECK(cudaFree(d));
}

int main() {
  cudaStream_t stream = nullptr;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  allocCopyGraph(stream);
  capturedDoWhile(stream);
  CHECK(cudaStreamDestroy(stream));
  return e2e::finish();
}
