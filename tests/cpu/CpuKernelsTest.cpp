// Whole kernels compiled by nvcc (tests/cpu/ptx/kernels.cu) against C++ reference results, and the
// error paths a GPU has: faults, barrier divergence, the watchdog, sticky errors.

#include "CpuDeviceFixture.h"

#include <cmath>
#include <numeric>

namespace ocelot::runtime::cpu::test {
namespace {

TEST_F(CpuDeviceTest, Saxpy) {
  DeviceFunction kernel = load(kernelsPtx(), "saxpy");
  const int n = 1000;
  float* x = allocate<float>(n);
  float* y = allocate<float>(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  ASSERT_EQ(launch(kernel, dim3((n + 127) / 128), dim3(128), 0, n, 2.0f, x, y), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(y[i], 2.0f * static_cast<float>(i) + 1.0f) << i;
}

TEST_F(CpuDeviceTest, TiledMatmulWithSharedMemoryAndBarriers) {
  DeviceFunction kernel = load(kernelsPtx(), "matmul");
  const int n = 64;
  float* a = allocate<float>(n * n);
  float* b = allocate<float>(n * n);
  float* c = allocate<float>(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>(i % 7) - 3.0f;
    b[i] = static_cast<float>(i % 5) * 0.5f;
  }
  ASSERT_EQ(launch(kernel, dim3(n / 16, n / 16), dim3(16, 16), 0, a, b, c, n), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  for (int row = 0; row < n; ++row)
    for (int col = 0; col < n; ++col) {
      float sum = 0;
      for (int k = 0; k < n; ++k)
        sum += a[row * n + k] * b[k * n + col];
      ASSERT_FLOAT_EQ(c[row * n + col], sum) << row << "," << col;
    }
}

TEST_F(CpuDeviceTest, ReductionWithDynamicSharedShuffleAndAtomics) {
  DeviceFunction kernel = load(kernelsPtx(), "reduce");
  const int n = 1 << 16;
  int* in = allocate<int>(n);
  int* out = allocate<int>(1);
  for (int i = 0; i < n; ++i)
    in[i] = i % 13 - 6;
  *out = 0;
  const int threads = 256;
  ASSERT_EQ(
      launch(kernel, dim3(n / (threads * 2)), dim3(threads), threads * sizeof(int), in, out, n),
      cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  long expected = 0;
  for (int i = 0; i < n; ++i)
    expected += in[i];
  EXPECT_EQ(*out, expected);
}

TEST_F(CpuDeviceTest, RecursiveDeviceFunction) {
  DeviceFunction kernel = load(kernelsPtx(), "recursion");
  int* out = allocate<int>(64);
  ASSERT_EQ(launch(kernel, dim3(1), dim3(64), 0, out), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  auto fib = [](auto& self, int k) -> int {
    return k < 2 ? k : self(self, k - 1) + self(self, k - 2);
  };
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(out[i], fib(fib, i % 12)) << i;
}

TEST_F(CpuDeviceTest, PrintfIsWrittenAtTheNextSynchronization) {
  DeviceFunction kernel = load(kernelsPtx(), "printer");
  testing::internal::CaptureStdout();
  ASSERT_EQ(launch(kernel, dim3(1), dim3(32), 0, 7), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess);
  const std::string text = testing::internal::GetCapturedStdout();
  EXPECT_EQ(text, "hello 7 from 0 1.500000 str\nhello 7 from 1 1.500000 str\n");
}

TEST_F(CpuDeviceTest, DeviceMallocAndFree) {
  DeviceFunction kernel = load(kernelsPtx(), "mallocer");
  int* out = allocate<int>(64);
  ASSERT_EQ(launch(kernel, dim3(1), dim3(64), 0, out), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(out[i], 2 * i);
}

TEST_F(CpuDeviceTest, OutOfBoundsAccessFailsTheLaunchAndIsSticky) {
  DeviceFunction kernel = load(kernelsPtx(), "oob");
  // Outside device memory (inside it, only OCELOT_MEMCHECK finds strays: see the next test).
  int* p = reinterpret_cast<int*>(0x100);
  ASSERT_EQ(launch(kernel, dim3(1), dim3(32), 0, p), cudaSuccess); // asynchronous, as on a GPU
  EXPECT_EQ(device_->synchronize(), cudaErrorIllegalAddress);
  const std::string message = device_->faultMessage();
  EXPECT_NE(message.find("kernel oob"), std::string::npos) << message;
  EXPECT_NE(message.find("illegal address"), std::string::npos) << message;
  EXPECT_NE(message.find("CTA (0,0,0)"), std::string::npos) << message;
  EXPECT_NE(message.find("PTX line"), std::string::npos) << message;
  void* more = nullptr;
  EXPECT_EQ(device_->allocate(&more, 16), cudaErrorIllegalAddress); // sticky
  EXPECT_EQ(device_->reset(), cudaSuccess);
  EXPECT_EQ(device_->allocate(&more, 16), cudaSuccess);
}

TEST_F(CpuDeviceTest, MemcheckFindsAccessesPastAnAllocationInsideTheArena) {
  device_->options().memcheck = true;
  DeviceFunction kernel = load(kernelsPtx(), "saxpy");
  float* x = allocate<float>(16);
  float* y = allocate<float>(16);
  // n = 64 but the buffers hold 16: without memcheck the arena hides this.
  ASSERT_EQ(launch(kernel, dim3(1), dim3(64), 0, 64, 1.0f, x, y), cudaSuccess);
  EXPECT_EQ(device_->synchronize(), cudaErrorIllegalAddress);
  const std::string message = device_->faultMessage();
  EXPECT_NE(message.find("thread (16,0,0)"), std::string::npos) << message;
  EXPECT_NE(message.find("source"), std::string::npos) << message;
}

TEST_F(CpuDeviceTest, WatchdogStopsAnInfiniteLoop) {
  device_->options().watchdogMs = 200;
  DeviceFunction kernel = load(kernelsPtx(), "spin");
  int* flag = allocate<int>(1);
  *flag = 0;
  ASSERT_EQ(launch(kernel, dim3(1), dim3(32), 0, flag), cudaSuccess);
  EXPECT_EQ(device_->synchronize(), cudaErrorLaunchTimeout);
  EXPECT_NE(device_->faultMessage().find("watchdog"), std::string::npos);
}

TEST_F(CpuDeviceTest, BarrierDivergenceIsReported) {
  DeviceFunction kernel = load(kernelsPtx(), "divergent_barrier");
  int* p = allocate<int>(64);
  ASSERT_EQ(launch(kernel, dim3(1), dim3(64), 0, p), cudaSuccess);
  EXPECT_EQ(device_->synchronize(), cudaErrorLaunchFailure);
  EXPECT_NE(device_->faultMessage().find("barrier divergence"), std::string::npos)
      << device_->faultMessage();
}

TEST_F(CpuDeviceTest, TrapFailsTheLaunch) {
  DeviceFunction kernel = load(kernelsPtx(), "trapper");
  ASSERT_EQ(launch(kernel, dim3(2), dim3(32), 0), cudaSuccess);
  EXPECT_EQ(device_->synchronize(), cudaErrorLaunchFailure);
}

TEST_F(CpuDeviceTest, EventsTimeExecution) {
  cudaEvent_t start = nullptr, end = nullptr;
  ASSERT_EQ(calls_->createEvent(&start, 0), cudaSuccess);
  ASSERT_EQ(calls_->createEvent(&end, 0), cudaSuccess);
  DeviceFunction kernel = load(kernelsPtx(), "saxpy");
  const int n = 1 << 18;
  float* x = allocate<float>(n);
  float* y = allocate<float>(n);
  ASSERT_EQ(calls_->recordEvent(start, nullptr), cudaSuccess);
  ASSERT_EQ(launch(kernel, dim3(n / 256), dim3(256), 0, n, 2.0f, x, y), cudaSuccess);
  ASSERT_EQ(calls_->recordEvent(end, nullptr), cudaSuccess);
  ASSERT_EQ(calls_->synchronizeEvent(end), cudaSuccess); // the launch is asynchronous
  float ms = 0;
  ASSERT_EQ(calls_->elapsedTime(&ms, start, end), cudaSuccess);
  EXPECT_GT(ms, 0.0f);
}

} // namespace
} // namespace ocelot::runtime::cpu::test
