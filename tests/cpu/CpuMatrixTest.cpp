// Tensor-core instructions (wmma through nvcuda::wmma, mma.sync and ldmatrix through inline asm
// with the PTX ISA's fragment layouts; kernels in tests/cpu/ptx/semantics.cu), each compared with
// a CPU matrix product. Inputs are small integers (and, for f64 and tf32, values whose products
// and sums are exact), so every summation order gives the same result.

#include "CpuDeviceFixture.h"
#include "runtime/cpu/HalfPrecision.h"

#include <cstdint>
#include <vector>

namespace ocelot::runtime::cpu::test {
namespace {

class MatrixTest : public CpuDeviceTest {
protected:
  /// Runs `name` on one warp with the given device pointers.
  template <class... Args> void runWarp(const char* name, Args... args) {
    DeviceFunction kernel = load(semanticsPtx(), name);
    ASSERT_NE(kernel, nullptr);
    ASSERT_EQ(launch(kernel, dim3(1), dim3(32), 0, args...), cudaSuccess) << name;
    ASSERT_EQ(device_->synchronize(), cudaSuccess) << name << ": " << device_->faultMessage();
  }

  /// A row-major m x n matrix of small integers in [low, high].
  static std::vector<int> integers(int m, int n, int low, int high, int seed) {
    std::vector<int> values(static_cast<size_t>(m) * n);
    uint32_t state = static_cast<uint32_t>(seed) * 2654435761u + 1;
    for (int& v : values) {
      state = state * 1664525u + 1013904223u;
      v = low + static_cast<int>((state >> 8) % static_cast<uint32_t>(high - low + 1));
    }
    return values;
  }

  /// c[i][j] + sum_k a[i][k] b[k][j], all row-major.
  static std::vector<int64_t> product(const std::vector<int>& a, const std::vector<int>& b,
                                      const std::vector<int>& c, int m, int n, int k) {
    std::vector<int64_t> d(static_cast<size_t>(m) * n);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        int64_t sum = c.empty() ? 0 : c[i * n + j];
        for (int x = 0; x < k; ++x)
          sum += int64_t{a[i * k + x]} * b[x * n + j];
        d[i * n + j] = sum;
      }
    return d;
  }

  template <class T, class F> T* upload(const std::vector<int>& values, F convert) {
    T* device = allocate<T>(values.size());
    for (size_t i = 0; i < values.size(); ++i)
      device[i] = convert(values[i]);
    return device;
  }

  /// A copy of a row-major m x n matrix in column-major order.
  static std::vector<int> columnMajor(const std::vector<int>& rowMajor, int m, int n) {
    std::vector<int> result(rowMajor.size());
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        result[j * m + i] = rowMajor[i * n + j];
    return result;
  }
};

uint16_t half(int v) {
  return floatToHalf(static_cast<float>(v), RoundingMode::NearestEven);
}
uint16_t bfloat(int v) {
  return floatToBfloat16(static_cast<float>(v), RoundingMode::NearestEven);
}

TEST_F(MatrixTest, WmmaHalfM16N16K16FloatAccumulatorAndElementwiseScaling) {
  const int m = 16, n = 16, k = 16;
  auto a = integers(m, k, -8, 8, 1), b = integers(k, n, -8, 8, 2), c = integers(m, n, -50, 50, 3);
  auto* da = upload<uint16_t>(a, half);
  auto* db = upload<uint16_t>(columnMajor(b, k, n), half);
  auto* dc = upload<float>(c, [](int v) { return static_cast<float>(v); });
  auto* dd = allocate<float>(m * n);
  runWarp("wmma_f16_m16n16k16", da, db, dc, dd);
  const auto want = product(a, b, c, m, n, k);
  for (int i = 0; i < m * n; ++i)
    ASSERT_EQ(dd[i], 2.0f * static_cast<float>(want[i])) << "element " << i;
}

TEST_F(MatrixTest, WmmaHalfM32N8K16HalfAccumulatorColumnMajor) {
  const int m = 32, n = 8, k = 16;
  auto a = integers(m, k, -4, 4, 4), b = integers(k, n, -4, 4, 5), c = integers(m, n, -30, 30, 6);
  auto* da = upload<uint16_t>(columnMajor(a, m, k), half);
  auto* db = upload<uint16_t>(b, half);
  auto* dc = upload<uint16_t>(columnMajor(c, m, n), half);
  auto* dd = allocate<uint16_t>(m * n);
  runWarp("wmma_f16_m32n8k16", da, db, dc, dd);
  const auto want = columnMajor(
      [&] {
        std::vector<int> d;
        for (int64_t v : product(a, b, c, m, n, k))
          d.push_back(static_cast<int>(v));
        return d;
      }(),
      m, n);
  for (int i = 0; i < m * n; ++i)
    ASSERT_EQ(halfToFloat(dd[i]), static_cast<float>(want[i])) << "element " << i;
}

TEST_F(MatrixTest, WmmaBfloat16M8N32K16) {
  const int m = 8, n = 32, k = 16;
  auto a = integers(m, k, -16, 16, 7), b = integers(k, n, -16, 16, 8);
  auto* da = upload<uint16_t>(a, bfloat);
  auto* db = upload<uint16_t>(b, bfloat);
  auto* dd = allocate<float>(m * n);
  runWarp("wmma_bf16_m8n32k16", da, db, dd);
  const auto want = product(a, b, {}, m, n, k);
  for (int i = 0; i < m * n; ++i)
    ASSERT_EQ(dd[i], static_cast<float>(want[i])) << "element " << i;
}

TEST_F(MatrixTest, WmmaTf32M16N16K8TruncatesInputsToTf32) {
  const int m = 16, n = 16, k = 8;
  auto a = integers(m, k, -100, 100, 9), b = integers(k, n, -100, 100, 10);
  // A's values get a low bit below tf32's precision: __float_to_tf32 rounds it away.
  auto* da = upload<float>(a, [](int v) { return static_cast<float>(v) + 0x1p-20f; });
  auto* db = upload<float>(columnMajor(b, k, n), [](int v) { return static_cast<float>(v); });
  auto* dd = allocate<float>(m * n);
  runWarp("wmma_tf32_m16n16k8", da, db, dd);
  const auto want = product(a, b, {}, m, n, k);
  for (int i = 0; i < m * n; ++i)
    ASSERT_EQ(dd[i], static_cast<float>(want[i])) << "element " << i;
}

TEST_F(MatrixTest, WmmaDoubleM8N8K4) {
  const int m = 8, n = 8, k = 4;
  auto a = integers(m, k, -1000, 1000, 11), b = integers(k, n, -1000, 1000, 12);
  auto c = integers(m, n, -100000, 100000, 13);
  auto* da = upload<double>(a, [](int v) { return v * 0.5; });
  auto* db = upload<double>(columnMajor(b, k, n), [](int v) { return v * 0.25; });
  auto* dc = upload<double>(c, [](int v) { return static_cast<double>(v); });
  auto* dd = allocate<double>(m * n);
  runWarp("wmma_f64_m8n8k4", da, db, dc, dd);
  const auto want = product(a, b, {}, m, n, k);
  for (int i = 0; i < m * n; ++i)
    ASSERT_EQ(dd[i], static_cast<double>(want[i]) * 0.125 + c[i]) << "element " << i;
}

TEST_F(MatrixTest, WmmaSignedAndUnsignedBytesWithS32Accumulators) {
  {
    const int m = 16, n = 16, k = 16;
    auto a = integers(m, k, -128, 127, 14), b = integers(k, n, -128, 127, 15);
    auto c = integers(m, n, -1000, 1000, 16);
    c[0] = INT32_MAX - 5; // .satfinite clamps this sum
    auto* da = upload<int8_t>(a, [](int v) { return static_cast<int8_t>(v); });
    auto* db = upload<int8_t>(columnMajor(b, k, n), [](int v) { return static_cast<int8_t>(v); });
    auto* dc = upload<int32_t>(c, [](int v) { return v; });
    auto* dd = allocate<int32_t>(m * n);
    runWarp("wmma_s8_m16n16k16", da, db, dc, dd);
    const auto want = product(a, b, c, m, n, k);
    for (int i = 0; i < m * n; ++i)
      ASSERT_EQ(dd[i], std::clamp<int64_t>(want[i], INT32_MIN, INT32_MAX)) << "element " << i;
  }
  {
    const int m = 32, n = 8, k = 16;
    auto a = integers(m, k, 0, 255, 17), b = integers(k, n, 0, 255, 18);
    auto* da = upload<uint8_t>(a, [](int v) { return static_cast<uint8_t>(v); });
    auto* db = upload<uint8_t>(b, [](int v) { return static_cast<uint8_t>(v); });
    auto* dd = allocate<int32_t>(m * n);
    runWarp("wmma_u8_m32n8k16", da, db, dd);
    const auto want = product(a, b, {}, m, n, k);
    for (int i = 0; i < m * n; ++i)
      ASSERT_EQ(dd[i], want[i]) << "element " << i;
  }
}

TEST_F(MatrixTest, MmaSyncHalfM16N8K16WithTheIsaLayouts) {
  const int m = 16, n = 8, k = 16;
  auto a = integers(m, k, -8, 8, 19), b = integers(k, n, -8, 8, 20), c = integers(m, n, -9, 9, 21);
  auto* da = upload<uint16_t>(a, half);
  auto* db = upload<uint16_t>(b, half);
  auto* dc = upload<float>(c, [](int v) { return static_cast<float>(v); });
  auto* dd = allocate<float>(m * n);
  runWarp("mma_f16_m16n8k16", da, db, dc, dd);
  const auto want = product(a, b, c, m, n, k);
  for (int i = 0; i < m * n; ++i)
    ASSERT_EQ(dd[i], static_cast<float>(want[i])) << "element " << i;
}

TEST_F(MatrixTest, MmaSyncBfloat16M16N8K8) {
  const int m = 16, n = 8, k = 8;
  auto a = integers(m, k, -20, 20, 22), b = integers(k, n, -20, 20, 23);
  auto* da = upload<uint16_t>(a, bfloat);
  auto* db = upload<uint16_t>(b, bfloat);
  auto* dd = allocate<float>(m * n);
  runWarp("mma_bf16_m16n8k8", da, db, dd);
  const auto want = product(a, b, {}, m, n, k);
  for (int i = 0; i < m * n; ++i)
    ASSERT_EQ(dd[i], static_cast<float>(want[i])) << "element " << i;
}

TEST_F(MatrixTest, MmaSyncTf32M16N8K8) {
  const int m = 16, n = 8, k = 8;
  auto a = integers(m, k, -300, 300, 24), b = integers(k, n, -300, 300, 25);
  auto* da = upload<float>(a, [](int v) { return static_cast<float>(v); });
  auto* db = upload<float>(b, [](int v) { return static_cast<float>(v); });
  auto* dd = allocate<float>(m * n);
  runWarp("mma_tf32_m16n8k8", da, db, dd);
  const auto want = product(a, b, {}, m, n, k);
  for (int i = 0; i < m * n; ++i)
    ASSERT_EQ(dd[i], static_cast<float>(want[i])) << "element " << i;
}

TEST_F(MatrixTest, MmaSyncDoubleM8N8K4) {
  const int m = 8, n = 8, k = 4;
  auto a = integers(m, k, -999, 999, 26), b = integers(k, n, -999, 999, 27);
  auto c = integers(m, n, -5000, 5000, 28);
  auto* da = upload<double>(a, [](int v) { return static_cast<double>(v); });
  auto* db = upload<double>(b, [](int v) { return static_cast<double>(v); });
  auto* dc = upload<double>(c, [](int v) { return static_cast<double>(v); });
  auto* dd = allocate<double>(m * n);
  runWarp("mma_f64_m8n8k4", da, db, dc, dd);
  const auto want = product(a, b, c, m, n, k);
  for (int i = 0; i < m * n; ++i)
    ASSERT_EQ(dd[i], static_cast<double>(want[i])) << "element " << i;
}

TEST_F(MatrixTest, MmaSyncSignedBytesM16N8K32) {
  const int m = 16, n = 8, k = 32;
  auto a = integers(m, k, -128, 127, 29), b = integers(k, n, -128, 127, 30);
  auto* da = upload<int8_t>(a, [](int v) { return static_cast<int8_t>(v); });
  auto* db = upload<int8_t>(b, [](int v) { return static_cast<int8_t>(v); });
  auto* dd = allocate<int32_t>(m * n);
  runWarp("mma_s8_m16n8k32", da, db, dd);
  const auto want = product(a, b, {}, m, n, k);
  for (int i = 0; i < m * n; ++i)
    ASSERT_EQ(dd[i], want[i]) << "element " << i;
}

TEST_F(MatrixTest, LdmatrixX4AndTransposeFollowTheIsaLayout) {
  // Element (r, c) of the 16 x 16 tile is r * 16 + c (exact in f16).
  std::vector<int> tile(256);
  for (int i = 0; i < 256; ++i)
    tile[i] = i;
  auto* dt = upload<uint16_t>(tile, half);
  auto* out = allocate<uint32_t>(32 * 4);
  auto* outTrans = allocate<uint32_t>(32 * 4);
  runWarp("ldmatrix_x4", dt, out, outTrans);
  // Matrix q (rows of lanes 8q..8q+7) covers tile rows (q % 2) * 8.., columns (q / 2) * 8..;
  // lane l holds its row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1 (.trans: transposed).
  for (int lane = 0; lane < 32; ++lane)
    for (int q = 0; q < 4; ++q) {
      const int rowBase = (q % 2) * 8, columnBase = (q / 2) * 8;
      for (int h = 0; h < 2; ++h) {
        const int r = lane / 4, c = 2 * (lane % 4) + h;
        const uint16_t got = static_cast<uint16_t>(out[lane * 4 + q] >> (16 * h));
        const uint16_t gotTrans = static_cast<uint16_t>(outTrans[lane * 4 + q] >> (16 * h));
        EXPECT_EQ(halfToFloat(got), static_cast<float>((rowBase + r) * 16 + columnBase + c))
            << "lane " << lane << " matrix " << q << " half " << h;
        EXPECT_EQ(halfToFloat(gotTrans), static_cast<float>((rowBase + c) * 16 + columnBase + r))
            << "lane " << lane << " matrix " << q << " half " << h << " (.trans)";
      }
    }
}

} // namespace
} // namespace ocelot::runtime::cpu::test
