// The runtime core over a fake device: lazy initialization and the errors NVIDIA's runtime gives
// without a driver or a GPU, registration of real registration data, the module pipeline and its
// fallback, launches, symbol copies, per-thread and sticky errors, and several host threads.

#include "runtime/core/Runtime.h"

#include "FakePlatform.h"
#include "FatbinaryBuilder.h"
#include "StaticImage.h"
#include "ir/Emitter.h"
#include "ir/Parser.h"
#include "runtime/core/PlatformRegistry.h"
#include "runtime/core/Scope.h"
#include "runtime/cpu/CpuPlatform.h"
#include "runtime/instrumentation/InstrumentationFramework.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

namespace ocelot::runtime::testing {
namespace {

const std::string kPtx = R"(.version 9.0
.target sm_90
.address_size 64

.visible .global .align 4 .u32 counter;

.visible .entry kernel(.param .u64 out)
{
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ret;
}
)";

const std::string kHelperPtx = R"(.version 9.0
.target sm_90
.address_size 64

.visible .entry helper()
{
  ret;
}
)";

StaticImage<4> gImage;

const void* place(int slot, const Bytes& container) {
  EXPECT_LE(container.size(), gImage.kSlotBytes);
  return gImage.place(slot, container);
}

const void* wrapper(const void* data, uint32_t version = 1, const void* fatbins = nullptr) {
  return gImage.wrap(data, version, fatbins);
}

/// What Ocelot's pipeline makes of a PTX text with no passes configured: parse, then emit.
std::string throughThePipeline(const std::string& ptx) {
  ir::ParseResult parsed = ir::parsePtx(ptx);
  EXPECT_TRUE(parsed.ok()) << parsed.firstError();
  return parsed.ok() ? ir::emitPtx(*parsed.module) : "";
}

char gKernelStub, gHelperStub, gCounterShadow;
void* gManagedPointer;

class RuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    runtime.thread() = ThreadState{};
    // As the process's runtime is assembled (runtime/api/ProcessRuntime.cpp).
    instrumentation::InstrumentationFramework::installOn(runtime);
  }

  /// Registers a v1 fatbinary with `container`, one kernel and one variable.
  void** registerSample(const Bytes& container) {
    void** handle = runtime.registerFatBinary(wrapper(place(0, container)));
    runtime.registerFunction(handle, &gKernelStub, "kernel");
    RegisteredVariable counter;
    counter.hostAddress = &gCounterShadow;
    counter.deviceName = "counter";
    counter.size = 4;
    runtime.registerVariable(handle, counter);
    runtime.registerFatBinaryEnd(handle);
    return handle;
  }

  cudaError_t launch(const void* stub = &gKernelStub) {
    void* argument = nullptr;
    void* args[] = {&argument};
    return runtime.launchKernel(stub, dim3(2), dim3(32), args, 0, nullptr);
  }

  FakeDevice device;
  Runtime runtime{fakePlatformOf(device), LogLevel::Off, nullptr};
};

TEST(RuntimeWithoutDriver, AnswersLikeNvidiasRuntime) {
  Runtime runtime(
      [] {
        return PlatformResult{nullptr, cudaErrorInsufficientDriver, 0, "none"};
      },
      LogLevel::Off, nullptr);
  runtime.thread() = ThreadState{};
  int count = -7;
  EXPECT_EQ(runtime.getDeviceCount(&count), cudaErrorInsufficientDriver);
  EXPECT_EQ(count, -7);
  EXPECT_EQ(runtime.getLastError(), cudaErrorInsufficientDriver);
  EXPECT_EQ(runtime.getLastError(), cudaErrorInsufficientDriver); // sticky
  EXPECT_EQ(runtime.peekAtLastError(), cudaErrorInsufficientDriver);
  int version = -1;
  EXPECT_EQ(runtime.driverGetVersion(&version), cudaSuccess);
  EXPECT_EQ(version, 0);
  EXPECT_EQ(runtime.runtimeGetVersion(&version), cudaSuccess);
  EXPECT_EQ(version, 13000);
  EXPECT_EQ(runtime.driverGetVersion(nullptr), cudaErrorInvalidValue);
  // Every call that needs a device opens the thread's current device first (cudaMalloc, cudaFree,
  // ...: api_behaviour.cu shows their answers next to NVIDIA's).
  EXPECT_EQ(Scope(runtime).open(), cudaErrorInsufficientDriver);
  EXPECT_EQ(runtime.notImplemented("cudaGraphCreate"), cudaErrorInsufficientDriver);
}

TEST(RuntimeWithoutGpu, ReportsNoDeviceAndAZeroCount) {
  Runtime runtime(
      [] {
        return PlatformResult{nullptr, cudaErrorNoDevice, 13000, "no GPU"};
      },
      LogLevel::Off, nullptr);
  runtime.thread() = ThreadState{};
  int count = -7;
  EXPECT_EQ(runtime.getDeviceCount(&count), cudaErrorNoDevice);
  EXPECT_EQ(count, 0);
  int version = 0;
  EXPECT_EQ(runtime.driverGetVersion(&version), cudaSuccess);
  EXPECT_EQ(version, 13000);
  EXPECT_EQ(runtime.setDevice(0), cudaErrorNoDevice);
}

TEST_F(RuntimeTest, InitializesLazilyAndOnce) {
  registerSample(buildContainer({ptxEntry(kPtx, 90, fatbin::Compression::Zstd)}));
  EXPECT_EQ(device.activations, 0); // registration never touches the device
  int count = 0;
  EXPECT_EQ(runtime.getDeviceCount(&count), cudaSuccess);
  EXPECT_EQ(count, 1);
  EXPECT_EQ(runtime.notImplemented("cudaGraphCreate"), cudaErrorNotSupported);
  EXPECT_EQ(runtime.setDevice(1), cudaErrorInvalidDevice);
  EXPECT_EQ(runtime.setDevice(0), cudaSuccess);
}

TEST_F(RuntimeTest, LaunchesOcelotsModuleBuiltFromThePtx) {
  registerSample(buildContainer({makeEntry(2, 90,
                                           toBytes("\x7f"
                                                   "ELF"),
                                           fatbin::Compression::None),
                                 ptxEntry(kPtx, 80, fatbin::Compression::Lz4),
                                 ptxEntry(kPtx, 90, fatbin::Compression::Zstd)}));
  ASSERT_EQ(launch(), cudaSuccess);
  ASSERT_EQ(device.loaded.size(), 1u);
  const ModuleImage& image = device.loaded.front();
  EXPECT_EQ(image.form, ModuleImage::Form::Ptx);
  ASSERT_EQ(image.ptx.size(), 1u);
  // The module went through parse and emit (which normalizes whitespace only).
  EXPECT_EQ(image.ptx.front(), throughThePipeline(kPtx));
  EXPECT_NE(image.ptx.front(), kPtx);
  ASSERT_EQ(device.launches.size(), 1u);
  EXPECT_EQ(device.launches.front().kernel, "kernel");
  EXPECT_EQ(device.launches.front().grid.x, 2u);
  // The module is loaded once; later launches reuse it and its function.
  ASSERT_EQ(launch(), cudaSuccess);
  EXPECT_EQ(device.loaded.size(), 1u);
  EXPECT_EQ(device.names.size(), 1u);
}

TEST_F(RuntimeTest, FallsBackToTheOriginalWhenTheDeviceRefusesOcelotsModule) {
  device.refuseOcelotModules = true;
  Bytes container = buildContainer({ptxEntry(kPtx, 90)});
  registerSample(container);
  ASSERT_EQ(launch(), cudaSuccess);
  ASSERT_EQ(device.loaded.size(), 1u);
  EXPECT_EQ(device.loaded.front().form, ModuleImage::Form::Original);
  EXPECT_EQ(device.loaded.front().original.size(), container.size());
  EXPECT_EQ(device.loaded.front().original.data(),
            reinterpret_cast<const std::byte*>(gImage.containers[0]));
}

TEST_F(RuntimeTest, FallsBackToTheOriginalWithoutPtxForTheDevice) {
  device.capability = {7, 5}; // the only PTX is for compute_90
  registerSample(buildContainer({ptxEntry(kPtx, 90)}));
  ASSERT_EQ(launch(), cudaSuccess);
  ASSERT_EQ(device.loaded.size(), 1u);
  EXPECT_EQ(device.loaded.front().form, ModuleImage::Form::Original);
}

TEST_F(RuntimeTest, FallsBackToTheOriginalWhenThePtxDoesNotParse) {
  registerSample(buildContainer({ptxEntry(".version 9.0\n.target sm_90\n}}} garbage", 90)}));
  ASSERT_EQ(launch(), cudaSuccess);
  EXPECT_EQ(device.loaded.front().form, ModuleImage::Form::Original);
}

TEST_F(RuntimeTest, CorruptRegistrationDataFailsCleanly) {
  Bytes corrupt = buildContainer({ptxEntry(kPtx, 90)});
  put64(corrupt, 8, uint64_t{1} << 40); // the container claims a terabyte
  void** handle = registerSample(corrupt);
  EXPECT_NE(handle, nullptr);
  EXPECT_EQ(launch(), cudaErrorInvalidKernelImage);
  EXPECT_TRUE(device.loaded.empty());

  // A wrapper whose magic is wrong, and one outside any loaded image.
  Bytes bad(24);
  put32(bad, 0, 0x12345678);
  EXPECT_NE(runtime.registerFatBinary(place(1, bad)), nullptr);
  std::vector<std::byte> heap(64);
  EXPECT_NE(runtime.registerFatBinary(heap.data()), nullptr);
}

TEST_F(RuntimeTest, DeviceLinkedProgramsJitLinkEveryUnit) {
  const void* linked = place(0, buildContainer({makeEntry(2, 90,
                                                          toBytes("\x7f"
                                                                  "ELF"),
                                                          fatbin::Compression::None)}));
  EntrySpec unitA = ptxEntry(kPtx, 80, fatbin::Compression::Zstd);
  unitA.options = "--compile-only";
  EntrySpec unitB = ptxEntry(kHelperPtx, 80, fatbin::Compression::Lz4);
  unitB.options = "--compile-only";
  gImage.prelinked[0] = place(1, buildContainer({unitA}));
  gImage.prelinked[1] = place(2, buildContainer({unitB}));
  gImage.prelinked[2] = nullptr;
  void** handle = runtime.registerFatBinary(wrapper(linked, 2, gImage.prelinked));
  runtime.registerFunction(handle, &gKernelStub, "kernel");
  runtime.registerFunction(handle, &gHelperStub, "helper");
  runtime.registerFatBinaryEnd(handle);

  ASSERT_EQ(launch(&gHelperStub), cudaSuccess);
  ASSERT_EQ(device.loaded.size(), 1u);
  const ModuleImage& image = device.loaded.front();
  EXPECT_EQ(image.form, ModuleImage::Form::LinkedPtx);
  ASSERT_EQ(image.ptx.size(), 2u);
  EXPECT_EQ(image.ptx[0], throughThePipeline(kPtx));
  EXPECT_EQ(image.ptx[1], throughThePipeline(kHelperPtx));
  EXPECT_EQ(device.launches.back().kernel, "helper");
}

TEST_F(RuntimeTest, KernelHandlesFromGetKernel) {
  registerSample(buildContainer({ptxEntry(kPtx, 90)}));
  cudaKernel_t kernel = nullptr;
  ASSERT_EQ(runtime.getKernel(&kernel, &gKernelStub), cudaSuccess);
  void* args[] = {nullptr};
  EXPECT_EQ(runtime.launchKernel(kernel, dim3(1), dim3(1), args, 0, nullptr), cudaSuccess);
  EXPECT_EQ(runtime.getKernel(&kernel, &gHelperStub), cudaErrorInvalidDeviceFunction);
  auto* bogus = reinterpret_cast<cudaKernel_t>(&gHelperStub);
  EXPECT_EQ(runtime.launchKernel(bogus, dim3(1), dim3(1), args, 0, nullptr),
            cudaErrorInvalidResourceHandle);
  // NVIDIA's runtime (13.0): launching an unregistered host function is an invalid handle, an
  // impossible configuration an invalid value.
  EXPECT_EQ(launch(&gHelperStub), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(runtime.launchKernel(&gKernelStub, dim3(0), dim3(1), args, 0, nullptr),
            cudaErrorInvalidValue);
}

TEST_F(RuntimeTest, CallConfigurationsNest) {
  dim3 grid, block;
  size_t shared = 0;
  cudaStream_t stream = nullptr;
  EXPECT_EQ(runtime.popCallConfiguration(&grid, &block, &shared, &stream),
            cudaErrorMissingConfiguration);
  auto* streamA = reinterpret_cast<cudaStream_t>(uintptr_t{0x10});
  EXPECT_EQ(runtime.pushCallConfiguration(dim3(1), dim3(2), 3, streamA), 0u);
  EXPECT_EQ(runtime.pushCallConfiguration(dim3(4), dim3(5), 6, nullptr), 0u);
  ASSERT_EQ(runtime.popCallConfiguration(&grid, &block, &shared, &stream), cudaSuccess);
  EXPECT_EQ(grid.x, 4u);
  EXPECT_EQ(shared, 6u);
  ASSERT_EQ(runtime.popCallConfiguration(&grid, &block, &shared, &stream), cudaSuccess);
  EXPECT_EQ(block.x, 2u);
  EXPECT_EQ(stream, streamA);
}

TEST_F(RuntimeTest, SymbolsResolveThroughTheirRegisteredNames) {
  registerSample(buildContainer({ptxEntry(kPtx, 90)}));
  Device* owner = nullptr;
  void* storage = nullptr;
  size_t bytes = 0;
  ASSERT_EQ(runtime.symbolStorage(&gCounterShadow, &owner, &storage, &bytes), cudaSuccess);
  EXPECT_EQ(owner, &device);
  EXPECT_EQ(storage, device.globals["counter"].data());
  EXPECT_EQ(bytes, 16u);
  void* address = nullptr;
  size_t size = 0;
  EXPECT_EQ(runtime.getSymbolAddress(&address, &gCounterShadow), cudaSuccess);
  EXPECT_EQ(address, device.globals["counter"].data());
  EXPECT_EQ(runtime.getSymbolSize(&size, &gCounterShadow), cudaSuccess);
  EXPECT_EQ(size, 16u);
  // Host memory that is not a registered variable is no symbol (the copies' own checks are the
  // API's: validation.cu).
  uint32_t value = 0;
  EXPECT_EQ(runtime.symbolStorage(&value, &owner, &storage, &bytes), cudaErrorInvalidSymbol);
  EXPECT_EQ(runtime.getSymbolAddress(&address, &value), cudaErrorInvalidSymbol);
}

TEST_F(RuntimeTest, ManagedVariablesGetTheirStorageFromInitModule) {
  void** handle =
      runtime.registerFatBinary(wrapper(place(0, buildContainer({ptxEntry(kPtx, 90)}))));
  RegisteredVariable managed;
  managed.kind = RegisteredVariable::Kind::Managed;
  managed.hostAddress = &gManagedPointer;
  managed.managedPointer = &gManagedPointer;
  managed.deviceName = "counter";
  managed.size = 4;
  runtime.registerVariable(handle, managed);
  runtime.registerFatBinaryEnd(handle);
  gManagedPointer = nullptr;
  EXPECT_TRUE(runtime.initModule(handle));
  EXPECT_EQ(gManagedPointer, device.globals["counter"].data());
  EXPECT_FALSE(runtime.initModule(nullptr));
}

TEST_F(RuntimeTest, LastErrorIsPerThreadAndStickyErrorsStay) {
  runtime.record(cudaErrorInvalidValue);
  std::thread([&] { EXPECT_EQ(runtime.getLastError(), cudaSuccess); }).join();
  EXPECT_EQ(runtime.peekAtLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(runtime.getLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(runtime.getLastError(), cudaSuccess);
  runtime.record(cudaErrorNotReady); // a status of the query functions, not an error
  EXPECT_EQ(runtime.getLastError(), cudaSuccess);

  registerSample(buildContainer({ptxEntry(kPtx, 90)}));
  device.launchResult = cudaErrorIllegalAddress;
  EXPECT_EQ(launch(), cudaErrorIllegalAddress);
  // Every later call reports the sticky error (opening the current device does); cudaGetLastError
  // returns it once per failed call that recorded it (the API layer records), then cudaSuccess, as
  // NVIDIA's runtime does.
  EXPECT_EQ(runtime.record(Scope(runtime).open()), cudaErrorIllegalAddress);
  EXPECT_EQ(runtime.getLastError(), cudaErrorIllegalAddress);
  EXPECT_EQ(runtime.getLastError(), cudaSuccess);
  EXPECT_EQ(Scope(runtime).open(), cudaErrorIllegalAddress);
  EXPECT_EQ(runtime.deviceReset(), cudaSuccess);
  EXPECT_EQ(runtime.getLastError(), cudaSuccess);
  // The reset dropped the module; the next launch loads it again.
  device.launchResult = cudaSuccess;
  EXPECT_EQ(launch(), cudaSuccess);
  EXPECT_EQ(device.loaded.size(), 2u);
}

// Calls that overlap a reset may get the destroyed context's sticky error from the device (on the
// H200 a thread allocating in a loop while another reset after a fault did, every time, and the
// error stayed sticky after each reset). Such errors are not remembered past the reset.
TEST_F(RuntimeTest, AStickyErrorOfACallOverlappingAResetDoesNotOutliveTheReset) {
  registerSample(buildContainer({ptxEntry(kPtx, 90)}));
  device.launchResult = cudaErrorIllegalAddress;
  EXPECT_EQ(launch(), cudaErrorIllegalAddress);
  ASSERT_EQ(Scope(runtime).open(), cudaErrorIllegalAddress);
  // A call that began before the reset and whose device answered after it.
  Scope begunBefore(runtime);
  device.duringReset = [&] {
    // A call made while the reset runs, answered by the context being destroyed.
    Scope during(runtime);
    during.open();
    EXPECT_EQ(during.result(cudaErrorIllegalAddress), cudaErrorIllegalAddress);
    EXPECT_EQ(runtime.deviceResult(cudaErrorIllegalAddress), cudaErrorIllegalAddress);
  };
  EXPECT_EQ(runtime.deviceReset(), cudaSuccess);
  device.duringReset = nullptr;
  EXPECT_EQ(begunBefore.result(cudaErrorIllegalAddress), cudaErrorIllegalAddress);
  EXPECT_EQ(Scope(runtime).open(), cudaSuccess);
  // An error of a call that began after the reset is sticky again.
  Scope after(runtime);
  EXPECT_EQ(after.open(), cudaSuccess);
  EXPECT_EQ(after.result(cudaErrorIllegalAddress), cudaErrorIllegalAddress);
  EXPECT_EQ(Scope(runtime).open(), cudaErrorIllegalAddress);
  EXPECT_EQ(runtime.deviceReset(), cudaSuccess);
  device.launchResult = cudaSuccess;
  EXPECT_EQ(launch(), cudaSuccess);
}

// What every API call that uses a device does: open the thread's current device through a Scope,
// turn the application's handles into the device's objects, call them. (The argument checks of the
// API functions themselves run in validation.cu and api_behaviour.cu.)
TEST_F(RuntimeTest, TheScopeOpensTheCurrentDeviceAndResolvesHandles) {
  Scope scope(runtime);
  ASSERT_EQ(scope.open(), cudaSuccess);
  EXPECT_EQ(&scope.device(), &device);
  EXPECT_EQ(scope.ordinal(), 0);
  void* pointer = nullptr;
  ASSERT_EQ(scope.device().allocate(&pointer, 64), cudaSuccess);
  Stream& stream = scope.stream(nullptr);
  EXPECT_EQ(stream.handle(), nullptr);
  EXPECT_EQ(scope.device().fill(pointer, 0xAB, 64, stream, false), cudaSuccess);
  unsigned char host[64] = {};
  EXPECT_EQ(scope.device().copy(host, pointer, 64, scope.stream(cudaStreamPerThread), false),
            cudaSuccess);
  EXPECT_EQ(host[63], 0xAB);
  // A handle that names nothing is NVIDIA's error for it, thrown to the API boundary.
  try {
    scope.stream(reinterpret_cast<cudaStream_t>(uintptr_t{0x7777}));
    ADD_FAILURE() << "an unknown stream resolved";
  } catch (const CallError& error) {
    EXPECT_EQ(error.error, cudaErrorInvalidResourceHandle);
  }
  Stream* created = nullptr;
  ASSERT_EQ(scope.device().streams().create(0, 0, &created), cudaSuccess);
  EXPECT_EQ(&scope.stream(created->handle()), created);
  EXPECT_EQ(scope.device().streams().destroy(*created), cudaSuccess);
  int value = 0;
  EXPECT_EQ(runtime.deviceGetAttribute(&value, 100000, 0), cudaErrorInvalidValue);
  EXPECT_EQ(runtime.deviceGetAttribute(&value, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
  EXPECT_EQ(scope.device().free(pointer), cudaSuccess);
}

TEST_F(RuntimeTest, UnregisteringUnloadsTheModules) {
  void** handle = registerSample(buildContainer({ptxEntry(kPtx, 90)}));
  ASSERT_EQ(launch(), cudaSuccess);
  runtime.unregisterFatBinary(handle);
  EXPECT_EQ(device.unloads, 1);
  // The stub is no longer registered: an unknown host function to NVIDIA's runtime.
  EXPECT_EQ(launch(), cudaErrorInvalidResourceHandle);
  runtime.unregisterFatBinary(handle); // a second time is harmless
}

TEST_F(RuntimeTest, SeveralThreadsShareOneModuleLoad) {
  registerSample(buildContainer({ptxEntry(kPtx, 90, fatbin::Compression::Zstd)}));
  constexpr int kThreads = 8, kLaunches = 50;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < kLaunches; ++i) {
        if (launch() != cudaSuccess)
          ++failures;
        Scope scope(runtime);
        void* pointer = nullptr;
        if (scope.open() != cudaSuccess || scope.device().allocate(&pointer, 16) != cudaSuccess ||
            scope.device().free(pointer) != cudaSuccess)
          ++failures;
      }
    });
  for (auto& thread : threads)
    thread.join();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(device.loaded.size(), 1u);
  EXPECT_EQ(device.launches.size(), size_t{kThreads * kLaunches});
}

// --- The launch path's caches (issue #4): per-thread kernel lookups, per-device functions and the
// instrumentation hook's idle flag must follow unregistration, device resets, several threads
// and several devices.

TEST_F(RuntimeTest, CallConfigurationsNestBeyondTheInlineLevels) {
  for (unsigned int level = 1; level <= 10; ++level)
    ASSERT_EQ(runtime.pushCallConfiguration(dim3(level), dim3(1), level, nullptr), 0u);
  for (unsigned int level = 10; level >= 1; --level) {
    dim3 grid, block;
    size_t shared = 0;
    cudaStream_t stream = nullptr;
    ASSERT_EQ(runtime.popCallConfiguration(&grid, &block, &shared, &stream), cudaSuccess);
    EXPECT_EQ(grid.x, level);
    EXPECT_EQ(shared, level);
  }
  EXPECT_EQ(runtime.popCallConfiguration(nullptr, nullptr, nullptr, nullptr),
            cudaErrorMissingConfiguration);
}

TEST_F(RuntimeTest, LaunchCachesForgetUnregisteredKernels) {
  void** handle = registerSample(buildContainer({ptxEntry(kPtx, 90)}));
  cudaKernel_t kernel = nullptr;
  ASSERT_EQ(runtime.getKernel(&kernel, &gKernelStub), cudaSuccess);
  void* args[] = {nullptr};
  // Another thread fills its own cache with both names of the kernel.
  std::thread([&] {
    EXPECT_EQ(launch(), cudaSuccess);
    EXPECT_EQ(runtime.launchKernel(kernel, dim3(1), dim3(1), args, 0, nullptr), cudaSuccess);
  }).join();
  ASSERT_EQ(launch(), cudaSuccess);
  runtime.unregisterFatBinary(handle);
  EXPECT_EQ(launch(), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(runtime.launchKernel(kernel, dim3(1), dim3(1), args, 0, nullptr),
            cudaErrorInvalidResourceHandle);
  // Registered again (as after a dlclose and dlopen): the same stub names the new registration,
  // whose module loads and whose function is looked up afresh, from every thread.
  registerSample(buildContainer({ptxEntry(kPtx, 90)}));
  std::thread([&] { EXPECT_EQ(launch(), cudaSuccess); }).join();
  EXPECT_EQ(launch(), cudaSuccess);
  EXPECT_EQ(device.loaded.size(), 2u);
  EXPECT_EQ(device.names.size(), 2u);
  EXPECT_EQ(device.launches.size(), 5u);
}

TEST_F(RuntimeTest, DeviceResetMakesEveryThreadLookTheFunctionUpAgain) {
  registerSample(buildContainer({ptxEntry(kPtx, 90)}));
  cudaKernel_t kernel = nullptr;
  ASSERT_EQ(runtime.getKernel(&kernel, &gKernelStub), cudaSuccess);
  void* args[] = {nullptr};
  std::thread([&] { EXPECT_EQ(launch(), cudaSuccess); }).join();
  ASSERT_EQ(launch(), cudaSuccess);
  ASSERT_EQ(device.names.size(), 1u);
  ASSERT_EQ(runtime.deviceReset(), cudaSuccess);
  // The reset destroyed the module and its functions: the next launch, from any thread and by
  // any name of the kernel, must not reuse the old function.
  std::thread([&] { EXPECT_EQ(launch(), cudaSuccess); }).join();
  EXPECT_EQ(device.loaded.size(), 2u);
  EXPECT_EQ(device.names.size(), 2u);
  EXPECT_EQ(runtime.launchKernel(kernel, dim3(1), dim3(1), args, 0, nullptr), cudaSuccess);
  EXPECT_EQ(launch(), cudaSuccess);
  EXPECT_EQ(device.names.size(), 2u);
  EXPECT_EQ(device.launches.size(), 5u);
}

TEST_F(RuntimeTest, ConcurrentLaunchesWhileOtherRegistrationsComeAndGo) {
  registerSample(buildContainer({ptxEntry(kPtx, 90)}));
  cudaKernel_t kernel = nullptr;
  ASSERT_EQ(runtime.getKernel(&kernel, &gKernelStub), cudaSuccess);
  const Bytes helper = buildContainer({ptxEntry(kHelperPtx, 90)});
  constexpr int kThreads = 6, kLaunches = 300;
  std::memcpy(gImage.containers[1], helper.data(), helper.size()); // registered bare
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  // Each unregistration invalidates every thread's lookup cache while the launches go on.
  std::thread churn([&] {
    while (!stop) {
      void** handle = runtime.registerFatBinary(&gImage.containers[1]);
      runtime.registerFunction(handle, &gHelperStub, "helper");
      runtime.registerFatBinaryEnd(handle);
      runtime.unregisterFatBinary(handle);
    }
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      void* argument = nullptr;
      void* args[] = {&argument};
      for (int i = 0; i < kLaunches; ++i) {
        // <<<>>> as nvcc lowers it, with a configuration only this thread pushes.
        dim3 grid, block;
        size_t shared = 0;
        cudaStream_t stream = nullptr;
        runtime.pushCallConfiguration(dim3(t + 1), dim3(32), size_t(i), nullptr);
        if (runtime.popCallConfiguration(&grid, &block, &shared, &stream) != cudaSuccess ||
            grid.x != unsigned(t + 1) || shared != size_t(i))
          ++failures;
        if (runtime.launchKernel(&gKernelStub, grid, block, args, shared, stream) != cudaSuccess)
          ++failures;
        if (runtime.launchKernel(kernel, grid, block, args, 0, nullptr) != cudaSuccess)
          ++failures;
      }
    });
  for (auto& thread : threads)
    thread.join();
  stop = true;
  churn.join();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(device.launches.size(), size_t{2 * kThreads * kLaunches});
  EXPECT_EQ(device.names.size(), 1u); // looked up once, for all threads and both names
}

/// Records what the runtime offers it; takes over the launches of kernels named "kernel".
class RecordingInterceptor final : public LaunchInterceptor {
public:
  explicit RecordingInterceptor(std::atomic<bool>* idle) : idle_(idle) {}
  bool active() override { return wanted; }
  uint64_t nextLaunchId() override { return ++ids; }
  std::optional<cudaError_t> launch(const LaunchSite& site) override {
    sites.push_back(site.kernelName + " #" + std::to_string(site.launchId));
    return cudaErrorLaunchOutOfResources; // not what the fake device answers (and not sticky)
  }
  void forgetDevice(int ordinal, bool afterReset) override {
    forgotten.push_back(ordinal * 2 + (afterReset ? 1 : 0));
  }
  bool unloadRegistration(uint64_t) override { return true; }
  void graphLaunched() override { ++graphs; }
  cudaError_t timeOperation(Device&, int, Stream&, instrumentation::DeviceOperation::Kind,
                            const char*, uint64_t,
                            const std::function<cudaError_t()>& run) override {
    return run();
  }
  std::optional<cudaError_t> launchForeign(Device&, int, const std::string&, const LaunchParams&,
                                           const std::function<cudaError_t()>&,
                                           const std::string&) override {
    return std::nullopt;
  }
  void sleep() { idle_->store(true); }

  bool wanted = true;
  uint64_t ids = 0;
  int graphs = 0;
  std::vector<std::string> sites;
  std::vector<int> forgotten;

private:
  std::atomic<bool>* idle_;
};

TEST(RuntimeInterception, WithoutAnInterceptorLaunchesGoStraightToTheDevice) {
  FakeDevice device;
  Runtime runtime(fakePlatformOf(device), LogLevel::Off, nullptr);
  runtime.thread() = ThreadState{};
  EXPECT_EQ(runtime.launchInterceptor(), nullptr);
  void** handle =
      runtime.registerFatBinary(wrapper(place(0, buildContainer({ptxEntry(kPtx, 90)}))));
  runtime.registerFunction(handle, &gKernelStub, "kernel");
  runtime.registerFatBinaryEnd(handle);
  void* argument = nullptr;
  void* args[] = {&argument};
  EXPECT_EQ(runtime.launchKernel(&gKernelStub, dim3(1), dim3(32), args, 0, nullptr), cudaSuccess);
  EXPECT_EQ(device.launches.size(), 1u);
  runtime.unregisterFatBinary(handle);
}

TEST(RuntimeInterception, TheInstalledInterceptorIsOfferedEachLaunchAndEachReset) {
  FakeDevice device;
  Runtime runtime(fakePlatformOf(device), LogLevel::Off, nullptr);
  runtime.thread() = ThreadState{};
  std::shared_ptr<RecordingInterceptor> interceptor;
  runtime.setLaunchInterceptorFactory([&](const InterceptorServices& services) {
    interceptor = std::make_shared<RecordingInterceptor>(services.idle);
    return interceptor;
  });
  void** handle =
      runtime.registerFatBinary(wrapper(place(0, buildContainer({ptxEntry(kPtx, 90)}))));
  runtime.registerFunction(handle, &gKernelStub, "kernel");
  runtime.registerFatBinaryEnd(handle);
  void* argument = nullptr;
  void* args[] = {&argument};
  auto launch = [&] {
    return runtime.launchKernel(&gKernelStub, dim3(1), dim3(32), args, 0, nullptr);
  };
  EXPECT_EQ(launch(), cudaErrorLaunchOutOfResources); // the interceptor's answer
  ASSERT_NE(interceptor, nullptr);
  EXPECT_EQ(runtime.launchInterceptor(), interceptor.get());
  EXPECT_EQ(interceptor->sites, std::vector<std::string>{"kernel #1"});
  EXPECT_TRUE(device.launches.empty());
  interceptor->wanted = false; // not wanted now: the device launches it
  (void)runtime.getLastError();
  EXPECT_EQ(launch(), cudaSuccess);
  EXPECT_EQ(device.launches.size(), 1u);
  interceptor->sleep(); // idle: not even asked
  interceptor->wanted = true;
  EXPECT_EQ(launch(), cudaSuccess);
  EXPECT_EQ(interceptor->sites.size(), 1u);
  EXPECT_EQ(runtime.deviceReset(), cudaSuccess);
  EXPECT_EQ(interceptor->forgotten, (std::vector<int>{0, 1})); // before and after the reset
  runtime.unregisterFatBinary(handle);
}

TEST(RuntimeOnTheCpuDevice, RunsEachModuleFromOneParse) {
  PlatformRegistry backends;
  cpu::registerPlatform(backends);
  Runtime runtime([&] { return backends.create("cpu"); }, LogLevel::Off, nullptr);
  runtime.thread() = ThreadState{};
  void** handle =
      runtime.registerFatBinary(wrapper(place(0, buildContainer({ptxEntry(kHelperPtx, 90)}))));
  runtime.registerFunction(handle, &gHelperStub, "helper");
  runtime.registerFatBinaryEnd(handle);
  const uint64_t before = ir::textsParsed();
  void* args[] = {nullptr};
  ASSERT_EQ(runtime.launchKernel(&gHelperStub, dim3(1), dim3(32), args, 0, nullptr), cudaSuccess);
  ASSERT_EQ(runtime.deviceSynchronize(), cudaSuccess);
  // The pipeline parses the module's PTX; the CPU device runs that IR instead of parsing the
  // emitted text again (2 parses before the one module pipeline).
  EXPECT_EQ(ir::textsParsed() - before, 1u);
  runtime.unregisterFatBinary(handle);
}

// Issue 18 item 11: a kernel the application registered under a name its module's code does not
// have (renamed or removed from the PTX) fails with NVIDIA's code, and the log says which kernel
// and why, once per kernel.
TEST(RuntimeOnTheCpuDevice, ARenamedKernelFailsWithAMessageNamingIt) {
  static char renamedStub;
  PlatformRegistry backends;
  cpu::registerPlatform(backends);
  Runtime runtime([&] { return backends.create("cpu"); }, LogLevel::Warn, nullptr);
  runtime.thread() = ThreadState{};
  void** handle =
      runtime.registerFatBinary(wrapper(place(0, buildContainer({ptxEntry(kHelperPtx, 90)}))));
  runtime.registerFunction(handle, &gHelperStub, "helper");
  runtime.registerFunction(handle, &renamedStub, "helper_renamed");
  runtime.registerFatBinaryEnd(handle);
  void* args[] = {nullptr};
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(runtime.launchKernel(&renamedStub, dim3(1), dim3(32), args, 0, nullptr),
            cudaErrorInvalidDeviceFunction);
  EXPECT_EQ(runtime.launchKernel(&renamedStub, dim3(1), dim3(32), args, 0, nullptr),
            cudaErrorInvalidDeviceFunction);
  const std::string log = ::testing::internal::GetCapturedStderr();
  const std::string message = "kernel helper_renamed was registered by the application but its "
                              "module's code on device 0 has no entry of that name";
  const size_t first = log.find(message);
  ASSERT_NE(first, std::string::npos) << log;
  EXPECT_NE(log.find("cudaErrorInvalidDeviceFunction", first), std::string::npos) << log;
  EXPECT_EQ(log.find(message, first + 1), std::string::npos) << "said twice: " << log;
  // The module's other kernel is unaffected, and the error is not sticky.
  EXPECT_EQ(runtime.launchKernel(&gHelperStub, dim3(1), dim3(32), args, 0, nullptr), cudaSuccess);
  EXPECT_EQ(runtime.deviceSynchronize(), cudaSuccess);
  runtime.unregisterFatBinary(handle);
}

TEST(RuntimeOnTwoCpuDevices, EachHasItsOwnMemoryAndNoPeerAccess) {
  // OCELOT_CPU_DEVICES: the CPU back end as several devices (issue 16's multi-device paths in CI).
  ::setenv("OCELOT_CPU_DEVICES", "2", 1);
  PlatformResult two = cpu::CpuPlatform::create();
  ASSERT_NE(two.platform, nullptr) << two.reason;
  EXPECT_EQ(two.platform->deviceCount(), 2);
  for (const char* refused : {"0", "9", "two"}) { // warned about, and one device
    ::setenv("OCELOT_CPU_DEVICES", refused, 1);
    EXPECT_EQ(cpu::CpuPlatform::create().platform->deviceCount(), 1) << refused;
  }
  ::unsetenv("OCELOT_CPU_DEVICES");
  EXPECT_EQ(cpu::CpuPlatform::create().platform->deviceCount(), 1);

  Device& first = two.platform->device(0);
  Device& second = two.platform->device(1);
  ASSERT_NE(&first, &second);
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(first.allocate(&a, 4096), cudaSuccess);
  ASSERT_EQ(second.allocate(&b, 4096), cudaSuccess);
  // Each device's memory is its own arena: a device knows its allocations, not the other's.
  cudaPointerAttributes own{}, foreign{};
  ASSERT_EQ(second.pointerAttributes(&own, b), cudaSuccess);
  EXPECT_EQ(own.type, cudaMemoryTypeDevice);
  EXPECT_EQ(own.device, 1) << "a CPU device's pointers carry its ordinal";
  ASSERT_EQ(second.pointerAttributes(&foreign, a), cudaSuccess);
  EXPECT_NE(foreign.type, cudaMemoryTypeDevice);
  cudaPointerAttributes firsts{};
  ASSERT_EQ(first.pointerAttributes(&firsts, a), cudaSuccess);
  EXPECT_EQ(firsts.device, 0);
  cudaUUID_t uuid0{}, uuid1{};
  ASSERT_EQ(first.uuid(&uuid0), cudaSuccess);
  ASSERT_EQ(second.uuid(&uuid1), cudaSuccess);
  EXPECT_NE(std::memcmp(uuid0.bytes, uuid1.bytes, sizeof uuid0.bytes), 0)
      << "two CPU devices share a UUID";
  EXPECT_EQ(first.free(a), cudaSuccess);
  EXPECT_EQ(second.free(b), cudaSuccess);

  // Kernels reach their own arena only: no peer access, asked through the runtime.
  std::shared_ptr<PlatformResult> shared = std::make_shared<PlatformResult>(std::move(two));
  Runtime runtime([shared] { return std::move(*shared); }, LogLevel::Off, nullptr);
  runtime.thread() = ThreadState{};
  int count = 0;
  ASSERT_EQ(runtime.getDeviceCount(&count), cudaSuccess);
  EXPECT_EQ(count, 2);
  int canAccess = -1;
  EXPECT_EQ(runtime.deviceCanAccessPeer(&canAccess, 0, 1), cudaSuccess);
  EXPECT_EQ(canAccess, 0);
  canAccess = -1;
  EXPECT_EQ(runtime.deviceCanAccessPeer(&canAccess, 1, 0), cudaSuccess);
  EXPECT_EQ(canAccess, 0);
  EXPECT_EQ(runtime.deviceCanAccessPeer(&canAccess, 0, 2), cudaErrorInvalidDevice);
}

TEST_F(RuntimeTest, TheInstrumentationHookWakesUpWhenAnInstrumentorIsAdded) {
  registerSample(buildContainer({ptxEntry(kPtx, 90)}));
  ASSERT_EQ(launch(), cudaSuccess); // reads the configuration: no instrumentor, the hook idles
  ASSERT_EQ(device.loaded.size(), 1u);
  auto& framework = instrumentation::InstrumentationFramework::of(runtime);
  uint64_t handle = 0;
  std::thread([&] { handle = framework.add("bbcount", {}); }).join();
  ASSERT_EQ(launch(), cudaSuccess);
  framework.flush();
  ASSERT_EQ(device.loaded.size(), 2u); // the instrumented module
  EXPECT_NE(device.loaded[1].ptx[0].find("__ocelot_instrumentation"), std::string::npos);
  ASSERT_NE(framework.profiles().latest(), nullptr);
  EXPECT_TRUE(framework.remove(handle));
  ASSERT_EQ(launch(), cudaSuccess);
  framework.flush();
  EXPECT_EQ(device.loaded.size(), 2u);
  EXPECT_EQ(device.launches.size(), 3u);
}

/// Two fake devices, for the per-device caches.
class TwoDevices final : public Platform {
public:
  TwoDevices(FakeDevice& first, FakeDevice& second) : devices_{&first, &second} {}
  std::string name() const override { return "two fake devices"; }
  int driverVersion() const override { return 13000; }
  int deviceCount() const override { return 2; }
  Device& device(int ordinal) override { return *devices_[static_cast<size_t>(ordinal)]; }

private:
  std::array<FakeDevice*, 2> devices_;
};

TEST(RuntimeWithTwoDevices, EachDeviceHasItsOwnFunctionsAndResets) {
  FakeDevice first, second;
  Runtime runtime(
      [&] {
        return PlatformResult{std::make_unique<TwoDevices>(first, second), cudaSuccess, 13000, {}};
      },
      LogLevel::Off, nullptr);
  runtime.thread() = ThreadState{};
  void** handle =
      runtime.registerFatBinary(wrapper(place(0, buildContainer({ptxEntry(kPtx, 90)}))));
  runtime.registerFunction(handle, &gKernelStub, "kernel");
  runtime.registerFatBinaryEnd(handle);
  void* argument = nullptr;
  void* args[] = {&argument};
  auto launch = [&] {
    return runtime.launchKernel(&gKernelStub, dim3(1), dim3(1), args, 0, nullptr);
  };

  ASSERT_EQ(launch(), cudaSuccess);
  ASSERT_EQ(runtime.setDevice(1), cudaSuccess);
  ASSERT_EQ(launch(), cudaSuccess);
  EXPECT_EQ(first.launches.size(), 1u);
  EXPECT_EQ(second.launches.size(), 1u);
  EXPECT_EQ(second.names.size(), 1u); // its own module and function
  // Another thread starts on device 0, whatever this thread selected.
  std::thread([&] { EXPECT_EQ(launch(), cudaSuccess); }).join();
  EXPECT_EQ(first.launches.size(), 2u);
  // Resetting device 1 leaves device 0's function alone.
  ASSERT_EQ(runtime.deviceReset(), cudaSuccess);
  ASSERT_EQ(launch(), cudaSuccess);
  EXPECT_EQ(second.names.size(), 2u);
  ASSERT_EQ(runtime.setDevice(0), cudaSuccess);
  ASSERT_EQ(launch(), cudaSuccess);
  EXPECT_EQ(first.names.size(), 1u);
  EXPECT_EQ(first.launches.size(), 3u);
  EXPECT_EQ(first.loaded.size(), 1u);
  EXPECT_EQ(second.loaded.size(), 2u);
  // An impossible configuration is refused by the launch path with the device's limits.
  EXPECT_EQ(runtime.launchKernel(&gKernelStub, dim3(1), dim3(0), args, 0, nullptr),
            cudaErrorInvalidValue);
  EXPECT_EQ(runtime.launchKernel(&gKernelStub, dim3(1), dim3(1025), args, 0, nullptr),
            cudaErrorInvalidValue); // over the fake device's 1024 threads per block
  EXPECT_EQ(runtime.launchKernel(&gKernelStub, dim3(1), dim3(1, 43), args, 0, nullptr),
            cudaErrorInvalidValue); // its other limits are 42
  EXPECT_EQ(
      runtime.launchKernel(static_cast<const void*>(nullptr), dim3(1), dim3(1), args, 0, nullptr),
      cudaErrorInvalidDeviceFunction);
}

TEST(RuntimeDump, WritesEveryPtxEntryAndAnIndex) {
  std::filesystem::path directory =
      std::filesystem::temp_directory_path() / ("ocelot-dump-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(directory);
  FakeDevice device;
  Runtime runtime(fakePlatformOf(device), LogLevel::Off, std::make_unique<PtxDump>(directory));
  void** handle = runtime.registerFatBinary(
      wrapper(place(0, buildContainer({ptxEntry(kPtx, 75, fatbin::Compression::Lz4),
                                       ptxEntry(kPtx, 90, fatbin::Compression::Zstd),
                                       makeEntry(2, 90,
                                                 toBytes("\x7f"
                                                         "ELF"),
                                                 fatbin::Compression::None)}))));
  runtime.registerFunction(handle, &gKernelStub, "kernel");
  runtime.registerFatBinaryEnd(handle);

  std::ifstream index(directory / "index.tsv");
  std::vector<std::string> lines;
  for (std::string line; std::getline(index, line);)
    lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[0].find("kind=ptx\tcompression=lz4\tarch=compute_75"), std::string::npos);
  EXPECT_NE(lines[1].find("compression=zstd\tarch=compute_90"), std::string::npos);
  EXPECT_NE(lines[1].find("pipeline=ok\tptx-kernels=kernel\tregistered-kernels=kernel"),
            std::string::npos);
  EXPECT_NE(lines[2].find("kind=cubin"), std::string::npos);
  std::ifstream ptx(directory / "module1-main-entry1-compute_90.ptx");
  std::string text((std::istreambuf_iterator<char>(ptx)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, kPtx);
  std::filesystem::remove_all(directory);
}

} // namespace
} // namespace ocelot::runtime::testing
