// The runtime side of the framework over a fake device (tests/runtime/FakePlatform.h): a launch
// with an active instrumentor loads an instrumented module next to the application's, launches
// its kernel with the hidden parameter, reads the buffer back in stream order and delivers a
// KernelProfile; instrumentors come and go between launches; a launch the instrumented kernel
// cannot make runs the original kernel and says why.

#include "runtime/instrumentation/InstrumentationFramework.h"

#include "../runtime/FakePlatform.h"
#include "../runtime/FatbinaryBuilder.h"
#include "../runtime/StaticImage.h"
#include "FakeInstrumentedRuntime.h"
#include "ir/Parser.h"
#include "ocelot/BasicBlockCounts.h"
#include "runtime/core/Runtime.h"
#include "runtime/instrumentation/ModuleCatalog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

namespace ocelot::runtime::testing {
namespace {

const std::string kPtx = R"(.version 9.0
.target sm_90
.address_size 64
.visible .global .align 4 .u32 counter;
.visible .entry kernel(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  ld.global.u32 %r2, [counter];
DONE:
  ret;
}
)";

StaticImage<1> gImage;
char gKernelStub, gCounterShadow;

class InstrumentedRuntime : public FakeInstrumentedRuntime {
protected:
  void SetUp() override {
    void** handle = installAndRegister(gImage, kPtx);
    ASSERT_NE(handle, nullptr);
    runtime.registerFunction(handle, &gKernelStub, "kernel");
    RegisteredVariable counter;
    counter.hostAddress = &gCounterShadow;
    counter.deviceName = "counter";
    counter.size = 4;
    runtime.registerVariable(handle, counter);
    runtime.registerFatBinaryEnd(handle);
  }
  cudaError_t launch() {
    void* argument = nullptr;
    void* args[] = {&argument};
    return runtime.launchKernel(&gKernelStub, dim3(2), dim3(32), args, 0, nullptr);
  }
};

TEST_F(InstrumentedRuntime, WithoutInstrumentorsNothingChanges) {
  ASSERT_EQ(launch(), cudaSuccess);
  ASSERT_EQ(device.loaded.size(), 1u);
  EXPECT_EQ(device.loaded[0].ptx[0].find("__ocelot_instrumentation"), std::string::npos);
  framework().flush();
  EXPECT_EQ(framework().profiles().latest(), nullptr);
}

TEST_F(InstrumentedRuntime, EachPtxTextIsParsedOnce) {
  framework().add("bbcount", {});
  const uint64_t before = ir::textsParsed();
  ASSERT_EQ(launch(), cudaSuccess);
  framework().flush();
  ASSERT_EQ(device.loaded.size(), 2u);
  // The application's module through the pipeline (1); the catalog's copy of it, whose kernel
  // facts come from the IR (1); the instrumented module is a clone of the catalog's IR (0).
  // Before the one module pipeline the catalog parsed its text a second time (4), and until
  // instrumented copies were cloned each of them parsed the catalog's text (3).
  EXPECT_EQ(ir::textsParsed() - before, 2u);
  ASSERT_EQ(launch(), cudaSuccess); // warm: nothing parsed again
  framework().flush();
  EXPECT_EQ(ir::textsParsed() - before, 2u);
  // Another set of instrumentors is another instrumented copy: cloned too, nothing parsed.
  framework().add("ctaclock", {});
  ASSERT_EQ(launch(), cudaSuccess);
  framework().flush();
  EXPECT_EQ(device.loaded.size(), 3u);
  EXPECT_EQ(ir::textsParsed() - before, 2u);
}

// A module whose PTX exceeds kKeptIrTextBytes: the catalog keeps its text only (its IR is several
// times larger), and each instrumented copy parses it; the copy is the same as a clone's.
StaticImage<1, (size_t{12} << 20)> gBigImage;
char gBigKernelStub;

TEST_F(InstrumentedRuntime, AModuleTooLargeToKeepItsIrIsParsedForItsCopies) {
  std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n"
                    ".visible .entry big(.param .u64 out)\n{\n  .reg .b32 %r<3>;\n"
                    "  mov.u32 %r1, %tid.x;\n";
  while (ptx.size() < instrumentation::kKeptIrTextBytes + (size_t{1} << 20))
    ptx += "  add.u32 %r1, %r1, 1;\n";
  ptx += "  ret;\n}\n";
  Bytes container = buildContainer({ptxEntry(ptx, 90, fatbin::Compression::None)});
  ASSERT_LE(container.size(), gBigImage.kSlotBytes);
  void** handle = runtime.registerFatBinary(gBigImage.wrap(gBigImage.place(0, container)));
  runtime.registerFunction(handle, &gBigKernelStub, "big");
  runtime.registerFatBinaryEnd(handle);
  framework().add("bbcount", {});
  const uint64_t before = ir::textsParsed();
  void* argument = nullptr;
  void* args[] = {&argument};
  ASSERT_EQ(runtime.launchKernel(&gBigKernelStub, dim3(1), dim3(32), args, 0, nullptr),
            cudaSuccess);
  framework().flush();
  ASSERT_EQ(device.loaded.size(), 2u);
  EXPECT_NE(device.loaded[1].ptx[0].find("__ocelot_instrumentation"), std::string::npos);
  // The pipeline (1), the catalog (1) and, without the kept IR, the instrumented copy (1).
  EXPECT_EQ(ir::textsParsed() - before, 3u);
}

// A device-linked (-rdc) program of two units: the kernel calls `addOne`, defined in the other
// unit.
const std::string kRdcKernelUnit = R"(.version 9.0
.target sm_90
.address_size 64
.extern .func (.param .b32 r) addOne(.param .b32 a);
.visible .entry rdcKernel(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  mov.u32 %r1, %tid.x;
  {
  .param .b32 p0;
  st.param.b32 [p0], %r1;
  .param .b32 rv;
  call.uni (rv), addOne, (p0);
  ld.param.b32 %r2, [rv];
  }
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], %r2;
  ret;
}
)";

const std::string kRdcFunctionUnit = R"(.version 9.0
.target sm_90
.address_size 64
.visible .func (.param .b32 r) addOne(.param .b32 a)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [a];
  add.s32 %r2, %r1, 1;
  st.param.b32 [r], %r2;
  ret;
}
)";

StaticImage<3> gRdcImage;
char gRdcKernelStub;

/// Registers the two units as a device-linked program, launches its kernel under bbcount and
/// returns what the device was asked to load for the instrumented module.
ModuleImage instrumentedRdcProgram(Runtime& runtime, FakeDevice& device,
                                   instrumentation::InstrumentationFramework& framework,
                                   const std::string& second,
                                   const std::string& first = kRdcKernelUnit) {
  const void* linked = gRdcImage.place(0, buildContainer({makeEntry(2, 90,
                                                                    toBytes("\x7f"
                                                                            "ELF"),
                                                                    fatbin::Compression::None)}));
  EntrySpec unitA = ptxEntry(first, 90, fatbin::Compression::None);
  unitA.options = "--compile-only";
  EntrySpec unitB = ptxEntry(second, 90, fatbin::Compression::None);
  unitB.options = "--compile-only";
  gRdcImage.prelinked[0] = gRdcImage.place(1, buildContainer({unitA}));
  gRdcImage.prelinked[1] = gRdcImage.place(2, buildContainer({unitB}));
  gRdcImage.prelinked[2] = nullptr;
  void** handle = runtime.registerFatBinary(gRdcImage.wrap(linked, 2, gRdcImage.prelinked));
  runtime.registerFunction(handle, &gRdcKernelStub, "rdcKernel");
  runtime.registerFatBinaryEnd(handle);
  framework.add("bbcount", {});
  void* argument = nullptr;
  void* args[] = {&argument};
  EXPECT_EQ(runtime.launchKernel(&gRdcKernelStub, dim3(1), dim3(32), args, 0, nullptr),
            cudaSuccess);
  framework.flush();
  EXPECT_EQ(device.loaded.size(), 2u);
  auto profile = framework.profiles().latest();
  EXPECT_TRUE(profile != nullptr && profile->instrumented());
  return device.loaded.empty() ? ModuleImage{} : device.loaded.back();
}

TEST_F(InstrumentedRuntime, DeviceLinkedProgramsAreLinkedAndInstrumentedAsAWhole) {
  ModuleImage image = instrumentedRdcProgram(runtime, device, framework(), kRdcFunctionUnit);
  EXPECT_EQ(image.form, ModuleImage::Form::LinkedPtx);
  ASSERT_EQ(image.ptx.size(), 1u); // one linked unit
  const std::string& ptx = image.ptx[0];
  EXPECT_EQ(ptx.find(".extern"), std::string::npos) << ptx;
  // The other unit's function is instrumented with the kernel: it takes the slot's pointer.
  size_t definition = ptx.rfind(".visible .func (.param .b32 r) addOne(");
  ASSERT_NE(definition, std::string::npos) << ptx;
  EXPECT_NE(ptx.substr(definition, ptx.find('{', definition) - definition)
                .find("__ocelot_instrumentation_0"),
            std::string::npos)
      << ptx;
}

TEST_F(InstrumentedRuntime, RenamedLocalVariablesAreFoundUnderTheirOwnNames) {
  // Both units have a local `counter`: the linker renames the second unit's, and the redirect to
  // the application's storage asks the application's module for `counter`, the name it knows.
  std::string withCounter = kRdcFunctionUnit;
  withCounter.insert(withCounter.find(".visible .func"), ".global .align 4 .u32 counter;\n");
  withCounter.replace(withCounter.find("add.s32 %r2, %r1, 1;"), 20,
                      "ld.global.u32 %r2, [counter];");
  std::string kernelWithCounter = kRdcKernelUnit;
  kernelWithCounter.insert(kernelWithCounter.find(".visible .entry"),
                           ".global .align 4 .u32 counter;\n");
  kernelWithCounter.replace(kernelWithCounter.find("mov.u32 %r1, %tid.x;"), 20,
                            "ld.global.u32 %r1, [counter];");
  ModuleImage image =
      instrumentedRdcProgram(runtime, device, framework(), withCounter, kernelWithCounter);
  ASSERT_EQ(image.ptx.size(), 1u);
  // Both units' uses are redirected (the variables are no longer referenced by name).
  EXPECT_EQ(image.ptx[0].find("[counter]"), std::string::npos) << image.ptx[0];
  EXPECT_EQ(image.ptx[0].find("[counter_unit1]"), std::string::npos) << image.ptx[0];
  EXPECT_TRUE(device.globals.contains("counter"));
  EXPECT_FALSE(device.globals.contains("counter_unit1"));
}

TEST_F(InstrumentedRuntime, UnitsThatCannotBeLinkedAreInstrumentedOneByOne) {
  // The second unit's addOne returns .b64, the first declares .b32: the linker refuses, and each
  // unit is instrumented on its own as before (addOne, which another unit calls, keeps its
  // signature); the kernel is still instrumented.
  std::string conflicting = kRdcFunctionUnit;
  conflicting.replace(conflicting.find(".param .b32 r"), 13, ".param .b64 r");
  ModuleImage image = instrumentedRdcProgram(runtime, device, framework(), conflicting);
  EXPECT_EQ(image.form, ModuleImage::Form::LinkedPtx);
  ASSERT_EQ(image.ptx.size(), 2u);
  EXPECT_NE(image.ptx[0].find("__ocelot_instrumentation"), std::string::npos) << image.ptx[0];
  EXPECT_EQ(image.ptx[1].find("__ocelot_instrumentation"), std::string::npos) << image.ptx[1];
}

TEST_F(InstrumentedRuntime, ForeignLaunchesAreProfiledWithTheirReason) {
  LaunchParams params;
  params.grid = dim3(3);
  params.block = dim3(64);
  int launched = 0;
  auto launchIt = [&] {
    ++launched;
    return cudaSuccess;
  };
  EXPECT_FALSE(runtime.launchForeign("library_kernel", params, nullptr, launchIt, "a library's"));
  EXPECT_EQ(launched, 0); // without instrumentors the caller launches it itself

  framework().add("bbcount", {});
  auto result = runtime.launchForeign("library_kernel", params, nullptr, launchIt, "a library's");
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(*result, cudaSuccess);
  EXPECT_EQ(launched, 1);
  framework().flush();
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_EQ(profile->kernelName(), "library_kernel");
  EXPECT_FALSE(profile->instrumented());
  EXPECT_FALSE(profile->failed());
  EXPECT_TRUE(profile->results().empty());
  ASSERT_FALSE(profile->notes().empty());
  EXPECT_EQ(profile->notes().front(), "a library's");
  EXPECT_NE(profile->toJson().find("\"grid\":[3,1,1]"), std::string::npos) << profile->toJson();

  // A launch that fails returns its error to the application, and its profile says it failed.
  const uint64_t before = profile->launchId();
  result = runtime.launchForeign(
      "library_kernel", params, nullptr, [] { return cudaErrorLaunchFailure; }, "a library's");
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(*result, cudaErrorLaunchFailure);
  framework().flush();
  auto failed = framework().profiles().latest();
  ASSERT_NE(failed, nullptr);
  EXPECT_NE(failed->launchId(), before);
  EXPECT_TRUE(failed->failed());
  EXPECT_FALSE(failed->timing().gpuMilliseconds);
}

TEST_F(InstrumentedRuntime, AnInstrumentedLaunchDeliversAProfile) {
  std::vector<std::shared_ptr<const KernelProfile>> received;
  std::mutex mutex;
  framework().profiles().subscribe([&](const std::shared_ptr<const KernelProfile>& p) {
    std::lock_guard lock(mutex);
    received.push_back(p);
  });
  uint64_t handle = framework().add("bbcount", {});
  ASSERT_EQ(launch(), cudaSuccess);
  framework().flush();
  // The application's module and the instrumented one.
  ASSERT_EQ(device.loaded.size(), 2u);
  const std::string& instrumented = device.loaded[1].ptx[0];
  // One buffer pointer for bbcount, one for the launch clock Ocelot adds to every instrumented
  // kernel (its GPU time), and the launch's completion word (which the launch clock writes).
  EXPECT_NE(instrumented.find(".param .align 8 .b8 __ocelot_instrumentation[24]"),
            std::string::npos)
      << instrumented;
  EXPECT_NE(instrumented.find("%globaltimer"), std::string::npos) << instrumented;
  // The application's variable is used through its address in the original module.
  EXPECT_EQ(instrumented.find("[counter]"), std::string::npos) << instrumented;
  ASSERT_EQ(device.launches.size(), 1u);
  EXPECT_EQ(device.launches[0].grid.x, 2u); // the application's configuration, untouched
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_TRUE(profile->instrumented()) << (profile->notes().empty() ? "" : profile->notes()[0]);
  EXPECT_EQ(profile->kernelName(), "kernel");
  EXPECT_EQ(profile->launch().threads(), 64u);
  const auto* counts = profile->result<BasicBlockCounts>();
  ASSERT_NE(counts, nullptr);
  EXPECT_EQ(counts->blocks().size(), 3u);
  {
    std::lock_guard lock(mutex);
    EXPECT_EQ(received.size(), 1u);
  }

  // Removed: the next launch runs the original kernel and delivers nothing.
  EXPECT_TRUE(framework().remove(handle));
  EXPECT_FALSE(framework().remove(handle));
  ASSERT_EQ(launch(), cudaSuccess);
  framework().flush();
  EXPECT_EQ(framework().profiles().latest(), profile);
  EXPECT_EQ(device.loaded.size(), 2u);
}

TEST_F(InstrumentedRuntime, SelectionSkipsLaunches) {
  SelectionRules rules;
  ASSERT_FALSE(rules.parseLaunchRange("2:2"));
  framework().setSelection(rules);
  framework().add("ctaclock", {});
  ASSERT_EQ(launch(), cudaSuccess);
  ASSERT_EQ(launch(), cudaSuccess);
  ASSERT_EQ(launch(), cudaSuccess);
  framework().flush();
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_EQ(profile->launch().kernelLaunchIndex, 2u);
  EXPECT_EQ(device.launches.size(), 3u);
}

TEST_F(InstrumentedRuntime, AFailedInstrumentedLaunchRunsTheOriginal) {
  framework().add("bbcount", {});
  device.launchResult = cudaErrorLaunchOutOfResources;
  // Both launches fail here (the fake fails every launch): the application sees the original
  // kernel's error, as without Ocelot.
  EXPECT_EQ(launch(), cudaErrorLaunchOutOfResources);
  device.launchResult = cudaSuccess;
}

TEST_F(InstrumentedRuntime, ARefusedModuleRunsTheOriginalWithANote) {
  framework().add("bbcount", {});
  ASSERT_EQ(launch(), cudaSuccess);  // the application's module loads
  device.refuseOcelotModules = true; // ... the instrumented one would not, were it new
  framework().removeAll();
  framework().add("bbcount-thread", {});
  ASSERT_EQ(launch(), cudaSuccess);
  framework().flush();
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_FALSE(profile->instrumented());
  ASSERT_FALSE(profile->notes().empty());
  EXPECT_NE(profile->notes().back().find("refused"), std::string::npos) << profile->notes().back();
}

TEST_F(InstrumentedRuntime, ADeviceResetRebuildsTheInstrumentedModule) {
  framework().add("bbcount", {});
  ASSERT_EQ(launch(), cudaSuccess);
  ASSERT_EQ(device.loaded.size(), 2u);
  ASSERT_EQ(runtime.deviceReset(), cudaSuccess);
  ASSERT_EQ(launch(), cudaSuccess);
  framework().flush();
  // Both modules loaded again after the reset, and the launch ran instrumented.
  EXPECT_EQ(device.loaded.size(), 4u);
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_TRUE(profile->instrumented()) << (profile->notes().empty() ? "" : profile->notes()[0]);
}

// The driver carves small cudaHostAlloc blocks out of shared pinned chunks and reports a chunk's
// flags for every block in it (found on an H100: an application's cudaHostAllocPortable block
// read back without Portable once Ocelot's staging buffers existed). Ocelot's staging memory is
// therefore its own, registered with the device, never cudaHostAlloc'd.
TEST_F(InstrumentedRuntime, StagingMemoryIsRegisteredNeverHostAllocated) {
  device.hostMemory = true;
  framework().add("bbcount", {});
  ASSERT_EQ(launch(), cudaSuccess);
  framework().flush();
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_TRUE(profile->instrumented());
  EXPECT_EQ(device.hostAllocations.load(), 0);
  {
    std::lock_guard lock(device.mutex);
    ASSERT_FALSE(device.registered.empty());
    for (const auto& [pointer, bytes] : device.registered) {
      EXPECT_EQ(reinterpret_cast<uintptr_t>(pointer) % 4096, 0u);
      EXPECT_EQ(bytes % 4096, 0u);
    }
  }
  // A reset drops Ocelot's staging memory with everything else; later launches register anew.
  ASSERT_EQ(runtime.deviceReset(), cudaSuccess);
  {
    std::lock_guard lock(device.mutex);
    EXPECT_TRUE(device.registered.empty());
  }
  ASSERT_EQ(launch(), cudaSuccess);
  framework().flush();
  std::lock_guard lock(device.mutex);
  EXPECT_FALSE(device.registered.empty());
}

// Online toggling (remove, add the same instrumentor again) reuses the instrumented module: code
// depends on what an instrumentor is, not on its handle. A different configuration builds anew.
TEST_F(InstrumentedRuntime, ReaddingAnInstrumentorReusesItsModule) {
  for (int round = 0; round < 3; ++round) {
    uint64_t handle = framework().add("bbcount", {});
    ASSERT_NE(handle, 0u);
    ASSERT_EQ(launch(), cudaSuccess);
    framework().flush();
    auto profile = framework().profiles().latest();
    ASSERT_NE(profile, nullptr);
    EXPECT_TRUE(profile->instrumented());
    ASSERT_TRUE(framework().remove(handle));
    ASSERT_EQ(launch(), cudaSuccess);
  }
  EXPECT_EQ(device.loaded.size(), 2u); // the application's module and one instrumented module
  framework().add("bbcount", InstrumentorOptions{{"mode", "per-thread"}});
  ASSERT_EQ(launch(), cudaSuccess);
  framework().flush();
  EXPECT_EQ(device.loaded.size(), 3u);
}

TEST(RegisterCap, KeepsTheCtasPerMultiprocessor) {
  using instrumentation::registerCapForBlocks;
  EXPECT_EQ(registerCapForBlocks(8, 256, 65536, 65536), 32u);
  EXPECT_EQ(registerCapForBlocks(5, 256, 65536, 65536), 48u); // 51 rounds down to whole units
  EXPECT_EQ(registerCapForBlocks(2, 1024, 65536, 65536), 32u);
  EXPECT_EQ(registerCapForBlocks(1, 1024, 65536, 65536), 64u);
  EXPECT_EQ(registerCapForBlocks(1, 32, 65536, 65536), 248u); // below 256: at most 255
  EXPECT_EQ(registerCapForBlocks(1, 96, 65536, 32768), 248u);
  EXPECT_EQ(registerCapForBlocks(1, 1024, 65536, 32768), 32u); // the per-block limit
  EXPECT_EQ(registerCapForBlocks(32, 1024, 65536, 65536), 0u); // not even 8 per thread
  EXPECT_EQ(registerCapForBlocks(0, 256, 65536, 65536), 0u);
  EXPECT_EQ(registerCapForBlocks(8, 0, 65536, 65536), 0u);
}

// An instrumented kernel that needs more registers than the original's occupancy allows is built
// again with `.maxnreg` at the original's CTAs per SM, once; the launch after that reuses it.
TEST_F(InstrumentedRuntime, RegisterPressureThatCostsOccupancyGetsACap) {
  device.originalRegisters = 32;     // 256-thread CTAs: 8 per SM
  device.instrumentedRegisters = 48; // 5 per SM
  framework().add("bbcount", {});
  void* argument = nullptr;
  void* args[] = {&argument};
  ASSERT_EQ(runtime.launchKernel(&gKernelStub, dim3(4), dim3(256), args, 0, nullptr), cudaSuccess);
  framework().flush();
  ASSERT_EQ(device.loaded.size(), 3u); // the application's, uncapped, capped
  EXPECT_EQ(device.loaded[1].ptx[0].find(".maxnreg"), std::string::npos);
  EXPECT_NE(device.loaded[2].ptx[0].find(".maxnreg 32"), std::string::npos)
      << device.loaded[2].ptx[0];
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_TRUE(profile->instrumented());
  ASSERT_EQ(runtime.launchKernel(&gKernelStub, dim3(4), dim3(256), args, 0, nullptr), cudaSuccess);
  framework().flush();
  EXPECT_EQ(device.loaded.size(), 3u);
  // 64-thread CTAs: 32 per SM is the CTA limit for both, registers do not matter.
  ASSERT_EQ(runtime.launchKernel(&gKernelStub, dim3(4), dim3(64), args, 0, nullptr), cudaSuccess);
  framework().flush();
  EXPECT_EQ(device.loaded.size(), 3u);
  // 1024-thread CTAs: the original fits 2, the capped kernel too.
  ASSERT_EQ(runtime.launchKernel(&gKernelStub, dim3(4), dim3(1024), args, 0, nullptr), cudaSuccess);
  framework().flush();
  EXPECT_EQ(device.loaded.size(), 3u);
}

// A capped module the device refuses: the kernel runs instrumented without the cap, and the
// refused build is not tried again.
TEST_F(InstrumentedRuntime, ARefusedCapFallsBackToTheUncappedModule) {
  device.originalRegisters = 32;
  device.instrumentedRegisters = 48;
  device.refuseCappedModules = true;
  framework().add("bbcount", {});
  void* argument = nullptr;
  void* args[] = {&argument};
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(runtime.launchKernel(&gKernelStub, dim3(4), dim3(256), args, 0, nullptr),
              cudaSuccess);
    framework().flush();
    auto profile = framework().profiles().latest();
    ASSERT_NE(profile, nullptr);
    EXPECT_TRUE(profile->instrumented()) << (profile->notes().empty() ? "" : profile->notes()[0]);
  }
  EXPECT_EQ(device.loaded.size(), 2u);      // the application's and the uncapped one
  EXPECT_EQ(device.loadAttempts.load(), 3); // and one refused
}

// Without a loss of occupancy (or without occupancy queries) there is no cap and no rebuild.
TEST_F(InstrumentedRuntime, NoCapWhenOccupancyIsKept) {
  device.originalRegisters = 20;
  device.instrumentedRegisters = 30; // 256 threads: 8 CTAs per SM either way
  framework().add("bbcount", {});
  void* argument = nullptr;
  void* args[] = {&argument};
  ASSERT_EQ(runtime.launchKernel(&gKernelStub, dim3(4), dim3(256), args, 0, nullptr), cudaSuccess);
  framework().flush();
  ASSERT_EQ(device.loaded.size(), 2u);
  EXPECT_EQ(device.loaded[1].ptx[0].find(".maxnreg"), std::string::npos);
}

// Issue 14 / issue 18 item 9: a profile never reports counts that a failed or disturbed launch
// left in its buffers.
TEST_F(InstrumentedRuntime, AFaultedLaunchGivesAFailedProfileWithoutCounts) {
  framework().add("bbcount", {});
  device.queryResult = cudaErrorIllegalAddress; // the kernel faulted: the context is sticky
  ASSERT_EQ(launch(), cudaSuccess);             // asynchronous, as on a GPU
  framework().flush();
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_TRUE(profile->failed());
  EXPECT_FALSE(profile->instrumented());
  EXPECT_TRUE(profile->results().empty());
  EXPECT_FALSE(profile->timing().gpuMilliseconds);
  ASSERT_FALSE(profile->notes().empty());
  EXPECT_NE(profile->notes().back().find("cudaErrorIllegalAddress"), std::string::npos)
      << profile->notes().back();
  EXPECT_NE(profile->toJson().find("\"execution\":\"failed\""), std::string::npos);
  EXPECT_NE(framework().summary().find("1 failed, results dropped"), std::string::npos)
      << framework().summary();
  // The pooled buffers go on serving later launches, whose results are reported again.
  device.queryResult = cudaSuccess;
  ASSERT_EQ(launch(), cudaSuccess);
  framework().flush();
  profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_TRUE(profile->instrumented());
  EXPECT_NE(profile->result<BasicBlockCounts>(), nullptr);
}

TEST_F(InstrumentedRuntime, ALaunchMadeWhileTheDeviceIsResetReportsTheDisturbance) {
  framework().add("bbcount", {});
  ASSERT_EQ(launch(), cudaSuccess);
  framework().flush();
  ASSERT_TRUE(framework().profiles().latest()->instrumented());
  // Another thread launches while the reset runs (undefined behaviour for the application); the
  // reset destroys what that launch uses, its events included.
  device.duringReset = [&] {
    device.queryResult = cudaErrorNotReady;
    EXPECT_EQ(launch(), cudaSuccess);
    device.queryResult = cudaErrorInvalidResourceHandle;
  };
  ASSERT_EQ(runtime.deviceReset(), cudaSuccess);
  device.duringReset = nullptr;
  framework().flush();
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_EQ(profile->launch().kernelLaunchIndex, 2u);
  EXPECT_TRUE(profile->failed());
  EXPECT_TRUE(profile->results().empty());
  ASSERT_FALSE(profile->notes().empty());
  EXPECT_NE(profile->notes().back().find("cudaDeviceReset"), std::string::npos)
      << profile->notes().back();
  // After the reset, launches are instrumented and reported again.
  device.queryResult = cudaSuccess;
  ASSERT_EQ(launch(), cudaSuccess);
  framework().flush();
  profile = framework().profiles().latest();
  EXPECT_TRUE(profile->instrumented());
  EXPECT_NE(profile->result<BasicBlockCounts>(), nullptr);
}

// The GPU-only finding of instrumentation_identity's reset race: another thread's launch while
// cudaDeviceReset runs loads the application's module and function into the context the reset then
// destroys. The runtime must not keep them: every later launch would fail, and instrumented ones
// would leave no profile at all.
TEST_F(InstrumentedRuntime, ALaunchRacingAResetLeavesNoFunctionOfTheDestroyedContextBehind) {
  device.staleFunctionsFail = true;
  ASSERT_EQ(launch(), cudaSuccess);
  device.duringReset = [&] { launch(); }; // its result is undefined; what it loads must not stay
  ASSERT_EQ(runtime.deviceReset(), cudaSuccess);
  device.duringReset = nullptr;
  EXPECT_EQ(launch(), cudaSuccess); // uninstrumented
  framework().add("bbcount", {});
  device.duringReset = [&] { launch(); };
  ASSERT_EQ(runtime.deviceReset(), cudaSuccess);
  device.duringReset = nullptr;
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(launch(), cudaSuccess);
  framework().flush();
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_TRUE(profile->instrumented()) << (profile->notes().empty() ? "" : profile->notes()[0]);
  EXPECT_NE(profile->result<BasicBlockCounts>(), nullptr);
}

// Every launch has a profile: one that cannot be launched at all, instrumented or not, has one
// that says it failed (the application gets the error it would have got without Ocelot).
TEST_F(InstrumentedRuntime, ALaunchThatFailsToLaunchHasAFailedProfile) {
  framework().add("bbcount", {});
  device.launchResult = cudaErrorLaunchOutOfResources;
  EXPECT_EQ(launch(), cudaErrorLaunchOutOfResources);
  device.launchResult = cudaSuccess;
  framework().flush();
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_TRUE(profile->failed());
  EXPECT_TRUE(profile->results().empty());
  ASSERT_FALSE(profile->notes().empty());
  EXPECT_NE(profile->notes().back().find("cudaErrorLaunchOutOfResources"), std::string::npos)
      << profile->notes().back();
}

// A launch racing a reset leaves its result copy queued: the staging memory it copies into is
// freed only once the launch's completion event fires, never when the reset ends (the copy would
// write into freed memory).
TEST_F(InstrumentedRuntime, AResetFreesTheStagingOfAnInFlightLaunchOnlyWhenItsCopyIsDone) {
  device.hostMemory = true; // staging is registered: unregisterRange says when it is freed
  framework().add("bbcount", {});
  std::vector<void*> staging; // bbcount's and the launch clock's
  std::atomic<bool> stillRegistered{false};
  std::thread copyFinisher;
  device.duringReset = [&] {
    device.queryResult = cudaErrorNotReady; // the launch's copies stay in flight
    EXPECT_EQ(launch(), cudaSuccess);
    {
      std::lock_guard lock(device.mutex);
      ASSERT_EQ(device.registered.size(), 2u);
      for (const auto& entry : device.registered)
        staging.push_back(entry.first);
    }
    // The stream finishes the copies well after the reset has returned its buffers.
    copyFinisher = std::thread([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      {
        std::lock_guard lock(device.mutex);
        stillRegistered = std::all_of(staging.begin(), staging.end(), [&](void* buffer) {
          return device.registered.count(buffer) != 0;
        });
      }
      device.queryResult = cudaSuccess;
    });
  };
  ASSERT_EQ(runtime.deviceReset(), cudaSuccess);
  device.duringReset = nullptr;
  ASSERT_TRUE(copyFinisher.joinable());
  copyFinisher.join();
  framework().flush();
  EXPECT_TRUE(stillRegistered) << "staging memory freed while its copy was still queued";
  {
    std::lock_guard lock(device.mutex);
    for (void* buffer : staging)
      EXPECT_EQ(device.registered.count(buffer), 0u) << "freed once the copy was done";
  }
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_TRUE(profile->failed());
  EXPECT_TRUE(profile->results().empty());
  ASSERT_FALSE(profile->notes().empty());
  EXPECT_NE(profile->notes().back().find("cudaDeviceReset"), std::string::npos)
      << profile->notes().back();
}

// Issue 14: an instrumented launch puts nothing of Ocelot's into the application's stream but the
// event after the kernel: its results land in a zeroed chunk of the result ring, which the
// profile worker reads back and zeroes again on Ocelot's own stream.
TEST_F(InstrumentedRuntime, AnInstrumentedLaunchFillsAndCopiesNothingInTheApplicationsStream) {
  framework().add("bbcount", {});
  framework().add("ctaclock", {});
  for (int i = 0; i < 4; ++i)
    ASSERT_EQ(launch(), cudaSuccess);
  framework().flush();
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_TRUE(profile->instrumented()) << (profile->notes().empty() ? "" : profile->notes()[0]);
  EXPECT_EQ(profile->results().size(), 2u);
  EXPECT_NE(profile->result<BasicBlockCounts>(), nullptr);
  std::lock_guard lock(device.mutex);
  ASSERT_EQ(device.launches.size(), 4u);
  const Stream* application = device.launches[0].stream;
  for (const auto& launch : device.launches)
    EXPECT_EQ(launch.stream, application);
  // Read back (a copy and a zeroing per launch, or fewer when the worker batches them) on
  // Ocelot's stream, never the application's.
  EXPECT_GE(device.copyStreams.size(), 1u);
  for (const Stream* stream : device.copyStreams)
    EXPECT_NE(stream, application);
  for (const Stream* stream : device.fillStreams)
    EXPECT_NE(stream, application);
}

// A launch whose results do not fit the ring (here: per-thread counts of 2 M threads, 48 MB) gets
// pooled buffers, filled and copied in its stream as before, and is reported the same way.
TEST_F(InstrumentedRuntime, ResultsTheRingCannotHoldGoThroughTheStream) {
  framework().add("bbcount", InstrumentorOptions{{"mode", "per-thread"}});
  void* argument = nullptr;
  void* args[] = {&argument};
  ASSERT_EQ(runtime.launchKernel(&gKernelStub, dim3(32, 32, 2), dim3(1024), args, 0, nullptr),
            cudaSuccess);
  framework().flush();
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_TRUE(profile->instrumented()) << (profile->notes().empty() ? "" : profile->notes()[0]);
  EXPECT_NE(profile->result<BasicBlockCounts>(), nullptr);
  std::lock_guard lock(device.mutex);
  ASSERT_EQ(device.launches.size(), 1u);
  const Stream* application = device.launches[0].stream;
  // bbcount's buffer and the launch clock's: each filled before and copied after the kernel.
  EXPECT_EQ(std::count(device.fillStreams.begin(), device.fillStreams.end(), application), 2);
  EXPECT_EQ(std::count(device.copyStreams.begin(), device.copyStreams.end(), application), 2);
}

// Issue 14: a warning that comes again is not logged again; the summary folds its repeats into one
// line with the count. Launches that ran uninstrumented are counted with their reason.
TEST_F(InstrumentedRuntime, RepeatedWarningsAreFoldedWithACountInTheSummary) {
  framework().add("bbcount", {});
  device.launchResult = cudaErrorLaunchOutOfResources;
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(launch(), cudaErrorLaunchOutOfResources);
  device.launchResult = cudaSuccess;
  framework().flush();
  const std::string summary = framework().summary();
  EXPECT_NE(summary.find("repeated warnings"), std::string::npos) << summary;
  EXPECT_NE(summary.find("3 x instrumentation: kernel: the instrumented kernel could not be "
                         "launched (cudaErrorLaunchOutOfResources)"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("coverage: 0 of 1 kernels, 0 of 3 launches"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("3: the kernel could not be launched (cudaErrorLaunchOutOfResources)"),
            std::string::npos)
      << summary;
}

// The profile worker is not woken for each launch while it polls launches in flight: a launch made
// meanwhile is still picked up at its next poll, and every launch gets its profile.
TEST_F(InstrumentedRuntime, LaunchesMadeWhileTheWorkerPollsAreCompleted) {
  std::atomic<int> received{0};
  framework().profiles().subscribe(
      [&](const std::shared_ptr<const KernelProfile>&) { ++received; });
  framework().add("bbcount", {});
  device.queryResult = cudaErrorNotReady; // in flight: the worker polls
  ASSERT_EQ(launch(), cudaSuccess);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  for (int i = 0; i < 5; ++i)
    ASSERT_EQ(launch(), cudaSuccess);
  EXPECT_EQ(received.load(), 0);
  device.queryResult = cudaSuccess;
  framework().flush();
  EXPECT_EQ(received.load(), 6);
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_TRUE(profile->instrumented());
}

// Issue 18 item 3: no argument array for a kernel with parameters.
TEST_F(InstrumentedRuntime, ANullArgumentArrayRunsTheOriginalAsWithoutInstrumentation) {
  // The runtime passes such a launch to the device (what the device makes of it is its own).
  ASSERT_EQ(runtime.launchKernel(&gKernelStub, dim3(1), dim3(32), nullptr, 0, nullptr),
            cudaSuccess);
  framework().add("bbcount", {});
  EXPECT_EQ(runtime.launchKernel(&gKernelStub, dim3(1), dim3(32), nullptr, 0, nullptr),
            cudaSuccess);
  framework().flush();
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_FALSE(profile->instrumented());
  ASSERT_FALSE(profile->notes().empty());
  EXPECT_NE(profile->notes().back().find("no argument array"), std::string::npos)
      << profile->notes().back();
  std::lock_guard lock(device.mutex);
  ASSERT_EQ(device.launches.size(), 2u);
  EXPECT_EQ(device.launches[1].kernel, "kernel"); // the application's kernel
}

// Issue 14: an instrumented kernel says itself that it is done, by writing its completion word in
// host-mapped memory (instrumentors/LaunchClock.h). The fake device plays the kernel: each launch
// of the instrumented kernel writes the word its hidden parameter names.
class SignallingRuntime : public InstrumentedRuntime {
protected:
  void SetUp() override {
    InstrumentedRuntime::SetUp();
    device.hostMemory = true;
    device.mappedHost = true;
  }
  /// The completion word's address in a launch's hidden parameter (bbcount's buffer, the launch
  /// clock's, the word): 0 when it has none.
  static uint64_t wordOf(const LaunchParams& params) {
    return static_cast<const uint64_t*>(params.args[1])[2];
  }
  static void signal(uint64_t word) {
    __atomic_store_n(reinterpret_cast<uint32_t*>(word), 1u, __ATOMIC_RELEASE);
  }
};

TEST_F(SignallingRuntime, ACompletedLaunchIsDeliveredThroughItsWordWithoutAnEvent) {
  std::atomic<int> words{0};
  device.onLaunch = [&](const LaunchParams& params) {
    if (const uint64_t word = wordOf(params); word != 0) {
      ++words;
      signal(word);
    }
  };
  framework().add("bbcount", {});
  // Events would say "still running" forever: only the words can complete these launches.
  device.queryResult = cudaErrorNotReady;
  for (int i = 0; i < 5; ++i)
    ASSERT_EQ(launch(), cudaSuccess);
  framework().flush();
  EXPECT_EQ(words.load(), 5);
  EXPECT_EQ(device.eventRecords.load(), 0) << "an event was recorded";
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_TRUE(profile->instrumented()) << (profile->notes().empty() ? "" : profile->notes()[0]);
  EXPECT_FALSE(profile->failed());
  EXPECT_NE(profile->result<BasicBlockCounts>(), nullptr);
  EXPECT_EQ(profile->launch().kernelLaunchIndex, 5u);
  device.queryResult = cudaSuccess;
}

// A kernel that faults never writes its word: the device answers the worker's query of Ocelot's
// stream with the fault's (sticky) error, and the launch is delivered as failed, without counts.
TEST_F(SignallingRuntime, ALaunchWhoseWordNeverComesIsDeliveredWithTheFaultsError) {
  framework().add("bbcount", {});
  device.streamQueryResult = cudaErrorIllegalAddress;
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(launch(), cudaSuccess);
  framework().flush();
  EXPECT_EQ(device.eventRecords.load(), 0);
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_TRUE(profile->failed());
  EXPECT_TRUE(profile->results().empty());
  ASSERT_FALSE(profile->notes().empty());
  EXPECT_NE(profile->notes().back().find("cudaErrorIllegalAddress"), std::string::npos)
      << profile->notes().back();
  EXPECT_NE(framework().summary().find("3 failed, results dropped"), std::string::npos)
      << framework().summary();
  device.streamQueryResult = cudaSuccess;
}

// A kernel that ended without writing its word (not expected of Ocelot's kernels) on the default
// stream: once that stream is idle the launch is over, and its results are read.
TEST_F(SignallingRuntime, AnIdleStreamEndsALaunchWhoseWordDidNotCome) {
  framework().add("bbcount", {});
  device.streamQueryResult = cudaErrorNotReady; // still running: the worker waits
  ASSERT_EQ(launch(), cudaSuccess);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(framework().profiles().latest(), nullptr);
  device.streamQueryResult = cudaSuccess;
  framework().flush();
  auto profile = framework().profiles().latest();
  ASSERT_NE(profile, nullptr);
  EXPECT_TRUE(profile->instrumented()) << (profile->notes().empty() ? "" : profile->notes()[0]);
  EXPECT_NE(profile->result<BasicBlockCounts>(), nullptr);
}

// Words that come late, for many launches in flight at once (their chunks fill part of the ring):
// every launch is delivered, once, with its results, and the ring's chunks all come back.
TEST_F(SignallingRuntime, LaunchesWaitingForTheirWordsAreAllDelivered) {
  std::mutex mutex;
  std::vector<uint64_t> words;
  device.onLaunch = [&](const LaunchParams& params) {
    std::lock_guard lock(mutex);
    words.push_back(wordOf(params));
  };
  std::atomic<int> received{0}, counted{0};
  framework().profiles().subscribe([&](const std::shared_ptr<const KernelProfile>& p) {
    ++received;
    if (p->result<BasicBlockCounts>() != nullptr)
      ++counted;
  });
  framework().add("bbcount", {});
  device.streamQueryResult = cudaErrorNotReady; // the kernels run until their words come
  constexpr int kLaunches = 3000;
  for (int i = 0; i < kLaunches; ++i)
    ASSERT_EQ(launch(), cudaSuccess);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(received.load(), 0);
  {
    std::lock_guard lock(mutex);
    ASSERT_EQ(words.size(), size_t{kLaunches});
    for (uint64_t word : words) {
      ASSERT_NE(word, 0u);
      signal(word);
    }
  }
  framework().flush();
  EXPECT_EQ(received.load(), kLaunches);
  EXPECT_EQ(counted.load(), kLaunches);
  EXPECT_EQ(device.eventRecords.load(), 0);
  device.streamQueryResult = cudaSuccess;
}

TEST_F(InstrumentedRuntime, UnknownInstrumentorIsAnError) {
  EXPECT_THROW(framework().add("nonsense", {}), std::invalid_argument);
  ASSERT_EQ(launch(), cudaSuccess);
}

} // namespace
} // namespace ocelot::runtime::testing
