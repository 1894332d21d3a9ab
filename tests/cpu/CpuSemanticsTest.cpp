// Whole nvcc kernels (tests/cpu/ptx/semantics.cu) that reproduce programs whose results once
// differed between the CPU device and a GPU, each checked against a C++ model of the program.

#include "CpuDeviceFixture.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <vector>

namespace ocelot::runtime::cpu::test {
namespace {

class SemanticsTest : public CpuDeviceTest {};

/// Keys in [0, buckets) and values, from a fixed linear congruential sequence.
void makeBuckets(int n, int buckets, std::vector<int>* keys, std::vector<int>* values) {
  uint32_t state = 12345;
  auto next = [&] {
    state = state * 1103515245u + 12345u;
    return state >> 8;
  };
  for (int i = 0; i < n; ++i) {
    keys->push_back(static_cast<int>(next() % static_cast<uint32_t>(buckets)));
    values->push_back(static_cast<int>(next() % 100000));
  }
}

TEST_F(SemanticsTest, PerBucketMaximumWithLabeledPartitionAndRedux) {
  DeviceFunction kernel = load(semanticsPtx(), "bucket_max");
  ASSERT_NE(kernel, nullptr);
  const int n = 3000, buckets = 7;
  std::vector<int> keys, values;
  makeBuckets(n, buckets, &keys, &values);
  int* dKeys = allocate<int>(n);
  int* dValues = allocate<int>(n);
  int* maxima = allocate<int>(buckets);
  std::copy(keys.begin(), keys.end(), dKeys);
  std::copy(values.begin(), values.end(), dValues);
  std::fill_n(maxima, buckets, -1);
  ASSERT_EQ(launch(kernel, dim3((n + 127) / 128), dim3(128), 0, dKeys, dValues, n, maxima),
            cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  std::vector<int> expected(buckets, -1);
  for (int i = 0; i < n; ++i)
    if (values[i] % 3 != 0)
      expected[keys[i]] = std::max(expected[keys[i]], values[i]);
  for (int b = 0; b < buckets; ++b)
    EXPECT_EQ(maxima[b], expected[b]) << "bucket " << b;
}

TEST_F(SemanticsTest, PerBucketFloatSumWithLabeledPartitionAndShuffles) {
  DeviceFunction kernel = load(semanticsPtx(), "bucket_sum_float");
  ASSERT_NE(kernel, nullptr);
  const int n = 1000, buckets = 5;
  std::vector<int> keys, values;
  makeBuckets(n, buckets, &keys, &values);
  int* dKeys = allocate<int>(n);
  float* dValues = allocate<float>(n);
  float* sums = allocate<float>(buckets);
  std::copy(keys.begin(), keys.end(), dKeys);
  for (int i = 0; i < n; ++i)
    dValues[i] = static_cast<float>(values[i] % 64); // small integers: every order sums exactly
  std::fill_n(sums, buckets, 0.0f);
  ASSERT_EQ(launch(kernel, dim3((n + 127) / 128), dim3(128), 0, dKeys, dValues, n, sums),
            cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  std::vector<float> expected(buckets, 0.0f);
  for (int i = 0; i < n; ++i)
    expected[keys[i]] += static_cast<float>(values[i] % 64);
  for (int b = 0; b < buckets; ++b)
    EXPECT_EQ(sums[b], expected[b]) << "bucket " << b;
}

TEST_F(SemanticsTest, HuffmanCodesAndPackingAtEveryBitOffset) {
  DeviceFunction codesKernel = load(semanticsPtx(), "huffman_codes");
  DeviceFunction packKernel = load(semanticsPtx(), "huffman_pack");
  ASSERT_NE(codesKernel, nullptr);
  ASSERT_NE(packKernel, nullptr);
  // Lengths of the deepest tree of 46 symbols (Fibonacci weights): 1, 2, ..., 44, 45, 45.
  const int symbols = 46;
  unsigned* lengths = allocate<unsigned>(symbols);
  for (int s = 0; s < symbols; ++s)
    lengths[s] = s == symbols - 1 ? 45u : static_cast<unsigned>(s + 1);
  auto* codes = allocate<unsigned long long>(symbols);
  ASSERT_EQ(launch(codesKernel, dim3(1), dim3(64), 0, lengths, symbols, codes), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  // Canonical codes, MSB first: symbol s < 45 is s ones then a zero; the last is 45 ones.
  for (int s = 0; s < symbols; ++s) {
    uint64_t msbFirst = 0;
    for (unsigned b = 0; b < lengths[s]; ++b)
      msbFirst = (msbFirst << 1) | ((codes[s] >> b) & 1);
    const uint64_t ones = (uint64_t{1} << lengths[s]) - 1;
    EXPECT_EQ(msbFirst, s == symbols - 1 ? ones : ones - 1) << "symbol " << s;
  }
  // Pack a stream that puts codes at every offset in a 64-bit word, long ones across words.
  const int n = 4000;
  auto* data = allocate<unsigned char>(n);
  auto* offsets = allocate<unsigned long long>(n);
  std::vector<unsigned char> symbolsOf(n);
  unsigned long long position = 0;
  for (int i = 0; i < n; ++i) {
    symbolsOf[i] = static_cast<unsigned char>((i * 7 + i / 13) % symbols);
    data[i] = symbolsOf[i];
    offsets[i] = position;
    position += lengths[symbolsOf[i]];
  }
  const size_t words = position / 64 + 2;
  auto* stream = allocate<unsigned long long>(words);
  std::fill_n(stream, words, 0ull);
  ASSERT_EQ(launch(packKernel, dim3((n + 127) / 128), dim3(128), 0, data, n, lengths, codes,
                   offsets, stream),
            cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  for (int i = 0; i < n; ++i) {
    const unsigned length = lengths[symbolsOf[i]];
    uint64_t got = 0;
    for (unsigned b = 0; b < length; ++b) {
      const unsigned long long at = offsets[i] + b;
      got |= ((stream[at >> 6] >> (at & 63)) & 1) << b;
    }
    ASSERT_EQ(got, codes[symbolsOf[i]]) << "code " << i << " at bit " << offsets[i];
  }
  const unsigned long long tail = position & 63;
  if (tail != 0) {
    EXPECT_EQ(stream[position >> 6] >> tail, 0u) << "bits past the stream";
  }
  EXPECT_EQ(stream[position / 64 + 1], 0u);
}

TEST_F(SemanticsTest, DeviceSideLaunchesRunAfterTheirParentTailLaunchesLast) {
  const std::string ptx = [] {
    std::ifstream in(OCELOT_CPU_DEVICE_LAUNCH_PTX);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }();
  DeviceFunction kernel = load(ptx, "launcher");
  ASSERT_NE(kernel, nullptr);
  const int n = 3 * 64;
  int* out = allocate<int>(n);
  int* seen = allocate<int>(1);
  int* counts = allocate<int>(3);
  int* errors = allocate<int>(2);
  std::fill_n(out, n, -1);
  *seen = -1;
  std::fill_n(counts, 3, 0);
  std::fill_n(errors, 2, -1);
  ASSERT_EQ(launch(kernel, dim3(3), dim3(32), 0, out, seen, counts, errors), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out[i], i) << "element " << i;
  EXPECT_EQ(*seen, n) << "the tail launch ran before another child had finished";
  // depth 2: one grid of 4 threads; depth 1: two grids of 4 from one thread; depth 0: twice that.
  EXPECT_EQ(counts[2], 4);
  EXPECT_EQ(counts[1], 2 * 4);
  EXPECT_EQ(counts[0], 2 * 2 * 4);
  EXPECT_EQ(errors[0], cudaErrorInvalidConfiguration);
  EXPECT_EQ(errors[1], cudaSuccess);
}

} // namespace
} // namespace ocelot::runtime::cpu::test
