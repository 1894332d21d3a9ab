// Cooperative groups: thread blocks, static tiles of several sizes, dynamic partitions,
// coalesced groups, labeled partitions, cg::reduce/cg::inclusive_scan, and grid-wide
// synchronisation (launched with cudaLaunchCooperativeKernel).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

template <class Tile> __device__ int tileSum(const Tile& tile, int value) {
  for (unsigned offset = tile.size() / 2; offset > 0; offset /= 2)
    value += tile.shfl_down(value, offset);
  return value;
}

__global__ void staticTiles(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  int v = in[block.group_index().x * block.size() + block.thread_rank()];
  auto tile32 = cg::tiled_partition<32>(block);
  auto tile16 = cg::tiled_partition<16>(block);
  auto tile4 = cg::tiled_partition<4>(tile32);
  int a = tileSum(tile32, v);
  int b = tileSum(tile16, v);
  int c = tileSum(tile4, v);
  bool anyNeg = tile32.any(v < 0);
  unsigned ballot = tile16.ballot(v > 100);
  block.sync();
  if (tile4.thread_rank() == 0)
    out[block.thread_rank() / 4] = a + b + c + anyNeg + static_cast<int>(ballot);
}

__global__ void reduceAndScan(const float* in, float* out, int* iout) {
  cg::thread_block block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  float v = in[block.thread_rank()];
  float total = cg::reduce(warp, v, cg::plus<float>());
  float maxv = cg::reduce(warp, v, cg::greater<float>());
  int iv = static_cast<int>(v);
  int scanned = cg::inclusive_scan(warp, iv);
  int exscan = cg::exclusive_scan(warp, iv, cg::bit_xor<int>());
  out[block.thread_rank()] = total + maxv;
  iout[block.thread_rank()] = scanned + exscan;
}

__global__ void dynamicGroups(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  int v = in[block.thread_rank()];
  if (v % 3 == 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    int rank = static_cast<int>(active.thread_rank());
    int sum = cg::reduce(active, v, cg::plus<int>());
    out[block.thread_rank()] = sum * 100 + rank;
  }
  auto warp = cg::tiled_partition<32>(block);
  auto byKey = cg::labeled_partition(warp, v & 3);
  out[blockDim.x + block.thread_rank()] = static_cast<int>(byKey.size());
  auto halves = cg::binary_partition(warp, v > 0);
  out[2 * blockDim.x + block.thread_rank()] = static_cast<int>(halves.thread_rank());
}

// Grid synchronisation: a two-phase histogram with grid.sync() in between.
__global__ void gridPhases(const unsigned* data, unsigned n, unsigned* partial, unsigned* total) {
  cg::grid_group grid = cg::this_grid();
  unsigned sum = 0;
  for (unsigned i = grid.thread_rank(); i < n; i += grid.size())
    sum += data[i];
  partial[grid.thread_rank()] = sum;
  grid.sync();
  if (grid.thread_rank() == 0) {
    unsigned t = 0;
    for (unsigned long long k = 0; k < grid.size(); ++k)
      t += partial[k];
    *total = t;
  }
  grid.sync();
  partial[grid.thread_rank()] = *total;
}

// thread_block_tile<N>::meta_group_rank and sync on sub-warp tiles.
__global__ void tileMeta(int* out) {
  auto block = cg::this_thread_block();
  auto tile8 = cg::tiled_partition<8>(block);
  tile8.sync();
  int rank = static_cast<int>(tile8.meta_group_rank());
  int count = static_cast<int>(tile8.meta_group_size());
  out[block.thread_rank()] = rank * 1000 + count + tile8.shfl(rank, 7);
}
