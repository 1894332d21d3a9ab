// Workload: level-synchronous breadth-first search on a pseudo-random graph (100000 vertices, a
// ring plus ~8 random out-edges per vertex, CSR), one kernel launch per level with a frontier flag
// array; a vertex's distance is set with atomicCAS so exactly one parent claims it. Distances are
// unique (shortest path lengths), so the result is deterministic and equals the CPU BFS.
//
// Structure for instrumentation: 391 blocks x 256 threads per level; the `dist == level` test is
// true only for the frontier (highly divergent), the edge loop's trip count is the vertex's degree.
#include "e2e_common.h"

#include <queue>
#include <vector>

__global__ void bfs_level(const int* row_ptr, const int* adj, int* dist, int level, int* changed,
                          int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || dist[v] != level)
    return;
  for (int k = row_ptr[v]; k < row_ptr[v + 1]; ++k) {
    int u = adj[k];
    if (atomicCAS(&dist[u], -1, level + 1) == -1)
      *changed = 1;
  }
}

int main() {
  const int n = 100000;
  e2e::Rng rng(4242);
  std::vector<std::vector<int>> out(n);
  for (int v = 0; v < n; ++v) {
    out[v].push_back((v + 1) % n); // ring: everything is reachable
    int deg = static_cast<int>(rng.next() % 9) + 4;
    for (int k = 0; k < deg; ++k) {
      // Mostly local edges (within +-500) and a few long ones, so the BFS has many levels.
      int u = (rng.next() % 8 == 0) ? static_cast<int>(rng.next() % n)
                                    : (v + static_cast<int>(rng.next() % 1001) - 500 + n) % n;
      out[v].push_back(u);
    }
  }
  std::vector<int> row_ptr(n + 1, 0), adj;
  for (int v = 0; v < n; ++v) {
    adj.insert(adj.end(), out[v].begin(), out[v].end());
    row_ptr[v + 1] = static_cast<int>(adj.size());
  }

  // CPU BFS from vertex 0.
  std::vector<int> ref(n, -1);
  std::queue<int> q;
  ref[0] = 0;
  q.push(0);
  while (!q.empty()) {
    int v = q.front();
    q.pop();
    for (int k = row_ptr[v]; k < row_ptr[v + 1]; ++k)
      if (ref[adj[k]] < 0) {
        ref[adj[k]] = ref[v] + 1;
        q.push(adj[k]);
      }
  }

  int *d_ptr, *d_adj, *d_dist, *d_changed;
  CHECK(cudaMalloc(&d_ptr, (n + 1) * sizeof(int)));
  CHECK(cudaMalloc(&d_adj, adj.size() * sizeof(int)));
  CHECK(cudaMalloc(&d_dist, n * sizeof(int)));
  CHECK(cudaMalloc(&d_changed, sizeof(int)));
  CHECK(cudaMemcpy(d_ptr, row_ptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_adj, adj.data(), adj.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_dist, 0xff, n * sizeof(int))); // -1 everywhere
  CHECK(cudaMemset(d_dist, 0, sizeof(int)));        // source
  int levels = 0;
  for (int level = 0;; ++level) {
    int changed = 0;
    CHECK(cudaMemcpy(d_changed, &changed, sizeof changed, cudaMemcpyHostToDevice));
    bfs_level<<<(n + 255) / 256, 256>>>(d_ptr, d_adj, d_dist, level, d_changed, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(&changed, d_changed, sizeof changed, cudaMemcpyDeviceToHost));
    levels = level + 1;
    if (!changed || level > n)
      break;
  }
  std::vector<int> dist(n);
  CHECK(cudaMemcpy(dist.data(), d_dist, n * sizeof(int), cudaMemcpyDeviceToHost));
  e2e::expect(dist == ref, "BFS distances equal the CPU BFS");
  int maxd = 0;
  long long sum = 0;
  for (int d : dist) {
    maxd = d > maxd ? d : maxd;
    sum += d;
  }
  std::printf("bfs: %d vertices, %zu edges, %d kernel launches, eccentricity of vertex 0: %d, sum "
              "of distances %lld\n",
              n, adj.size(), levels, maxd, sum);
  std::vector<int> per_level(maxd + 1, 0);
  for (int d : dist)
    per_level[d]++;
  std::printf("vertices per level:");
  for (int l = 0; l <= maxd && l < 40; ++l)
    std::printf(" %d", per_level[l]);
  std::printf("\n");
  for (int* p : {d_ptr, d_adj, d_dist, d_changed})
    CHECK(cudaFree(p));
  return e2e::finish();
}
