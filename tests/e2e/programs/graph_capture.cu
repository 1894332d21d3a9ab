// CUDA graphs by stream capture: cudaStreamBeginCapture / EndCapture across two streams (event
// fork and join), capturing memset, memcpy (HtoD, DtoH), kernel, host-function, and stream-ordered
// allocation (cudaMallocAsync / cudaFreeAsync -> mem alloc / free nodes); cudaStreamIsCapturing,
// cudaStreamGetCaptureInfo, node-type histogram and edge count, cudaGraphInstantiate,
// cudaGraphUpload, repeated cudaGraphLaunch with new inputs, and thread-local capture mode.
#include "e2e_common.h"

#include <map>
#include <string>
#include <vector>

__global__ void square_plus(const int* in, int* out, int n, int plus) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * in[i] + plus;
}

__global__ void add_into(int* acc, const int* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    acc[i] += x[i];
}

static int g_host_calls = 0;
static void CUDART_CB count_call(void*) {
  ++g_host_calls;
}

static const char* node_type_name(cudaGraphNodeType t) {
  switch (t) {
  case cudaGraphNodeTypeKernel:
    return "kernel";
  case cudaGraphNodeTypeMemcpy:
    return "memcpy";
  case cudaGraphNodeTypeMemset:
    return "memset";
  case cudaGraphNodeTypeHost:
    return "host";
  case cudaGraphNodeTypeGraph:
    return "graph";
  case cudaGraphNodeTypeEmpty:
    return "empty";
  case cudaGraphNodeTypeWaitEvent:
    return "wait-event";
  case cudaGraphNodeTypeEventRecord:
    return "event-record";
  case cudaGraphNodeTypeMemAlloc:
    return "mem-alloc";
  case cudaGraphNodeTypeMemFree:
    return "mem-free";
  case cudaGraphNodeTypeConditional:
    return "conditional";
  default:
    return "other";
  }
}

int main() {
  const int n = 50000;
  int* h_in = nullptr;
  int* h_out = nullptr;
  CHECK(cudaMallocHost(&h_in, n * sizeof(int)));
  CHECK(cudaMallocHost(&h_out, n * sizeof(int)));
  int *d_in = nullptr, *d_acc = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_acc, n * sizeof(int)));

  cudaStream_t s, side;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
  cudaEvent_t fork, join;
  CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));

  cudaStreamCaptureStatus st = cudaStreamCaptureStatusActive;
  CHECK(cudaStreamIsCapturing(s, &st));
  std::printf("before capture: %d\n", static_cast<int>(st));

  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaStreamIsCapturing(s, &st));
  unsigned long long capture_id = 0;
  CHECK(cudaStreamGetCaptureInfo(s, &st, &capture_id));
  std::printf("during capture: status %d, id nonzero %s\n", static_cast<int>(st),
              capture_id ? "yes" : "no");

  // main stream: memset the accumulator, copy the input in
  CHECK(cudaMemsetAsync(d_acc, 0, n * sizeof(int), s));
  CHECK(cudaMemcpyAsync(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice, s));
  // fork: the side stream computes squares into a graph-allocated temporary
  CHECK(cudaEventRecord(fork, s));
  CHECK(cudaStreamWaitEvent(side, fork, 0));
  int* tmp = nullptr;
  CHECK(cudaMallocAsync(&tmp, n * sizeof(int), side));
  square_plus<<<(n + 255) / 256, 256, 0, side>>>(d_in, tmp, n, 1);
  CHECK_LAUNCH();
  CHECK(cudaEventRecord(join, side));
  // main stream, concurrently: acc += in
  add_into<<<(n + 255) / 256, 256, 0, s>>>(d_acc, d_in, n);
  CHECK_LAUNCH();
  // join: acc += tmp, free tmp, copy out, host node
  CHECK(cudaStreamWaitEvent(s, join, 0));
  add_into<<<(n + 255) / 256, 256, 0, s>>>(d_acc, tmp, n);
  CHECK_LAUNCH();
  CHECK(cudaFreeAsync(tmp, s));
  CHECK(cudaMemcpyAsync(h_out, d_acc, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaLaunchHostFunc(s, count_call, nullptr));

  cudaGraph_t graph = nullptr;
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaStreamIsCapturing(s, &st));
  std::printf("after capture: %d\n", static_cast<int>(st));

  size_t num_nodes = 0, num_edges = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &num_nodes));
  std::vector<cudaGraphNode_t> nodes(num_nodes);
  CHECK(cudaGraphGetNodes(graph, nodes.data(), &num_nodes));
  CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &num_edges));
  std::map<std::string, int> hist;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(node, &t));
    hist[node_type_name(t)]++;
  }
  std::printf("captured graph: %zu nodes, %zu edges;", num_nodes, num_edges);
  for (const auto& kv : hist)
    std::printf(" %s=%d", kv.first.c_str(), kv.second);
  std::printf("\n");
  size_t roots = 0;
  CHECK(cudaGraphGetRootNodes(graph, nullptr, &roots));
  std::printf("root nodes: %zu\n", roots);

  cudaGraphExec_t exec = nullptr;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphUpload(exec, s));
  for (int launch = 0; launch < 3; ++launch) {
    for (int i = 0; i < n; ++i)
      h_in[i] = (i % 1000) - 500 + launch;
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    bool ok = true;
    for (int i = 0; i < n; ++i) {
      int x = (i % 1000) - 500 + launch;
      ok = ok && h_out[i] == x + x * x + 1;
    }
    char what[64];
    std::snprintf(what, sizeof what, "graph launch %d", launch);
    e2e::expect(ok, what);
    std::printf("launch %d checksum: %016llx\n", launch,
                (unsigned long long)e2e::fnv1a(h_out, n * sizeof(int)));
  }
  std::printf("host node calls: %d\n", g_host_calls);

  // Thread-local capture mode on a blocking stream, launched on the legacy stream.
  cudaStream_t tl;
  CHECK(cudaStreamCreate(&tl));
  CHECK(cudaStreamBeginCapture(tl, cudaStreamCaptureModeThreadLocal));
  add_into<<<(n + 255) / 256, 256, 0, tl>>>(d_acc, d_acc, n); // doubles acc
  CHECK_LAUNCH();
  cudaGraph_t g2 = nullptr;
  CHECK(cudaStreamEndCapture(tl, &g2));
  cudaGraphExec_t e2 = nullptr;
  CHECK(cudaGraphInstantiate(&e2, g2, 0));
  CHECK(cudaGraphLaunch(e2, 0));
  CHECK(cudaGraphLaunch(e2, 0));
  CHECK(cudaMemcpy(h_out, d_acc, n * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    int x = (i % 1000) - 500 + 2;
    ok = ok && h_out[i] == 4 * (x + x * x + 1);
  }
  e2e::expect(ok, "thread-local capture launched twice on the NULL stream");

  CHECK(cudaGraphExecDestroy(e2));
  CHECK(cudaGraphDestroy(g2));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(tl));
  CHECK(cudaEventDestroy(fork));
  CHECK(cudaEventDestroy(join));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaStreamDestroy(side));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_acc));
  CHECK(cudaFreeHost(h_in));
  CHECK(cudaFreeHost(h_out));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
