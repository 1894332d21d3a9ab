// Huffman coding of 1 MiB of skewed bytes, the usual GPU shape: a shared-memory histogram, the code
// lengths built by one thread, canonical codes (bit-reversed for LSB-first packing), per-thread
// bit counts, an exclusive scan of bit offsets (warp shuffles inside blocks, then across blocks)
// and packing with 64-bit atomicOr at arbitrary bit offsets. Codes reach 40+ bits, so 64-bit
// shifts, funnel shifts and shift counts at the full width (PTX defines the results: 0 for shl/shr
// past the width) all matter. The host decodes the stream and compares with the input.
#include "e2e_common.h"

#include <algorithm>
#include <vector>

constexpr int kSymbols = 256;
constexpr int kPerThread = 64; // symbols each encoder thread packs
constexpr int kThreads = 256;

__global__ void histogram(const unsigned char* data, int n, unsigned* counts) {
  __shared__ unsigned local[kSymbols];
  for (int i = threadIdx.x; i < kSymbols; i += blockDim.x)
    local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < kSymbols; i += blockDim.x)
    if (local[i] != 0)
      atomicAdd(&counts[i], local[i]);
}

// One thread merges the two lightest nodes until one is left (ties by index), then each symbol's
// length is its depth.
__global__ void code_lengths(const unsigned* counts, unsigned* lengths) {
  if (threadIdx.x != 0 || blockIdx.x != 0)
    return;
  unsigned long long weight[2 * kSymbols];
  int parent[2 * kSymbols];
  bool alive[2 * kSymbols];
  int nodes = 0;
  for (int s = 0; s < kSymbols; ++s) {
    weight[s] = counts[s];
    alive[s] = counts[s] != 0;
    parent[s] = -1;
  }
  nodes = kSymbols;
  for (;;) {
    int first = -1, second = -1;
    for (int i = 0; i < nodes; ++i) {
      if (!alive[i])
        continue;
      if (first < 0 || weight[i] < weight[first]) {
        second = first;
        first = i;
      } else if (second < 0 || weight[i] < weight[second]) {
        second = i;
      }
    }
    if (second < 0)
      break;
    weight[nodes] = weight[first] + weight[second];
    alive[nodes] = true;
    parent[nodes] = -1;
    alive[first] = alive[second] = false;
    parent[first] = parent[second] = nodes;
    ++nodes;
  }
  for (int s = 0; s < kSymbols; ++s) {
    unsigned depth = 0;
    for (int p = parent[s]; p >= 0; p = parent[p])
      ++depth;
    lengths[s] = counts[s] != 0 ? max(depth, 1u) : 0;
  }
}

// Canonical codes: shorter codes first, then by symbol. Each thread counts the symbols before its
// own; the code is stored bit-reversed (first code bit in bit 0) for LSB-first packing.
__global__ void canonical_codes(const unsigned* lengths, unsigned long long* codes) {
  const int s = threadIdx.x;
  const unsigned length = lengths[s];
  if (length == 0) {
    codes[s] = 0;
    return;
  }
  // code = sum over shorter symbols of 2^(length - their length), plus the same-length rank.
  unsigned long long code = 0;
  for (int t = 0; t < kSymbols; ++t) {
    const unsigned other = lengths[t];
    if (other == 0)
      continue;
    if (other < length || (other == length && t < s)) {
      unsigned long long step;
      asm("shl.b64 %0, %1, %2;" : "=l"(step) : "l"(1ull), "r"(length - other));
      code += step;
    }
  }
  codes[s] = __brevll(code) >> (64 - length);
}

__device__ unsigned long long pack_bits(const unsigned char* data, int first, int n,
                                        const unsigned* lengths) {
  unsigned long long bits = 0;
  for (int i = first; i < min(first + kPerThread, n); ++i)
    bits += lengths[data[i]];
  return bits;
}

// Bit counts per thread, scanned within each block with warp shuffles; block totals out.
__global__ void bit_offsets(const unsigned char* data, int n, const unsigned* lengths,
                            unsigned long long* offsets, unsigned long long* block_totals) {
  __shared__ unsigned long long warp_totals[kThreads / 32];
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long own = pack_bits(data, thread * kPerThread, n, lengths);
  // warpSize, as such scans are usually written: nvcc turns it into PTX's WARP_SZ.
  const unsigned lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  unsigned long long inclusive = own;
  for (int d = 1; d < warpSize; d <<= 1) {
    const unsigned long long up = __shfl_up_sync(0xffffffffu, inclusive, d);
    if (lane >= static_cast<unsigned>(d))
      inclusive += up;
  }
  if (lane == warpSize - 1)
    warp_totals[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    unsigned long long total = lane < kThreads / 32 ? warp_totals[lane] : 0;
    for (int d = 1; d < warpSize; d <<= 1) {
      const unsigned long long up = __shfl_up_sync(0xffffffffu, total, d);
      if (lane >= static_cast<unsigned>(d))
        total += up;
    }
    if (lane < kThreads / 32)
      warp_totals[lane] = total; // inclusive over warps
  }
  __syncthreads();
  const unsigned long long before = warp == 0 ? 0 : warp_totals[warp - 1];
  offsets[thread] = before + inclusive - own;
  if (threadIdx.x == blockDim.x - 1)
    block_totals[blockIdx.x] = before + inclusive;
}

// Exclusive scan of the block totals by one thread, then every offset gets its block's base.
__global__ void scan_blocks(unsigned long long* block_totals, int blocks,
                            unsigned long long* total_bits) {
  unsigned long long running = 0;
  for (int b = 0; b < blocks; ++b) {
    const unsigned long long t = block_totals[b];
    block_totals[b] = running;
    running += t;
  }
  *total_bits = running;
}

__device__ void or_bits(unsigned long long* stream, unsigned long long position,
                        unsigned long long code, unsigned length) {
  const unsigned long long word = position >> 6;
  const unsigned offset = static_cast<unsigned>(position & 63);
  unsigned long long low, high;
  // shl/shr with counts 0..64: PTX gives 0 for a count of 64, which the high part relies on.
  asm("shl.b64 %0, %1, %2;" : "=l"(low) : "l"(code), "r"(offset));
  asm("shr.b64 %0, %1, %2;" : "=l"(high) : "l"(code), "r"(64 - offset));
  atomicOr(&stream[word], low);
  if (offset + length > 64)
    atomicOr(&stream[word + 1], high);
}

__global__ void encode(const unsigned char* data, int n, const unsigned* lengths,
                       const unsigned long long* codes, const unsigned long long* offsets,
                       const unsigned long long* block_base, unsigned long long* stream,
                       unsigned* longest) {
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long position = block_base[blockIdx.x] + offsets[thread];
  for (int i = thread * kPerThread; i < min(thread * kPerThread + kPerThread, n); ++i) {
    const unsigned char symbol = data[i];
    or_bits(stream, position, codes[symbol], lengths[symbol]);
    position += lengths[symbol];
    atomicMax(longest, lengths[symbol]);
  }
}

int main() {
  const int n = 1 << 20;
  std::vector<unsigned char> data(n);
  e2e::Rng rng(4242);
  for (int i = 0; i < n; ++i) {
    // Geometric-like: symbol k with probability ~2^-(k/4+1), so the rarest codes are long.
    const uint64_t r = rng.next();
    int k = __builtin_ctzll(r | (1ull << 62));
    data[i] = static_cast<unsigned char>(std::min(255, k * 4 + static_cast<int>((r >> 62) & 3)));
  }
  data[n - 1] = 255;
  data[n - 2] = 254; // rare symbols present

  const int threads_total = (n + kPerThread - 1) / kPerThread;
  const int blocks = (threads_total + kThreads - 1) / kThreads;
  unsigned char* d_data;
  unsigned *d_counts, *d_lengths, *d_longest;
  unsigned long long *d_codes, *d_offsets, *d_blocks, *d_total, *d_stream;
  const size_t stream_words = static_cast<size_t>(n) * 64 / 64 + 2;
  CHECK(cudaMalloc(&d_data, n));
  CHECK(cudaMalloc(&d_counts, kSymbols * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_lengths, kSymbols * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_longest, sizeof(unsigned)));
  CHECK(cudaMalloc(&d_codes, kSymbols * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&d_offsets, blocks * kThreads * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&d_blocks, blocks * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&d_total, sizeof(unsigned long long)));
  CHECK(cudaMalloc(&d_stream, stream_words * sizeof(unsigned long long)));
  CHECK(cudaMemcpy(d_data, data.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_counts, 0, kSymbols * sizeof(unsigned)));
  CHECK(cudaMemset(d_longest, 0, sizeof(unsigned)));
  CHECK(cudaMemset(d_stream, 0, stream_words * sizeof(unsigned long long)));

  histogram<<<64, 256>>>(d_data, n, d_counts);
  CHECK_LAUNCH();
  code_lengths<<<1, 1>>>(d_counts, d_lengths);
  CHECK_LAUNCH();
  canonical_codes<<<1, kSymbols>>>(d_lengths, d_codes);
  CHECK_LAUNCH();
  bit_offsets<<<blocks, kThreads>>>(d_data, n, d_lengths, d_offsets, d_blocks);
  CHECK_LAUNCH();
  scan_blocks<<<1, 1>>>(d_blocks, blocks, d_total);
  CHECK_LAUNCH();
  encode<<<blocks, kThreads>>>(d_data, n, d_lengths, d_codes, d_offsets, d_blocks, d_stream,
                               d_longest);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());

  std::vector<unsigned> counts(kSymbols), lengths(kSymbols);
  std::vector<unsigned long long> codes(kSymbols), stream(stream_words);
  unsigned long long total_bits = 0;
  unsigned longest = 0;
  CHECK(cudaMemcpy(counts.data(), d_counts, kSymbols * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(lengths.data(), d_lengths, kSymbols * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(codes.data(), d_codes, kSymbols * sizeof(unsigned long long),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(stream.data(), d_stream, stream_words * sizeof(unsigned long long),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&total_bits, d_total, sizeof(total_bits), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&longest, d_longest, sizeof(longest), cudaMemcpyDeviceToHost));

  std::vector<unsigned> want_counts(kSymbols, 0);
  for (unsigned char c : data)
    ++want_counts[c];
  e2e::expect(counts == want_counts, "histogram");
  // Kraft equality for a complete code, and lengths within 64 bits.
  long double kraft = 0;
  unsigned used = 0, max_length = 0;
  unsigned long long expected_bits = 0;
  for (int s = 0; s < kSymbols; ++s)
    if (lengths[s] != 0) {
      ++used;
      kraft += std::ldexp(1.0L, -static_cast<int>(lengths[s]));
      max_length = std::max(max_length, lengths[s]);
      expected_bits += static_cast<unsigned long long>(counts[s]) * lengths[s];
    }
  e2e::expect(used > 1 && kraft == 1.0L && max_length <= 64, "code lengths form a complete code");
  e2e::expect(longest == max_length, "atomicMax of the code lengths");
  e2e::expect(total_bits == expected_bits, "scanned bit offsets add up");
  std::printf("symbols used: %u, longest code: %u bits, stream: %llu bits\n", used, max_length,
              total_bits);

  // Decode LSB-first: read bits one by one, match against the canonical code table.
  std::vector<std::pair<unsigned long long, int>> table; // (code MSB-first, symbol) by length
  bool decoded_ok = true;
  {
    std::vector<std::vector<std::pair<unsigned long long, int>>> by_length(65);
    for (int s = 0; s < kSymbols; ++s)
      if (lengths[s] != 0) {
        unsigned long long msb_first = 0;
        for (unsigned b = 0; b < lengths[s]; ++b)
          msb_first = (msb_first << 1) | ((codes[s] >> b) & 1);
        by_length[lengths[s]].push_back({msb_first, s});
      }
    unsigned long long position = 0;
    for (int i = 0; i < n && decoded_ok; ++i) {
      unsigned long long value = 0;
      int symbol = -1;
      for (unsigned length = 1; length <= 64 && symbol < 0; ++length) {
        const unsigned long long bit = (stream[position >> 6] >> (position & 63)) & 1;
        ++position;
        value = (value << 1) | bit;
        for (const auto& [code, s] : by_length[length])
          if (code == value)
            symbol = s;
      }
      decoded_ok = symbol == data[i];
    }
    decoded_ok = decoded_ok && position == total_bits;
  }
  e2e::expect(decoded_ok, "decoded stream equals the input");

  // Fibonacci weights give the deepest tree: 46 symbols, codes up to 45 bits.
  std::vector<unsigned> fibonacci(kSymbols, 0);
  fibonacci[0] = fibonacci[1] = 1;
  for (int s = 2; s < 46; ++s)
    fibonacci[s] = fibonacci[s - 1] + fibonacci[s - 2];
  CHECK(
      cudaMemcpy(d_counts, fibonacci.data(), kSymbols * sizeof(unsigned), cudaMemcpyHostToDevice));
  code_lengths<<<1, 1>>>(d_counts, d_lengths);
  CHECK_LAUNCH();
  canonical_codes<<<1, kSymbols>>>(d_lengths, d_codes);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(lengths.data(), d_lengths, kSymbols * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(codes.data(), d_codes, kSymbols * sizeof(unsigned long long),
                   cudaMemcpyDeviceToHost));
  unsigned deepest = 0;
  long double fibonacci_kraft = 0;
  bool prefix_free = true;
  for (int s = 0; s < 46; ++s) {
    deepest = std::max(deepest, lengths[s]);
    fibonacci_kraft += std::ldexp(1.0L, -static_cast<int>(lengths[s]));
    for (int t = 0; t < 46; ++t) // no code is a prefix (low bits, LSB-first) of another
      if (t != s && lengths[t] <= lengths[s] &&
          ((codes[s] ^ codes[t]) & (~0ull >> (64 - lengths[t]))) == 0)
        prefix_free = false;
  }
  std::printf("fibonacci weights: longest code %u bits\n", deepest);
  e2e::expect(deepest == 45 && fibonacci_kraft == 1.0L && prefix_free,
              "45-bit canonical codes are complete and prefix-free");
  std::printf("stream checksum: %016llx\n",
              static_cast<unsigned long long>(
                  e2e::fnv1a(stream.data(), (total_bits + 63) / 64 * sizeof(unsigned long long))));
  CHECK(cudaFree(d_data));
  CHECK(cudaFree(d_counts));
  CHECK(cudaFree(d_lengths));
  CHECK(cudaFree(d_longest));
  CHECK(cudaFree(d_codes));
  CHECK(cudaFree(d_offsets));
  CHECK(cudaFree(d_blocks));
  CHECK(cudaFree(d_total));
  CHECK(cudaFree(d_stream));
  return e2e::finish();
}
