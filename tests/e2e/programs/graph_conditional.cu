// Conditional graph nodes (CUDA 12.4+): cudaGraphConditionalHandleCreate, cudaGraphAddNode with
// cudaGraphNodeParams of type cudaGraphNodeTypeConditional for a WHILE loop whose body kernel
// decides (cudaGraphSetConditional on the device) whether to run again, an IF node with an ELSE
// branch (size 2), and a SWITCH node; each graph is launched several times with different inputs.
#include "e2e_common.h"

// While body: one step of a countdown; continue while the counter is positive.
__global__ void countdown_step(cudaGraphConditionalHandle handle, int* counter, int* steps) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    int c = *counter - 1;
    *counter = c;
    *steps += 1;
    cudaGraphSetConditional(handle, c > 0 ? 1u : 0u);
  }
}

// Sets a condition from device data (used before IF and SWITCH nodes).
__global__ void set_condition(cudaGraphConditionalHandle handle, const int* value) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    cudaGraphSetConditional(handle, static_cast<unsigned>(*value));
}

__global__ void write_tag(int* out, int tag) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    *out = tag;
}

static cudaGraphNode_t add_kernel(cudaGraph_t g, const cudaGraphNode_t* deps, size_t ndeps,
                                  void* func, void** args) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeKernel;
  p.kernel.func = func;
  p.kernel.gridDim = dim3(1);
  p.kernel.blockDim = dim3(32);
  p.kernel.kernelParams = args;
  cudaGraphNode_t node = nullptr;
  CHECK(cudaGraphAddNode(&node, g, deps, nullptr, ndeps, &p));
  return node;
}

int main() {
  int* d = nullptr; // [0] counter, [1] steps, [2] selector, [3] tag
  CHECK(cudaMalloc(&d, 4 * sizeof(int)));
  int* counter = d;
  int* steps = d + 1;
  int* selector = d + 2;
  int* tag = d + 3;
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  // ---- WHILE ----
  {
    cudaGraph_t g = nullptr;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle h;
    // Default value 1 at every launch: the body runs at least once.
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = h;
    cp.conditional.type = cudaGraphCondTypeWhile;
    cp.conditional.size = 1;
    cudaGraphNode_t cond = nullptr;
    CHECK(cudaGraphAddNode(&cond, g, nullptr, nullptr, 0, &cp));
    cudaGraph_t body = cp.conditional.phGraph_out[0];
    void* args[] = {&h, &counter, &steps};
    add_kernel(body, nullptr, 0, reinterpret_cast<void*>(countdown_step), args);
    cudaGraphExec_t exec = nullptr;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    for (int start : {5, 1, 17}) {
      int init[2] = {start, 0};
      CHECK(cudaMemcpyAsync(d, init, sizeof init, cudaMemcpyHostToDevice, s));
      CHECK(cudaGraphLaunch(exec, s));
      int out[2];
      CHECK(cudaMemcpyAsync(out, d, sizeof out, cudaMemcpyDeviceToHost, s));
      CHECK(cudaStreamSynchronize(s));
      std::printf("while loop from %d: counter %d, body ran %d times\n", start, out[0], out[1]);
      e2e::expect(out[0] == 0 && out[1] == start, "while node iterations");
    }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
  }

  // ---- IF / ELSE ----
  {
    cudaGraph_t g = nullptr;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle h;
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    void* set_args[] = {&h, &selector};
    cudaGraphNode_t setter =
        add_kernel(g, nullptr, 0, reinterpret_cast<void*>(set_condition), set_args);
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = h;
    cp.conditional.type = cudaGraphCondTypeIf;
    cp.conditional.size = 2;
    cudaGraphNode_t cond = nullptr;
    CHECK(cudaGraphAddNode(&cond, g, &setter, nullptr, 1, &cp));
    int then_tag = 111, else_tag = 222;
    void* then_args[] = {&tag, &then_tag};
    void* else_args[] = {&tag, &else_tag};
    add_kernel(cp.conditional.phGraph_out[0], nullptr, 0, reinterpret_cast<void*>(write_tag),
               then_args);
    add_kernel(cp.conditional.phGraph_out[1], nullptr, 0, reinterpret_cast<void*>(write_tag),
               else_args);
    cudaGraphExec_t exec = nullptr;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    for (int sel : {1, 0, 7}) {
      int init[2] = {sel, -1};
      CHECK(cudaMemcpyAsync(d + 2, init, sizeof init, cudaMemcpyHostToDevice, s));
      CHECK(cudaGraphLaunch(exec, s));
      int out = 0;
      CHECK(cudaMemcpyAsync(&out, tag, sizeof out, cudaMemcpyDeviceToHost, s));
      CHECK(cudaStreamSynchronize(s));
      std::printf("if/else with condition %d: tag %d\n", sel, out);
      e2e::expect(out == (sel ? 111 : 222), "if/else branch");
    }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
  }

  // ---- SWITCH ----
  {
    cudaGraph_t g = nullptr;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle h;
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    void* set_args[] = {&h, &selector};
    cudaGraphNode_t setter =
        add_kernel(g, nullptr, 0, reinterpret_cast<void*>(set_condition), set_args);
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = h;
    cp.conditional.type = cudaGraphCondTypeSwitch;
    cp.conditional.size = 3;
    cudaGraphNode_t cond = nullptr;
    CHECK(cudaGraphAddNode(&cond, g, &setter, nullptr, 1, &cp));
    int tags[3] = {1000, 1001, 1002};
    void* case_args[3][2] = {{&tag, &tags[0]}, {&tag, &tags[1]}, {&tag, &tags[2]}};
    for (int c = 0; c < 3; ++c)
      add_kernel(cp.conditional.phGraph_out[c], nullptr, 0, reinterpret_cast<void*>(write_tag),
                 case_args[c]);
    cudaGraphExec_t exec = nullptr;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    for (int sel : {2, 0, 1, 5}) {
      int init[2] = {sel, -1};
      CHECK(cudaMemcpyAsync(d + 2, init, sizeof init, cudaMemcpyHostToDevice, s));
      CHECK(cudaGraphLaunch(exec, s));
      int out = 0;
      CHECK(cudaMemcpyAsync(&out, tag, sizeof out, cudaMemcpyDeviceToHost, s));
      CHECK(cudaStreamSynchronize(s));
      std::printf("switch on %d: tag %d\n", sel, out);
      e2e::expect(out == (sel < 3 ? 1000 + sel : -1), "switch case");
    }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
  }

  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
