// What probes see, against the CPU device's execution trace (runtime/cpu/ExecutionTracer.h), an
// oracle independent of the probes: the analytic kernels of kernels/oracle_kernels.cu run once as
// they are, traced, and once instrumented with the oracle tool (tools/oracle.cu) on the same
// buffers. Block entries, every lane's address of every memory access (before and after the
// access), every branch's taken / not taken / divergent counts and every instruction's executions
// must be equal; the analytic kernels' known patterns (coalesced and strided addresses, shared-
// memory bank conflicts) must show.

#include "instrumentors/ModuleInstrumenter.h"
#include "instrumentors/ProbeInstrumentor.h"
#include "instrumentors/ProbeSites.h"
#include "ir/Casting.h"
#include "ir/Parser.h"
#include "tests/probes/TracedProbeTest.h"
#include "tests/probes/tools/OracleRecords.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>

namespace ocelot::runtime::cpu::test {
namespace {

class ProbeOracle : public TracedProbeTest {
protected:
  virtual std::string toolName() const { return "oracle"; }

  void SetUp() override {
    TracedProbeTest::SetUp();
    kernels_ = readText(OCELOT_PROBE_KERNELS_PTX);
    ASSERT_FALSE(kernels_.empty()) << OCELOT_PROBE_KERNELS_PTX;
    auto shared = std::make_shared<instrumentors::ProbeInstrumentor::Shared>();
    shared->definition.name = "oracle";
    shared->definition.ptx = {
        readText(std::string(OCELOT_PROBE_PTX_DIR) + "/" + toolName() + ".ptx")};
    shared->definition.result = [this](const ProbeData& data) {
      data_ = std::make_unique<ProbeData>(data);
      return std::make_shared<ProbeResult>(data);
    };
    tool_ = std::make_unique<instrumentors::ProbeInstrumentor>(shared, InstrumentorOptions{});
    instrumentors::InstrumentOptions options;
    options.label = "oracle_kernels";
    module_ = instrumentors::instrumentModule(kernels_, {{tool_.get(), 0}}, options);
    ASSERT_TRUE(module_.ok) << module_.error;

    numberInstructions();
  }

  /// Runs `kernel` traced as it is, then instrumented, on the same arguments.
  template <class... Args> void run(const char* kernel, dim3 grid, dim3 block, Args... args) {
    traceThenInstrument(*tool_, kernel, grid, block, args...);
    if (HasFatalFailure())
      return;
    ASSERT_TRUE(data_);
    if (expectErrors_)
      return;
    EXPECT_TRUE(data_->errors().empty()) << data_->errors().front();
  }

  /// Every check against the trace.
  void compareWithTrace() {
    const ProbeData& data = *data_;
    // Block entries, for every block of the functions the kernel ran.
    auto blocks = data.counters<uint64_t>("blocks");
    std::map<std::pair<std::string, uint32_t>, uint64_t> traced;
    for (size_t b = 0; b < trace_.blocks.size(); ++b)
      traced[trace_.blocks[b]] += trace_.blockCounts[b];
    size_t compared = 0;
    for (size_t b = 0; b < data.blocks().size(); ++b) {
      auto key = std::make_pair(data.blocks()[b].function, data.blocks()[b].index);
      auto found = traced.find(key);
      EXPECT_EQ(blocks[b], found == traced.end() ? 0 : found->second)
          << key.first << " block " << key.second;
      compared += found != traced.end();
    }
    EXPECT_EQ(compared, traced.size());

    // Instructions: executions (guard applied), and branches' predicates.
    auto executions = data.counters<uint64_t>("executions");
    auto taken = data.counters<uint64_t>("taken");
    auto notTaken = data.counters<uint64_t>("notTaken");
    auto divergent = data.counters<uint64_t>("divergent");
    std::vector<uint64_t> want(executions.size(), 0), wantTaken(executions.size(), 0),
        wantNotTaken(executions.size(), 0), wantDivergent(executions.size(), 0);
    for (uint32_t pc = 0; pc < trace_.pcs.size(); ++pc) {
      std::optional<uint32_t> found = instructionOfPc(pc);
      if (!found) {
        EXPECT_EQ(trace_.executed[pc], 0u) << "pc " << pc << " has no PTX instruction";
        continue;
      }
      uint32_t id = *found;
      want[id] += trace_.executed[pc];
      if (data.instructions()[id].opcodeClass == probe::kBranch) {
        wantTaken[id] += trace_.taken[pc];
        wantNotTaken[id] += trace_.notTaken[pc];
        wantDivergent[id] += trace_.divergent[pc];
      }
    }
    EXPECT_EQ(executions, want);
    EXPECT_EQ(taken, wantTaken);
    EXPECT_EQ(notTaken, wantNotTaken);
    EXPECT_EQ(divergent, wantDivergent);

    // Memory: every lane's address of every access through an address the probe traces.
    using Key = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint64_t>;
    std::vector<Key> probed, expected, loadsBefore, loadsAfter;
    for (const auto& a : data.records<oracle::Access>("accesses")) {
      probed.emplace_back(a.instruction, a.cta, a.warp, a.lane, a.address);
      const ProbeInstruction& inst = data.instructions().at(a.instruction);
      EXPECT_EQ(a.bytes, inst.accessBytes);
      EXPECT_EQ(a.space, inst.space);
      EXPECT_EQ(a.kind, inst.access);
      if (inst.opcodeClass == probe::kLoad && inst.space != probe::kLocal)
        loadsBefore.push_back(probed.back());
    }
    for (const auto& a : data.records<oracle::Access>("afterLoads"))
      loadsAfter.emplace_back(a.instruction, a.cta, a.warp, a.lane, a.address);
    for (const auto& a : trace_.accesses) {
      std::optional<uint32_t> found = instructionOfPc(a.pc);
      ASSERT_TRUE(found) << "an access at pc " << a.pc << ", which has no PTX instruction";
      uint32_t id = *found;
      probe::StateSpace space = data.instructions()[id].space;
      if (space == probe::kGeneric || space == probe::kGlobal || space == probe::kShared ||
          space == probe::kLocal)
        expected.emplace_back(id, a.cta, a.warp, a.lane, a.address);
    }
    std::sort(probed.begin(), probed.end());
    std::sort(expected.begin(), expected.end());
    std::sort(loadsBefore.begin(), loadsBefore.end());
    std::sort(loadsAfter.begin(), loadsAfter.end());
    EXPECT_EQ(data.dropped("accesses"), 0u);
    EXPECT_EQ(probed.size(), expected.size());
    EXPECT_TRUE(probed == expected) << "the probe's addresses differ from the trace's";
    EXPECT_TRUE(loadsBefore == loadsAfter) << "after-load addresses differ from before-load ones";
    accesses_ = probed;
  }

  /// The probe's addresses of the accesses of one opcode prefix ("ld.global", "st.shared").
  std::vector<uint64_t> addressesOf(std::string_view opcode) const {
    std::vector<uint64_t> out;
    for (const auto& [id, cta, warp, lane, address] : accesses_)
      if (data_->instructions()[id].opcode.starts_with(opcode))
        out.push_back(address);
    std::sort(out.begin(), out.end());
    return out;
  }

  std::unique_ptr<instrumentors::ProbeInstrumentor> tool_;
  std::unique_ptr<ProbeData> data_;
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint64_t>> accesses_;
  bool expectErrors_ = false;
};

TEST_F(ProbeOracle, CoalescedAccessesAreConsecutiveWords) {
  const uint32_t n = 256;
  float* in = allocate<float>(n);
  float* out = allocate<float>(n);
  for (uint32_t i = 0; i < n; ++i)
    in[i] = static_cast<float>(i);
  run("coalesced", dim3(2), dim3(128), in, out);
  compareWithTrace();
  std::vector<uint64_t> want;
  for (uint32_t i = 0; i < n; ++i)
    want.push_back(reinterpret_cast<uint64_t>(in + i));
  EXPECT_EQ(addressesOf("ld.global"), want);
  want.clear();
  for (uint32_t i = 0; i < n; ++i)
    want.push_back(reinterpret_cast<uint64_t>(out + i));
  EXPECT_EQ(addressesOf("st.global"), want);
  EXPECT_EQ(out[7], 14.0f);
}

TEST_F(ProbeOracle, StridedAccessesAreStrideWordsApart) {
  const uint32_t n = 64, stride = 5;
  float* in = allocate<float>(n * stride);
  float* out = allocate<float>(n);
  run("strided", dim3(2), dim3(32), in, out, static_cast<int>(stride));
  compareWithTrace();
  std::vector<uint64_t> want;
  for (uint32_t i = 0; i < n; ++i)
    want.push_back(reinterpret_cast<uint64_t>(in + i * stride));
  EXPECT_EQ(addressesOf("ld.global"), want);
}

TEST_F(ProbeOracle, SharedStoresHaveTheirBankConflicts) {
  int* out = allocate<int>(64);
  for (int ways : {1, 2, 8, 32}) {
    SCOPED_TRACE(ways);
    run("sharedConflicts", dim3(2), dim3(32), out, ways);
    compareWithTrace();
    // Per warp, the store's words: lane * ways. Bank = word % 32; conflict ways = the most
    // distinct words one bank serves.
    std::map<std::pair<uint32_t, uint32_t>, std::map<uint64_t, std::set<uint64_t>>> banks;
    for (const auto& [id, cta, warp, lane, address] : accesses_)
      if (data_->instructions()[id].opcode.starts_with("st.shared"))
        banks[{cta, warp}][(address / 4) % 32].insert(address);
    ASSERT_EQ(banks.size(), 2u);
    for (const auto& [warp, byBank] : banks) {
      size_t most = 0;
      for (const auto& [bank, words] : byBank)
        most = std::max(most, words.size());
      EXPECT_EQ(most, static_cast<size_t>(ways));
    }
  }
}

TEST_F(ProbeOracle, DivergentBranchesLoopsCallsAndAtomics) {
  auto [table, out, counters] = divergentArguments(3 * 96);
  run("divergent", dim3(3), dim3(96), table, out, counters);
  compareWithTrace();
  // Every warp splits at t % 3 == 0: some branch is divergent in all 9 warps.
  auto divergent = data_->counters<uint64_t>("divergent");
  EXPECT_NE(std::find(divergent.begin(), divergent.end(), 9u), divergent.end());
  // The device function's load ran for the 96 threads with t % 3 == 0.
  bool sawScale = false;
  for (const auto& [id, cta, warp, lane, address] : accesses_)
    sawScale = sawScale || data_->instructions()[id].function.find("scale") != std::string::npos;
  EXPECT_TRUE(sawScale);
}

TEST_F(ProbeOracle, TwoDimensionalGridsUseLinearIds) {
  int* out = allocate<int>(16 * 8);
  run("grid2d", dim3(2, 2), dim3(8, 4), out);
  compareWithTrace();
  std::set<uint32_t> ctas, lanes;
  for (const auto& [id, cta, warp, lane, address] : accesses_) {
    ctas.insert(cta);
    lanes.insert(lane);
    EXPECT_EQ(warp, 0u); // 32 threads per CTA
  }
  EXPECT_EQ(ctas, (std::set<uint32_t>{0, 1, 2, 3}));
}

class LaunchRegions : public ProbeOracle {
protected:
  std::string toolName() const override { return "launch_regions"; }
};

TEST_F(LaunchRegions, PerWarpCtaThreadSmKernelHistogramsSamplingEntriesAndExits) {
  const uint32_t ctas = 3, threads = 80; // 3 warps per CTA: 32, 32 and 16 lanes
  int* out = allocate<int>(ctas * threads);
  run("partial", dim3(ctas), dim3(threads), out);
  const ProbeData& data = *data_;
  std::vector<uint64_t> warps;
  for (uint32_t c = 0; c < ctas; ++c)
    warps.insert(warps.end(), {32, 32, 16});
  EXPECT_EQ(data.counters<uint64_t>("perWarp"), warps);
  EXPECT_EQ(data.counters<uint32_t>("perCta"), std::vector<uint32_t>(ctas, threads));
  EXPECT_EQ(data.counters<uint32_t>("perThread"), std::vector<uint32_t>(ctas * threads, 1));
  auto sms = data.counters<uint64_t>("perSm");
  EXPECT_EQ(sms.size(), 256u);
  uint64_t total = 0;
  for (uint64_t n : sms)
    total += n;
  EXPECT_EQ(total, uint64_t{ctas} * threads);
  // Even global warps: 0 (32 lanes), 2 (16), 4 (32), 6 (32), 8 (16).
  EXPECT_EQ(data.counters<uint64_t>("sampled"), std::vector<uint64_t>{128});
  uint32_t kernel = 0;
  for (const auto& f : data.functions())
    if (f.name == "partial")
      kernel = f.kernelId;
  EXPECT_EQ(data.counters<uint64_t>("exits").at(kernel), uint64_t{ctas} * threads);
  auto lanes = data.counters<uint64_t>("lanes");
  EXPECT_EQ(lanes.at(kernel * 33 + 32), 6u);
  EXPECT_EQ(lanes.at(kernel * 33 + 16), 3u);
  for (const auto& region : data.regions())
    EXPECT_EQ(region.dropped, 0u) << region.region.name;
  for (uint32_t i = 0; i < ctas * threads; ++i) {
    if (i % threads % 7 != 0) {
      EXPECT_EQ(out[i], static_cast<int>(i % threads));
    }
  }
}

class OverflowingProbe : public ProbeOracle {
protected:
  std::string toolName() const override { return "overflow"; }
};

TEST_F(OverflowingProbe, IsSuppressedReportedAndSwitchesTheToolOff) {
  const uint32_t n = 64;
  float* in = allocate<float>(n);
  float* out = allocate<float>(n);
  for (uint32_t i = 0; i < n; ++i)
    in[i] = static_cast<float>(i);
  expectErrors_ = true;
  run("coalesced", dim3(2), dim3(32), in, out); // the launch does not fault: the write is skipped
  for (uint32_t i = 0; i < n; ++i)
    EXPECT_EQ(out[i], 2.0f * static_cast<float>(i));
  ASSERT_EQ(data_->errors().size(), 1u);
  EXPECT_NE(data_->errors()[0].find("probe 'overflow' wrote outside its regions"),
            std::string::npos);
  // Its other updates happened: one entry per thread in the kernel's only block.
  uint64_t entries = 0;
  for (uint64_t c : data_->counters<uint64_t>("hits"))
    entries += c;
  EXPECT_EQ(entries, uint64_t{n});
  LaunchInfo next;
  EXPECT_EQ(tool_->variant(next, {}).variant, instrumentors::ProbeInstrumentor::kDisabledVariant);
}

// Block counts Ocelot counts for probe tools (OCELOT_BLOCK_COUNTS, bbcount's placement: derived
// blocks, register counters in loops, atomics elsewhere): the lanes and the warps that entered
// every block equal the trace's.
class BlockCounts : public ProbeOracle {
protected:
  std::string toolName() const override { return "blockcounts"; }

  void compareWithTrace() {
    const ProbeData& data = *data_;
    auto lanes = data.counters<uint64_t>("laneEntries");
    auto warps = data.counters<uint64_t>("warpEntries");
    std::map<std::pair<std::string, uint32_t>, std::pair<uint64_t, uint64_t>> traced;
    for (size_t b = 0; b < trace_.blocks.size(); ++b) {
      traced[trace_.blocks[b]].first += trace_.blockCounts[b];
      traced[trace_.blocks[b]].second += trace_.blockWarps[b];
    }
    size_t compared = 0, nonzero = 0;
    for (size_t b = 0; b < data.blocks().size(); ++b) {
      auto key = std::make_pair(data.blocks()[b].function, data.blocks()[b].index);
      auto found = traced.find(key);
      std::pair<uint64_t, uint64_t> want =
          found == traced.end() ? std::pair<uint64_t, uint64_t>{} : found->second;
      EXPECT_EQ(lanes[b], want.first) << key.first << " block " << key.second << " lanes";
      EXPECT_EQ(warps[b], want.second) << key.first << " block " << key.second << " warps";
      compared += found != traced.end();
      nonzero += lanes[b] != 0;
    }
    EXPECT_EQ(compared, traced.size());
    EXPECT_GT(nonzero, 0u);
  }
};

TEST_F(BlockCounts, LanesAndWarpsOfEveryBlockEqualTheTrace) {
  run("coalesced", dim3(2), dim3(128), allocate<float>(256), allocate<float>(256));
  compareWithTrace();
  auto divergent = divergentArguments(3 * 96);
  run("divergent", dim3(3), dim3(96), divergent.table, divergent.out, divergent.counters);
  compareWithTrace();
  run("partial", dim3(2), dim3(80), allocate<int>(2 * 80));
  compareWithTrace();
  run("grid2d", dim3(2, 2), dim3(8, 4), allocate<int>(16 * 8));
  compareWithTrace();
  // What the module was instrumented with: some block of each kind.
  const auto& state = static_cast<const instrumentors::ProbeModuleState&>(*module_.states.at(0));
  std::set<instrumentors::CounterKind> kinds;
  for (const auto& counter : state.blockCounts.at(0).blocks)
    kinds.insert(counter.kind);
  EXPECT_TRUE(kinds.contains(instrumentors::CounterKind::Atomic));
  EXPECT_TRUE(kinds.contains(instrumentors::CounterKind::Register));
  EXPECT_TRUE(kinds.contains(instrumentors::CounterKind::Derived));
}

} // namespace
} // namespace ocelot::runtime::cpu::test
