// The device heap: malloc/free, operator new/delete (scalar and array), a per-block linked
// list built from heap nodes, and memcpy/memset on heap memory.
#include <cstdint>
#include <cstring>

struct Node {
  int value;
  Node* next;
};

__global__ void mallocFree(int n, int* out) {
  int* buffer = static_cast<int*>(malloc(n * sizeof(int)));
  if (buffer == nullptr) {
    out[threadIdx.x] = -1;
    return;
  }
  for (int k = 0; k < n; ++k)
    buffer[k] = k * static_cast<int>(threadIdx.x);
  int sum = 0;
  for (int k = 0; k < n; ++k)
    sum += buffer[k];
  free(buffer);
  out[threadIdx.x] = sum;
}

__global__ void newDelete(int depth, int* out) {
  __shared__ Node* head;
  if (threadIdx.x == 0) {
    head = nullptr;
    for (int k = 0; k < depth; ++k) {
      Node* node = new Node{k, head};
      head = node;
    }
  }
  __syncthreads();
  int sum = 0;
  for (Node* node = head; node != nullptr; node = node->next)
    sum += node->value;
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    while (head != nullptr) {
      Node* next = head->next;
      delete head;
      head = next;
    }
  }
}

__global__ void arrayNew(int n, double* out) {
  double* values = new double[n];
  for (int k = 0; k < n; ++k)
    values[k] = k * 0.5;
  double* copy = new double[n];
  memcpy(copy, values, n * sizeof(double));
  memset(values, 0, n * sizeof(double));
  double acc = 0;
  for (int k = 0; k < n; ++k)
    acc += copy[k] - values[k];
  delete[] values;
  delete[] copy;
  out[threadIdx.x] = acc;
}

// A heap allocation shared through shared memory and released by one thread.
__global__ void sharedHeapBuffer(size_t bytes, uint8_t* out) {
  __shared__ uint8_t* block;
  if (threadIdx.x == 0)
    block = static_cast<uint8_t*>(malloc(bytes));
  __syncthreads();
  if (block == nullptr)
    return;
  for (size_t k = threadIdx.x; k < bytes; k += blockDim.x)
    block[k] = static_cast<uint8_t>(k ^ blockIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = block[(threadIdx.x * 7) % bytes];
  __syncthreads();
  if (threadIdx.x == 0)
    free(block);
}
