// Whole nvcc kernels (tests/cpu/ptx/semantics.cu) that reproduce programs whose results once
// differed between the CPU device and a GPU, each checked against a C++ model of the program.

#include "CpuDeviceFixture.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
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

} // namespace
} // namespace ocelot::runtime::cpu::test
