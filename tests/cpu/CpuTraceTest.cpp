// The execution-trace hook: exact per-block execution counts (the reference the instrumentors are
// checked against), per-instruction counts and per-lane memory accesses.

#include "CpuDeviceFixture.h"
#include "runtime/cpu/BlockCountTracer.h"
#include "runtime/cpu/ExecutionTracer.h"

#include <atomic>
#include <bit>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

namespace ocelot::runtime::cpu::test {
namespace {

class CountingTracer final : public ExecutionTracer {
public:
  void launchBegin(const DecodedKernel& kernel) override {
    threadCounts.assign(kernel.blocks.size(), 0);
    warpCounts.assign(kernel.blocks.size(), 0);
  }
  void blockEntered(const TraceSite&, uint32_t block, LaneMask active) override {
    std::lock_guard lock(mutex);
    threadCounts[block] += static_cast<uint64_t>(std::popcount(active));
    warpCounts[block] += 1;
  }
  void instruction(const TraceSite&, uint32_t, LaneMask, LaneMask executed) override {
    threadInstructions += static_cast<uint64_t>(std::popcount(executed));
  }
  void memoryAccess(const TraceSite&, uint32_t, uint32_t, uint64_t) override { ++accesses; }

  std::mutex mutex;
  std::vector<uint64_t> threadCounts, warpCounts;
  std::atomic<uint64_t> threadInstructions{0}, accesses{0};
};

constexpr const char* kLoop = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry loop()
{
  .reg .b32 %r<8>;
  .reg .pred %p<4>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
$L1:
  add.u32 %r2, %r2, 1;
  setp.le.u32 %p1, %r2, %r1;
  @%p1 bra $L1;
  ret;
}
)";

TEST_F(CpuDeviceTest, TraceGivesExactPerBlockCounts) {
  CountingTracer tracer;
  device_->setTracer(&tracer);
  DeviceFunction kernel = load(kLoop, "loop");
  const uint32_t threads = 64, ctas = 3;
  ASSERT_EQ(launch(kernel, dim3(ctas), dim3(threads), 0), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  ASSERT_EQ(tracer.threadCounts.size(), 3u);
  EXPECT_EQ(tracer.threadCounts[0], uint64_t{threads} * ctas);
  EXPECT_EQ(tracer.threadCounts[1], uint64_t{threads * (threads + 1) / 2} * ctas);
  EXPECT_EQ(tracer.threadCounts[2], uint64_t{threads} * ctas);
  // Warps: block 1 runs (highest tid of the warp + 1) times per warp.
  EXPECT_EQ(tracer.warpCounts[1], uint64_t{32 + 64} * ctas);
  // 2 + 3 per iteration + 1 (ret) per thread, less the last iteration's branch, whose guard is
  // false (executed lanes are counted after the guard).
  EXPECT_EQ(tracer.threadInstructions.load(),
            uint64_t{ctas} * (threads * 3 + 3 * threads * (threads + 1) / 2 - threads));
}

TEST_F(CpuDeviceTest, TraceReportsEveryMemoryAccess) {
  CountingTracer tracer;
  device_->setTracer(&tracer);
  DeviceFunction kernel = load(kernelsPtx(), "saxpy");
  const int n = 1000;
  float* x = allocate<float>(n);
  float* y = allocate<float>(n);
  ASSERT_EQ(launch(kernel, dim3(8), dim3(128), 0, n, 2.0f, x, y), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess);
  // Per thread in range: 4 parameter loads + load x, load y, store y; out of range: 4 loads.
  EXPECT_EQ(tracer.accesses.load(), uint64_t{1024} * 4 + uint64_t{n} * 3);
}

// A leader's atomic per warp (guarded: the other lanes' guard is false) and every lane's red.
constexpr const char* kAtomics = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry atomics(.param .u64 atomics_param_0)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [atomics_param_0];
  mov.u32 %r1, %laneid;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 atom.global.add.u32 %r2, [%rd1], 1;
  red.global.add.u32 [%rd1+4], 1;
  ret;
}
)";

// OCELOT_CPU_TRACE_OUTPUT's line: per launch, besides the block counts, the warp and thread
// instructions executed and the atom/red among them (what tests/probes/probe_cost.py reads).
TEST_F(CpuDeviceTest, BlockCountTraceCountsInstructionsAndAtomics) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("ocelot-trace-" + std::to_string(::getpid()) + ".jsonl"))
                               .string();
  std::remove(path.c_str());
  BlockCountTracer tracer(path);
  device_->setTracer(&tracer);
  DeviceFunction kernel = load(kAtomics, "atomics");
  uint32_t* counters = allocate<uint32_t>(2);
  counters[0] = counters[1] = 0;
  ASSERT_EQ(launch(kernel, dim3(2), dim3(80), 0, counters), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  device_->setTracer(nullptr);
  std::ifstream in(path);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  std::remove(path.c_str());
  auto record = nlohmann::json::parse(line);
  // 3 warps per CTA (80 threads): 6 instructions each; every lane runs 5 (not the guarded atom).
  EXPECT_EQ(record["instructions"], 6u);
  EXPECT_EQ(record["warp_instructions"], 2 * 3 * 6u);
  EXPECT_EQ(record["thread_instructions"], 2 * (80 * 5u + 3));
  EXPECT_EQ(record["atomics"], 2 * 3 * 2u);
  EXPECT_EQ(record["atomic_lanes"], 2 * (3 + 80u));
  EXPECT_EQ(counters[0], 6u);
  EXPECT_EQ(counters[1], 160u);
}

} // namespace
} // namespace ocelot::runtime::cpu::test
