// Thread block clusters (Hopper): cudaLaunchKernelExC with cudaLaunchAttributeClusterDimension and
// dynamic shared memory, a kernel with compile-time __cluster_dims__ launched with <<<>>>,
// distributed shared memory (cluster.map_shared_rank) with cluster.sync(), and the cluster
// occupancy queries cudaOccupancyMaxPotentialClusterSize / cudaOccupancyMaxActiveClusters.
#include "e2e_common.h"

#include <cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;

// Each block fills its dynamic shared memory with its values; after a cluster barrier every block
// adds the matching element of the next block in the cluster (distributed shared memory).
__global__ void neighbour_sum(const int* in, int* out, int* ranks) {
  extern __shared__ int tile[];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  unsigned size = cluster.num_blocks();
  int t = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + t;
  tile[t] = in[gid];
  cluster.sync();
  int* other = cluster.map_shared_rank(tile, (rank + 1) % size);
  int v = tile[t] + other[t];
  cluster.sync(); // keep the neighbour's shared memory alive until everyone has read it
  out[gid] = v;
  if (t == 0)
    ranks[blockIdx.x] = static_cast<int>(rank * 100 + size);
}

// Cluster shape fixed at compile time: 4 x 1 x 1.
__global__ void __cluster_dims__(4, 1, 1) cluster_rank_static(int* ranks) {
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) {
    dim3 idx = cluster.block_index();
    ranks[blockIdx.x] =
        static_cast<int>(cluster.block_rank() * 1000 + cluster.num_blocks() * 10 + idx.x);
  }
}

int main() {
  int supported = 0;
  CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrClusterLaunch, 0));
  std::printf("cudaDevAttrClusterLaunch: %d\n", supported);

  const int blocks = 64, threads = 128, n = blocks * threads;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = (i * 7919) % 1000;
  int *in = nullptr, *out = nullptr, *ranks = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMalloc(&ranks, blocks * sizeof(int)));
  CHECK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  for (unsigned cluster_x : {2u, 4u, 8u}) {
    cudaLaunchAttribute attr[1] = {};
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = cluster_x;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(threads);
    cfg.dynamicSmemBytes = threads * sizeof(int);
    cfg.stream = 0;
    cfg.attrs = attr;
    cfg.numAttrs = 1;

    int max_cluster = 0, active = 0;
    CHECK(cudaOccupancyMaxPotentialClusterSize(&max_cluster,
                                               reinterpret_cast<const void*>(neighbour_sum), &cfg));
    CHECK(cudaOccupancyMaxActiveClusters(&active, reinterpret_cast<const void*>(neighbour_sum),
                                         &cfg));
    std::printf("cluster %u: max potential cluster size %d, max active clusters > 0: %s\n",
                cluster_x, max_cluster, active > 0 ? "yes" : "no");

    void* args[] = {&in, &out, &ranks};
    CHECK(cudaLaunchKernelExC(&cfg, reinterpret_cast<const void*>(neighbour_sum), args));
    std::vector<int> got(n), rk(blocks);
    CHECK(cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rk.data(), ranks, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int b = 0; b < blocks; ++b) {
      int rank = b % static_cast<int>(cluster_x);
      int first = b - rank;
      int next = first + (rank + 1) % static_cast<int>(cluster_x);
      ok = ok && rk[b] == rank * 100 + static_cast<int>(cluster_x);
      for (int t = 0; t < threads; ++t)
        ok = ok && got[b * threads + t] == h[b * threads + t] + h[next * threads + t];
    }
    char what[64];
    std::snprintf(what, sizeof what, "distributed shared memory, cluster of %u", cluster_x);
    e2e::expect(ok, what);
  }

  // Compile-time cluster dimensions with a plain <<<>>> launch.
  cluster_rank_static<<<blocks, 32>>>(ranks);
  CHECK_LAUNCH();
  std::vector<int> rk(blocks);
  CHECK(cudaMemcpy(rk.data(), ranks, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int b = 0; b < blocks; ++b)
    ok = ok && rk[b] == (b % 4) * 1000 + 40 + b % 4;
  e2e::expect(ok, "__cluster_dims__(4,1,1) kernel via <<<>>>");
  std::printf("static cluster ranks of blocks 0..7:");
  for (int b = 0; b < 8; ++b)
    std::printf(" %d", rk[b]);
  std::printf("\n");

  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(ranks));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
