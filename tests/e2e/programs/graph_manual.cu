// Graphs built by hand: cudaGraphCreate, cudaGraphAddMemsetNode, cudaGraphAddMemcpyNode1D,
// cudaGraphAddKernelNode, cudaGraphAddHostNode, cudaGraphAddChildGraphNode, cudaGraphAddEmptyNode,
// cudaGraphAddEventRecordNode, cudaGraphAddNode with cudaGraphNodeParams (kernel type),
// cudaGraphAddDependencies, root/dependency queries, cudaGraphKernelNodeGetParams,
// cudaGraphClone + cudaGraphNodeFindInClone, cudaGraphInstantiateWithFlags, cudaGraphExecGetFlags,
// cudaGraphExecKernelNodeSetParams and cudaGraphExecMemsetNodeSetParams between launches,
// cudaGraphNodeSetEnabled on a kernel node, cudaGraphDebugDotPrint (to a temporary file that is
// then removed).
#include "e2e_common.h"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

__global__ void fill_affine(int* p, int n, int a, int b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = a * i + b;
}

__global__ void add_to(int* dst, const int* src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] += src[i];
}

__global__ void negate(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = -p[i];
}

static int g_host_runs = 0;
static void CUDART_CB host_mark(void* user) {
  g_host_runs += *static_cast<int*>(user);
}

int main() {
  const int n = 8192;
  int *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  // Page-locked host buffers for the graph's memcpy nodes.
  int *h_init = nullptr, *h_out = nullptr;
  CHECK(cudaMallocHost(&h_init, n * sizeof(int)));
  CHECK(cudaMallocHost(&h_out, n * sizeof(int)));
  for (int i = 0; i < n; ++i)
    h_init[i] = i % 10;

  cudaGraph_t g = nullptr;
  CHECK(cudaGraphCreate(&g, 0));

  // memset(a) -> kernel fill_affine(b) ; memcpy h_init -> a (after memset) ; add_to(b, a) after
  // both
  cudaMemsetParams ms = {};
  ms.dst = a;
  ms.value = 0;
  ms.elementSize = 4;
  ms.width = n;
  ms.height = 1;
  cudaGraphNode_t n_memset, n_copy_in, n_fill, n_add, n_host, n_child, n_empty, n_record,
      n_copy_out, n_generic;
  CHECK(cudaGraphAddMemsetNode(&n_memset, g, nullptr, 0, &ms));
  CHECK(cudaGraphAddMemcpyNode1D(&n_copy_in, g, &n_memset, 1, a, h_init, n * sizeof(int),
                                 cudaMemcpyHostToDevice));

  int count = n, ka = 3, kb = 7;
  void* fill_args[] = {&b, &count, &ka, &kb};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void*>(fill_affine);
  kp.gridDim = dim3((n + 255) / 256);
  kp.blockDim = dim3(256);
  kp.sharedMemBytes = 0;
  kp.kernelParams = fill_args;
  kp.extra = nullptr;
  CHECK(cudaGraphAddKernelNode(&n_fill, g, nullptr, 0, &kp));

  void* add_args[] = {&b, &a, &count};
  cudaKernelNodeParams kp_add = kp;
  kp_add.func = reinterpret_cast<void*>(add_to);
  kp_add.kernelParams = add_args;
  cudaGraphNode_t add_deps[] = {n_copy_in, n_fill};
  CHECK(cudaGraphAddKernelNode(&n_add, g, add_deps, 2, &kp_add));

  // A child graph that negates b, after add.
  cudaGraph_t child = nullptr;
  CHECK(cudaGraphCreate(&child, 0));
  void* neg_args[] = {&b, &count};
  cudaKernelNodeParams kp_neg = kp;
  kp_neg.func = reinterpret_cast<void*>(negate);
  kp_neg.kernelParams = neg_args;
  cudaGraphNode_t n_neg;
  CHECK(cudaGraphAddKernelNode(&n_neg, child, nullptr, 0, &kp_neg));
  CHECK(cudaGraphAddChildGraphNode(&n_child, g, &n_add, 1, child));

  // Host node and an empty join node, an event record node, then the copy out.
  int host_increment = 1;
  cudaHostNodeParams hp = {};
  hp.fn = host_mark;
  hp.userData = &host_increment;
  CHECK(cudaGraphAddHostNode(&n_host, g, &n_add, 1, &hp));
  cudaGraphNode_t join_deps[] = {n_child, n_host};
  CHECK(cudaGraphAddEmptyNode(&n_empty, g, join_deps, 2));
  cudaEvent_t ev;
  CHECK(cudaEventCreate(&ev));
  CHECK(cudaGraphAddEventRecordNode(&n_record, g, &n_empty, 1, ev));
  CHECK(cudaGraphAddMemcpyNode1D(&n_copy_out, g, nullptr, 0, h_out, b, n * sizeof(int),
                                 cudaMemcpyDeviceToHost));
  CHECK(cudaGraphAddDependencies(g, &n_record, &n_copy_out, nullptr, 1));

  // A kernel node through the generic cudaGraphAddNode API: an independent fill of a second
  // half-buffer that nothing reads (it only has to run without error).
  int* spare = nullptr;
  CHECK(cudaMalloc(&spare, n * sizeof(int)));
  int zero = 0, one = 1;
  void* gen_args[] = {&spare, &count, &one, &zero};
  cudaGraphNodeParams np = {};
  np.type = cudaGraphNodeTypeKernel;
  np.kernel.func = reinterpret_cast<void*>(fill_affine);
  np.kernel.gridDim = dim3((n + 255) / 256);
  np.kernel.blockDim = dim3(256);
  np.kernel.kernelParams = gen_args;
  CHECK(cudaGraphAddNode(&n_generic, g, nullptr, nullptr, 0, &np));

  size_t nodes = 0, edges = 0, roots = 0, deps = 0, dependents = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &nodes));
  CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
  CHECK(cudaGraphGetRootNodes(g, nullptr, &roots));
  CHECK(cudaGraphNodeGetDependencies(n_add, nullptr, nullptr, &deps));
  CHECK(cudaGraphNodeGetDependentNodes(n_add, nullptr, nullptr, &dependents));
  std::printf(
      "graph: %zu nodes, %zu edges, %zu roots; add node has %zu dependencies and %zu dependents\n",
      nodes, edges, roots, deps, dependents);

  cudaKernelNodeParams got = {};
  CHECK(cudaGraphKernelNodeGetParams(n_fill, &got));
  std::printf("fill node: func matches %s, grid %u, block %u\n",
              got.func == reinterpret_cast<void*>(fill_affine) ? "yes" : "no", got.gridDim.x,
              got.blockDim.x);

  cudaGraphExec_t exec = nullptr;
  CHECK(cudaGraphInstantiateWithFlags(&exec, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  unsigned long long flags = 0;
  CHECK(cudaGraphExecGetFlags(exec, &flags));
  std::printf("exec flags: %llu\n", flags);

  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && h_out[i] == -(3 * i + 7 + i % 10);
  e2e::expect(ok, "first launch");
  std::printf("event recorded by the graph: %s\n", cudaGetErrorName(cudaEventQuery(ev)));

  // Change the fill kernel's scalars and the memset value in the executable graph only.
  int ka2 = -2, kb2 = 100;
  void* fill_args2[] = {&b, &count, &ka2, &kb2};
  cudaKernelNodeParams kp2 = kp;
  kp2.kernelParams = fill_args2;
  CHECK(cudaGraphExecKernelNodeSetParams(exec, n_fill, &kp2));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && h_out[i] == -(-2 * i + 100 + i % 10);
  e2e::expect(ok, "launch after cudaGraphExecKernelNodeSetParams");

  // Disable the add kernel node (enable/disable applies to kernel, memcpy and memset nodes).
  CHECK(cudaGraphNodeSetEnabled(exec, n_add, 0));
  unsigned enabled = 1;
  CHECK(cudaGraphNodeGetEnabled(exec, n_add, &enabled));
  std::printf("add node enabled: %u\n", enabled);
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && h_out[i] == -(-2 * i + 100);
  e2e::expect(ok, "launch with the add kernel node disabled");
  std::printf("host node runs: %d\n", g_host_runs);

  // Clone: the clone still has the original parameters (3, 7) and an independent topology.
  cudaGraph_t clone = nullptr;
  CHECK(cudaGraphClone(&clone, g));
  cudaGraphNode_t fill_in_clone = nullptr;
  CHECK(cudaGraphNodeFindInClone(&fill_in_clone, n_fill, clone));
  cudaKernelNodeParams cp = {};
  CHECK(cudaGraphKernelNodeGetParams(fill_in_clone, &cp));
  std::printf("clone fill node scalars: %d %d\n", *static_cast<int*>(cp.kernelParams[2]),
              *static_cast<int*>(cp.kernelParams[3]));
  cudaGraphExec_t exec2 = nullptr;
  CHECK(cudaGraphInstantiate(&exec2, clone, 0));
  CHECK(cudaGraphLaunch(exec2, s));
  CHECK(cudaStreamSynchronize(s));
  ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && h_out[i] == -(3 * i + 7 + i % 10);
  e2e::expect(ok, "cloned graph");

  // DOT output: only whether it worked.
  char dot_path[] = "/tmp/ocelot_e2e_graph_XXXXXX";
  int fd = mkstemp(dot_path);
  if (fd >= 0) {
    close(fd);
    cudaError_t e = cudaGraphDebugDotPrint(g, dot_path, cudaGraphDebugDotFlagsVerbose);
    FILE* f = std::fopen(dot_path, "r");
    char first[16] = {0};
    if (f) {
      size_t got_bytes = std::fread(first, 1, 7, f);
      first[got_bytes] = 0;
      std::fclose(f);
    }
    std::printf("cudaGraphDebugDotPrint: %s, starts with \"%s\"\n", cudaGetErrorName(e), first);
    std::remove(dot_path);
  }

  CHECK(cudaGraphExecDestroy(exec2));
  CHECK(cudaGraphDestroy(clone));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaGraphDestroy(child));
  CHECK(cudaEventDestroy(ev));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(spare));
  CHECK(cudaFreeHost(h_init));
  CHECK(cudaFreeHost(h_out));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
