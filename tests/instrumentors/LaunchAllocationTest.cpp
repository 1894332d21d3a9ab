// Issue 14: an instrumented launch makes no allocation on the launching thread once the kernel's
// instrumented module exists. This binary replaces the global operator new with one that counts
// the calls the counting thread makes, and launches a kernel under bbcount and ctaclock over the
// fake device (tests/runtime/FakePlatform.h). Its own binary: the replacement applies to the
// whole program.

#include "FakeInstrumentedRuntime.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <execinfo.h>
#include <new>
#include <unistd.h>

namespace {

thread_local bool tCounting = false;
thread_local uint64_t tAllocations = 0;

/// OCELOT_TEST_ALLOCATION_TRACE=1: each counted allocation's stack on stderr (to find a new one).
void counted() {
  ++tAllocations;
  static const bool trace = std::getenv("OCELOT_TEST_ALLOCATION_TRACE") != nullptr;
  if (!trace)
    return;
  tCounting = false; // backtrace() may allocate
  void* frames[24];
  const int depth = backtrace(frames, 24);
  backtrace_symbols_fd(frames, depth, STDERR_FILENO);
  [[maybe_unused]] ssize_t written = ::write(STDERR_FILENO, "--\n", 3);
  tCounting = true;
}

void* allocate(std::size_t bytes) {
  if (tCounting)
    counted();
  if (void* p = std::malloc(bytes == 0 ? 1 : bytes))
    return p;
  throw std::bad_alloc();
}

void* allocateAligned(std::size_t bytes, std::align_val_t alignment) {
  if (tCounting)
    counted();
  const std::size_t align = static_cast<std::size_t>(alignment);
  if (void* p = std::aligned_alloc(align, (bytes + align - 1) / align * align))
    return p;
  throw std::bad_alloc();
}

} // namespace

void* operator new(std::size_t bytes) {
  return allocate(bytes);
}
void* operator new[](std::size_t bytes) {
  return allocate(bytes);
}
void* operator new(std::size_t bytes, std::align_val_t a) {
  return allocateAligned(bytes, a);
}
void* operator new[](std::size_t bytes, std::align_val_t a) {
  return allocateAligned(bytes, a);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}

namespace ocelot::runtime::testing {
namespace {

// A C++ kernel: its mangled name is longer than a std::string holds without allocating.
const std::string kPtx = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry _Z16accumulateValuesPfS_i(.param .u64 out, .param .u64 in, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  add.u32 %r2, %r1, 1;
DONE:
  ret;
}
)";

StaticImage<1> gImage;
char gKernelStub;

class LaunchAllocations : public FakeInstrumentedRuntime {
protected:
  void SetUp() override {
#if defined(__SANITIZE_ADDRESS__)
    // ASan's allocator takes some of the library's operator new[] calls from this file's
    // replacement, and then reports the replacement's free() as a mismatch.
    GTEST_SKIP() << "replaces the global operator new, which ASan interposes";
#endif
    void** handle = installAndRegister(gImage, kPtx);
    ASSERT_NE(handle, nullptr);
    runtime.registerFunction(handle, &gKernelStub, "_Z16accumulateValuesPfS_i");
    runtime.registerFatBinaryEnd(handle);
    // The fake device records each launch (with its name): only a count, so that it allocates
    // nothing itself.
    device.recordLaunches = false;
  }
  cudaError_t launch() {
    void* out = nullptr;
    void* in = nullptr;
    int n = 0;
    void* args[] = {&out, &in, &n};
    return runtime.launchKernel(&gKernelStub, dim3(2), dim3(32), args, 0, nullptr);
  }
  /// Allocations per launch, on this thread, over `count` launches after `warmup` launches.
  /// Completions are held back (the fake events answer "not ready") while launches are made, so
  /// that every launch of a phase is in flight at once: the warmup leaves as many launch records
  /// and events in the pools as the measured launches need, whatever the worker's timing.
  double allocationsPerLaunch(int warmup, int count) {
    device.queryResult = cudaErrorNotReady;
    for (int i = 0; i < warmup; ++i)
      EXPECT_EQ(launch(), cudaSuccess);
    device.queryResult = cudaSuccess;
    framework().flush();
    device.queryResult = cudaErrorNotReady;
    tAllocations = 0;
    tCounting = true;
    for (int i = 0; i < count; ++i)
      if (launch() != cudaSuccess)
        ADD_FAILURE() << "launch " << i;
    tCounting = false;
    const uint64_t allocations = tAllocations;
    device.queryResult = cudaSuccess;
    framework().flush();
    return static_cast<double>(allocations) / count;
  }
};

TEST_F(LaunchAllocations, TheCountingOperatorNewSeesAllocations) {
  // The test's own instrument works: a launch before the module exists allocates plenty.
  framework().add("bbcount", {});
  tAllocations = 0;
  tCounting = true;
  EXPECT_EQ(launch(), cudaSuccess);
  tCounting = false;
  EXPECT_GT(tAllocations, 10u);
  framework().flush();
}

TEST_F(LaunchAllocations, AnInstrumentedLaunchAllocatesNothingOnTheLaunchingThread) {
  framework().add("bbcount", {});
  framework().add("ctaclock", {});
  const double perLaunch = allocationsPerLaunch(256, 200);
  EXPECT_EQ(perLaunch, 0.0) << "allocations per instrumented launch (bbcount,ctaclock)";
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_TRUE(profile->instrumented()) << (profile->notes().empty() ? "" : profile->notes()[0]);
  EXPECT_EQ(profile->launch().kernelName, "_Z16accumulateValuesPfS_i");
  EXPECT_EQ(device.launchCount.load(), 256u + 200u);
}

TEST_F(LaunchAllocations, AnUninstrumentedLaunchAllocatesNothing) {
  EXPECT_EQ(allocationsPerLaunch(256, 200), 0.0);
}

} // namespace
} // namespace ocelot::runtime::testing
