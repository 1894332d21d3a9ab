// Thread block clusters (sm_90): __cluster_dims__ (→ .reqnctapercluster/.explicitcluster),
// distributed shared memory through cooperative_groups::cluster_group::map_shared_rank (mapa),
// barrier.cluster arrive/wait (split and fused), %cluster_ctarank/%cluster_ctaid/%nclusterid,
// ld/st/atom on shared::cluster addresses, fence.acq_rel.cluster, and asynchronous remote
// stores and reductions (st.async/red.async) completing on the receiving block's mbarrier.
#include <cuda/ptx>

#include <cooperative_groups.h>
#include <cstdint>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) clusterHistogram(const int* in, int* out, int bins) {
  extern __shared__ int localBins[];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  unsigned clusterSize = cluster.num_blocks();
  for (int b = threadIdx.x; b < bins; b += blockDim.x)
    localBins[b] = 0;
  cluster.sync();
  int perBlock = (bins + clusterSize - 1) / clusterSize;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int bin = ((v % bins) + bins) % bins;
  unsigned owner = static_cast<unsigned>(bin / perBlock);
  int* remote = cluster.map_shared_rank(localBins, owner);
  atomicAdd(remote + (bin % perBlock), 1);
  cluster.sync();
  for (int b = threadIdx.x; b < perBlock; b += blockDim.x)
    atomicAdd(&out[rank * perBlock + b], localBins[b]);
#else
  for (int b = threadIdx.x; b < bins; b += blockDim.x)
    localBins[b] = in[b];
  __syncthreads();
  out[threadIdx.x] = localBins[threadIdx.x % bins];
#endif
}

__device__ __forceinline__ uint32_t clusterRank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

// Cluster special registers and raw barrier.cluster / mapa / ld.shared::cluster.
__global__ void __cluster_dims__(4, 1, 1) clusterRaw(int* out) {
  __shared__ int slot;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  uint32_t rank = clusterRank();
  uint32_t ctaidX, nctaX, clusterIdX, nclusterX, isLeader;
  asm volatile("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(ctaidX));
  asm volatile("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(nctaX));
  asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(clusterIdX));
  asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(nclusterX));
  asm volatile("{\n\t.reg .pred p;\n\tmov.pred p, %%is_explicit_cluster;\n\t"
               "selp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(isLeader));
  if (threadIdx.x == 0)
    slot = static_cast<int>(rank * 100);
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
  uint32_t local = static_cast<uint32_t>(__cvta_generic_to_shared(&slot));
  uint32_t neighbour = (rank + 1) % nctaX;
  uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(neighbour));
  int value;
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(value) : "r"(remote) : "memory");
  if (threadIdx.x == 0) {
    int previous;
    asm volatile("atom.shared::cluster.add.u32 %0, [%1], 1;"
                 : "=r"(previous)
                 : "r"(remote)
                 : "memory");
    value += previous;
    asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(remote), "r"(value) : "memory");
  }
  // Generic-address mapa and the fused arrive+wait.
  int* genericRemote;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(genericRemote) : "l"(&slot), "r"(neighbour));
  asm volatile("fence.acq_rel.cluster;" ::: "memory");
  asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      value + static_cast<int>(ctaidX + clusterIdX + nclusterX + isLeader) + *genericRemote;
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::
                   : "memory");
#else
  slot = 1;
  __syncthreads();
  out[threadIdx.x] = slot;
#endif
}

// A cluster kernel whose shape is given at launch time (no __cluster_dims__), plus the
// cluster-wide sync from cooperative groups and a reduction across the cluster's blocks.
__global__ void __launch_bounds__(256) clusterReduce(const float* in, float* out) {
  __shared__ float partial;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0)
    partial = 0.0f;
  cluster.sync();
  atomicAdd(&partial, in[blockIdx.x * blockDim.x + threadIdx.x]);
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) {
    float total = 0.0f;
    for (unsigned r = 0; r < cluster.num_blocks(); ++r)
      total += *cluster.map_shared_rank(&partial, r);
    out[blockIdx.x / cluster.num_blocks()] = total;
  }
  cluster.sync();
#else
  partial = in[0];
  out[blockIdx.x] = partial;
#endif
}

// Each block pushes a value into its neighbour's shared memory with st.async and adds to a
// neighbour counter with red.async; both complete on the neighbour's mbarrier (complete_tx).
__global__ void __cluster_dims__(2, 1, 1) asyncRemoteStores(int* out) {
  __shared__ alignas(8) uint64_t bar;
  __shared__ int inbox[2];
  __shared__ unsigned counter;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace ptx = cuda::ptx;
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  if (threadIdx.x == 0) {
    counter = 0;
    ptx::mbarrier_init(&bar, 1);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &bar,
                                   sizeof(inbox) + sizeof(unsigned));
  }
  cluster.sync();
  if (threadIdx.x == 0) {
    unsigned peer = (rank + 1) % cluster.num_blocks();
    int* remoteInbox = cluster.map_shared_rank(inbox, peer);
    uint64_t* remoteBar = cluster.map_shared_rank(&bar, peer);
    unsigned* remoteCounter = cluster.map_shared_rank(&counter, peer);
    int pair[2] = {static_cast<int>(rank), static_cast<int>(rank * 10)};
    ptx::st_async(remoteInbox, pair, remoteBar);
    uint32_t counterAddress = static_cast<uint32_t>(__cvta_generic_to_shared(remoteCounter));
    uint32_t barAddress = static_cast<uint32_t>(__cvta_generic_to_shared(remoteBar));
    asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 "
                 "[%0], %1, [%2];" ::"r"(counterAddress),
                 "r"(1u), "r"(barAddress)
                 : "memory");
  }
  asm volatile("{\n\t"
               ".reg .pred ready;\n"
               "WAIT:\n\t"
               "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 ready, [%0], 0;\n\t"
               "@!ready bra WAIT;\n\t"
               "}" ::"r"(static_cast<uint32_t>(__cvta_generic_to_shared(&bar)))
               : "memory");
  out[blockIdx.x * blockDim.x + threadIdx.x] = inbox[0] + inbox[1] + static_cast<int>(counter);
  cluster.sync();
#else
  inbox[0] = 1;
  inbox[1] = 2;
  counter = 3;
  bar = 0;
  __syncthreads();
  out[threadIdx.x] = inbox[0] + inbox[1] + static_cast<int>(counter + bar);
#endif
}
