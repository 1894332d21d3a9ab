// Whole kernels compiled by nvcc (tests/cpu/ptx/kernels.cu) against C++ reference results, and the
// error paths a GPU has: faults, barrier divergence, the watchdog, sticky errors.

#include "CpuDeviceFixture.h"
#include "runtime/core/CopyRegion.h"
#include "runtime/core/HostMemory.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <numeric>
#include <unistd.h>

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

size_t residentBytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

TEST_F(CpuDeviceTest, StackLimitsAreThoseOfTheGpuAndStacksComeAsTheyAreUsed) {
  size_t stack = 0;
  // As an H200 answers: too large is refused and the limit stays; sizes round up to 16 bytes.
  EXPECT_EQ(device_->setLimit(cudaLimitStackSize, size_t{1} << 40), cudaErrorInvalidValue);
  EXPECT_EQ(device_->setLimit(cudaLimitStackSize, kMaxStackBytes + 1), cudaErrorInvalidValue);
  ASSERT_EQ(device_->limit(cudaLimitStackSize, &stack), cudaSuccess);
  EXPECT_EQ(stack, 1024u);
  ASSERT_EQ(device_->setLimit(cudaLimitStackSize, 1000), cudaSuccess);
  ASSERT_EQ(device_->limit(cudaLimitStackSize, &stack), cudaSuccess);
  EXPECT_EQ(stack, 1008u);

  // The largest stack for 1024 recursing threads: reserved for each, taken only as used (the
  // stacks were once zeroed up front: gigabytes for one CTA).
  ASSERT_EQ(device_->setLimit(cudaLimitStackSize, kMaxStackBytes), cudaSuccess);
  DeviceFunction kernel = load(kernelsPtx(), "recursion");
  int* out = allocate<int>(1024);
  const size_t before = residentBytes();
  ASSERT_EQ(launch(kernel, dim3(4), dim3(1024), 0, out), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  EXPECT_LT(residentBytes() - std::min(before, residentBytes()), size_t{512} << 20);
  auto fib = [](auto& self, int k) -> int {
    return k < 2 ? k : self(self, k - 1) + self(self, k - 2);
  };
  for (int i = 0; i < 1024; ++i)
    ASSERT_EQ(out[i], fib(fib, i % 12)) << i;
}

TEST_F(CpuDeviceTest, ThePrintfFifoHoldsWhatItHoldsOnTheGpu) {
  size_t fifo = 0;
  ASSERT_EQ(device_->setLimit(cudaLimitPrintfFifoSize, 64 << 10), cudaSuccess);
  ASSERT_EQ(device_->limit(cudaLimitPrintfFifoSize, &fifo), cudaSuccess);
  EXPECT_EQ(fifo, kMinPrintfFifoBytes); // the GPU's smallest FIFO
  DeviceFunction kernel = load(kernelsPtx(), "printer");
  testing::internal::CaptureStdout();
  // 2 lines per CTA: 4,000 lines, of which the 512 KiB FIFO holds 2,048.
  ASSERT_EQ(launch(kernel, dim3(2000), dim3(32), 0, 7), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess);
  const std::string text = testing::internal::GetCapturedStdout();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), kMinPrintfFifoBytes / kPrintfRecordBytes);
  // The next launch has a FIFO of its own.
  testing::internal::CaptureStdout();
  ASSERT_EQ(launch(kernel, dim3(1), dim3(32), 0, 8), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess);
  EXPECT_EQ(testing::internal::GetCapturedStdout(),
            "hello 8 from 0 1.500000 str\nhello 8 from 1 1.500000 str\n");
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

TEST_F(CpuDeviceTest, AWriteJustPastAnAllocationLandsInNoOtherAllocation) {
  // A one-past-the-end write once landed in the next allocation (often the launch's own parameter
  // buffer, so later warps read corrupted parameters); the guard after each allocation takes it.
  DeviceFunction kernel = load(kernelsPtx(), "saxpy");
  float* x = allocate<float>(512);
  float* y = allocate<float>(256); // 1024 bytes: no alignment slack after it
  float* next = allocate<float>(256);
  for (int i = 0; i < 256; ++i)
    next[i] = 7.0f;
  const auto end = reinterpret_cast<uintptr_t>(y + 256);
  EXPECT_GE(reinterpret_cast<uintptr_t>(next), end + DeviceMemory::kGuardBytes);
  EXPECT_FALSE(device_->memory().find(end).has_value());
  ASSERT_EQ(launch(kernel, dim3(1), dim3(288), 0, 257, 1.0f, x, y), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  for (int i = 0; i < 256; ++i)
    ASSERT_EQ(next[i], 7.0f) << i;

  // The memory checker reports the same write.
  device_->options().memcheck = true;
  ASSERT_EQ(launch(kernel, dim3(1), dim3(288), 0, 257, 1.0f, x, y), cudaSuccess);
  EXPECT_EQ(device_->synchronize(), cudaErrorIllegalAddress);
  EXPECT_NE(device_->faultMessage().find("thread (256,0,0)"), std::string::npos)
      << device_->faultMessage();
}

TEST_F(CpuDeviceTest, ModuleErrorsAreThoseOfNvidiasRuntime) {
  ModuleImage image;
  image.form = ModuleImage::Form::Ptx;
  image.label = "test module";
  image.ptx = {".version 99.9\n.target sm_90\n.address_size 64\n"};
  DeviceModule module = nullptr;
  std::string log;
  EXPECT_EQ(device_->loadModule(image, &module, &log), cudaErrorUnsupportedPtxVersion) << log;
  image.ptx = {".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k( {\n"};
  EXPECT_EQ(device_->loadModule(image, &module, &log), cudaErrorInvalidPtx) << log;

  // An opcode no PTX ISA has parses (the front end is version-tolerant) but is invalid PTX, as
  // ptxas says: not merely something the CPU device does not support yet.
  DeviceFunction kernel = load(".version 8.0\n.target sm_90\n.address_size 64\n"
                               ".visible .entry k() {\n.reg .b32 %r<2>;\n"
                               "frobnicate.b32 %r1, 1;\nret;\n}\n",
                               "k");
  ASSERT_NE(kernel, nullptr);
  testing::internal::CaptureStderr();
  EXPECT_EQ(launch(kernel, dim3(1), dim3(32), 0), cudaErrorInvalidPtx);
  const std::string message = testing::internal::GetCapturedStderr();
  EXPECT_NE(message.find("frobnicate"), std::string::npos) << message;
}

TEST_F(CpuDeviceTest, TheWatchdogIsOnByDefault) {
  // Unless OCELOT_CPU_WATCHDOG_MS says otherwise, a kernel that never ends fails the launch after
  // the default limit instead of hanging the application.
  if (std::getenv("OCELOT_CPU_WATCHDOG_MS") == nullptr) {
    EXPECT_EQ(device_->options().watchdogMs, kDefaultWatchdogMs);
  }
  EXPECT_GT(kDefaultWatchdogMs, kLongLaunchReportMs);
}

TEST_F(CpuDeviceTest, ALongLaunchIsReportedOnceBeforeTheWatchdogFailsIt) {
  device_->options().watchdogMs = 600;
  device_->options().longLaunchReportMs = 100;
  DeviceFunction kernel = load(kernelsPtx(), "spin");
  int* flag = allocate<int>(1);
  *flag = 0;
  testing::internal::CaptureStderr();
  ASSERT_EQ(launch(kernel, dim3(2), dim3(32), 0, flag), cudaSuccess);
  EXPECT_EQ(device_->synchronize(), cudaErrorLaunchTimeout);
  const std::string log = testing::internal::GetCapturedStderr();
  const std::string report = "kernel spin has run for 100 ms on the CPU device (CTA (";
  const size_t first = log.find(report);
  ASSERT_NE(first, std::string::npos) << log;
  EXPECT_EQ(log.find(report, first + 1), std::string::npos) << "reported twice: " << log;
  EXPECT_NE(log.find("after 600 ms (OCELOT_CPU_WATCHDOG_MS"), std::string::npos) << log;
}

TEST_F(CpuDeviceTest, CopiesAndFillsOfMemoryTheDeviceDoesNotOwnAreRefused) {
  // Each of these once crashed the stream thread or wrote into the neighbouring allocation.
  char* d = allocate<char>(1024);
  char* neighbour = allocate<char>(1024);
  std::memset(neighbour, 0x5a, 1024);
  char* freed = allocate<char>(1024);
  ASSERT_EQ(device_->free(freed), cudaSuccess);
  static char host[4096];
  DeviceMemory& memory = device_->memory();
  // Inside the arena but in no allocation: beyond everything allocated so far.
  char* unallocated = reinterpret_cast<char*>(memory.arenaBase() + memory.arenaSize() / 2);
  struct Copy {
    const char* what;
    void* destination;
    const void* source;
    size_t bytes;
  };
  const Copy refused[] = {
      {"never allocated", unallocated, host, 16},
      {"freed destination", freed, host, 16},
      {"freed source", host, freed, 16},
      {"past the end", d + 1000, host, 100},
      {"SIZE_MAX bytes", d, host, SIZE_MAX},
      {"1 GiB into 1 KiB", d, host, size_t{1} << 30},
      {"unmapped host memory", host, reinterpret_cast<void*>(uintptr_t{16}), 16},
  };
  for (const Copy& copy : refused) {
    EXPECT_EQ(calls_->copy(copy.destination, copy.source, copy.bytes, nullptr, false),
              cudaErrorInvalidValue)
        << copy.what;
    EXPECT_EQ(calls_->copy(copy.destination, copy.source, copy.bytes, nullptr, true),
              cudaErrorInvalidValue)
        << copy.what << " (async)";
  }
  EXPECT_EQ(calls_->fill(d + 1000, 0, 100, nullptr, false), cudaErrorInvalidValue);
  EXPECT_EQ(calls_->fill(freed, 0, 16, nullptr, false), cudaErrorInvalidValue);
  Stream* stream = calls_->stream(nullptr);
  ASSERT_NE(stream, nullptr);
  EXPECT_EQ(device_->copies()->fill2D(d, 256, 0, 256, 8, *stream, false), cudaErrorInvalidValue);
  CopyRegion rows;
  rows.source = linearMemory(host, 256);
  rows.source.rowsPerSlice = 8;
  rows.destination = linearMemory(d, 256);
  rows.destination.rowsPerSlice = 8;
  rows.widthBytes = 256;
  rows.height = 8;
  EXPECT_EQ(device_->copies()->copy3D(rows, *stream, false), cudaErrorInvalidValue);
  rows.height = 4; // exactly the allocation
  EXPECT_EQ(device_->copies()->copy3D(rows, *stream, false), cudaSuccess);
  // Copies within an allocation and to and from host memory still work.
  EXPECT_EQ(calls_->copy(d + 1000, host, 24, nullptr, false), cudaSuccess);
  EXPECT_EQ(calls_->copy(host, d, 1024, nullptr, false), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess);
  for (int i = 0; i < 1024; ++i)
    ASSERT_EQ(neighbour[i], 0x5a) << i;
}

TEST_F(CpuDeviceTest, CopyKindsMustNameDeviceMemoryWhereTheyPromiseIt) {
  char* d = allocate<char>(64);
  static char host[64];
  void* pinned = nullptr;
  ASSERT_EQ(device_->hostMemory()->allocate(&pinned, 64, 0), cudaSuccess);
  EXPECT_EQ(device_->checkCopyKind(host, d, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(device_->checkCopyKind(d, host, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  EXPECT_EQ(device_->checkCopyKind(host, host, cudaMemcpyDeviceToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(device_->checkCopyKind(d, host, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(device_->checkCopyKind(host, d, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(device_->checkCopyKind(pinned, d, cudaMemcpyDeviceToDevice), cudaSuccess);
  EXPECT_EQ(device_->checkCopyKind(d, d, cudaMemcpyHostToHost), cudaSuccess);
  EXPECT_EQ(device_->checkCopyKind(host, host, cudaMemcpyDefault), cudaSuccess);
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
