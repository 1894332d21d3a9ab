// Asynchronous streams and events of the CPU device: in-order execution on stream threads,
// cudaErrorNotReady while work is pending (shown deterministically with a "gate" kernel spinning
// on a flag the test opens), the legacy default stream's implicit synchronization, per-thread
// default streams, cross-stream waits, event timing, host functions, and bad handles.

#include "CpuDeviceFixture.h"
#include "runtime/cpu/HostThread.h"

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

namespace ocelot::runtime::cpu::test {
namespace {

class CpuStreamTest : public CpuDeviceTest {
protected:
  void SetUp() override {
    CpuDeviceTest::SetUp();
    spin_ = load(kernelsPtx(), "spin");
    write_ = load(kernelsPtx(), "write_value");
    flag_ = allocate<int>(1);
    *flag_ = 0;
    values_ = allocate<int>(8);
    for (int i = 0; i < 8; ++i)
      values_[i] = 0;
  }
  void TearDown() override {
    open(); // never leave a gate closed behind a failed assertion
    device_->synchronize();
  }

  /// Queues a kernel that spins until open().
  void close(cudaStream_t stream) { ASSERT_EQ(launchOn(stream, spin_, flag_), cudaSuccess); }
  void open() { reinterpret_cast<volatile int*>(flag_)[0] = 1; }

  template <class... Args>
  cudaError_t launchOn(cudaStream_t stream, DeviceFunction function, Args... args) {
    void* pointers[] = {static_cast<void*>(&args)..., nullptr};
    LaunchParams params;
    params.function = function;
    params.grid = dim3(1);
    params.block = dim3(32);
    params.stream = calls_->stream(stream);
    params.args = pointers;
    return device_->launch(params);
  }
  cudaError_t write(cudaStream_t stream, int index, int value) {
    return launchOn(stream, write_, values_ + index, value);
  }
  cudaEvent_t recorded(cudaStream_t stream, unsigned int flags = cudaEventDisableTiming) {
    cudaEvent_t event = nullptr;
    EXPECT_EQ(calls_->createEvent(&event, flags), cudaSuccess);
    EXPECT_EQ(calls_->recordEvent(event, stream), cudaSuccess);
    return event;
  }
  cudaStream_t created(unsigned int flags = 0) {
    cudaStream_t stream = nullptr;
    EXPECT_EQ(calls_->createStream(&stream, flags, 0), cudaSuccess);
    return stream;
  }

  DeviceFunction spin_ = nullptr, write_ = nullptr;
  int* flag_ = nullptr;
  int* values_ = nullptr;
};

TEST_F(CpuStreamTest, WorkRunsInOrderAfterTheCallReturns) {
  cudaStream_t s = created();
  close(s);
  ASSERT_EQ(write(s, 0, 7), cudaSuccess);
  cudaEvent_t after = recorded(s);
  EXPECT_EQ(calls_->queryStream(s), cudaErrorNotReady);
  EXPECT_EQ(calls_->queryEvent(after), cudaErrorNotReady);
  EXPECT_EQ(values_[0], 0); // queued behind the gate
  open();
  ASSERT_EQ(calls_->synchronizeStream(s), cudaSuccess);
  EXPECT_EQ(values_[0], 7);
  EXPECT_EQ(calls_->queryStream(s), cudaSuccess);
  EXPECT_EQ(calls_->queryEvent(after), cudaSuccess);
}

TEST_F(CpuStreamTest, LegacyStreamWaitsForBlockingStreamsOnly) {
  cudaStream_t blocking = created();
  cudaStream_t nonBlocking = created(cudaStreamNonBlocking);
  close(blocking);
  ASSERT_EQ(write(nullptr, 0, 1), cudaSuccess);
  cudaEvent_t onLegacy = recorded(nullptr);
  ASSERT_EQ(write(nonBlocking, 1, 2), cudaSuccess);
  cudaEvent_t onNonBlocking = recorded(nonBlocking);
  ASSERT_EQ(calls_->synchronizeEvent(onNonBlocking), cudaSuccess);
  EXPECT_EQ(values_[1], 2);
  EXPECT_EQ(calls_->queryEvent(onLegacy), cudaErrorNotReady);
  EXPECT_EQ(calls_->queryStream(cudaStreamLegacy), cudaErrorNotReady);
  open();
  ASSERT_EQ(calls_->synchronizeEvent(onLegacy), cudaSuccess);
  EXPECT_EQ(values_[0], 1);
}

TEST_F(CpuStreamTest, BlockingStreamsWaitForTheLegacyStream) {
  cudaStream_t blocking = created();
  cudaStream_t nonBlocking = created(cudaStreamNonBlocking);
  close(cudaStreamLegacy);
  ASSERT_EQ(write(blocking, 0, 3), cudaSuccess);
  cudaEvent_t onBlocking = recorded(blocking);
  ASSERT_EQ(write(nonBlocking, 1, 4), cudaSuccess);
  ASSERT_EQ(calls_->synchronizeStream(nonBlocking), cudaSuccess);
  EXPECT_EQ(values_[1], 4);
  EXPECT_EQ(calls_->queryEvent(onBlocking), cudaErrorNotReady);
  open();
  ASSERT_EQ(calls_->synchronizeStream(blocking), cudaSuccess);
  EXPECT_EQ(values_[0], 3);
}

TEST_F(CpuStreamTest, PerThreadDefaultStreamsAreIndependentButBlocking) {
  std::atomic<bool> held{false};
  std::thread other([&] {
    close(cudaStreamPerThread);
    held = true;
  });
  other.join();
  ASSERT_TRUE(held);
  // This thread's own default stream is not held up by the other thread's.
  ASSERT_EQ(write(cudaStreamPerThread, 0, 5), cudaSuccess);
  ASSERT_EQ(calls_->synchronizeStream(cudaStreamPerThread), cudaSuccess);
  EXPECT_EQ(values_[0], 5);
  // The legacy stream synchronizes with per-thread streams.
  cudaEvent_t onLegacy = recorded(cudaStreamLegacy);
  EXPECT_EQ(calls_->queryEvent(onLegacy), cudaErrorNotReady);
  open();
  ASSERT_EQ(calls_->synchronizeEvent(onLegacy), cudaSuccess);
}

TEST_F(CpuStreamTest, WaitEventOrdersStreams) {
  cudaStream_t first = created(cudaStreamNonBlocking);
  cudaStream_t second = created(cudaStreamNonBlocking);
  close(first);
  ASSERT_EQ(write(first, 0, 10), cudaSuccess);
  cudaEvent_t written = recorded(first);
  ASSERT_EQ(calls_->waitEvent(second, written, 0), cudaSuccess);
  ASSERT_EQ(write(second, 0, 20), cudaSuccess); // must run after the first write
  EXPECT_EQ(calls_->queryStream(second), cudaErrorNotReady);
  open();
  ASSERT_EQ(calls_->synchronizeStream(second), cudaSuccess);
  EXPECT_EQ(values_[0], 20);
  // Recording again moves the event; an earlier wait keeps the record it saw.
  cudaEvent_t never = nullptr;
  ASSERT_EQ(calls_->createEvent(&never, 0), cudaSuccess);
  EXPECT_EQ(calls_->waitEvent(second, never, 0), cudaSuccess); // never recorded: no wait
  EXPECT_EQ(calls_->queryEvent(never), cudaSuccess);
  EXPECT_EQ(calls_->synchronizeEvent(never), cudaSuccess);
}

TEST_F(CpuStreamTest, EventTimingMeasuresWhenTheWorkFinished) {
  cudaStream_t s = created();
  cudaEvent_t start = recorded(s, 0);
  close(s);
  cudaEvent_t end = recorded(s, 0);
  float ms = -1;
  EXPECT_EQ(calls_->elapsedTime(&ms, start, end), cudaErrorNotReady);
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  open();
  ASSERT_EQ(calls_->synchronizeEvent(end), cudaSuccess);
  ASSERT_EQ(calls_->elapsedTime(&ms, start, end), cudaSuccess);
  EXPECT_GE(ms, 50.0f);
  EXPECT_EQ(calls_->elapsedTime(&ms, end, start), cudaSuccess);
  EXPECT_LE(ms, -50.0f);
}

TEST_F(CpuStreamTest, HostFunctionsRunInStreamOrderOnAnotherThread) {
  cudaStream_t s = created();
  struct Record {
    std::thread::id thread;
    int* values;
    int seen = -1;
  } record{std::this_thread::get_id(), values_};
  ASSERT_EQ(write(s, 0, 42), cudaSuccess);
  ASSERT_EQ(calls_->launchHostFunction(
                s,
                [](void* data) {
                  auto* r = static_cast<Record*>(data);
                  r->seen = r->values[0]; // the kernel before it has run
                  r->thread = std::this_thread::get_id();
                },
                &record),
            cudaSuccess);
  ASSERT_EQ(calls_->synchronizeStream(s), cudaSuccess);
  EXPECT_EQ(record.seen, 42);
  EXPECT_NE(record.thread, std::this_thread::get_id());
}

TEST_F(CpuStreamTest, SynchronousCopyWaitsLikeTheLegacyStream) {
  cudaStream_t blocking = created();
  close(blocking);
  ASSERT_EQ(write(blocking, 0, 99), cudaSuccess);
  int out = 0;
  auto copied = std::async(std::launch::async,
                           [&] { return calls_->copy(&out, values_, sizeof out, nullptr, false); });
  EXPECT_EQ(copied.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout);
  open();
  EXPECT_EQ(copied.get(), cudaSuccess);
  EXPECT_EQ(out, 99);
}

TEST_F(CpuStreamTest, AsynchronousCopyFromPageableMemoryReadsItWhenIssued) {
  cudaStream_t s = created();
  close(s);
  int source = 11;
  ASSERT_EQ(calls_->copy(values_, &source, sizeof source, s, true), cudaSuccess);
  source = 12; // staged already, as CUDA stages pageable memory
  open();
  ASSERT_EQ(calls_->synchronizeStream(s), cudaSuccess);
  EXPECT_EQ(values_[0], 11);
}

TEST_F(CpuStreamTest, DestroyingAStreamWithPendingWorkCompletesTheWork) {
  cudaStream_t s = created();
  close(s);
  ASSERT_EQ(write(s, 3, 4321), cudaSuccess);
  ASSERT_EQ(calls_->destroyStream(s), cudaSuccess);
  EXPECT_EQ(calls_->queryStream(s), cudaErrorInvalidResourceHandle);
  open();
  ASSERT_EQ(device_->synchronize(), cudaSuccess);
  EXPECT_EQ(values_[3], 4321);
}

TEST_F(CpuStreamTest, AFaultIsStickyAndLaterWorkIsDropped) {
  DeviceFunction oob = load(kernelsPtx(), "oob");
  cudaStream_t s = created(cudaStreamNonBlocking);
  ASSERT_EQ(launchOn(s, oob, reinterpret_cast<int*>(0x100)), cudaSuccess);
  (void)write(s, 0, 1);
  EXPECT_EQ(calls_->synchronizeStream(s), cudaErrorIllegalAddress);
  EXPECT_EQ(values_[0], 0);
  EXPECT_EQ(device_->synchronize(), cudaErrorIllegalAddress);
  EXPECT_EQ(device_->reset(), cudaSuccess);
  values_ = nullptr; // the reset released the device's memory
  flag_ = allocate<int>(1);
  *flag_ = 1;
}

TEST_F(CpuStreamTest, BadHandlesAndEventErrors) {
  auto bogusStream = reinterpret_cast<cudaStream_t>(0x1234);
  auto bogusEvent = reinterpret_cast<cudaEvent_t>(0x5678);
  cudaEvent_t event = nullptr;
  ASSERT_EQ(calls_->createEvent(&event, 0), cudaSuccess);
  EXPECT_EQ(calls_->queryStream(bogusStream), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(calls_->synchronizeStream(bogusStream), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(calls_->recordEvent(event, bogusStream), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(calls_->recordEvent(bogusEvent, nullptr), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(calls_->waitEvent(nullptr, bogusEvent, 0), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(calls_->queryEvent(bogusEvent), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(calls_->destroyStream(bogusStream), cudaErrorInvalidResourceHandle);
  float ms = 0;
  cudaEvent_t other = nullptr;
  ASSERT_EQ(calls_->createEvent(&other, 0), cudaSuccess);
  EXPECT_EQ(calls_->elapsedTime(&ms, event, other), cudaErrorInvalidResourceHandle); // unrecorded
  cudaEvent_t untimed = recorded(nullptr, cudaEventDisableTiming);
  ASSERT_EQ(calls_->recordEvent(event, nullptr), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess);
  EXPECT_EQ(calls_->elapsedTime(&ms, event, untimed), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(calls_->destroyEvent(event), cudaSuccess);
  EXPECT_EQ(calls_->destroyEvent(event), cudaErrorInvalidResourceHandle);
}

TEST_F(CpuStreamTest, SeveralHostThreadsUseTheDeviceAtOnce) {
  DeviceFunction add = load(kernelsPtx(), "add_value");
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      cudaStream_t s = created(cudaStreamNonBlocking);
      for (int i = 0; i < 20; ++i)
        EXPECT_EQ(launchOn(s, add, values_ + t, 1), cudaSuccess);
      EXPECT_EQ(calls_->synchronizeStream(s), cudaSuccess);
      EXPECT_EQ(calls_->destroyStream(s), cudaSuccess);
    });
  for (auto& thread : threads)
    thread.join();
  for (int t = 0; t < 4; ++t)
    EXPECT_EQ(values_[t], 20);
}

} // namespace
} // namespace ocelot::runtime::cpu::test

namespace {

// Native code of a large kernel (quick code generation) may have a frame of tens of MB: the
// threads that run kernels must have room for it, which a std::thread's 8 MB stack has not.
TEST(HostThreadTest, HasRoomForALargeNativeFrame) {
  std::atomic<uint64_t> sum{0};
  ocelot::runtime::cpu::HostThread thread([&] {
    constexpr size_t kBytes = size_t{64} << 20;
    volatile unsigned char* frame = static_cast<unsigned char*>(__builtin_alloca(kBytes));
    for (size_t i = 0; i < kBytes; i += 4096)
      frame[i] = static_cast<unsigned char>(i >> 12);
    uint64_t total = 0;
    for (size_t i = 0; i < kBytes; i += 4096)
      total += frame[i];
    sum = total;
  });
  thread.join();
  EXPECT_FALSE(thread.joinable());
  uint64_t expected = 0;
  for (size_t i = 0; i < (size_t{64} << 20); i += 4096)
    expected += static_cast<unsigned char>(i >> 12);
  EXPECT_EQ(sum.load(), expected);
}

TEST(HostThreadTest, JoinsWhenDestroyedAndWhenAssignedOver) {
  std::atomic<int> ran{0};
  {
    ocelot::runtime::cpu::HostThread first([&] { ++ran; });
    first = ocelot::runtime::cpu::HostThread([&] { ++ran; });
  }
  EXPECT_EQ(ran.load(), 2);
}

} // namespace
