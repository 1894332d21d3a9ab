// Irregular, data-dependent code: level-synchronous BFS over a CSR graph with a shared-memory
// frontier queue and warp-aggregated enqueues, connected components by label propagation with
// atomicMin, and PageRank-style pull iterations with atomics on doubles.
#include <cstdint>

__global__ void bfsLevel(const int* rowOffsets, const int* columns, int* distances,
                         const int* frontier, int frontierSize, int* nextFrontier, int* nextSize,
                         int level) {
  __shared__ int localQueue[1024];
  __shared__ int localCount, globalBase;
  if (threadIdx.x == 0)
    localCount = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < frontierSize) {
    int v = frontier[i];
    for (int e = rowOffsets[v]; e < rowOffsets[v + 1]; ++e) {
      int u = columns[e];
      if (atomicCAS(&distances[u], -1, level + 1) == -1) {
        unsigned active = __activemask();
        int leader = __ffs(active) - 1;
        int rank = __popc(active & ((1u << (threadIdx.x & 31)) - 1));
        int base = 0;
        if ((threadIdx.x & 31) == leader)
          base = atomicAdd(&localCount, __popc(active));
        base = __shfl_sync(active, base, leader);
        if (base + rank < 1024)
          localQueue[base + rank] = u;
        else
          nextFrontier[atomicAdd(nextSize, 1)] = u;
      }
    }
  }
  __syncthreads();
  int count = min(localCount, 1024);
  if (threadIdx.x == 0)
    globalBase = atomicAdd(nextSize, count);
  __syncthreads();
  for (int k = threadIdx.x; k < count; k += blockDim.x)
    nextFrontier[globalBase + k] = localQueue[k];
}

__global__ void labelPropagation(const int* rowOffsets, const int* columns, int* labels,
                                 int vertices, int* changed) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= vertices)
    return;
  int best = labels[v];
  for (int e = rowOffsets[v]; e < rowOffsets[v + 1]; ++e)
    best = min(best, labels[columns[e]]);
  if (best < labels[v]) {
    atomicMin(&labels[v], best);
    *changed = 1;
  }
}

__global__ void pageRankPull(const int* rowOffsets, const int* columns, const int* outDegree,
                             const double* rank, double* nextRank, double* residual, int vertices,
                             double damping) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= vertices)
    return;
  double sum = 0.0;
  for (int e = rowOffsets[v]; e < rowOffsets[v + 1]; ++e) {
    int u = columns[e];
    sum += rank[u] / max(outDegree[u], 1);
  }
  double value = (1.0 - damping) / vertices + damping * sum;
  nextRank[v] = value;
  atomicAdd(residual, fabs(value - rank[v]));
}
