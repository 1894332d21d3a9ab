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

namespace ocelot::runtime::testing {
namespace {

namespace fs = std::filesystem;

struct FakeRun {
  CommandResult result; ///< stdout and stderr together
  fs::path log;         ///< what the fake driver recorded
  std::string driverLog() const { return readText(log / "driver.log"); }
};

FakeRun runWithFakeDriver(const std::string& program, const std::string& mode) {
  FakeRun run;
  run.log = fs::temp_directory_path() / ("ocelot-fake-driver-" + std::to_string(::getpid())) /
            (program + "-" + mode);
  fs::remove_all(run.log);
  fs::create_directories(run.log);
  run.result = runCommand(
      "env -u LD_PRELOAD -u OCELOT_DUMP_PTX " + std::string(kProgramEnvironment) +
      "OCELOT_LOG=warn OCELOT_FAKE_DRIVER=" + mode + " OCELOT_FAKE_DRIVER_LOG='" +
      run.log.string() + "' LD_LIBRARY_PATH='" + std::string(OCELOT_CUDART_DIR) + ":" +
      std::string(OCELOT_FAKE_DRIVER_DIR) + "' '" + (programsDir() / program).string() + "' 2>&1");
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
            "98 cudaErrorInvalidDeviceFunction");
  EXPECT_EQ(calls["cudaEventElapsedTime(&milliseconds, start, stop)"], "0 cudaSuccess");
  EXPECT_EQ(calls["cudaDeviceReset()"], "0 cudaSuccess");
  EXPECT_NE(run.result.output.find("device count 1"), std::string::npos);
  EXPECT_NE(run.result.output.find("symbol size 256"), std::string::npos); // the fake's size
  std::string log = run.driverLog();
  EXPECT_EQ(count(log, "launch _Z6kernelPi"), 2u) << log; // <<<0, 1>>> never reaches the driver
  EXPECT_NE(log.find("reset"), std::string::npos);
}

} // namespace
} // namespace ocelot::runtime::testing
