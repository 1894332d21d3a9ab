// Analytic kernel in CUDA graphs (issue 14): the counted loop of analytic_loop.cu as kernel nodes
// of an explicit graph (launched twice), after cudaGraphExecKernelNodeSetParams, after
// cudaGraphExecUpdate, in a stream-captured graph, in a child graph and in the body of an IF
// conditional node whose condition is 1 at every launch.
//
// ANALYTIC COUNTS, per node launch: grid (G,1,1), block (64,1,1) = 64 G threads, trips T:
//   ENTRY = EXIT = 64 G, BODY = 64 G T (warps: 2 G, 2 G T, 2 G).
// Every node launch has its own grid size, so that its counts name it: the instrumented run must
// give each node launch its own profile with exactly these counts.
//
//   graph                     | node launches (G, T)
//   explicit, launch 1        | (1, 4), (2, 6)
//   explicit, launch 2        | (1, 4), (2, 6)
//   exec node set params      | (1, 4), (3, 5)       the second node's grid and trips changed
//   exec update               | (4, 2), (5, 7)       from a graph of the same shape
//   captured                  | (6, 3)
//   child graph               | (7, 2)
//   IF body (condition 1)     | (8, 9)
//
// The kernel records, per thread, how many times it ran the body; the host checks those counts and
// the computed values against the formulas above.
#include "e2e_common.h"

#include <vector>

__global__ void counted_loop(unsigned* values, int* body_runs, int trips) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x; // ENTRY
  unsigned acc = static_cast<unsigned>(tid);
  int runs = 0;
#pragma unroll 1
  for (int i = 0; i < trips; ++i) { // BODY
    acc = acc * 2654435761u + static_cast<unsigned>(i);
    ++runs;
  }
  values[tid] = acc; // EXIT
  body_runs[tid] = runs;
}

namespace {

constexpr int kBlock = 64, kMaxCtas = 8;

/// One node's launch: its own slice of the output arrays, so that nodes do not overwrite each
/// other.
struct NodeLaunch {
  int ctas = 1;
  int trips = 0;
  int slot = 0; ///< offset in CTAs into the arrays
  unsigned* values = nullptr;
  int* runs = nullptr;
  void* args[3] = {};

  void bind(unsigned* allValues, int* allRuns) {
    values = allValues + slot * kBlock;
    runs = allRuns + slot * kBlock;
    args[0] = &values;
    args[1] = &runs;
    args[2] = &trips;
  }
  cudaKernelNodeParams params() {
    cudaKernelNodeParams p = {};
    p.func = reinterpret_cast<void*>(counted_loop);
    p.gridDim = dim3(ctas);
    p.blockDim = dim3(kBlock);
    p.kernelParams = args;
    return p;
  }
};

unsigned* gValues = nullptr;
int* gRuns = nullptr;

/// Prints the expected counts of `node`'s launch and checks what it computed.
void check(const char* where, const NodeLaunch& node) {
  const int threads = node.ctas * kBlock, warps = threads / 32;
  std::vector<unsigned> v(threads);
  std::vector<int> r(threads);
  CHECK(cudaMemcpy(v.data(), node.values, threads * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(r.data(), node.runs, threads * sizeof(int), cudaMemcpyDeviceToHost));
  long long body = 0;
  bool ok = true;
  for (int t = 0; t < threads; ++t) {
    unsigned acc = static_cast<unsigned>(t);
    for (int i = 0; i < node.trips; ++i)
      acc = acc * 2654435761u + static_cast<unsigned>(i);
    ok = ok && v[t] == acc;
    body += r[t];
  }
  std::printf("%s: grid %d trips=%d expected ENTRY=%d BODY=%d EXIT=%d (warps %d/%d/%d); measured "
              "BODY=%lld\n",
              where, node.ctas, node.trips, threads, threads * node.trips, threads, warps,
              warps * node.trips, warps, body);
  e2e::expect(ok && body == static_cast<long long>(threads) * node.trips,
              "loop values and body count");
}

cudaGraphNode_t addNode(cudaGraph_t graph, NodeLaunch& node, cudaGraphNode_t after = nullptr) {
  node.bind(gValues, gRuns);
  cudaKernelNodeParams p = node.params();
  cudaGraphNode_t added = nullptr;
  CHECK(cudaGraphAddKernelNode(&added, graph, after ? &after : nullptr, after ? 1 : 0, &p));
  return added;
}

void launch(cudaGraphExec_t exec, cudaStream_t stream) {
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
}

} // namespace

int main() {
  // Slots: every node of a graph writes its own CTAs' worth of the arrays.
  const int slots = 4 * kMaxCtas;
  CHECK(cudaMalloc(&gValues, slots * kBlock * sizeof(unsigned)));
  CHECK(cudaMalloc(&gRuns, slots * kBlock * sizeof(int)));
  cudaStream_t stream = nullptr;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::printf("analytic_graph: block (%d,1,1)\n", kBlock);

  // ---- Explicit graph, launched twice; then its second node changed; then updated ----
  {
    NodeLaunch first{1, 4, 0}, second{2, 6, kMaxCtas};
    cudaGraph_t graph = nullptr;
    CHECK(cudaGraphCreate(&graph, 0));
    cudaGraphNode_t a = addNode(graph, first);
    cudaGraphNode_t b = addNode(graph, second, a);
    cudaGraphExec_t exec = nullptr;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int round = 1; round <= 2; ++round) {
      launch(exec, stream);
      check(round == 1 ? "explicit launch 1 node 1" : "explicit launch 2 node 1", first);
      check(round == 1 ? "explicit launch 1 node 2" : "explicit launch 2 node 2", second);
    }
    second.ctas = 3;
    second.trips = 5;
    second.bind(gValues, gRuns);
    cudaKernelNodeParams changed = second.params();
    CHECK(cudaGraphExecKernelNodeSetParams(exec, b, &changed));
    launch(exec, stream);
    check("set params node 1", first);
    check("set params node 2", second);

    NodeLaunch third{4, 2, 2 * kMaxCtas}, fourth{5, 7, 3 * kMaxCtas};
    cudaGraph_t next = nullptr;
    CHECK(cudaGraphCreate(&next, 0));
    cudaGraphNode_t c = addNode(next, third);
    addNode(next, fourth, c);
    cudaGraphExecUpdateResultInfo info = {};
    CHECK(cudaGraphExecUpdate(exec, next, &info));
    launch(exec, stream);
    check("updated node 1", third);
    check("updated node 2", fourth);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(next));
    CHECK(cudaGraphDestroy(graph));
  }

  // ---- Captured graph ----
  {
    NodeLaunch node{6, 3, 0};
    node.bind(gValues, gRuns);
    cudaGraph_t graph = nullptr;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    counted_loop<<<node.ctas, kBlock, 0, stream>>>(node.values, node.runs, node.trips);
    CHECK_LAUNCH();
    CHECK(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec = nullptr;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    launch(exec, stream);
    check("captured", node);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
  }

  // ---- A child graph, then an IF node whose body runs at every launch ----
  {
    NodeLaunch inChild{7, 2, 0}, inBody{8, 9, kMaxCtas};
    cudaGraph_t child = nullptr, graph = nullptr;
    CHECK(cudaGraphCreate(&child, 0));
    addNode(child, inChild);
    CHECK(cudaGraphCreate(&graph, 0));
    cudaGraphNode_t embedded = nullptr;
    CHECK(cudaGraphAddChildGraphNode(&embedded, graph, nullptr, 0, child));
    cudaGraphConditionalHandle handle;
    CHECK(cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = handle;
    cp.conditional.type = cudaGraphCondTypeIf;
    cp.conditional.size = 1;
    cudaGraphNode_t conditional = nullptr;
    CHECK(cudaGraphAddNode(&conditional, graph, &embedded, nullptr, 1, &cp));
    addNode(cp.conditional.phGraph_out[0], inBody);
    cudaGraphExec_t exec = nullptr;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    launch(exec, stream);
    check("child graph", inChild);
    check("if body", inBody);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaGraphDestroy(child));
  }

  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(gValues));
  CHECK(cudaFree(gRuns));
  return e2e::finish();
}
