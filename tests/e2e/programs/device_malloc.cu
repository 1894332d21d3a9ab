// Device-side dynamic memory: malloc/free and new/delete in kernels after raising
// cudaLimitMallocHeapSize, allocations that outlive the kernel that made them (freed by a later
// kernel), and a request larger than the heap returning NULL.
#include "e2e_common.h"

#include <vector>

struct Node {
  int value;
  Node* next;
};

// Every thread allocates (tid % 16 + 1) ints, fills them, sums them and frees them.
__global__ void per_thread(long long* sums, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n)
    return;
  int len = tid % 16 + 1;
  int* buf = static_cast<int*>(malloc(len * sizeof(int)));
  if (buf == nullptr) {
    sums[tid] = -1;
    return;
  }
  for (int i = 0; i < len; ++i)
    buf[i] = tid + i;
  long long s = 0;
  for (int i = 0; i < len; ++i)
    s += buf[i];
  free(buf);
  sums[tid] = s;
}

// One linked list per block built with new, kept alive across kernels.
__global__ void build_lists(Node** heads, int length) {
  if (threadIdx.x != 0)
    return;
  Node* head = nullptr;
  for (int i = 0; i < length; ++i) {
    Node* node = new Node;
    if (node == nullptr)
      break;
    node->value = static_cast<int>(blockIdx.x) * 1000 + i;
    node->next = head;
    head = node;
  }
  heads[blockIdx.x] = head;
}

__global__ void consume_lists(Node** heads, long long* sums, int* lengths) {
  if (threadIdx.x != 0)
    return;
  long long s = 0;
  int len = 0;
  Node* node = heads[blockIdx.x];
  while (node != nullptr) {
    Node* next = node->next;
    s += node->value;
    ++len;
    delete node;
    node = next;
  }
  sums[blockIdx.x] = s;
  lengths[blockIdx.x] = len;
}

__global__ void too_big(int* result) {
  void* p = malloc(size_t(1) << 40); // 1 TiB: more than any heap
  *result = p == nullptr ? 1 : 0;
  free(p);
}

int main() {
  size_t heap = 0;
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, size_t(64) << 20));
  CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  std::printf("heap >= 64 MiB: %s\n", heap >= (size_t(64) << 20) ? "yes" : "no");

  const int n = 8192;
  long long* sums = nullptr;
  CHECK(cudaMalloc(&sums, n * sizeof(long long)));
  per_thread<<<n / 256, 256>>>(sums, n);
  CHECK_LAUNCH();
  std::vector<long long> h(n);
  CHECK(cudaMemcpy(h.data(), sums, n * sizeof(long long), cudaMemcpyDeviceToHost));
  bool ok = true;
  long long total = 0;
  for (int t = 0; t < n; ++t) {
    long long len = t % 16 + 1;
    ok = ok && h[t] == len * t + len * (len - 1) / 2;
    total += h[t];
  }
  std::printf("per-thread malloc/free: total %lld\n", total);
  e2e::expect(ok, "per-thread malloc/free");

  const int blocks = 32, length = 50;
  Node** heads = nullptr;
  int* lengths = nullptr;
  CHECK(cudaMalloc(&heads, blocks * sizeof(Node*)));
  CHECK(cudaMalloc(&lengths, blocks * sizeof(int)));
  build_lists<<<blocks, 32>>>(heads, length);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());
  consume_lists<<<blocks, 32>>>(heads, sums, lengths); // a later kernel frees the nodes
  CHECK_LAUNCH();
  std::vector<int> hl(blocks);
  CHECK(cudaMemcpy(h.data(), sums, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hl.data(), lengths, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  ok = true;
  for (int b = 0; b < blocks; ++b)
    ok = ok && hl[b] == length &&
         h[b] == static_cast<long long>(b) * 1000 * length + length * (length - 1) / 2;
  e2e::expect(ok, "new/delete across kernels");

  int* flag = nullptr;
  CHECK(cudaMallocManaged(&flag, sizeof(int)));
  *flag = -1;
  too_big<<<1, 1>>>(flag);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());
  std::printf("malloc(1 TiB) on the device returned NULL: %s\n", *flag == 1 ? "yes" : "no");
  e2e::expect(*flag == 1, "oversized device malloc fails cleanly");

  CHECK(cudaFree(flag));
  CHECK(cudaFree(heads));
  CHECK(cudaFree(lengths));
  CHECK(cudaFree(sums));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
