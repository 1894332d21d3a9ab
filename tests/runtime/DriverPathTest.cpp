// Ocelot's driver path without a GPU: the programs run with a stand-in libcuda.so.1
// (fakedriver/FakeCudaDriver.cpp) that records what the runtime hands to the driver. This checks
// the loading through cuGetProcAddress, the version and device checks, context activation, that
// Ocelot's own module (the selected PTX, parsed and re-emitted) is what cuModuleLoadDataEx
// receives, JIT linking for -rdc programs, and the fallback to the original fatbinary.

#include "TestFiles.h"
#include "ir/Parser.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace ocelot::runtime::testing {
namespace {

namespace fs = std::filesystem;

struct FakeRun {
  CommandResult result; ///< stdout and stderr together
  fs::path log;         ///< what the fake driver recorded
  std::string driverLog() const { return readText(log / "driver.log"); }
};

/// `environment`: more variables for the program ("NAME=value ...").
FakeRun runWithFakeDriver(const std::string& program, const std::string& mode,
                          const std::string& environment = "") {
  FakeRun run;
  run.log = fs::temp_directory_path() / ("ocelot-fake-driver-" + std::to_string(::getpid())) /
            (program + "-" + mode);
  fs::remove_all(run.log);
  fs::create_directories(run.log);
  run.result =
      runCommand("env -u LD_PRELOAD -u OCELOT_DUMP_PTX " + std::string(kProgramEnvironment) +
                 "OCELOT_LOG=warn " + environment + " OCELOT_FAKE_DRIVER=" + mode +
                 " OCELOT_FAKE_DRIVER_LOG='" + run.log.string() + "' LD_LIBRARY_PATH='" +
                 std::string(OCELOT_CUDART_DIR) + ":" + std::string(OCELOT_FAKE_DRIVER_DIR) +
                 "' '" + (programsDir() / program).string() + "' 2>&1");
  return run;
}

size_t count(const std::string& text, const std::string& what) {
  size_t found = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++found;
  return found;
}

/// Every "call -> error" line of a program's output reports success.
void expectAllSucceeded(const std::string& output) {
  std::istringstream lines(output);
  size_t calls = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.find(" -> ") == std::string::npos)
      continue;
    ++calls;
    EXPECT_NE(line.find("cudaSuccess"), std::string::npos) << line;
  }
  EXPECT_GT(calls, 5u);
}

class DriverPath : public ::testing::Test {
protected:
  void SetUp() override {
    if (!havePrograms())
      GTEST_SKIP() << "nvcc was not found at configure time";
  }
};

TEST_F(DriverPath, LoadsOcelotsModuleAndLaunchesThroughTheDriver) {
  FakeRun run = runWithFakeDriver("kernels_zstd", "gpu");
  ASSERT_EQ(run.result.exitCode, 0) << run.result.output;
  expectAllSucceeded(run.result.output);
  std::string log = run.driverLog();
  EXPECT_EQ(count(log, "load ptx module"), 1u) << log; // one module, loaded once
  EXPECT_EQ(count(log, "load fatbinary container"), 0u) << log;
  EXPECT_NE(log.find("launch _Z6addOnePii grid 2 block 32"), std::string::npos) << log;
  EXPECT_NE(log.find("launch _Z5scaleIfEvPT_S0_i grid 1 block 64"), std::string::npos) << log;
  EXPECT_NE(log.find("launch _Z12useVariablesPi grid 1 block 8"), std::string::npos) << log;

  // The module is the compute_90 PTX (the best for the fake sm_90), as Ocelot emitted it.
  std::string ptx = readText(run.log / "loaded-1.ptx");
  EXPECT_NE(ptx.find(".target sm_90"), std::string::npos);
  ir::ParseResult parsed = ir::parsePtx(ptx, "loaded-1.ptx");
  ASSERT_TRUE(parsed.ok()) << parsed.firstError();
  std::set<std::string> kernels;
  for (const ir::Function* function : parsed.module->functions())
    if (function->isEntry())
      kernels.emplace(function->name());
  EXPECT_EQ(kernels,
            (std::set<std::string>{"_Z6addOnePii", "_Z5scaleIfEvPT_S0_i", "_Z12useVariablesPi"}));
}

TEST_F(DriverPath, JitLinksTheUnitsOfDeviceLinkedPrograms) {
  FakeRun run = runWithFakeDriver("rdc_zstd", "gpu");
  ASSERT_EQ(run.result.exitCode, 0) << run.result.output;
  expectAllSucceeded(run.result.output);
  std::string log = run.driverLog();
  EXPECT_NE(log.find("link add unit0.ptx\nlink add unit1.ptx\nlink complete 2 units\n"
                     "load linked cubin"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("launch _Z10mainKernelPi"), std::string::npos) << log;
  EXPECT_NE(log.find("launch _Z12helperKernelPi"), std::string::npos) << log;
  EXPECT_TRUE(ir::parsePtx(readText(run.log / "linked-unit0.ptx")).ok());
}

TEST_F(DriverPath, FallsBackToTheOriginalFatbinaryWhenTheDriverRefusesOcelotsModule) {
  FakeRun run = runWithFakeDriver("kernels_lz4", "refuse-ptx");
  ASSERT_EQ(run.result.exitCode, 0) << run.result.output;
  expectAllSucceeded(run.result.output);
  EXPECT_EQ(count(run.result.output, "the device refused Ocelot's module"), 1u)
      << run.result.output;
  std::string log = run.driverLog();
  EXPECT_NE(log.find("refused ptx\nload fatbinary container"), std::string::npos) << log;
  EXPECT_NE(log.find("launch _Z6addOnePii"), std::string::npos) << log;
}

TEST_F(DriverPath, SeveralThreadsShareOneModule) {
  FakeRun run = runWithFakeDriver("threads", "gpu");
  ASSERT_EQ(run.result.exitCode, 0) << run.result.output;
  EXPECT_EQ(count(run.result.output, "count cudaSuccess malloc cudaSuccess launch cudaSuccess "
                                     "copy cudaSuccess free cudaSuccess last cudaSuccess"),
            8u)
      << run.result.output;
  std::string log = run.driverLog();
  EXPECT_EQ(count(log, "load ptx module"), 1u) << log;
  EXPECT_EQ(count(log, "launch _Z4fillPii"), 8u) << log;
}

TEST_F(DriverPath, ADriverWithoutGpuGivesNoDevice) {
  FakeRun run = runWithFakeDriver("api_behaviour", "nodevice");
  ASSERT_EQ(run.result.exitCode, 0) << run.result.output;
  const std::string& out = run.result.output;
  EXPECT_NE(out.find("driver version 13000"), std::string::npos) << out;
  EXPECT_NE(out.find("cudaGetDeviceCount(&count)"), std::string::npos);
  EXPECT_NE(out.find("-> 100 cudaErrorNoDevice"), std::string::npos) << out;
  EXPECT_EQ(out.find("cudaErrorInsufficientDriver\n"), std::string::npos) << out;
}

TEST_F(DriverPath, AnOldDriverIsInsufficient) {
  FakeRun run = runWithFakeDriver("api_behaviour", "old");
  ASSERT_EQ(run.result.exitCode, 0) << run.result.output;
  const std::string& out = run.result.output;
  EXPECT_NE(out.find("driver version 12080"), std::string::npos) << out;
  EXPECT_NE(out.find("-> 35 cudaErrorInsufficientDriver"), std::string::npos) << out;
  EXPECT_NE(out.find("the driver supports CUDA 12.8"), std::string::npos) << out;
}

/// "call" -> "code name" for every line the program printed as "call -> code name".
std::map<std::string, std::string> results(const std::string& output) {
  std::map<std::string, std::string> calls;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    auto arrow = line.find(" -> ");
    if (arrow == std::string::npos)
      continue;
    std::string call = line.substr(0, arrow);
    call.erase(call.find_last_not_of(' ') + 1);
    calls[call] = line.substr(arrow + 4);
  }
  return calls;
}

TEST_F(DriverPath, TheDeviceWorksAgainAfterAReset) {
  FakeRun run = runWithFakeDriver("device_after_reset", "gpu");
  ASSERT_EQ(run.result.exitCode, 0) << run.result.output;
  std::map<std::string, std::string> calls = results(run.result.output);
  ASSERT_EQ(calls.size(), 7u) << run.result.output;
  for (const auto& [call, error] : calls)
    EXPECT_EQ(error, "cudaSuccess") << call;
}

// An H200 after an illegal-address fault: cudaDeviceReset succeeds, but no context can be made
// again (cuDevicePrimaryCtxRetain answers the fault's error). NVIDIA's runtime then answers every
// call that needs the device with cudaErrorDevicesUnavailable, in every thread; the fault's own
// error would say the reset did not clear it.
TEST_F(DriverPath, ADeviceThatCannotMakeAContextAfterAResetIsUnavailable) {
  FakeRun run = runWithFakeDriver("device_after_reset", "unrecoverable");
  ASSERT_EQ(run.result.exitCode, 0) << run.result.output;
  std::map<std::string, std::string> calls = results(run.result.output);
  ASSERT_EQ(calls.size(), 7u) << run.result.output;
  EXPECT_EQ(calls["cudaMalloc before the reset"], "cudaSuccess");
  EXPECT_EQ(calls["cudaDeviceReset"], "cudaSuccess");
  for (const char* call : {"cudaMalloc after the reset", "cudaFree(0) after the reset",
                           "cudaMalloc in a new thread", "cudaMalloc after the second reset"})
    EXPECT_EQ(calls[call], "cudaErrorDevicesUnavailable") << call << "\n" << run.result.output;
}

TEST_F(DriverPath, ImplementedCallsOnADevice) {
  FakeRun run = runWithFakeDriver("api_behaviour", "gpu");
  ASSERT_EQ(run.result.exitCode, 0) << run.result.output;
  auto calls = results(run.result.output);
  // Valid arguments succeed; invalid ones give the errors NVIDIA's runtime gives.
  EXPECT_EQ(calls["cudaGetDeviceCount(&count)"], "0 cudaSuccess");
  EXPECT_EQ(calls["cudaGetLastError()"], "0 cudaSuccess");
  EXPECT_EQ(calls["cudaSetDevice(0)"], "0 cudaSuccess");
  EXPECT_EQ(calls["cudaSetDevice(-1)"], "101 cudaErrorInvalidDevice");
  EXPECT_EQ(calls["cudaGetDevice(nullptr)"], "1 cudaErrorInvalidValue");
  EXPECT_EQ(calls["cudaMalloc(nullptr, 256)"], "1 cudaErrorInvalidValue");
  EXPECT_EQ(calls["cudaMalloc(&pointer, 256)"], "0 cudaSuccess");
  EXPECT_EQ(calls["cudaMemcpy(copy, host, sizeof host, static_cast<cudaMemcpyKind>(42))"],
            "21 cudaErrorInvalidMemcpyDirection");
  EXPECT_EQ(calls["cudaMemcpyToSymbol(symbol, host, sizeof(int))"], "0 cudaSuccess");
  EXPECT_EQ(calls["cudaMemcpyToSymbol(host, host, sizeof(int))"], "13 cudaErrorInvalidSymbol");
  EXPECT_EQ(calls["cudaLaunchKernel(reinterpret_cast<const void*>(&main), dim3(1), dim3(1), args, "
                  "0, 0)"],
            "400 cudaErrorInvalidResourceHandle"); // NVIDIA's answer for a host function
  EXPECT_EQ(calls["cudaEventElapsedTime(&milliseconds, start, stop)"], "0 cudaSuccess");
  EXPECT_EQ(calls["cudaDeviceReset()"], "0 cudaSuccess");
  EXPECT_NE(run.result.output.find("device count 1"), std::string::npos);
  EXPECT_NE(run.result.output.find("symbol size 256"), std::string::npos); // the fake's size
  std::string log = run.driverLog();
  EXPECT_EQ(count(log, "launch _Z6kernelPi"), 2u) << log; // <<<0, 1>>> never reaches the driver
  EXPECT_NE(log.find("reset"), std::string::npos);
}

// Bad arguments Ocelot rejects itself: the same codes as NVIDIA's runtime gave for the same calls
// on an H100 (CUDA 13.0, driver 580; tests/e2e/programs/bad_arguments.cu), and each also the
// thread's last error.
TEST_F(DriverPath, ArgumentValidationMatchesNvidia) {
  FakeRun run = runWithFakeDriver("validation", "gpu");
  ASSERT_EQ(run.result.exitCode, 0) << run.result.output;
  auto calls = results(run.result.output);
  const std::map<std::string, std::string> expected = {
      {"cudaMalloc(nullptr)", "cudaErrorInvalidValue"},
      {"cudaMalloc(1 PiB)", "cudaErrorMemoryAllocation"},
      {"cudaMallocHost(1 PiB)", "cudaErrorMemoryAllocation"},
      {"cudaHostAlloc(flags 0xff00)", "cudaErrorInvalidValue"},
      {"cudaPointerGetAttributes(nullptr)", "cudaErrorInvalidValue"},
      {"cudaMemcpy(kind 7)", "cudaErrorInvalidMemcpyDirection"},
      {"cudaMemcpy(kind -1)", "cudaErrorInvalidMemcpyDirection"},
      {"cudaMemcpy(nullptr destination)", "cudaErrorInvalidValue"},
      {"cudaMemcpy(nullptr source)", "cudaErrorInvalidValue"},
      {"cudaMemcpy(0 bytes)", "cudaSuccess"},
      {"cudaMemcpyAsync(kind 9)", "cudaErrorInvalidMemcpyDirection"},
      {"cudaMemset(nullptr)", "cudaErrorInvalidValue"},
      {"cudaMemsetAsync(nullptr)", "cudaErrorInvalidValue"},
      {"cudaMemcpy2D(spitch < width)", "cudaErrorInvalidPitchValue"},
      {"cudaMemcpy2D(dpitch < width)", "cudaErrorInvalidPitchValue"},
      {"cudaMemset2D(pitch < width)", "cudaErrorInvalidValue"},
      {"cudaMemcpy3D(nullptr)", "cudaErrorInvalidValue"},
      {"cudaMemcpyPeer(device 99)", "cudaErrorInvalidDevice"},
      {"cudaMemcpyToSymbol(size > symbol)", "cudaErrorInvalidValue"},
      {"cudaMemcpyFromSymbol(offset past end)", "cudaErrorInvalidValue"},
      {"cudaMemcpyToSymbol(kind DeviceToHost)", "cudaErrorInvalidMemcpyDirection"},
      {"cudaGetSymbolSize(nullptr)", "cudaErrorInvalidSymbol"},
      {"cudaFreeArray(nullptr)", "cudaSuccess"},
      {"cudaMallocArray(0 x 0)", "cudaErrorInvalidValue"},
      {"cudaMallocArray(7-bit channel)", "cudaErrorInvalidChannelDescriptor"},
      {"cudaMemGetInfo(nullptr, nullptr)", "cudaSuccess"},
      {"cudaCreateTextureObject(null resource)", "cudaErrorInvalidValue"},
      {"cudaSetDevice(99)", "cudaErrorInvalidDevice"},
      {"cudaSetDevice(-1)", "cudaErrorInvalidDevice"},
      {"cudaGetDevice(nullptr)", "cudaErrorInvalidValue"},
      {"cudaGetDeviceCount(nullptr)", "cudaErrorInvalidValue"},
      {"cudaGetDeviceProperties(device 99)", "cudaErrorInvalidDevice"},
      {"cudaDeviceGetAttribute(attribute 99999)", "cudaErrorInvalidValue"},
      {"cudaDeviceGetAttribute(device 99)", "cudaErrorInvalidDevice"},
      {"cudaDeviceCanAccessPeer(peer 99)", "cudaErrorInvalidDevice"},
      {"cudaChooseDevice(nullptr properties)", "cudaErrorInvalidValue"},
      {"cudaDeviceGetByPCIBusId(not a bus id)", "cudaErrorInvalidValue"},
      {"cudaSetDeviceFlags(0xffff)", "cudaErrorInvalidValue"},
      {"cudaDeviceSetLimit(limit 99)", "cudaErrorInvalidValue"},
      {"cudaDeviceGetLimit(nullptr)", "cudaErrorInvalidValue"},
      {"cudaRuntimeGetVersion(nullptr)", "cudaErrorInvalidValue"},
      {"cudaDriverGetVersion(nullptr)", "cudaErrorInvalidValue"},
      {"cudaStreamCreate(nullptr)", "cudaErrorInvalidValue"},
      {"cudaStreamCreateWithFlags(flags 0x10)", "cudaErrorInvalidValue"},
      {"cudaStreamWaitEvent(null event)", "cudaErrorInvalidResourceHandle"},
      {"cudaStreamAddCallback(flags 1)", "cudaErrorInvalidValue"},
      {"cudaEventCreateWithFlags(flags 0x80)", "cudaErrorInvalidValue"},
      {"cudaEventRecord(null event)", "cudaErrorInvalidResourceHandle"},
      {"cudaEventQuery(null event)", "cudaErrorInvalidResourceHandle"},
      {"cudaLaunchKernel(2048 threads)", "cudaErrorInvalidValue"},
      {"cudaLaunchKernel(block 32 x 32 x 2)", "cudaErrorInvalidValue"},
      {"cudaLaunchKernel(blockDim.z 65)", "cudaErrorInvalidValue"},
      {"cudaLaunchKernel(zero grid)", "cudaErrorInvalidValue"},
      {"cudaLaunchKernel(zero block)", "cudaErrorInvalidValue"},
      {"cudaLaunchKernel(gridDim.y 65536)", "cudaErrorInvalidValue"},
      {"cudaLaunchKernel(nullptr function)", "cudaErrorInvalidDeviceFunction"},
      {"cudaLaunchKernel(host function)", "cudaErrorInvalidResourceHandle"},
      {"<<<1, 1025>>>", "cudaErrorInvalidValue"},
      {"cudaFuncSetAttribute(attribute 999)", "cudaErrorInvalidValue"},
      {"cudaFuncGetAttributes(nullptr function)", "cudaErrorInvalidDeviceFunction"},
      {"cudaFuncGetAttributes(host function)", "cudaErrorInvalidResourceHandle"},
      {"cudaOccupancyMaxActiveBlocksPerMultiprocessor(block 0)", "cudaErrorInvalidValue"},
      {"cudaGraphInstantiate(null graph)", "cudaErrorInvalidValue"},
      {"cudaGraphLaunch(null exec)", "cudaErrorInvalidValue"},
      {"valid launch afterwards", "cudaSuccess"},
      {"cudaFree", "cudaSuccess"},
  };
  EXPECT_GE(expected.size(), 60u);
  for (const auto& [call, error] : expected) {
    auto found = calls.find(call);
    ASSERT_NE(found, calls.end()) << call << " missing from\n" << run.result.output;
    // "<code> <name> | last <name>": the call's result, then what cudaGetLastError returned.
    EXPECT_NE(found->second.find(" " + error + " | last " + error), std::string::npos)
        << call << " -> " << found->second;
  }
}

// External memory and semaphores: the application holds the driver's own handles (the fake's
// numbering), null arguments never reach the driver, and a semaphore Ocelot never saw (imported
// through the driver API) reaches the driver as it is.
TEST_F(DriverPath, ExternalResourcesAreTheDriversHandles) {
  FakeRun run = runWithFakeDriver("external_resources", "gpu");
  ASSERT_EQ(run.result.exitCode, 0) << run.result.output;
  auto calls = results(run.result.output);
  EXPECT_EQ(calls["cudaImportExternalMemory(nullptr)"], "1 cudaErrorInvalidValue");
  EXPECT_EQ(calls["cudaImportExternalMemory(no description)"], "1 cudaErrorInvalidValue");
  EXPECT_EQ(calls["cudaImportExternalMemory"], "0 cudaSuccess");
  EXPECT_EQ(calls["cudaExternalMemoryGetMappedBuffer(nullptr)"], "1 cudaErrorInvalidValue");
  EXPECT_EQ(calls["cudaExternalMemoryGetMappedBuffer"], "0 cudaSuccess");
  EXPECT_EQ(calls["cudaImportExternalSemaphore(nullptr)"], "1 cudaErrorInvalidValue");
  EXPECT_EQ(calls["cudaImportExternalSemaphore"], "0 cudaSuccess");
  EXPECT_EQ(calls["cudaSignalExternalSemaphoresAsync(nullptr params)"], "1 cudaErrorInvalidValue");
  EXPECT_EQ(calls["cudaSignalExternalSemaphoresAsync(0 semaphores)"], "0 cudaSuccess");
  EXPECT_EQ(calls["cudaSignalExternalSemaphoresAsync"], "0 cudaSuccess");
  EXPECT_EQ(calls["cudaWaitExternalSemaphoresAsync"], "0 cudaSuccess");
  EXPECT_EQ(calls["cudaDestroyExternalSemaphore(driver's)"], "0 cudaSuccess");
  EXPECT_EQ(calls["cudaDestroyExternalSemaphore"], "0 cudaSuccess");
  EXPECT_EQ(calls["cudaDestroyExternalMemory"], "0 cudaSuccess");
  const std::string& out = run.result.output;
  EXPECT_NE(out.find("memory 0xe0001\n"), std::string::npos) << out;
  EXPECT_NE(out.find("buffer 0xe0001010\n"), std::string::npos) << out; // the fake's mapping
  EXPECT_NE(out.find("semaphore 0x5e001\n"), std::string::npos) << out;
  std::string log = run.driverLog();
  EXPECT_EQ(count(log, "importExternalMemory 0xe0001\n"), 1u) << log;
  EXPECT_EQ(count(log, "externalMemoryGetMappedBuffer 0xe0001\n"), 1u) << log;
  EXPECT_EQ(count(log, "signalExternalSemaphores 0x5e001 0x7a7a0\n"), 1u) << log;
  EXPECT_EQ(count(log, "waitExternalSemaphores 0x5e001 0x7a7a0\n"), 1u) << log;
  EXPECT_EQ(count(log, "destroyExternalSemaphore 0x7a7a0\n"), 1u) << log;
  EXPECT_EQ(count(log, "destroyExternalSemaphore 0x5e001\n"), 1u) << log;
  EXPECT_EQ(count(log, "destroyExternalMemory 0xe0001\n"), 1u) << log;
}

// Sixteen host threads, each creating and destroying streams and events, allocating, launching
// (<<<>>> and cudaLaunchKernel), enqueuing host functions and copying, with one thread-local error
// per iteration: every call succeeds and every launch reaches the driver.
TEST_F(DriverPath, ManyThreadsUseTheRuntimeAtOnce) {
  FakeRun run = runWithFakeDriver("stress_threads", "gpu");
  ASSERT_EQ(run.result.exitCode, 0) << run.result.output;
  EXPECT_NE(run.result.output.find("host functions 1600/1600"), std::string::npos)
      << run.result.output;
  std::string log = run.driverLog();
  EXPECT_EQ(count(log, "load ptx module"), 1u);
  EXPECT_EQ(count(log, "launch _Z5touchPii"), 3200u);
}

/// The lines of `text` that start with `prefix`, without it.
std::vector<std::string> linesAfter(const std::string& text, const std::string& prefix) {
  std::vector<std::string> found;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(prefix, 0) == 0)
      found.push_back(line.substr(prefix.size()));
  return found;
}

/// Splits "NAME module M grid G params P args A B ..." (the fake driver's description of a kernel
/// node) into its words.
std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> split;
  std::istringstream stream(line);
  for (std::string word; stream >> word;)
    split.push_back(word);
  return split;
}

// A registered kernel's graph node, launched while bbcount is active: each graph launch runs the
// node's instrumented kernel (another module, one more parameter) with the node's own arguments
// first, including after cudaGraphExecKernelNodeSetParams and after cudaGraphExecUpdate (whose
// graph is destroyed before the launch); afterwards the executable graph holds the application's
// kernel and the update's arguments.
TEST_F(DriverPath, GraphKernelNodesRunInstrumentedAndAreRestored) {
  FakeRun run = runWithFakeDriver("graph_kernel_node", "gpu",
                                  "OCELOT_INSTRUMENTORS=bbcount OCELOT_SUMMARY=off");
  ASSERT_EQ(run.result.exitCode, 0) << run.result.output;
  expectAllSucceeded(run.result.output);
  std::string log = run.driverLog();
  std::vector<std::string> launches = linesAfter(log, "graph launch node ");
  ASSERT_EQ(launches.size(), 4u) << log;
  std::vector<std::string> destroyed = linesAfter(log, "graph exec destroyed with node ");
  ASSERT_EQ(destroyed.size(), 1u) << log;
  // The application's node at the end: the update's parameters (grid 5, value 11), 2 arguments.
  std::vector<std::string> own = words(destroyed[0]);
  ASSERT_EQ(own.size(), 10u) << destroyed[0];
  EXPECT_EQ(own[0], "_Z8addValuePii");
  EXPECT_EQ(own[2], "1") << "the application's module";
  EXPECT_EQ(own[4], "5");
  EXPECT_EQ(own[6], "2");
  EXPECT_EQ(own[9], "0000000b");
  const char* grids[] = {"2", "2", "4", "5"};
  const char* values[] = {"00000007", "00000007", "00000009", "0000000b"};
  const std::string& data = own[8];
  for (size_t i = 0; i < launches.size(); ++i) {
    SCOPED_TRACE(launches[i]);
    std::vector<std::string> ran = words(launches[i]);
    ASSERT_EQ(ran.size(), 11u);
    EXPECT_EQ(ran[0], "_Z8addValuePii");
    EXPECT_NE(ran[2], "1") << "the instrumented module";
    EXPECT_EQ(ran[4], grids[i]);
    EXPECT_EQ(ran[6], "3") << "the node's two arguments and the instrumentation's";
    EXPECT_EQ(ran[8], data);
    EXPECT_EQ(ran[9], values[i]);
    EXPECT_NE(ran[10], "0000000000000000") << "the appended parameter points somewhere";
  }
}

// The driver refuses every substitute: each graph launch runs the application's node as it is, and
// each node launch's profile says it ran uninstrumented and why.
TEST_F(DriverPath, AGraphKernelNodeTheDriverCannotSubstituteRunsAsItIs) {
  FakeRun run =
      runWithFakeDriver("graph_kernel_node", "refuse-graph-function",
                        "OCELOT_INSTRUMENTORS=bbcount OCELOT_SUMMARY=off OCELOT_PROFILE_OUTPUT=" +
                            (fs::temp_directory_path() /
                             ("ocelot-graph-refused-" + std::to_string(::getpid()) + ".jsonl"))
                                .string());
  ASSERT_EQ(run.result.exitCode, 0) << run.result.output;
  expectAllSucceeded(run.result.output);
  std::string log = run.driverLog();
  std::vector<std::string> launches = linesAfter(log, "graph launch node ");
  ASSERT_EQ(launches.size(), 4u) << log;
  for (const std::string& launch : launches) {
    std::vector<std::string> ran = words(launch);
    ASSERT_EQ(ran.size(), 10u) << launch;
    EXPECT_EQ(ran[2], "1") << launch;
    EXPECT_EQ(ran[6], "2") << launch;
  }
  fs::path profiles =
      fs::temp_directory_path() / ("ocelot-graph-refused-" + std::to_string(::getpid()) + ".jsonl");
  std::string text = readText(profiles);
  fs::remove(profiles);
  EXPECT_EQ(count(text, "\"execution\":\"original\""), 4u) << text;
  EXPECT_EQ(count(text, "the graph ran this kernel node uninstrumented: "
                        "cuGraphExecKernelNodeSetParams failed (cudaErrorInvalidValue)"),
            4u)
      << text;
}

// A registered kernel's node inside a child graph: instrumented at each launch, directly where the
// driver lets the executable graph change the node, else through the child graph node
// (cuGraphExecChildGraphNodeSetParams with a copy of the child graph); the executable graph ends
// with the application's kernel either way. The application destroys the graph before the
// launches: the driver's graph, whose nodes name the executable graph's, goes only after the
// executable graph.
TEST_F(DriverPath, ChildGraphKernelNodesRunInstrumented) {
  for (const std::string mode : {"gpu", "refuse-child-nodes"}) {
    SCOPED_TRACE(mode);
    FakeRun run = runWithFakeDriver("graph_child_node", mode,
                                    "OCELOT_INSTRUMENTORS=bbcount OCELOT_SUMMARY=off");
    ASSERT_EQ(run.result.exitCode, 0) << run.result.output;
    expectAllSucceeded(run.result.output);
    std::string log = run.driverLog();
    // Through the child graph node: set and put back at each of the two launches.
    EXPECT_EQ(count(log, "graph exec child set 1 kernel nodes"), mode == "gpu" ? 0u : 4u) << log;
    std::vector<std::string> launches = linesAfter(log, "graph launch node ");
    ASSERT_EQ(launches.size(), 2u) << log;
    for (const std::string& launch : launches) {
      std::vector<std::string> ran = words(launch);
      ASSERT_EQ(ran.size(), 11u) << launch;
      EXPECT_NE(ran[2], "1") << launch;
      EXPECT_EQ(ran[4], "3") << launch;
      EXPECT_EQ(ran[6], "3") << launch;
      EXPECT_EQ(ran[9], "00000005") << launch;
    }
    std::vector<std::string> destroyed = linesAfter(log, "graph exec destroyed with node ");
    ASSERT_EQ(destroyed.size(), 1u) << log;
    std::vector<std::string> own = words(destroyed[0]);
    ASSERT_EQ(own.size(), 10u) << destroyed[0];
    EXPECT_EQ(own[2], "1");
    EXPECT_EQ(own[6], "2");
    EXPECT_EQ(own[9], "00000005");
    EXPECT_EQ(count(log, "graph destroyed with nodes: graph\n"), 1u) << log;
    EXPECT_GT(log.find("graph destroyed with nodes: graph\n"),
              log.find("graph exec destroyed with node "))
        << log;
  }
}

// The driver refuses to change the node alone but takes an update: while the template graph holds
// what the executable graph runs (but for the node parameters Ocelot keeps), each launch runs the
// instrumented kernel through cuGraphExecUpdate from the template holding the substitute, and the
// template keeps its own parameters. After the application's own cudaGraphExecUpdate from another
// graph, that no longer holds: the last launch runs as it is, and its profile says why.
TEST_F(DriverPath, AGraphKernelNodeRunsItsSubstituteThroughAnUpdate) {
  fs::path profiles =
      fs::temp_directory_path() / ("ocelot-graph-update-" + std::to_string(::getpid()) + ".jsonl");
  FakeRun run = runWithFakeDriver("graph_kernel_node", "refuse-node-sets",
                                  "OCELOT_INSTRUMENTORS=bbcount OCELOT_SUMMARY=off "
                                  "OCELOT_PROFILE_OUTPUT=" +
                                      profiles.string());
  ASSERT_EQ(run.result.exitCode, 0) << run.result.output;
  expectAllSucceeded(run.result.output);
  std::string log = run.driverLog();
  std::vector<std::string> launches = linesAfter(log, "graph launch node ");
  ASSERT_EQ(launches.size(), 4u) << log;
  const char* values[] = {"00000007", "00000007", "00000009", "0000000b"};
  for (size_t i = 0; i < launches.size(); ++i) {
    SCOPED_TRACE(launches[i]);
    std::vector<std::string> ran = words(launches[i]);
    ASSERT_EQ(ran.size(), i < 3 ? 11u : 10u);
    EXPECT_EQ(ran[2], i < 3 ? "2" : "1");
    EXPECT_EQ(ran[9], values[i]);
  }
  // Two updates per instrumented launch (substitute, then back), and the application's one.
  EXPECT_EQ(count(log, "graph exec updated\n"), 7u) << log;
  // The template's node as the application made it; the exec's with the update's parameters.
  std::vector<std::string> kept = linesAfter(log, "graph destroyed kernel node ");
  ASSERT_EQ(kept.size(), 2u) << log; // the update's graph, then the template
  std::vector<std::string> own = words(kept[1]);
  ASSERT_EQ(own.size(), 10u) << kept[1];
  EXPECT_EQ(own[2], "1");
  EXPECT_EQ(own[4], "2");
  EXPECT_EQ(own[9], "00000007");
  std::vector<std::string> destroyed = linesAfter(log, "graph exec destroyed with node ");
  ASSERT_EQ(destroyed.size(), 1u) << log;
  EXPECT_EQ(words(destroyed[0])[2], "1");
  std::string text = readText(profiles);
  fs::remove(profiles);
  EXPECT_EQ(count(text, "\"execution\":\"original\""), 1u) << text;
  EXPECT_EQ(count(text, "the graph ran this kernel node uninstrumented: "
                        "cuGraphExecKernelNodeSetParams failed (cudaErrorInvalidValue)\""),
            1u)
      << text;
}

} // namespace
} // namespace ocelot::runtime::testing
