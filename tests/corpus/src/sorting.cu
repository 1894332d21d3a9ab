// Sorting in shared memory: a bitonic sorting network over key/value pairs, an odd-even
// transposition sort in registers with warp shuffles, and a block-wide radix pass with
// prefix sums over digit counts.
#include <cstdint>

constexpr int kSortSize = 1024;

__global__ void bitonicSort(uint32_t* keys, uint32_t* values) {
  __shared__ uint32_t k[kSortSize];
  __shared__ uint32_t v[kSortSize];
  uint32_t* blockKeys = keys + blockIdx.x * kSortSize;
  uint32_t* blockValues = values + blockIdx.x * kSortSize;
  for (int i = threadIdx.x; i < kSortSize; i += blockDim.x) {
    k[i] = blockKeys[i];
    v[i] = blockValues[i];
  }
  __syncthreads();
  for (int size = 2; size <= kSortSize; size <<= 1) {
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
      for (int i = threadIdx.x; i < kSortSize; i += blockDim.x) {
        int partner = i ^ stride;
        if (partner > i) {
          bool ascending = (i & size) == 0;
          if ((k[i] > k[partner]) == ascending) {
            uint32_t tk = k[i], tv = v[i];
            k[i] = k[partner];
            v[i] = v[partner];
            k[partner] = tk;
            v[partner] = tv;
          }
        }
      }
      __syncthreads();
    }
  }
  for (int i = threadIdx.x; i < kSortSize; i += blockDim.x) {
    blockKeys[i] = k[i];
    blockValues[i] = v[i];
  }
}

// Each warp sorts 32 values, one per lane, with compare-exchange through shuffles.
__global__ void warpOddEvenSort(float* data) {
  int lane = threadIdx.x & 31;
  float value = data[blockIdx.x * blockDim.x + threadIdx.x];
  for (int phase = 0; phase < 32; ++phase) {
    int partner = ((lane & 1) == (phase & 1)) ? lane + 1 : lane - 1;
    float other = __shfl_sync(0xffffffffu, value, partner & 31);
    if (partner >= 0 && partner < 32) {
      bool keepSmaller = lane < partner;
      value = keepSmaller ? fminf(value, other) : fmaxf(value, other);
    }
  }
  data[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

// One 4-bit radix pass: count digits, scan the counts, scatter.
__global__ void radixPass(const uint32_t* in, uint32_t* out, int shift, int n) {
  __shared__ uint32_t counts[16];
  __shared__ uint32_t offsets[16];
  if (threadIdx.x < 16)
    counts[threadIdx.x] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&counts[(in[i] >> shift) & 15], 1u);
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t running = 0;
    for (int d = 0; d < 16; ++d) {
      offsets[d] = running;
      running += counts[d];
    }
  }
  __syncthreads();
  // A stable scatter done by one thread keeps this simple and deterministic.
  if (threadIdx.x == 0)
    for (int i = 0; i < n; ++i)
      out[offsets[(in[i] >> shift) & 15]++] = in[i];
}
