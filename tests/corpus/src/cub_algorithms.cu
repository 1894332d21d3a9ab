// CUB: block-level primitives inside our own kernels (BlockLoad/BlockRadixSort/BlockScan/
// BlockReduce/BlockHistogram/WarpReduce with their TempStorage unions in shared memory) and
// the device-wide histogram (DeviceHistogram::HistogramEven), whose kernels are instantiated
// by the host call.
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/device/device_histogram.cuh>
#include <cub/warp/warp_reduce.cuh>

constexpr int kThreads = 128;
constexpr int kItems = 4;

__global__ void blockSortScan(const int* in, int* sorted, int* scanned, int* total) {
  using Load = cub::BlockLoad<int, kThreads, kItems, cub::BLOCK_LOAD_TRANSPOSE>;
  using Sort = cub::BlockRadixSort<int, kThreads, kItems>;
  using Scan = cub::BlockScan<int, kThreads>;
  using Reduce = cub::BlockReduce<int, kThreads>;
  using Store = cub::BlockStore<int, kThreads, kItems, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Sort::TempStorage sort;
    typename Scan::TempStorage scan;
    typename Reduce::TempStorage reduce;
    typename Store::TempStorage store;
  } storage;
  int offset = blockIdx.x * kThreads * kItems;
  int items[kItems];
  Load(storage.load).Load(in + offset, items);
  __syncthreads();
  Sort(storage.sort).Sort(items);
  __syncthreads();
  Store(storage.store).Store(sorted + offset, items);
  __syncthreads();
  int aggregate = 0;
  Scan(storage.scan).ExclusiveSum(items, items, aggregate);
  __syncthreads();
  Store(storage.store).Store(scanned + offset, items);
  __syncthreads();
  int maxItem = Reduce(storage.reduce).Reduce(items, cuda::maximum<int>());
  if (threadIdx.x == 0)
    total[blockIdx.x] = aggregate + maxItem;
}

__global__ void blockHistogramAndWarpReduce(const unsigned char* samples, unsigned* bins,
                                            float* warpSums) {
  using Histogram = cub::BlockHistogram<unsigned char, kThreads, kItems, 256>;
  using WarpReduce = cub::WarpReduce<float>;
  __shared__ typename Histogram::TempStorage histogramStorage;
  __shared__ typename WarpReduce::TempStorage warpStorage[kThreads / 32];
  __shared__ unsigned blockBins[256];
  unsigned char items[kItems];
  for (int k = 0; k < kItems; ++k)
    items[k] = samples[(blockIdx.x * kThreads + threadIdx.x) * kItems + k];
  Histogram(histogramStorage).Histogram(items, blockBins);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += kThreads)
    atomicAdd(&bins[b], blockBins[b]);
  float v = static_cast<float>(items[0]) * 0.5f;
  float sum = WarpReduce(warpStorage[threadIdx.x / 32]).Sum(v);
  if (threadIdx.x % 32 == 0)
    warpSums[blockIdx.x * (kThreads / 32) + threadIdx.x / 32] = sum;
}

cudaError_t deviceHistogram(const float* samples, int n, int* histogram, void* temp,
                            size_t& tempBytes) {
  return cub::DeviceHistogram::HistogramEven(temp, tempBytes, samples, histogram, 65, 0.0f, 1.0f,
                                             n);
}
