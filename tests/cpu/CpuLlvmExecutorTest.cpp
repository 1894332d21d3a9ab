// The LLVM executor against the interpreter: the same kernels give the same results, the same
// faults give the same errors and messages, and the executor really runs native code (not a
// silent fallback). Also its code cache (a corrupt entry is rebuilt) and its absence (the
// interpreter runs). Skipped, with the reason, where Ocelot was built without the executor.

#include "CpuDeviceFixture.h"
#include "runtime/cpu/DeviceMemory.h"
#include "runtime/cpu/llvm/NativeCompiler.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <regex>
#include <unistd.h>

namespace ocelot::runtime::cpu::test {
namespace {

namespace fs = std::filesystem;

/// One device per executor, each with its own memory; a case runs on both and compares.
class LlvmExecutorTest : public ::testing::Test {
protected:
  void SetUp() override {
#ifndef OCELOT_CPU_LLVM_COMPONENT
    GTEST_SKIP() << "Ocelot was built without the LLVM executor (llvm-19-dev)";
#else
    cache_ = fs::temp_directory_path() /
             ("ocelot-llvm-test-" + std::to_string(getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name());
    setenv("OCELOT_CPU_LLVM_LIBRARY", OCELOT_CPU_LLVM_COMPONENT, 0);
    std::string error;
    compiler_ = NativeCompiler::load(OCELOT_CPU_LLVM_COMPONENT, cache_.string(), &error);
    ASSERT_TRUE(compiler_) << error;
    interpreter_ = CpuDevice::create(&error);
    ASSERT_TRUE(interpreter_) << error;
    interpreter_->options().compiler = nullptr;
    native_ = CpuDevice::create(&error);
    ASSERT_TRUE(native_) << error;
    native_->options().compiler = compiler_;
#endif
  }
  void TearDown() override {
    std::error_code ignored;
    if (!cache_.empty())
      fs::remove_all(cache_, ignored);
  }

  static DeviceFunction load(CpuDevice& device, const std::string& ptx, const char* name) {
    ModuleImage image;
    image.form = ModuleImage::Form::Ptx;
    image.ptx = {ptx};
    image.label = "test module";
    DeviceModule module = nullptr;
    std::string message;
    if (device.loadModule(image, &module, &message) != cudaSuccess) {
      ADD_FAILURE() << "module does not load: " << message;
      return nullptr;
    }
    DeviceFunction function = nullptr;
    EXPECT_EQ(device.function(module, name, &function), cudaSuccess) << name;
    return function;
  }

  template <class... Args>
  static cudaError_t launch(CpuDevice& device, DeviceFunction function, dim3 grid, dim3 block,
                            size_t shared, Args... args) {
    void* pointers[] = {static_cast<void*>(&args)..., nullptr};
    LaunchParams params;
    params.function = function;
    params.grid = grid;
    params.block = block;
    params.sharedMem = shared;
    params.args = pointers;
    return device.launch(params);
  }

  template <class T> static T* allocate(CpuDevice& device, size_t count) {
    void* pointer = nullptr;
    EXPECT_EQ(device.allocate(&pointer, count * sizeof(T)), cudaSuccess);
    return static_cast<T*>(pointer);
  }

  /// What a run produced: the launch's and the synchronization's errors, the fault message and
  /// the bytes of the buffers it wrote.
  struct Outcome {
    cudaError_t launched = cudaSuccess, synchronized = cudaSuccess;
    std::string fault;
    std::vector<std::vector<std::byte>> buffers;
  };

  /// Runs `body` on each device and expects the same outcome.
  void expectSameOutcome(const std::function<Outcome(CpuDevice&)>& body) {
    const Outcome expected = body(*interpreter_);
    const Outcome actual = body(*native_);
    EXPECT_EQ(actual.launched, expected.launched);
    EXPECT_EQ(actual.synchronized, expected.synchronized);
    // The devices' memories lie at different addresses: addresses are compared as offsets.
    EXPECT_EQ(normalized(actual.fault, *native_), normalized(expected.fault, *interpreter_));
    ASSERT_EQ(actual.buffers.size(), expected.buffers.size());
    for (size_t i = 0; i < expected.buffers.size(); ++i)
      EXPECT_TRUE(actual.buffers[i] == expected.buffers[i]) << "buffer " << i << " differs";
  }

  /// `message` with addresses in the device's memory as offsets into it.
  static std::string normalized(const std::string& message, CpuDevice& device) {
    const std::regex address("0x[0-9a-f]+");
    std::string result;
    auto begin = std::sregex_iterator(message.begin(), message.end(), address);
    size_t at = 0;
    for (auto it = begin; it != std::sregex_iterator(); ++it) {
      const uint64_t value = std::stoull(it->str(), nullptr, 16);
      result += message.substr(at, static_cast<size_t>(it->position()) - at);
      const uint64_t base = device.memory().arenaBase();
      result += value >= base ? "arena+" + std::to_string(value - base) : it->str();
      at = static_cast<size_t>(it->position() + it->length());
    }
    return result + message.substr(at);
  }

  template <class T> static std::vector<std::byte> bytes(const T* data, size_t count) {
    const auto* begin = reinterpret_cast<const std::byte*>(data);
    return std::vector<std::byte>(begin, begin + count * sizeof(T));
  }

  fs::path cache_;
  std::shared_ptr<NativeCompiler> compiler_;
  std::unique_ptr<CpuDevice> interpreter_, native_;
};

const std::string& kernelsPtx() {
  static const std::string text = [] {
    std::ifstream in(OCELOT_CPU_KERNELS_PTX);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  return text;
}

TEST_F(LlvmExecutorTest, RegularAndDivergentKernelsGiveTheInterpretersResults) {
  struct Case {
    const char* kernel;
    dim3 grid, block;
    size_t shared;
  };
  const int n = 3000; // not a multiple of a warp or a block: partial warps and masked code
  for (const Case& c :
       {Case{"saxpy", dim3(24), dim3(128), 0}, Case{"divergent", dim3(12), dim3(256), 0},
        Case{"reduce", dim3(6), dim3(256), 256 * sizeof(int)}}) {
    SCOPED_TRACE(c.kernel);
    expectSameOutcome([&](CpuDevice& device) {
      DeviceFunction kernel = load(device, kernelsPtx(), c.kernel);
      Outcome outcome;
      if (std::string(c.kernel) == "saxpy") {
        float* x = allocate<float>(device, n);
        float* y = allocate<float>(device, n);
        for (int i = 0; i < n; ++i) {
          x[i] = static_cast<float>(i) * 0.25f - 100.0f;
          y[i] = static_cast<float>(i % 17);
        }
        outcome.launched = launch(device, kernel, c.grid, c.block, 0, n, 1.5f, x, y);
        outcome.synchronized = device.synchronize();
        outcome.buffers.push_back(bytes(y, n));
      } else {
        int* in = allocate<int>(device, n);
        int* out = allocate<int>(device, n);
        for (int i = 0; i < n; ++i) {
          in[i] = static_cast<int>((static_cast<unsigned>(i) * 2654435761u) >> 9);
          out[i] = 0;
        }
        outcome.launched = launch(device, kernel, c.grid, c.block, c.shared, in, out, n);
        outcome.synchronized = device.synchronize();
        outcome.buffers.push_back(bytes(out, n));
      }
      outcome.fault = device.faultMessage();
      return outcome;
    });
  }
  // And the native code ran: every kernel compiled (none fell back to the interpreter).
  const auto statistics = compiler_->statistics();
  EXPECT_EQ(statistics.failed, 0u);
  EXPECT_EQ(statistics.compiled + statistics.cached, 3u);
}

TEST_F(LlvmExecutorTest, TiledMatmulRecursionPrintfAndMallocGiveTheInterpretersResults) {
  expectSameOutcome([&](CpuDevice& device) {
    Outcome outcome;
    const int n = 48;
    float* a = allocate<float>(device, n * n);
    float* b = allocate<float>(device, n * n);
    float* c = allocate<float>(device, n * n);
    for (int i = 0; i < n * n; ++i) {
      a[i] = static_cast<float>(i % 7) - 3.0f;
      b[i] = static_cast<float>(i % 5) * 0.5f;
    }
    outcome.launched = launch(device, load(device, kernelsPtx(), "matmul"), dim3(n / 16, n / 16),
                              dim3(16, 16), 0, a, b, c, n);
    int* fib = allocate<int>(device, 64);
    int* doubled = allocate<int>(device, 64);
    launch(device, load(device, kernelsPtx(), "recursion"), dim3(1), dim3(64), 0, fib);
    launch(device, load(device, kernelsPtx(), "mallocer"), dim3(1), dim3(64), 0, doubled);
    outcome.synchronized = device.synchronize();
    outcome.fault = device.faultMessage();
    outcome.buffers = {bytes(c, n * n), bytes(fib, 64), bytes(doubled, 64)};
    return outcome;
  });
}

TEST_F(LlvmExecutorTest, FaultsGiveTheInterpretersErrorsAndMessages) {
  // Outside device memory.
  expectSameOutcome([&](CpuDevice& device) {
    Outcome outcome;
    device.reset();
    outcome.launched = launch(device, load(device, kernelsPtx(), "oob"), dim3(1), dim3(32), 0,
                              reinterpret_cast<int*>(0x100));
    outcome.synchronized = device.synchronize();
    outcome.fault = device.faultMessage();
    return outcome;
  });
  // Inside the arena, past an allocation: the memory checker's exact bounds.
  expectSameOutcome([&](CpuDevice& device) {
    device.reset();
    device.options().memcheck = true;
    Outcome outcome;
    float* x = allocate<float>(device, 16);
    float* y = allocate<float>(device, 16);
    outcome.launched =
        launch(device, load(device, kernelsPtx(), "saxpy"), dim3(1), dim3(64), 0, 64, 1.0f, x, y);
    outcome.synchronized = device.synchronize();
    outcome.fault = device.faultMessage();
    device.options().memcheck = false;
    return outcome;
  });
  // trap, and a barrier only half a warp reaches.
  for (const char* kernel : {"trapper", "divergent_barrier"}) {
    SCOPED_TRACE(kernel);
    expectSameOutcome([&](CpuDevice& device) {
      device.reset();
      Outcome outcome;
      int* p = allocate<int>(device, 64);
      outcome.launched =
          launch(device, load(device, kernelsPtx(), kernel), dim3(2), dim3(64), 0, p);
      outcome.synchronized = device.synchronize();
      outcome.fault = device.faultMessage();
      return outcome;
    });
  }
}

TEST_F(LlvmExecutorTest, TheWatchdogStopsANativeInfiniteLoop) {
  for (CpuDevice* device : {interpreter_.get(), native_.get()}) {
    device->options().watchdogMs = 200;
    int* flag = allocate<int>(*device, 1);
    *flag = 0;
    ASSERT_EQ(launch(*device, load(*device, kernelsPtx(), "spin"), dim3(1), dim3(32), 0, flag),
              cudaSuccess);
    EXPECT_EQ(device->synchronize(), cudaErrorLaunchTimeout);
    const std::string message = device->faultMessage();
    EXPECT_NE(message.find("kernel spin: watchdog timeout"), std::string::npos) << message;
  }
}

TEST_F(LlvmExecutorTest, UnsupportedInstructionsAreRefusedAsByTheInterpreter) {
  // Decoding fails before any executor is involved: the same error for both.
  const std::string ptx = R"(.version 8.5
.target sm_90
.address_size 64
.visible .entry k() {
  .shared .align 8 .b64 barrier;
  mbarrier.init.shared.b64 [barrier], 1;
  ret;
}
)";
  std::vector<cudaError_t> results;
  for (CpuDevice* device : {interpreter_.get(), native_.get()}) {
    DeviceFunction kernel = load(*device, ptx, "k");
    results.push_back(launch(*device, kernel, dim3(1), dim3(32), 0));
  }
  EXPECT_EQ(results[0], cudaErrorNotSupported);
  EXPECT_EQ(results[1], results[0]);
}

TEST_F(LlvmExecutorTest, ACorruptCodeCacheEntryIsRebuilt) {
  auto run = [&]() {
    // A new compiler and device: nothing in memory, only the cache on disk.
    std::string error;
    auto compiler = NativeCompiler::load(OCELOT_CPU_LLVM_COMPONENT, cache_.string(), &error);
    EXPECT_TRUE(compiler) << error;
    auto device = CpuDevice::create(&error);
    device->options().compiler = compiler;
    const int n = 100;
    float* x = allocate<float>(*device, n);
    float* y = allocate<float>(*device, n);
    for (int i = 0; i < n; ++i)
      x[i] = y[i] = static_cast<float>(i);
    EXPECT_EQ(
        launch(*device, load(*device, kernelsPtx(), "saxpy"), dim3(1), dim3(128), 0, n, 2.0f, x, y),
        cudaSuccess);
    EXPECT_EQ(device->synchronize(), cudaSuccess) << device->faultMessage();
    for (int i = 0; i < n; ++i)
      EXPECT_EQ(y[i], 3.0f * static_cast<float>(i)) << i;
    return compiler->statistics();
  };
  const auto first = run();
  EXPECT_EQ(first.compiled, 1u);
  const auto second = run();
  EXPECT_EQ(second.cached, 1u) << "the second compiler finds the kernel in the cache";
  // Corrupt every entry: flip a byte in the middle of the object code.
  size_t entries = 0;
  for (const auto& entry : fs::recursive_directory_iterator(cache_)) {
    if (!entry.is_regular_file())
      continue;
    std::fstream file(entry.path(), std::ios::in | std::ios::out | std::ios::binary);
    file.seekg(static_cast<std::streamoff>(entry.file_size() / 2));
    char byte = 0;
    file.read(&byte, 1);
    file.seekp(static_cast<std::streamoff>(entry.file_size() / 2));
    byte = static_cast<char>(byte ^ 0x5a);
    file.write(&byte, 1);
    ++entries;
  }
  EXPECT_EQ(entries, 1u);
  const auto third = run();
  EXPECT_EQ(third.compiled, 1u) << "a corrupt entry is rebuilt, not used";
  EXPECT_EQ(third.cached, 0u);
}

TEST_F(LlvmExecutorTest, AMissingComponentIsReported) {
  std::string error;
  EXPECT_FALSE(NativeCompiler::load("/nonexistent/libocelot_cpu_llvm.so", "", &error));
  EXPECT_NE(error.find("cannot load"), std::string::npos) << error;
}

} // namespace
} // namespace ocelot::runtime::cpu::test
