// The LLVM executor against the interpreter: the same kernels give the same results, the same
// faults give the same errors and messages, and the executor really runs native code (not a
// silent fallback). Also its code cache (a corrupt entry is rebuilt) and its absence (the
// interpreter runs). Skipped, with the reason, where Ocelot was built without the executor.

#include "CpuDeviceFixture.h"
#include "runtime/cpu/DeviceMemory.h"
#include "runtime/cpu/llvm/NativeCompiler.h"
#include "tests/support/InstructionExamples.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <optional>
#include <regex>
#include <set>
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
    params.stream = device.streams().find(nullptr); // the legacy default stream
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

  /// Every instruction of the sweep on both devices (EveryInstructionOfTheSweep... below).
  void runInstructionSweep();

  /// saxpy (y = 2x + y) of 100 elements on `device`, and its results.
  static void expectSaxpy(CpuDevice& device);
  /// With the component loaded under `variable`=`value`, saxpy gets no native code: it runs in
  /// the interpreter, with its results, and the log says so for `reason`.
  void expectSaxpyInTheInterpreter(const char* variable, const char* value, const char* reason,
                                   const char* alsoInLog = "") {
    setenv(variable, value, 1);
    std::string error;
    auto compiler = NativeCompiler::load(OCELOT_CPU_LLVM_COMPONENT, cache_.string(), &error);
    unsetenv(variable);
    ASSERT_TRUE(compiler) << error;
    native_->options().compiler = compiler;
    ::testing::internal::CaptureStderr();
    expectSaxpy(*native_);
    const std::string log = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(compiler->statistics().failed, 1u);
    EXPECT_NE(log.find(std::string("runs in the interpreter: ") + reason), std::string::npos)
        << log;
    EXPECT_NE(log.find(alsoInLog), std::string::npos) << log;
  }

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
      EXPECT_TRUE(actual.buffers[i] == expected.buffers[i])
          << "buffer " << i << " differs"
          << firstDifference(expected.buffers[i], actual.buffers[i]);
  }

  /// Where two buffers first differ (8-byte word, interpreter's and native bits), for the log.
  static std::string firstDifference(const std::vector<std::byte>& expected,
                                     const std::vector<std::byte>& actual) {
    for (size_t at = 0; at + 8 <= std::min(expected.size(), actual.size()); at += 8) {
      uint64_t want = 0, got = 0;
      std::memcpy(&want, &expected[at], 8);
      std::memcpy(&got, &actual[at], 8);
      if (want != got) {
        char text[96];
        std::snprintf(text, sizeof text, ": word %zu is 0x%016llx, not 0x%016llx", at / 8,
                      static_cast<unsigned long long>(got), static_cast<unsigned long long>(want));
        return text;
      }
    }
    return ": sizes differ";
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

TEST_F(LlvmExecutorTest, BarrierRegionsWithDivergenceGiveTheInterpretersResults) {
  // Native code runs a CTA's warps from barrier to barrier in one call: divergent branches and
  // loops between barriers, one barrier reached at different bar.sync instructions, more regions
  // than a time slice holds, a warp returning early (through the interpreter) and partial warps.
  struct Case {
    dim3 grid, block;
  };
  const int n = 1900;
  for (const Case& c : {Case{dim3(8), dim3(256)}, Case{dim3(10), dim3(200)},
                        Case{dim3(20), dim3(96)}, Case{dim3(3), dim3(32)}}) {
    SCOPED_TRACE(std::to_string(c.block.x) + " threads");
    expectSameOutcome([&](CpuDevice& device) {
      DeviceFunction kernel = load(device, kernelsPtx(), "regions");
      Outcome outcome;
      int* in = allocate<int>(device, n);
      int* out = allocate<int>(device, n);
      for (int i = 0; i < n; ++i) {
        in[i] = static_cast<int>((static_cast<unsigned>(i) * 2246822519u) >> 7);
        out[i] = -1;
      }
      outcome.launched = launch(device, kernel, c.grid, c.block, 0, in, out, n);
      outcome.synchronized = device.synchronize();
      outcome.fault = device.faultMessage();
      outcome.buffers.push_back(bytes(out, n));
      return outcome;
    });
  }
  const auto statistics = compiler_->statistics();
  EXPECT_EQ(statistics.failed, 0u);
  EXPECT_EQ(statistics.compiled + statistics.cached, 4u); // one load per case
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

/// The instruction sweep's register files: each class of registers the examples use, how many,
/// and the PTX type they are loaded and stored as (predicates go through a .u32).
struct SweepRegisters {
  const char* prefix;
  int count;
  const char* type;
};
constexpr SweepRegisters kSweepRegisters[] = {{"%p", 8, "u32"},  {"%h", 8, "b16"},
                                              {"%r", 10, "b32"}, {"%rd", 8, "b64"},
                                              {"%f", 10, "f32"}, {"%fd", 4, "f64"}};
constexpr int kSweepSlots = 8 + 8 + 10 + 8 + 10 + 4;
constexpr int kSweepLanes = 64; // two warps: barriers and warp operations see more than one

/// A kernel `k` that loads every register of the example module from its buffer (a different
/// value per lane and register), executes `instruction` and stores every register back behind
/// the inputs: what one instruction does, lane by lane, as bytes.
std::string sweepModule(std::string_view instruction) {
  // Only the registers the instruction names (fewer instructions to compile per case).
  std::set<std::string> named;
  const std::regex registerName("%(p|h|r|rd|f|fd)[0-9]");
  const std::string text(instruction);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), registerName);
       it != std::sregex_iterator(); ++it)
    named.insert(it->str());
  std::string load, store;
  int slot = 0;
  for (const SweepRegisters& registers : kSweepRegisters) {
    for (int i = 0; i < registers.count; ++i, ++slot) {
      const std::string name = registers.prefix + std::to_string(i);
      if (named.count(name) == 0)
        continue;
      const std::string in = std::to_string(slot * kSweepLanes * 8);
      const std::string out = std::to_string((kSweepSlots + slot) * kSweepLanes * 8);
      if (registers.prefix == std::string_view("%p")) {
        load += "\tld.global.u32 %sw_v, [%sw_a+" + in + "];\n\tand.b32 %sw_v, %sw_v, 1;\n" +
                "\tsetp.ne.u32 " + name + ", %sw_v, 0;\n";
        store +=
            "\tselp.u32 %sw_v, 1, 0, " + name + ";\n\tst.global.u32 [%sw_a+" + out + "], %sw_v;\n";
      } else {
        load +=
            "\tld.global." + std::string(registers.type) + " " + name + ", [%sw_a+" + in + "];\n";
        store +=
            "\tst.global." + std::string(registers.type) + " [%sw_a+" + out + "], " + name + ";\n";
      }
    }
  }
  return R"(.version 9.0
.target sm_100a
.address_size 64

.func callee(.reg .b32 a)
{
	ret;
}

.visible .entry k(.param .u64 k_param_0)
{
	.reg .pred %p<8>;
	.reg .b16 %h<8>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<8>;
	.reg .b128 %q<2>;
	.reg .f32 %f<10>;
	.reg .f64 %fd<4>;
	.reg .b32 %sw_v, %sw_t;
	.reg .b64 %sw_a, %sw_o;
$Ltargets: .branchtargets $Lnext;
	ld.param.u64 %sw_a, [k_param_0];
	cvta.to.global.u64 %sw_a, %sw_a;
	mov.u32 %sw_t, %tid.x;
	mul.wide.u32 %sw_o, %sw_t, 8;
	add.u64 %sw_a, %sw_a, %sw_o;
)" + load +
         "\t" + std::string(instruction) + ";\n$Lnext:\n" + store + "\tret;\n}\n";
}

/// Register values that probe the edges of integer and floating-point semantics.
uint64_t sweepValue(int slot, int lane) {
  static constexpr uint64_t kBits[] = {0,
                                       1,
                                       2,
                                       3,
                                       7,
                                       31,
                                       32,
                                       33,
                                       0xff,
                                       0x7fff,
                                       0x8000,
                                       0xffff,
                                       0x7fffffff,
                                       0x80000000,
                                       0xffffffff,
                                       0xfffffffe,
                                       0x7fffffffffffffff,
                                       0x8000000000000000,
                                       0xffffffffffffffff,
                                       0x123456789abcdef0};
  static constexpr float kFloats[] = {0.0f,  -0.0f, 1.0f,     -1.0f,   0.5f,    1.5f,   2.5f,
                                      -2.5f, 3.75f, 1e-40f,   -1e-40f, 1e30f,   -1e30f, 1e10f,
                                      3e9f,  -3e9f, 65504.0f, 1e-3f,   100.25f, -7.0f};
  static constexpr double kDoubles[] = {0.0,  -0.0,   1.0,     -1.0,  0.5,    1.5, 2.5,
                                        -2.5, 1e-310, -1e-310, 1e300, -1e300, 3e9, -3e9,
                                        1e19, -1e19,  0.1,     1e-3,  100.25, -7.0};
  const int pick = (lane * 7 + slot * 3) % 20;
  const int kind = slot < 8 ? 0 : slot < 16 ? 1 : slot < 26 ? 2 : slot < 34 ? 3 : slot < 44 ? 4 : 5;
  uint64_t bits = kBits[pick];
  if (kind == 4) {
    // Every fifth lane a NaN or an infinity; the NaNs alternate by register between the quiet
    // default and a negative signalling one with a payload (which operand's NaN survives).
    const float value = lane % 5 == 4 ? (lane % 10 == 4 ? std::numeric_limits<float>::quiet_NaN()
                                                        : -std::numeric_limits<float>::infinity())
                                      : kFloats[pick];
    uint32_t word = 0;
    std::memcpy(&word, &value, sizeof word);
    bits = lane % 10 == 4 && slot % 2 == 1 ? 0xff812345u : word;
  } else if (kind == 5) {
    // Likewise in double precision: NaNs with payloads (a signalling positive one, a quiet
    // negative one) and infinities.
    const double value = lane % 5 == 4 ? std::numeric_limits<double>::infinity() : kDoubles[pick];
    std::memcpy(&bits, &value, sizeof bits);
    if (lane % 10 == 4)
      bits = slot % 2 == 0 ? 0x7ff0000000000123ull : 0xfff80000abcdef01ull;
  } else if (kind == 0) {
    bits = static_cast<uint64_t>((lane >> (slot % 6)) ^ slot) & 1;
  }
  return bits;
}

/// Instructions the LLVM executor performs natively (besides the table's examples): each type and
/// modifier its planner distinguishes, so that native code and the interpreter's handlers meet
/// on the same inputs.
constexpr std::string_view kNativeSweep[] = {"add.s32 %r1, %r2, %r3",
                                             "add.u64 %rd1, %rd2, %rd3",
                                             "add.s16 %h1, %h2, %h3",
                                             "sub.s64 %rd1, %rd2, %rd3",
                                             "mul.lo.u32 %r1, %r2, %r3",
                                             "mul.hi.s32 %r1, %r2, %r3",
                                             "mul.hi.u64 %rd1, %rd2, %rd3",
                                             "mul.wide.u32 %rd1, %r2, %r3",
                                             "mul.wide.s16 %r1, %h2, %h3",
                                             "mad.lo.s32 %r1, %r2, %r3, %r4",
                                             "mad.hi.u32 %r1, %r2, %r3, %r4",
                                             "mad.wide.s32 %rd1, %r2, %r3, %rd4",
                                             "min.s32 %r1, %r2, %r3",
                                             "max.u64 %rd1, %rd2, %rd3",
                                             "div.s32 %r1, %r2, %r3",
                                             "div.u64 %rd1, %rd2, %rd3",
                                             "rem.s32 %r1, %r2, %r3",
                                             "rem.u32 %r1, %r2, %r3",
                                             "abs.s32 %r1, %r2",
                                             "neg.s64 %rd1, %rd2",
                                             "popc.b64 %r1, %rd2",
                                             "clz.b32 %r1, %r2",
                                             "and.b64 %rd1, %rd2, %rd3",
                                             "or.b16 %h1, %h2, %h3",
                                             "xor.b32 %r1, %r2, %r3",
                                             "not.b32 %r1, %r2",
                                             "shl.b32 %r1, %r2, %r3",
                                             "shl.b64 %rd1, %rd2, %r3",
                                             "shr.u32 %r1, %r2, %r3",
                                             "shr.s32 %r1, %r2, %r3",
                                             "shr.s64 %rd1, %rd2, %r3",
                                             "and.pred %p1, %p2, %p3",
                                             "or.pred %p1, %p2, %p3",
                                             "xor.pred %p1, %p2, %p3",
                                             "not.pred %p1, %p2",
                                             "mov.pred %p1, %p2",
                                             "setp.lt.s32 %p1, %r2, %r3",
                                             "setp.hi.u32 %p1|%p2, %r2, %r3",
                                             "setp.ge.s64.and %p1, %rd2, %rd3, %p4",
                                             "setp.lt.f32 %p1, %f2, %f3",
                                             "setp.equ.f32.or %p1|%p2, %f2, %f3, %p4",
                                             "setp.nan.f64 %p1, %fd2, %fd3",
                                             "setp.gtu.ftz.f32 %p1, %f2, %f3",
                                             "selp.b32 %r1, %r2, %r3, %p4",
                                             "selp.f64 %fd1, %fd2, %fd3, %p4",
                                             "add.f32 %f1, %f2, %f3",
                                             "add.rn.ftz.f32 %f1, %f2, %f3",
                                             "add.sat.f32 %f1, %f2, %f3",
                                             "sub.f64 %fd1, %fd2, %fd3",
                                             "mul.f32 %f1, %f2, %f3",
                                             "mul.rz.f32 %f1, %f2, %f3",
                                             "fma.rn.f32 %f1, %f2, %f3, %f4",
                                             "fma.rn.ftz.sat.f32 %f1, %f2, %f3, %f4",
                                             "fma.rn.f64 %fd1, %fd2, %fd3, %fd0",
                                             "mad.rn.f32 %f1, %f2, %f3, %f4",
                                             "div.rn.f32 %f1, %f2, %f3",
                                             "div.rn.f64 %fd1, %fd2, %fd3",
                                             "div.approx.f32 %f1, %f2, %f3",
                                             "div.full.f32 %f1, %f2, %f3",
                                             "sqrt.rn.f32 %f1, %f2",
                                             "sqrt.rn.f64 %fd1, %fd2",
                                             "rcp.rn.f32 %f1, %f2",
                                             "rcp.rn.ftz.f64 %fd1, %fd2",
                                             "abs.f32 %f1, %f2",
                                             "neg.f32 %f1, %f2",
                                             "neg.ftz.f32 %f1, %f2",
                                             "abs.f64 %fd1, %fd2",
                                             "add.f64 %fd1, %fd2, %fd3",
                                             "mul.f64 %fd1, %fd2, %fd3",
                                             "mul.ftz.f32 %f1, %f2, %f3",
                                             "mul.ftz.sat.f32 %f1, %f2, %f3",
                                             "div.rn.ftz.f32 %f1, %f2, %f3",
                                             "fma.rn.ftz.f32 %f1, %f2, %f3, %f4",
                                             "rcp.rn.ftz.f32 %f1, %f2",
                                             "rcp.rn.f64 %fd1, %fd2",
                                             "sqrt.rn.ftz.f32 %f1, %f2",
                                             "max.f64 %fd1, %fd2, %fd3",
                                             "div.s64 %rd1, %rd2, %rd3",
                                             "rem.u64 %rd1, %rd2, %rd3",
                                             "rem.s16 %h1, %h2, %h3",
                                             "cvt.rzi.s64.f32 %rd1, %f2",
                                             "cvt.rni.u64.f64 %rd1, %fd2",
                                             "cvt.rzi.s32.f64 %r1, %fd2",
                                             "cvt.rni.s16.f64 %h1, %fd2",
                                             "cvt.rzi.s16.f64 %h1, %fd2",
                                             "cvt.rni.f64.f64 %fd1, %fd2",
                                             "cvt.ftz.sat.f32.f32 %f1, %f2",
                                             "cvt.sat.f64.f32 %fd1, %f2",
                                             "abs.ftz.f32 %f1, %f2",
                                             "neg.f64 %fd1, %fd2",
                                             "min.f32 %f1, %f2, %f3",
                                             "max.ftz.f32 %f1, %f2, %f3",
                                             "min.f64 %fd1, %fd2, %fd3",
                                             "max.NaN.f32 %f1, %f2, %f3",
                                             "cvt.rn.f32.s32 %f1, %r2",
                                             "cvt.rz.f32.u32 %f1, %r2",
                                             "cvt.rn.f64.s64 %fd1, %rd2",
                                             "cvt.rzi.s32.f32 %r1, %f2",
                                             "cvt.rni.u32.f32 %r1, %f2",
                                             "cvt.rmi.s64.f64 %rd1, %fd2",
                                             "cvt.rpi.s32.f64 %r1, %fd2",
                                             "cvt.rn.f32.f64 %f1, %fd2",
                                             "cvt.rz.f32.f64 %f1, %fd2",
                                             "cvt.f64.f32 %fd1, %f2",
                                             "cvt.ftz.f64.f32 %fd1, %f2",
                                             "cvt.rni.f32.f32 %f1, %f2",
                                             "cvt.rzi.ftz.f32.f32 %f1, %f2",
                                             "cvt.rmi.f64.f64 %fd1, %fd2",
                                             "cvt.sat.f32.f32 %f1, %f2",
                                             "cvt.u32.u64 %r1, %rd2",
                                             "cvt.s64.s32 %rd1, %r2",
                                             "cvt.u64.u32 %rd1, %r2",
                                             "cvt.s32.s16 %r1, %h2",
                                             "cvt.u16.u32 %h1, %r2",
                                             "cvt.sat.s32.s64 %r1, %rd2",
                                             "cvt.s8.s32 %r1, %r2",
                                             "mov.b32 %r1, %r2",
                                             "mov.b64 %rd1, %rd2",
                                             "mov.b32 %r1, 7",
                                             "mov.b64 %rd1, {%r2, %r3}",
                                             "mov.b64 {%r1, %r2}, %rd3",
                                             "mov.b32 %r1, {%h2, %h3}",
                                             "mov.b32 {%h1, %h2}, %r3",
                                             "shfl.sync.down.b32 %r1, %r2, 1, 31, -1",
                                             "shfl.sync.bfly.b32 %r1|%p1, %r2, 4, 31, -1",
                                             "shfl.sync.up.b32 %r1, %r2, 3, 0, -1",
                                             "shfl.sync.idx.b32 %r1, %r2, 5, 31, -1",
                                             "shfl.sync.idx.b32 %r1, %r2, %r3, 31, -1",
                                             "vote.sync.all.pred %p1, %p2, -1",
                                             "vote.sync.any.pred %p1, !%p2, -1",
                                             "vote.sync.uni.pred %p1, %p2, -1",
                                             "vote.sync.ballot.b32 %r1, %p2, -1",
                                             "brev.b32 %r1, %r2",
                                             "brev.b64 %rd1, %rd2",
                                             "bfind.u32 %r1, %r2",
                                             "bfind.s32 %r1, %r2",
                                             "bfind.shiftamt.u32 %r1, %r2",
                                             "bfind.shiftamt.s32 %r1, %r2",
                                             "bfind.u64 %r1, %rd2",
                                             "bfind.s64 %r1, %rd2",
                                             "bfind.shiftamt.s64 %r1, %rd2",
                                             "activemask.b32 %r1",
                                             "@%p1 activemask.b32 %r1",
                                             // Member masks in registers: each lane's own
                                             // (groups differ), and the active mask (probes).
                                             "vote.sync.any.pred %p1, %p2, %r3",
                                             "vote.sync.all.pred %p1, !%p2, %r3",
                                             "vote.sync.uni.pred %p1, %p2, %r3",
                                             "vote.sync.ballot.b32 %r1, %p2, %r3",
                                             "@%p3 vote.sync.any.pred %p1, %p2, %r3",
                                             "activemask.b32 %r3;\n\tvote.sync.all.pred %p1, "
                                             "%p2, %r3",
                                             "@%p3 activemask.b32 %r3;\n\t@%p3 "
                                             "vote.sync.ballot.b32 %r1, %p2, %r3",
                                             // match and redux: the whole warp, each
                                             // lane's own group, guarded.
                                             "match.any.sync.b32 %r1, %r2, -1",
                                             "match.any.sync.b64 %r1, %rd2, %r3",
                                             "match.all.sync.b32 %r1|%p1, %r2, %r3",
                                             "match.all.sync.b64 %r1|%p1, %rd2, -1",
                                             "@%p3 match.any.sync.b32 %r1, %r2, %r3",
                                             "activemask.b32 %r3;\n\tmatch.any.sync.b64 %r1, "
                                             "%rd2, %r3",
                                             "redux.sync.add.s32 %r1, %r2, -1",
                                             "redux.sync.add.u32 %r1, %r2, %r3",
                                             "redux.sync.min.s32 %r1, %r2, %r3",
                                             "redux.sync.min.u32 %r1, %r2, -1",
                                             "redux.sync.max.s32 %r1, %r2, -1",
                                             "redux.sync.max.u32 %r1, %r2, %r3",
                                             "redux.sync.and.b32 %r1, %r2, %r3",
                                             "redux.sync.or.b32 %r1, %r2, -1",
                                             "redux.sync.xor.b32 %r1, %r2, %r3",
                                             "@%p3 redux.sync.min.s32 %r1, %r2, -1",
                                             "@%p3 redux.sync.add.u32 %r1, %r2, %r3",
                                             // shfl with lanes in registers (b, c or both).
                                             "shfl.sync.idx.b32 %r1|%p1, %r2, %r3, 31, %r4",
                                             "shfl.sync.up.b32 %r1|%p1, %r2, %r3, 0, -1",
                                             "shfl.sync.down.b32 %r1, %r2, %r3, %r4, -1",
                                             "shfl.sync.bfly.b32 %r1|%p1, %r2, 3, %r4, -1",
                                             "@%p3 shfl.sync.idx.b32 %r1, %r2, %r3, 31, -1",
                                             "vote.sync.ballot.b32 %r1, %p2, %r3",
                                             "@%p1 add.s32 %r1, %r2, %r3",
                                             "@!%p2 mul.f32 %f1, %f2, %f3",
                                             "@%p3 bra $Lnext",
                                             "@%p0 exit",
                                             "bar.sync 0",
                                             "membar.gl",
                                             "atom.global.add.u32 %r1, [%rd2], %r3",
                                             "atom.global.max.s64 %rd1, [%rd2], %rd3",
                                             "red.global.add.u64 [%rd2], %rd3",
                                             "atom.shared.exch.b32 %r1, [%r2], %r3",
                                             "atom.min.u32 %r1, [%rd2], %r3"};

void LlvmExecutorTest::runInstructionSweep() {
  // Each example of the instruction table, and each form the planner makes native, run by two
  // warps whose lanes hold edge values: registers, faults and messages must be the interpreter's.
  std::vector<std::string_view> instructions;
  for (const auto& example : ocelot::test::kInstructionExamples)
    instructions.push_back(example.text);
  instructions.insert(instructions.end(), std::begin(kNativeSweep), std::end(kNativeSweep));
  size_t ran = 0;
  for (std::string_view instruction : instructions) {
    SCOPED_TRACE(std::string(instruction));
    const std::string ptx = sweepModule(instruction);
    bool loaded = true;
    expectSameOutcome([&](CpuDevice& device) {
      Outcome outcome;
      device.reset();
      device.options().watchdogMs = 2000;
      // The example's module may not load (an instruction the CPU device lacks): then neither
      // executor runs it, which the interpreter's side of the comparison already says.
      ModuleImage image;
      image.form = ModuleImage::Form::Ptx;
      image.ptx = {ptx};
      image.label = "sweep";
      DeviceModule module = nullptr;
      std::string message;
      DeviceFunction kernel = nullptr;
      if (device.loadModule(image, &module, &message) != cudaSuccess ||
          device.function(module, "k", &kernel) != cudaSuccess) {
        loaded = false;
        outcome.fault = "does not load: " + message;
        return outcome;
      }
      const size_t words = size_t{2} * kSweepSlots * kSweepLanes;
      uint64_t* buffer = allocate<uint64_t>(device, words);
      for (int slot = 0; slot < kSweepSlots; ++slot)
        for (int lane = 0; lane < kSweepLanes; ++lane) {
          buffer[slot * kSweepLanes + lane] = sweepValue(slot, lane);
          buffer[(kSweepSlots + slot) * kSweepLanes + lane] = 0xdeadbeefdeadbeefull;
        }
      outcome.launched = launch(device, kernel, dim3(1), dim3(kSweepLanes), 0, buffer);
      outcome.synchronized = device.synchronize();
      outcome.fault = device.faultMessage();
      outcome.buffers.push_back(bytes(buffer, words));
      return outcome;
    });
    if (loaded)
      ++ran;
  }
  EXPECT_GT(ran, 200u);
  // The planner's forms compiled: none of these kernels fell back to the interpreter.
  EXPECT_EQ(compiler_->statistics().failed, 0u);
}

TEST_F(LlvmExecutorTest, EveryInstructionOfTheSweepGivesTheInterpretersResults) {
  runInstructionSweep();
}

TEST_F(LlvmExecutorTest, AKernelTooLargeForTheRegisterAllocatorRunsInTheInterpreter) {
  // Above kLargestNativeKernel LLVM instructions (here: 0) no native code is made.
  expectSaxpyInTheInterpreter("OCELOT_CPU_LLVM_MAX_INSTRUCTIONS", "0",
                              "its code is too large for LLVM's register allocator");
}

TEST_F(LlvmExecutorTest, ARefusedKernelIsRecordedInTheCodeCache) {
  // The refusal follows from the plan: the next process (here a new compiler on the same cache)
  // reads it instead of translating and optimizing the kernel again.
  expectSaxpyInTheInterpreter("OCELOT_CPU_LLVM_MAX_INSTRUCTIONS", "0",
                              "its code is too large for LLVM's register allocator");
  expectSaxpyInTheInterpreter("OCELOT_CPU_LLVM_MAX_INSTRUCTIONS", "0",
                              "its code is too large for LLVM's register allocator",
                              "(recorded in the code cache)");
}

TEST_F(LlvmExecutorTest, NativeAtomicsGiveTheInterpretersValuesInLaneOrder) {
  // Every integer read-modify-write the executor performs natively, in global (through global and
  // generic addresses) and shared memory, all 32 lanes of each warp on one cell (the old values
  // show the lane order), a guarded one, and red: cells and old values must be the interpreter's.
  // Each warp has its own cells (warps of a CTA may interleave differently under the two
  // executors; lanes may not).
  const std::string ptx = R"(.version 9.0
.target sm_90
.address_size 64

.visible .entry atomics(.param .u64 p)
{
	.reg .pred %p<2>;
	.reg .b32 %r<24>;
	.reg .b64 %rd<24>;
	.shared .align 8 .b8 cells[128];
	ld.param.u64 %rd10, [p];
	cvta.to.global.u64 %rd1, %rd10;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	shr.u32 %r3, %r1, 5;
	and.b32 %r4, %r1, 31;
	shl.b32 %r5, %r2, 1;
	add.u32 %r5, %r5, %r3;
	mul.wide.u32 %rd2, %r5, 64;
	add.u64 %rd3, %rd1, %rd2;
	add.u64 %rd11, %rd10, %rd2;
	mul.lo.u32 %r6, %r4, -1640531527;
	cvt.s64.s32 %rd5, %r6;
	atom.global.add.u32 %r10, [%rd3], %r6;
	atom.global.and.b32 %r11, [%rd3+4], %r6;
	atom.global.or.b32 %r12, [%rd3+8], %r6;
	atom.global.xor.b32 %r13, [%rd3+12], %r6;
	atom.global.exch.b32 %r14, [%rd3+16], %r6;
	atom.global.min.s32 %r15, [%rd3+20], %r6;
	atom.global.max.u32 %r16, [%rd3+24], %r6;
	atom.global.add.u64 %rd6, [%rd3+32], %rd5;
	atom.global.max.s64 %rd7, [%rd3+40], %rd5;
	red.global.add.u32 [%rd3+48], %r6;
	atom.min.u64 %rd8, [%rd11+56], %rd5;
	and.b32 %r9, %r4, 1;
	setp.eq.u32 %p1, %r9, 1;
	mov.u32 %r19, 0;
	@%p1 atom.global.add.u32 %r19, [%rd3+52], %r6;
	mov.u32 %r7, cells;
	shl.b32 %r8, %r3, 6;
	add.u32 %r7, %r7, %r8;
	st.shared.u32 [%r7], 5;
	st.shared.u32 [%r7+4], 9;
	bar.sync 0;
	atom.shared.add.u32 %r17, [%r7], %r6;
	atom.shared.exch.b32 %r18, [%r7+4], %r6;
	bar.sync 0;
	ld.shared.u32 %r20, [%r7];
	ld.shared.u32 %r21, [%r7+4];
	mul.wide.u32 %rd12, %r1, 128;
	mul.wide.u32 %rd13, %r2, 8192;
	add.u64 %rd12, %rd12, %rd13;
	add.u64 %rd12, %rd12, 4096;
	add.u64 %rd12, %rd1, %rd12;
	st.global.v4.u32 [%rd12], {%r10, %r11, %r12, %r13};
	st.global.v4.u32 [%rd12+16], {%r14, %r15, %r16, %r19};
	st.global.v2.u64 [%rd12+32], {%rd6, %rd7};
	st.global.u64 [%rd12+48], %rd8;
	st.global.v4.u32 [%rd12+56], {%r17, %r18, %r20, %r21};
	ret;
}
)";
  constexpr size_t kWords = (4096 + 2 * 8192) / 8;
  expectSameOutcome([&](CpuDevice& device) {
    device.reset();
    Outcome outcome;
    uint64_t* data = allocate<uint64_t>(device, kWords);
    for (size_t i = 0; i < kWords; ++i)
      data[i] = i < 4096 / 8 ? 0x8000000180000001ull * (i % 7 + 1) : 0;
    outcome.launched = launch(device, load(device, ptx, "atomics"), dim3(2), dim3(64), 0, data);
    outcome.synchronized = device.synchronize();
    outcome.fault = device.faultMessage();
    outcome.buffers.push_back(bytes(data, kWords));
    return outcome;
  });
  // A faulting atomic (an address outside device memory) reports as the interpreter's.
  expectSameOutcome([&](CpuDevice& device) {
    device.reset();
    Outcome outcome;
    outcome.launched = launch(device, load(device, ptx, "atomics"), dim3(1), dim3(64), 0,
                              reinterpret_cast<uint64_t*>(0x1000));
    outcome.synchronized = device.synchronize();
    outcome.fault = device.faultMessage();
    return outcome;
  });
  EXPECT_EQ(compiler_->statistics().failed, 0u);
}

TEST_F(LlvmExecutorTest, FtzFlushesSingleResultsThatRoundUpToTheSmallestNormal) {
  // .ftz detects tininess before rounding (the interpreter, as the GPU): a product or quotient
  // just below 2^-126 that rounds up to it is flushed to zero, by both executors. Lane 0:
  // 0x1.fffffep-64 * 2^-63; lane 1: 0x1.fffffep-64 / 2^63 (and fma with +0); other lanes ordinary
  // values, which stay as they are.
  const std::string ptx = R"(.version 9.0
.target sm_100a
.address_size 64

.visible .entry tiny(.param .u64 p)
{
	.reg .f32 %f<8>;
	.reg .b32 %r<2>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 24;
	add.u64 %rd1, %rd1, %rd2;
	ld.global.f32 %f1, [%rd1];
	ld.global.f32 %f2, [%rd1+4];
	mul.ftz.f32 %f3, %f1, %f2;
	div.rn.ftz.f32 %f4, %f1, %f2;
	fma.rn.ftz.f32 %f5, %f1, %f2, 0f00000000;
	rcp.rn.ftz.f32 %f6, %f2;
	st.global.f32 [%rd1+8], %f3;
	st.global.f32 [%rd1+12], %f4;
	st.global.f32 [%rd1+16], %f5;
	st.global.f32 [%rd1+20], %f6;
	ret;
}
)";
  constexpr int kLanes = 32;
  const float a = 0x1.fffffep-64f;
  auto run = [&](CpuDevice& device, std::vector<float>* results) {
    device.reset();
    Outcome outcome;
    float* data = allocate<float>(device, kLanes * 6);
    for (int lane = 0; lane < kLanes; ++lane) {
      data[lane * 6] = lane < 2 ? a : 1.5f + static_cast<float>(lane);
      data[lane * 6 + 1] = lane == 0 ? 0x1p-63f : lane == 1 ? 0x1p63f : 0.25f * lane;
      for (int i = 2; i < 6; ++i)
        data[lane * 6 + i] = -1.0f;
    }
    outcome.launched = launch(device, load(device, ptx, "tiny"), dim3(1), dim3(kLanes), 0, data);
    outcome.synchronized = device.synchronize();
    outcome.fault = device.faultMessage();
    outcome.buffers.push_back(bytes(data, kLanes * 6));
    results->assign(data, data + kLanes * 6);
    return outcome;
  };
  std::vector<float> interpreted, native;
  expectSameOutcome([&](CpuDevice& device) {
    return run(device, &device == interpreter_.get() ? &interpreted : &native);
  });
  ASSERT_EQ(native.size(), size_t{kLanes} * 6);
  EXPECT_EQ(native[2], 0.0f) << "mul.ftz: rounded up to 2^-126 from below";
  EXPECT_EQ(native[6 + 3], 0.0f) << "div.rn.ftz: rounded up to 2^-126 from below";
  EXPECT_EQ(native[4], 0.0f) << "fma.rn.ftz: rounded up to 2^-126 from below";
  EXPECT_EQ(native[6 * 5 + 2], 6.5f * 1.25f);
  EXPECT_EQ(compiler_->statistics().failed, 0u);
}

void LlvmExecutorTest::expectSaxpy(CpuDevice& device) {
  const int n = 100;
  float* x = allocate<float>(device, n);
  float* y = allocate<float>(device, n);
  for (int i = 0; i < n; ++i)
    x[i] = y[i] = static_cast<float>(i);
  EXPECT_EQ(
      launch(device, load(device, kernelsPtx(), "saxpy"), dim3(1), dim3(128), 0, n, 2.0f, x, y),
      cudaSuccess);
  EXPECT_EQ(device.synchronize(), cudaSuccess) << device.faultMessage();
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(y[i], 3.0f * static_cast<float>(i)) << i;
}

TEST_F(LlvmExecutorTest, AKernelWhoseFrameTheThreadsCannotHoldRunsInTheInterpreter) {
  // Code generation reports the frame of the code it made; code whose frame is larger than the
  // device's threads leave for it (here: 1 byte) is not used.
  expectSaxpyInTheInterpreter("OCELOT_CPU_LLVM_FRAME_LIMIT", "1",
                              "its native stack frame would be");
}

TEST_F(LlvmExecutorTest, ACorruptCodeCacheEntryIsRebuilt) {
  auto run = [&]() {
    // A new compiler and device: nothing in memory, only the cache on disk.
    std::string error;
    auto compiler = NativeCompiler::load(OCELOT_CPU_LLVM_COMPONENT, cache_.string(), &error);
    EXPECT_TRUE(compiler) << error;
    auto device = CpuDevice::create(&error);
    device->options().compiler = compiler;
    expectSaxpy(*device);
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

TEST_F(LlvmExecutorTest, TheLlvmExecutorIsTheDefaultAndTheInterpreterCanBeChosen) {
  const char* previous = std::getenv("OCELOT_CPU_EXECUTOR");
  const std::optional<std::string> saved =
      previous != nullptr ? std::optional<std::string>(previous) : std::nullopt;
  unsetenv("OCELOT_CPU_EXECUTOR");
  EXPECT_TRUE(NativeCompiler::fromEnvironment()) << "unset: the LLVM executor";
  setenv("OCELOT_CPU_EXECUTOR", "llvm", 1);
  EXPECT_TRUE(NativeCompiler::fromEnvironment());
  setenv("OCELOT_CPU_EXECUTOR", "interpreter", 1);
  EXPECT_FALSE(NativeCompiler::fromEnvironment());
  if (saved)
    setenv("OCELOT_CPU_EXECUTOR", saved->c_str(), 1);
  else
    unsetenv("OCELOT_CPU_EXECUTOR");
}

TEST_F(LlvmExecutorTest, AMissingComponentIsReported) {
  std::string error;
  EXPECT_FALSE(NativeCompiler::load("/nonexistent/libocelot_cpu_llvm.so", "", &error));
  EXPECT_NE(error.find("cannot load"), std::string::npos) << error;
}

} // namespace
} // namespace ocelot::runtime::cpu::test
