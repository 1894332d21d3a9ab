// The shipped probe tools (tools/probes) against the analytic kernels of kernels/oracle_kernels.cu
// on the CPU device: each tool is loaded as a plugin, as `ocelot run -i NAME` loads it, the kernel
// runs once traced as it is and once instrumented on the same buffers, and the tool's result must
// equal what the kernel's source says and what the CPU device's execution trace says.

#include "instrumentors/InstructionClass.h"
#include "instrumentors/InstrumentorRegistry.h"
#include "instrumentors/ModuleInstrumenter.h"
#include "instrumentors/ProbeSites.h"
#include "ir/Parser.h"
#include "ocelot/ProbeTool.h"
#include "tests/probes/TracedProbeTest.h"
#include "tools/probes/memtrace/TraceFormat.h"

#include <zstd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <tuple>

namespace ocelot::runtime::cpu::test {
namespace {

/// One shipped tool on the analytic kernels.
class ToolExactness : public TracedProbeTest {
protected:
  void SetUp() override {
    TracedProbeTest::SetUp();
    kernels_ = readText(OCELOT_PROBE_KERNELS_PTX);
    ASSERT_FALSE(kernels_.empty()) << OCELOT_PROBE_KERNELS_PTX;
    numberKernels();
  }

  /// The ids, classes and spaces of kernels_' instructions, and which are conditional branches.
  void numberKernels() {
    instructionIds_.clear();
    conditionalBranches_.clear();
    classes_.clear();
    spaces_.clear();
    numberInstructions([&](uint32_t id, const ir::Instruction& inst) {
      if (inst.form().opcode() == ir::Opcode::Bra && inst.guard().has_value())
        conditionalBranches_.insert(id);
      classes_.push_back(instrumentors::opcodeClassOf(inst.form()));
      spaces_.push_back(instrumentors::stateSpaceOf(inst.form()));
    });
  }

  /// Loads the tool libocelot-`name`.so and instruments the analytic kernels with it.
  void useTool(const std::string& name, const std::string& options = "",
               const std::string& dir = OCELOT_PROBE_TOOLS_DIR) {
    std::string path = dir + "/libocelot-" + name + ".so";
    registry_.loadPlugin(path);
    tool_ = registry_.create(name, InstrumentorOptions::parse(options));
    ASSERT_TRUE(tool_);
    instrumentors::InstrumentOptions instrumentOptions;
    instrumentOptions.label = "oracle_kernels";
    module_ = instrumentors::instrumentModule(kernels_, {{tool_.get(), 0}}, instrumentOptions);
    ASSERT_TRUE(module_.ok) << module_.error;
  }

  /// Runs `kernel` traced as it is, then instrumented; result_ is the tool's JSON.
  template <class... Args> void run(const char* kernel, dim3 grid, dim3 block, Args... args) {
    traceThenInstrument(*tool_, kernel, grid, block, args...);
    if (HasFatalFailure())
      return;
    ASSERT_TRUE(finalized_);
    result_ = finalized_->json();
    summary_ = finalized_->summary();
    ASSERT_TRUE(result_.contains("errors"));
    if (!expectErrors_) {
      EXPECT_TRUE(result_["errors"].empty()) << result_["errors"].dump();
    }
  }

public:
  std::optional<uint32_t> instructionOf(uint32_t pc) const { return instructionOfPc(pc); }
  /// Whether instruction `id` of the module is a branch with a guard (`@%p bra`).
  bool isConditionalBranch(uint32_t id) const { return conditionalBranches_.count(id) != 0; }

protected:
  /// The result's entry of `array` for the one instruction whose opcode starts with `opcode`.
  const Json& entryOf(const char* array, std::string_view opcode) const {
    const Json* found = nullptr;
    for (const auto& e : result_[array])
      if (e["opcode"].get<std::string>().starts_with(opcode)) {
        EXPECT_EQ(found, nullptr) << "two instructions " << opcode;
        found = &e;
      }
    static const Json none = Json::object();
    EXPECT_NE(found, nullptr) << "no instruction " << opcode << " in " << result_.dump();
    return found != nullptr ? *found : none;
  }

  /// Per instruction id, the trace's requests: each warp's lanes' addresses, for kernels whose
  /// memory instructions run once per warp (checked against the trace's warp executions).
  std::map<uint32_t, std::vector<std::vector<uint64_t>>> tracedRequests() {
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::vector<uint64_t>> byWarp;
    for (const auto& a : trace_.accesses)
      if (auto id = instructionOfPc(a.pc))
        byWarp[{*id, a.cta, a.warp}].push_back(a.address);
    std::map<uint32_t, std::vector<std::vector<uint64_t>>> out;
    for (auto& [key, addresses] : byWarp)
      out[std::get<0>(key)].push_back(std::move(addresses));
    std::map<uint32_t, uint64_t> warpsRan;
    for (uint32_t pc = 0; pc < trace_.pcs.size(); ++pc)
      if (auto id = instructionOfPc(pc))
        warpsRan[*id] += trace_.warpsRan[pc];
    for (const auto& [id, requests] : out)
      EXPECT_EQ(requests.size(), warpsRan[id]) << "instruction " << id << " ran twice in a warp";
    return out;
  }

  std::set<uint32_t> conditionalBranches_;
  std::vector<probe::OpcodeClass> classes_; ///< by instruction id
  std::vector<probe::StateSpace> spaces_;   ///< by instruction id
  bool expectErrors_ = false;
  instrumentors::InstrumentorRegistry registry_;
  std::shared_ptr<const PTXInstrumentor> tool_;
  Json result_;
  std::string summary_;
};

// --- memaccess ---

/// What the trace says memaccess must count for 4-byte accesses: distinct sectors, lines, and the
/// most distinct words of one shared bank, summed over requests.
struct Expected {
  uint64_t requests = 0, lanes = 0, sectors = 0, lines = 0, wavefronts = 0;
};
Expected fromTrace(const std::vector<std::vector<uint64_t>>& requests) {
  Expected e;
  for (const auto& lanes : requests) {
    std::set<uint64_t> sectors, lines;
    std::map<uint64_t, std::set<uint64_t>> banks;
    for (uint64_t a : lanes) {
      sectors.insert(a / 32);
      lines.insert(a / 128);
      banks[(a / 4) % 32].insert(a / 4);
    }
    size_t ways = 0;
    for (const auto& [bank, words] : banks)
      ways = std::max(ways, words.size());
    e.requests += 1;
    e.lanes += lanes.size();
    e.sectors += sectors.size();
    e.lines += lines.size();
    e.wavefronts += ways;
  }
  return e;
}

/// Local memory in the hardware's layout (docs/probe-tools.md): word w of lane l's window is byte
/// w * 128 + l * 4 of the warp's rows. Distinct sectors and lines over each warp's request, from
/// the trace's per-lane offsets.
std::pair<uint64_t, uint64_t> localFromTrace(const RecordingTracer& trace,
                                             const std::function<bool(uint32_t pc)>& isInstruction,
                                             uint32_t words) {
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::set<std::pair<uint64_t, uint32_t>>>
      sectorsOf;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::set<uint64_t>> linesOf;
  for (const auto& a : trace.accesses) {
    if (!isInstruction(a.pc))
      continue;
    for (uint32_t j = 0; j < words; ++j) {
      uint64_t row = a.address / 4 + j;
      sectorsOf[{a.pc, a.cta, a.warp}].insert({row, a.lane / 8});
      linesOf[{a.pc, a.cta, a.warp}].insert(row);
    }
  }
  uint64_t sectors = 0, lines = 0;
  for (const auto& [key, set] : sectorsOf)
    sectors += set.size();
  for (const auto& [key, set] : linesOf)
    lines += set.size();
  return {sectors, lines};
}

class MemAccess : public ToolExactness {
protected:
  void SetUp() override {
    ToolExactness::SetUp();
    useTool("memaccess");
  }
  /// The entry of `opcode` equals the trace's counts, and has `requests` requests.
  void checkGlobal(std::string_view opcode, uint64_t requests, uint64_t sectorsPerRequest,
                   uint64_t linesPerRequest) {
    SCOPED_TRACE(std::string(opcode));
    const Json& e = entryOf("instructions", opcode);
    auto traced = tracedRequests();
    Expected want = fromTrace(traced.at(e["instruction"].get<uint32_t>()));
    EXPECT_EQ(e["requests"], want.requests);
    EXPECT_EQ(e["lanes"], want.lanes);
    EXPECT_EQ(e["sectors"], want.sectors);
    EXPECT_EQ(e["lines"], want.lines);
    EXPECT_EQ(e["requests"], requests);
    EXPECT_EQ(e["sectors"], requests * sectorsPerRequest);
    EXPECT_EQ(e["lines"], requests * linesPerRequest);
    EXPECT_DOUBLE_EQ(e["sectors_per_request"].get<double>(), double(sectorsPerRequest));
  }
  /// A local access's entry, for full warps whose lane l touches words first(l) ..
  /// first(l) + words - 1, against the layout worked out here and from the trace.
  void checkLocal(const Json& e, uint64_t requests, uint32_t words,
                  const std::function<uint32_t(uint32_t lane)>& first) {
    std::set<std::pair<uint32_t, uint32_t>> sectors; // (row, group of eight lanes)
    std::set<uint32_t> rows;
    for (uint32_t lane = 0; lane < 32; ++lane)
      for (uint32_t j = 0; j < words; ++j) {
        sectors.insert({first(lane) + j, lane / 8});
        rows.insert(first(lane) + j);
      }
    EXPECT_EQ(e["requests"], requests);
    EXPECT_EQ(e["sectors"], requests * sectors.size());
    EXPECT_EQ(e["lines"], requests * rows.size());
    uint32_t id = e["instruction"].get<uint32_t>();
    auto [tracedSectors, tracedLines] = localFromTrace(
        trace_, [&](uint32_t pc) { return instructionOfPc(pc) == std::optional<uint32_t>(id); },
        words);
    EXPECT_EQ(e["sectors"], tracedSectors);
    EXPECT_EQ(e["lines"], tracedLines);
  }
};

TEST_F(MemAccess, CoalescedWordsAreFourSectorsAndOneLinePerRequest) {
  const uint32_t n = 256;
  float* in = allocate<float>(n);
  float* out = allocate<float>(n);
  for (uint32_t i = 0; i < n; ++i)
    in[i] = static_cast<float>(i);
  ASSERT_EQ(reinterpret_cast<uintptr_t>(in) % 128, 0u);
  ASSERT_EQ(reinterpret_cast<uintptr_t>(out) % 128, 0u);
  run("coalesced", dim3(2), dim3(128), in, out);
  checkGlobal("ld.global", 8, 4, 1);
  checkGlobal("st.global", 8, 4, 1);
  EXPECT_DOUBLE_EQ(entryOf("instructions", "ld.global")["efficiency"].get<double>(), 1.0);
  EXPECT_EQ(result_["global"]["requests"], 16u);
  EXPECT_DOUBLE_EQ(result_["global"]["sectors_per_request"].get<double>(), 4.0);
  EXPECT_EQ(out[9], 18.0f);
  // Per source line: the kernel's one line holds both accesses.
  ASSERT_FALSE(result_["source_lines"].empty());
  uint64_t sectors = 0;
  for (const auto& l : result_["source_lines"])
    sectors += l["value"].get<uint64_t>();
  EXPECT_EQ(sectors, 64u);
}

TEST_F(MemAccess, StridedWordsTouchOneSectorPerEightBytesOfStride) {
  for (uint32_t stride : {1u, 2u, 4u, 5u, 8u, 32u}) {
    SCOPED_TRACE(stride);
    const uint32_t n = 64;
    float* in = allocate<float>(n * stride);
    float* out = allocate<float>(n);
    ASSERT_EQ(reinterpret_cast<uintptr_t>(in) % 128, 0u);
    run("strided", dim3(2), dim3(32), in, out, static_cast<int>(stride));
    // Lane l reads word l * stride: 32 words spread over 4 * stride sectors and stride lines,
    // each at most one per lane; stride 5 (20 bytes) puts lanes 8k..8k+7 in 5 sectors.
    uint64_t sectors = stride == 5 ? 20 : std::min(32u, 4 * stride);
    checkGlobal("ld.global", 2, sectors, std::min(32u, stride));
    checkGlobal("st.global", 2, 4, 1);
  }
}

TEST_F(MemAccess, SharedStoresHaveTheirBankConflictWays) {
  int* out = allocate<int>(64);
  for (uint32_t ways : {1u, 2u, 8u, 32u}) {
    SCOPED_TRACE(ways);
    run("sharedConflicts", dim3(2), dim3(32), out, static_cast<int>(ways));
    auto traced = tracedRequests();
    const Json& store = entryOf("instructions", "st.shared");
    EXPECT_EQ(store["requests"], 2u);
    EXPECT_EQ(store["wavefronts"], 2u * ways);
    EXPECT_EQ(store["wavefronts"], fromTrace(traced.at(store["instruction"])).wavefronts);
    EXPECT_DOUBLE_EQ(store["ways_per_request"].get<double>(), double(ways));
    const Json& load = entryOf("instructions", "ld.shared");
    EXPECT_EQ(load["wavefronts"], 2u); // consecutive words: conflict-free
    if (ways == 1) {                   // other ways leave words[1] unwritten
      EXPECT_EQ(out[33], 1);
    }
  }
}

// Contiguous active lanes whose addresses step by one stride take a shortcut (two shuffles and a
// vote give the sectors, lines and bank ways); the rest take the matches. Both against the trace,
// for every pattern (from CUDA C: words[t], words[64 + 31 - t % 32], in[255 - t], the broadcasts
// words[7] and in[3], and the non-affine words[t ^ 1], in[(t * 7) & 63], words[(t * 3) & 31],
// words[((t ^ 1) * 2) & 63]; under `if (t & 1)`, lanes not contiguous, words[2t] and in[2t];
// under `if (t % 32 < 20)`, 20 contiguous lanes, words[2t] and in[t]), in full warps and in a
// partial one (48 threads per CTA: its second warp has 16 contiguous lanes).
constexpr const char* kAccessPatternsKernel = R"(
.version 9.0
.target sm_90
.address_size 64

)"
                                              R"PTX(.visible .entry accessPatterns(
	.param .u64 accessPatterns_param_0,
	.param .u64 accessPatterns_param_1
)
{
	.reg .pred 	%p<6>;
	.reg .b32 	%r<53>;
	.reg .b64 	%rd<17>;
	.shared .align 4 .b8 _ZZ14accessPatternsE5words[1024];

	ld.param.u64 	%rd5, [accessPatterns_param_0];
	ld.param.u64 	%rd4, [accessPatterns_param_1];
	mov.u32 	%r7, %tid.x;
	cvt.u64.u32 	%rd1, %r7;
	cvta.to.global.u64 	%rd2, %rd5;
	mul.wide.u32 	%rd6, %r7, 4;
	add.s64 	%rd3, %rd2, %rd6;
	ld.global.u32 	%r8, [%rd3];
	shl.b32 	%r9, %r7, 2;
	mov.u32 	%r10, _ZZ14accessPatternsE5words;
	add.s32 	%r11, %r10, %r9;
	st.shared.u32 	[%r11], %r8;
	mov.u32 	%r12, 255;
	sub.s32 	%r13, %r12, %r7;
	mul.wide.u32 	%rd7, %r13, 4;
	add.s64 	%rd8, %rd2, %rd7;
	ld.global.u32 	%r14, [%rd8];
	and.b32  	%r15, %r7, 31;
	mov.u32 	%r16, 95;
	sub.s32 	%r17, %r16, %r15;
	shl.b32 	%r18, %r17, 2;
	add.s32 	%r19, %r10, %r18;
	st.shared.u32 	[%r19], %r14;
	bar.sync 	0;
	xor.b32  	%r20, %r9, 4;
	add.s32 	%r21, %r10, %r20;
	mul.lo.s32 	%r22, %r7, 28;
	cvt.u64.u32 	%rd9, %r22;
	and.b64  	%rd10, %rd9, 252;
	add.s64 	%rd11, %rd2, %rd10;
	mul.lo.s32 	%r23, %r7, 12;
	and.b32  	%r24, %r23, 124;
	add.s32 	%r25, %r10, %r24;
	shl.b32 	%r26, %r7, 3;
	xor.b32  	%r27, %r26, 8;
	and.b32  	%r28, %r27, 248;
	add.s32 	%r29, %r10, %r28;
	ld.global.u32 	%r30, [%rd2+12];
	ld.shared.u32 	%r31, [_ZZ14accessPatternsE5words+28];
	add.s32 	%r32, %r30, %r31;
	ld.shared.u32 	%r33, [%r21];
	add.s32 	%r34, %r32, %r33;
	ld.global.u32 	%r35, [%rd11];
	add.s32 	%r36, %r34, %r35;
	ld.shared.u32 	%r37, [%r25];
	add.s32 	%r38, %r36, %r37;
	ld.shared.u32 	%r39, [%r29];
	add.s32 	%r52, %r38, %r39;
	and.b32  	%r40, %r7, 1;
	setp.eq.b32 	%p1, %r40, 1;
	mov.pred 	%p2, 0;
	xor.pred  	%p3, %p1, %p2;
	not.pred 	%p4, %p3;
	add.s32 	%r2, %r10, %r26;
	@%p4 bra 	$L__BB0_2;

	cvt.u32.u64 	%r41, %rd1;
	shl.b32 	%r42, %r41, 1;
	mul.wide.u32 	%rd12, %r42, 4;
	add.s64 	%rd13, %rd2, %rd12;
	ld.shared.u32 	%r43, [%r2];
	add.s32 	%r44, %r43, %r52;
	ld.global.u32 	%r45, [%rd13];
	add.s32 	%r52, %r44, %r45;

$L__BB0_2:
	cvt.u32.u64 	%r46, %rd1;
	and.b32  	%r47, %r46, 28;
	setp.gt.u32 	%p5, %r47, 19;
	@%p5 bra 	$L__BB0_4;

	ld.shared.u32 	%r48, [%r2];
	add.s32 	%r49, %r48, %r52;
	ld.global.u32 	%r50, [%rd3];
	add.s32 	%r52, %r49, %r50;

$L__BB0_4:
	cvta.to.global.u64 	%rd14, %rd4;
	shl.b64 	%rd15, %rd1, 2;
	add.s64 	%rd16, %rd14, %rd15;
	st.global.u32 	[%rd16], %r52;
	ret;

}
)PTX";

TEST_F(ToolExactness, MemAccessAffineAndOtherPatternsEqualTheTraceInFullAndPartialWarps) {
  kernels_ = kAccessPatternsKernel;
  numberKernels();
  useTool("memaccess");
  int* in = allocate<int>(256);
  for (uint32_t threads : {64u, 48u}) {
    SCOPED_TRACE(threads);
    int* out = allocate<int>(threads);
    run("accessPatterns", dim3(2), dim3(threads), in, out);
    auto traced = tracedRequests();
    ASSERT_EQ(result_["instructions"].size(), 15u) << result_.dump();
    for (const auto& e : result_["instructions"]) {
      SCOPED_TRACE(e.dump());
      Expected want = fromTrace(traced.at(e["instruction"].get<uint32_t>()));
      EXPECT_EQ(e["requests"], want.requests);
      EXPECT_EQ(e["lanes"], want.lanes);
      if (e["space"] == "shared") {
        EXPECT_EQ(e["wavefronts"], want.wavefronts);
      } else {
        EXPECT_EQ(e["sectors"], want.sectors);
        EXPECT_EQ(e["lines"], want.lines);
      }
    }
    // Known values for the full warps: the broadcasts are one sector and one wavefront, the
    // reversed load four sectors, words[((t ^ 1) * 2) & 63] two ways.
    if (threads == 64) {
      std::vector<uint64_t> sharedLoads, globalLoads;
      for (const auto& e : result_["instructions"]) {
        if (e["opcode"] == "ld.shared.u32")
          sharedLoads.push_back(e["wavefronts"].get<uint64_t>());
        if (e["opcode"] == "ld.global.u32")
          globalLoads.push_back(e["sectors"].get<uint64_t>());
      }
      // 4 requests each; words[2t] in odd lanes: 2 ways (16 words); in 20 lanes: 2 ways.
      EXPECT_EQ(sharedLoads, (std::vector<uint64_t>{4, 4, 4, 8, 8, 8}));
      ASSERT_EQ(globalLoads.size(), 6u);
      EXPECT_EQ(globalLoads[0], 4u * 4u); // in[t]
      EXPECT_EQ(globalLoads[1], 4u * 4u); // in[255 - t]: reversed, 128 bytes
      EXPECT_EQ(globalLoads[2], 4u);      // in[3]
    }
  }
}

TEST_F(MemAccess, LocalAccessesAreCountedInTheInterleavedLayout) {
  for (uint32_t stride : {0u, 1u, 2u, 8u}) {
    SCOPED_TRACE(stride);
    int* out = allocate<int>(64);
    run("localWords", dim3(2), dim3(32), out, static_cast<int>(stride));
    EXPECT_EQ(out[33], static_cast<int>((1 * stride) % 64 + 1));
    // The 64 stores: every lane at the same offset, a fully coalesced 4 sectors and 1 line each.
    uint64_t stores = 0, storeSectors = 0, storeLines = 0;
    const Json* load = nullptr;
    for (const auto& e : result_["instructions"]) {
      if (e["space"] != "local")
        continue;
      if (e["opcode"].get<std::string>().starts_with("st.local")) {
        stores += e["requests"].get<uint64_t>();
        storeSectors += e["sectors"].get<uint64_t>();
        storeLines += e["lines"].get<uint64_t>();
      } else {
        load = &e;
      }
    }
    EXPECT_EQ(stores, 2u * 64u);
    EXPECT_EQ(storeSectors, 4 * stores);
    EXPECT_EQ(storeLines, stores);
    ASSERT_NE(load, nullptr);
    // Lane l loads word (l * stride) & 63.
    checkLocal(*load, 2, 1, [&](uint32_t lane) { return (lane * stride) & 63; });
    EXPECT_EQ(result_["local"]["requests"], stores + 2);
  }
}

TEST_F(MemAccess, WideLocalAccessesCountEveryWordTheyTouch) {
  for (uint32_t stride : {0u, 1u, 3u}) {
    SCOPED_TRACE(stride);
    auto* out = allocate<int>(4 * 64);
    run("localQuads", dim3(2), dim3(32), out, static_cast<int>(stride));
    EXPECT_EQ(out[4 * 5 + 0], static_cast<int>((5 * stride) & 15));
    const Json* load = nullptr;
    for (const auto& e : result_["instructions"])
      if (e["space"] == "local" && e["opcode"].get<std::string>().starts_with("ld.local"))
        load = &e;
    ASSERT_NE(load, nullptr) << result_["instructions"].dump();
    // Lane l loads quad (l * stride) & 15: words 4q..4q+3.
    checkLocal(*load, 2, 4, [&](uint32_t lane) { return 4 * ((lane * stride) & 15); });
  }
}

// --- branchdiv ---

/// Every conditional branch's outcomes equal the trace's; unconditional branches are not probed.
void checkBranchesAgainstTrace(const ToolExactness& test, const RecordingTracer& trace,
                               const Json& result) {
  std::map<uint32_t, std::array<uint64_t, 5>> want; // taken, not taken, divergent warps; lanes
  for (uint32_t pc = 0; pc < trace.pcs.size(); ++pc) {
    auto id = test.instructionOf(pc);
    if (!id || !test.isConditionalBranch(*id) || trace.issued[pc] == 0)
      continue;
    auto& w = want[*id];
    w[0] += trace.warpsRan[pc] - trace.divergent[pc];
    w[1] += trace.issued[pc] - trace.warpsRan[pc];
    w[2] += trace.divergent[pc];
    w[3] += trace.taken[pc];
    w[4] += trace.notTaken[pc];
  }
  std::map<uint32_t, std::array<uint64_t, 5>> got;
  for (const auto& b : result["branches"])
    got[b["instruction"].get<uint32_t>()] = {b["taken"], b["not_taken"], b["divergent"],
                                             b["taken_lanes"], b["not_taken_lanes"]};
  EXPECT_EQ(got, want);
}

class BranchDiv : public ToolExactness {
protected:
  void SetUp() override {
    ToolExactness::SetUp();
    useTool("branchdiv");
  }
};

TEST_F(BranchDiv, KnownSplitsEqualTheTrace) {
  auto [table, out, counters] = divergentArguments(3 * 96);
  run("divergent", dim3(3), dim3(96), table, out, counters);
  checkBranchesAgainstTrace(*this, trace_, result_);
  // `t % 3 == 0` splits all 9 warps, 96 lanes one way and 192 the other (`t < 32` becomes a
  // select, no branch).
  bool split = false;
  for (const auto& b : result_["branches"]) {
    uint64_t lanesA = b["taken_lanes"], lanesB = b["not_taken_lanes"];
    split = split || (b["divergent"] == 9u && std::min(lanesA, lanesB) == 96u &&
                      std::max(lanesA, lanesB) == 192u);
  }
  EXPECT_TRUE(split) << result_["branches"].dump();
  EXPECT_NE(summary_.find("divergent"), std::string::npos);
}

TEST_F(BranchDiv, EarlyReturnsAndPartialWarpsEqualTheTrace) {
  int* out = allocate<int>(2 * 80);
  run("partial", dim3(2), dim3(80), out);
  checkBranchesAgainstTrace(*this, trace_, result_);
  // t % 7 == 0 returns: every warp of 32 lanes has such lanes, the partial warp of 16 too.
  uint64_t divergent = 0;
  for (const auto& b : result_["branches"])
    divergent += b["divergent"].get<uint64_t>();
  EXPECT_EQ(divergent, 6u);
}

// --- instmix and warpeff ---

/// The trace's thread-level (lanes that ran, guards applied) and warp-level (warps that issued)
/// counts per opcode class name.
std::map<std::string, std::pair<uint64_t, uint64_t>>
tracedMix(const ToolExactness& test, const RecordingTracer& trace,
          const std::vector<probe::OpcodeClass>& classes) {
  std::map<std::string, std::pair<uint64_t, uint64_t>> out;
  for (uint32_t pc = 0; pc < trace.pcs.size(); ++pc) {
    auto id = test.instructionOf(pc);
    if (!id || trace.issued[pc] == 0)
      continue;
    auto& [threads, warps] = out[std::string(ocelot::opcodeClassName(classes.at(*id)))];
    threads += trace.executed[pc];
    warps += trace.issued[pc];
  }
  return out;
}

class InstMix : public ToolExactness {
protected:
  void SetUp() override {
    ToolExactness::SetUp();
    useTool("instmix");
  }
  void checkAgainstTrace() {
    std::map<std::string, std::pair<uint64_t, uint64_t>> got;
    for (const auto& [name, counts] : result_["mix"].items())
      got[name] = {counts["threads"], counts["warps"]};
    EXPECT_EQ(got, tracedMix(*this, trace_, classes_)) << result_["mix"].dump();
  }
};

TEST_F(InstMix, CoalescedKernelHasItsKnownMix) {
  float* in = allocate<float>(256);
  float* out = allocate<float>(256);
  run("coalesced", dim3(2), dim3(128), in, out);
  checkAgainstTrace();
  // One global load, one store, one return and one multiplication per thread; 8 full warps.
  EXPECT_EQ(result_["mix"]["load"]["threads"], 3 * 256u); // and the two parameters, ld.param
  EXPECT_EQ(result_["mix"]["store"]["threads"], 256u);
  EXPECT_EQ(result_["mix"]["store"]["warps"], 8u);
  EXPECT_EQ(result_["mix"]["return"]["threads"], 256u);
  EXPECT_EQ(result_["mix"]["float"]["threads"], 256u); // the multiplication by 2
}

TEST_F(InstMix, DivergentLoopsCallsGuardsAndEarlyExitsEqualTheTrace) {
  auto [table, out, counters] = divergentArguments(3 * 96);
  run("divergent", dim3(3), dim3(96), table, out, counters);
  checkAgainstTrace();
  int* partialOut = allocate<int>(2 * 80);
  run("partial", dim3(2), dim3(80), partialOut);
  checkAgainstTrace();
  int* grid = allocate<int>(16 * 8);
  run("grid2d", dim3(2, 2), dim3(8, 4), grid);
  checkAgainstTrace();
}

class WarpEff : public ToolExactness {
protected:
  void SetUp() override {
    ToolExactness::SetUp();
    useTool("warpeff");
  }
  void checkAgainstTrace() {
    uint64_t lanes = 0, warps = 0;
    for (const auto& [name, counts] : tracedMix(*this, trace_, classes_))
      lanes += counts.first, warps += counts.second;
    EXPECT_EQ(result_["lanes"], lanes);
    EXPECT_EQ(result_["warp_instructions"], warps);
  }
};

TEST_F(WarpEff, FullWarpsRunEveryLane) {
  float* in = allocate<float>(256);
  float* out = allocate<float>(256);
  run("coalesced", dim3(2), dim3(128), in, out);
  checkAgainstTrace();
  EXPECT_DOUBLE_EQ(result_["lanes_per_instruction"].get<double>(), 32.0);
  EXPECT_DOUBLE_EQ(result_["efficiency"].get<double>(), 1.0);
}

TEST_F(WarpEff, PartialWarpsAndEarlyReturnsHaveTheirKnownLanes) {
  int* out = allocate<int>(2 * 80);
  run("partial", dim3(2), dim3(80), out);
  checkAgainstTrace();
  // 80 threads: warps of 32, 32 and 16 lanes. Every instruction before the `t % 7 == 0` return
  // runs for all of them; the store after it for the 80 - 12 threads with t % 7 != 0.
  EXPECT_LT(result_["lanes_per_instruction"].get<double>(), 80.0 / 3.0);
  EXPECT_GT(result_["lanes_per_instruction"].get<double>(), 68.0 / 3.0);
  auto [table, divergentOut, counters] = divergentArguments(3 * 96);
  run("divergent", dim3(3), dim3(96), table, divergentOut, counters);
  checkAgainstTrace();
}

// --- guard-false lanes derived from block entries ---

// Guarded branches of every kind (B<n>: the block's layout index):
//  B0 `@!%p1 bra $L_join`: its fall-through B1 has no other predecessor: skipped = B1's entries;
//  B2 `@%p2 bra $L_out`: its fall-through (the loop B3) has two, its target B5 one: B2's less B5's;
//  B3 `@%p3 bra $L_loop`: the loop's back edge; its fall-through B4 has one predecessor;
//  B5 `@%p4 bra $L_mid` and B6 `@!%p5 bra $L_last`: both their blocks have two: the probe stays,
//  as at the guarded `add` of B8. `bra.uni` (B4) has no guard.
constexpr const char* kGuardsKernel = R"(
.version 9.0
.target sm_90
.address_size 64

.visible .entry guards(.param .u64 guards_param_0)
{
	.reg .pred %p<7>;
	.reg .b32 %r<6>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [guards_param_0];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
	and.b32 %r3, %r1, 3;
	setp.ne.u32 %p1, %r3, 0;
	@!%p1 bra $L_join;
	add.u32 %r2, %r2, 1;
$L_join:
	mov.u32 %r4, 0;
	setp.gt.u32 %p2, %r1, 40;
	@%p2 bra $L_out;
$L_loop:
	add.u32 %r4, %r4, 1;
	and.b32 %r5, %r1, 7;
	setp.lt.u32 %p3, %r4, %r5;
	@%p3 bra $L_loop;
	add.u32 %r2, %r2, %r4;
	bra.uni $L_end;
$L_out:
	add.u32 %r2, %r2, 100;
	setp.eq.u32 %p4, %r3, 2;
	@%p4 bra $L_mid;
$L_end:
	setp.eq.u32 %p5, %r3, 1;
	@!%p5 bra $L_last;
$L_mid:
	add.u32 %r2, %r2, 7;
$L_last:
	setp.lt.u32 %p6, %r1, 16;
	@%p6 add.u32 %r2, %r2, 1000;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r2;
	ret;
}
)";

class DerivedGuards : public ToolExactness {
protected:
  void SetUp() override {
    ToolExactness::SetUp();
    kernels_ = kGuardsKernel;
    numberKernels();
  }

  /// The guarded instructions of the tables, by block: (skippedFrom, skippedLess), and whether
  /// the guardFalse probe is placed before it.
  void checkPlacement() {
    const auto& state = static_cast<const instrumentors::ProbeModuleState&>(*module_.states.at(0));
    const ProbeModuleTables& tables = *state.tables;
    ASSERT_EQ(tables.blocks.size(), 9u);
    // Per block whose last instruction (or B8's guarded add) is guarded: the derivation.
    using Blocks = std::vector<uint32_t>;
    std::map<uint32_t, std::pair<Blocks, Blocks>> expected{{0, {{1}, {}}}, {2, {{2}, {5}}},
                                                           {3, {{4}, {}}}, {5, {{}, {}}},
                                                           {6, {{}, {}}},  {8, {{}, {}}}};
    std::set<uint32_t> probed;
    for (const auto& site : tables.sites)
      if (site.probe == "guardFalse")
        probed.insert(tables.instructions.at(site.instruction).block);
    std::map<uint32_t, std::pair<Blocks, Blocks>> got;
    for (const auto& inst : tables.instructions) {
      if (!inst.guarded)
        continue;
      got[inst.block] = {inst.skippedFrom, inst.skippedLess};
      EXPECT_EQ(probed.count(inst.block) == 0, inst.skipDerivable()) << "B" << inst.block;
    }
    EXPECT_EQ(got, expected);
    EXPECT_EQ(probed, (std::set<uint32_t>{5, 6, 8}));
  }
};

TEST_F(DerivedGuards, InstMixDerivesGuardFalseLanesBothWaysAndProbesTheRest) {
  useTool("instmix");
  checkPlacement();
  // Two CTAs of 80 threads: a partial warp; every branch splits some warps.
  int* out = allocate<int>(80);
  run("guards", dim3(2), dim3(80), out);
  std::map<std::string, std::pair<uint64_t, uint64_t>> got;
  for (const auto& [name, counts] : result_["mix"].items())
    got[name] = {counts["threads"], counts["warps"]};
  EXPECT_EQ(got, tracedMix(*this, trace_, classes_)) << result_["mix"].dump();
  // Thread 0 skips the first add (tid % 4 == 0), loops once, skips `add 7` (tid % 4 != 1) and
  // adds 1000 (tid < 16); thread 45 takes $L_out (tid > 40) and adds 1, 100 and 7 (tid % 4 == 1).
  EXPECT_EQ(out[0], 1 + 1000);
  EXPECT_EQ(out[45], 1 + 100 + 7);
}

TEST_F(DerivedGuards, WarpEffDerivesGuardFalseLanesBothWaysAndProbesTheRest) {
  useTool("warpeff");
  checkPlacement();
  int* out = allocate<int>(80);
  run("guards", dim3(2), dim3(80), out);
  uint64_t lanes = 0, warps = 0;
  for (const auto& [name, counts] : tracedMix(*this, trace_, classes_))
    lanes += counts.first, warps += counts.second;
  EXPECT_EQ(result_["lanes"], lanes);
  EXPECT_EQ(result_["warp_instructions"], warps);
}

TEST_F(DerivedGuards, BranchDivDerivesWhatBlockCountsGiveAndCountsTheRest) {
  useTool("branchdiv");
  int* out = allocate<int>(80);
  run("guards", dim3(2), dim3(80), out);
  checkBranchesAgainstTrace(*this, trace_, result_);
  // Every guarded branch is probed (the vote is needed for the warp outcomes); the fall-through
  // lanes are counted only where the block entries do not give them (B5 and B6).
  const auto& state = static_cast<const instrumentors::ProbeModuleState&>(*module_.states.at(0));
  std::set<uint32_t> probed;
  for (const auto& site : state.tables->sites)
    if (site.probe == "vote")
      probed.insert(state.tables->instructions.at(site.instruction).block);
  EXPECT_EQ(probed, (std::set<uint32_t>{0, 2, 3, 5, 6}));
  EXPECT_EQ(result_["branches"].size(), 5u);
}

// Loops whose closing branches neither block rule derives: every lane that enters such a loop
// leaves it once, through its only exit edge, so the lanes that leave are those that entered.
// Blocks: B0 (entry) `@%p1 bra $L_after` skips the first loop; B1 its preheader; B2 $L_loop;
// B3 $L_after; B4 the second loop's preheader; B5 $L_head, B6 $L_body, B7 (`bra.uni $L_body`);
// B8 $L_done; B9 $L_spin; B10; B11 $L_end.
//  B2 `@%p2 bra $L_loop`: the back edge; its fall-through $L_after also follows B0, its target
//  follows B1: skipped = the lanes that entered the loop, B1's entries;
//  B5 `@%p4 bra $L_done`: the head of a loop (B5-B7, with the inner loop B6-B7) left by its taken
//  branch; $L_body also follows B7, $L_done also B3: skipped = B5's entries less B4's;
//  B10 `@%p5 bra $L_spin`: its loop has a second way out (B9's `@%p6 bra $L_end`): the probe
//  stays. B0, B3, B6 and B9 fall through to a block with no other way in.
constexpr const char* kLoopExitsKernel = R"(
.version 9.0
.target sm_90
.address_size 64

.visible .entry loopExits(.param .u64 loopExits_param_0)
{
	.reg .pred %p<8>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [loopExits_param_0];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
	mov.u32 %r4, 0;
	and.b32 %r3, %r1, 7;
	setp.gt.u32 %p1, %r1, 50;
	@%p1 bra $L_after;
	add.u32 %r2, %r2, 2;
$L_loop:
	add.u32 %r4, %r4, 1;
	setp.le.u32 %p2, %r4, %r3;
	@%p2 bra $L_loop;
$L_after:
	setp.eq.u32 %p3, %r3, 5;
	@%p3 bra $L_done;
	mov.u32 %r5, 0;
$L_head:
	add.u32 %r5, %r5, 1;
	setp.gt.u32 %p4, %r5, %r3;
	@%p4 bra $L_done;
$L_body:
	add.u32 %r2, %r2, 10;
	and.b32 %r6, %r5, 1;
	setp.eq.u32 %p7, %r6, 0;
	@%p7 bra $L_head;
	add.u32 %r5, %r5, 1;
	bra.uni $L_body;
$L_done:
	mov.u32 %r7, 0;
$L_spin:
	add.u32 %r7, %r7, 1;
	setp.eq.u32 %p6, %r7, 3;
	@%p6 bra $L_end;
	setp.lt.u32 %p5, %r7, %r3;
	@%p5 bra $L_spin;
$L_end:
	add.u32 %r2, %r2, %r7;
	add.u32 %r2, %r2, %r4;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r2;
	ret;
}
)";

TEST_F(ToolExactness, InstMixDerivesTheLanesLeavingALoopFromTheLanesEnteringIt) {
  kernels_ = kLoopExitsKernel;
  numberKernels();
  useTool("instmix");
  const auto& state = static_cast<const instrumentors::ProbeModuleState&>(*module_.states.at(0));
  const ProbeModuleTables& tables = *state.tables;
  ASSERT_EQ(tables.blocks.size(), 12u);
  using Blocks = std::vector<uint32_t>;
  std::map<uint32_t, std::pair<Blocks, Blocks>> got;
  std::set<uint32_t> probed;
  for (const auto& site : tables.sites)
    if (site.probe == "guardFalse")
      probed.insert(tables.instructions.at(site.instruction).block);
  for (const auto& inst : tables.instructions)
    if (inst.guarded)
      got[inst.block] = {inst.skippedFrom, inst.skippedLess};
  std::map<uint32_t, std::pair<Blocks, Blocks>> expected{
      {0, {{1}, {}}}, {2, {{1}, {}}},  {3, {{4}, {}}}, {5, {{5}, {4}}},
      {6, {{7}, {}}}, {9, {{10}, {}}}, {10, {{}, {}}}};
  EXPECT_EQ(got, expected);
  EXPECT_EQ(probed, (std::set<uint32_t>{10}));
  // Two CTAs of 80 threads (a partial warp); each loop runs a number of times set by tid % 8.
  int* out = allocate<int>(80);
  run("loopExits", dim3(2), dim3(80), out);
  std::map<std::string, std::pair<uint64_t, uint64_t>> mix;
  for (const auto& [name, counts] : result_["mix"].items())
    mix[name] = {counts["threads"], counts["warps"]};
  EXPECT_EQ(mix, tracedMix(*this, trace_, classes_)) << result_["mix"].dump();
  // Thread 3: +2, the first loop leaves at r4 = 4; the second runs $L_body at r5 = 1, 2, 3, 4
  // (+40) and leaves at 5; the third leaves at r7 = 3.
  EXPECT_EQ(out[3], 2 + 40 + 3 + 4);
}

// A call before the branch in its block whose callee exits every lane of warp 1: the branch's
// block entries count that warp, but it never reaches the branch, so blockEntriesReach() is false
// there and the probe counts the not-taken warps and the taken lanes itself.
constexpr const char* kCallFirstKernel = R"(
.version 9.0
.target sm_90
.address_size 64

.func leave(.param .b32 leave_param_0)
{
	.reg .pred %p<2>;
	.reg .b32 %r<2>;
	ld.param.u32 %r1, [leave_param_0];
	setp.eq.u32 %p1, %r1, 1;
	@%p1 exit;
	ret;
}

.visible .entry callFirst(.param .u64 callFirst_param_0)
{
	.reg .pred %p<2>;
	.reg .b32 %r<5>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [callFirst_param_0];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	shr.u32 %r2, %r1, 5;
	{
	.param .b32 param0;
	st.param.b32 [param0], %r2;
	call.uni leave, (param0);
	}
	and.b32 %r3, %r1, 3;
	setp.eq.u32 %p1, %r3, 0;
	mov.u32 %r4, 1;
	@%p1 bra $L_set;
	mov.u32 %r4, 2;
$L_set:
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r4;
	ret;
}

.visible .entry callThenStore(.param .u64 callThenStore_param_0)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [callThenStore_param_0];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	shr.u32 %r2, %r1, 5;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	and.b32 %r3, %r1, 3;
	setp.eq.u32 %p1, %r3, 0;
	@%p1 st.global.u32 [%rd3+1024], %r1;
	{
	.param .b32 param0;
	st.param.b32 [param0], %r2;
	call.uni leave, (param0);
	}
	st.global.u32 [%rd3], %r1;
	ret;
}
)";

TEST_F(ToolExactness, BranchDivCountsWhatACallBeforeTheBranchHidesFromBlockCounts) {
  kernels_ = kCallFirstKernel;
  numberKernels();
  useTool("branchdiv");
  int* out = allocate<int>(2 * 96);
  std::memset(out, 0, 2 * 96 * sizeof(int));
  run("callFirst", dim3(2), dim3(96), out);
  checkBranchesAgainstTrace(*this, trace_, result_);
  // Warps 0 and 2 of each CTA reach the branch and diverge (lanes with tid % 4 == 0 take it);
  // warp 1 left in the callee.
  ASSERT_EQ(result_["branches"].size(), 1u);
  const Json& branch = result_["branches"][0];
  EXPECT_EQ(branch["warps"], 4u);
  EXPECT_EQ(branch["divergent"], 4u);
  EXPECT_EQ(branch["taken_lanes"], 4 * 8u);
  EXPECT_EQ(branch["not_taken_lanes"], 4 * 24u);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], 2);
  EXPECT_EQ(out[40], 0);
}

// memaccess takes a request and its lanes from the block entries only where every lane that enters
// the block executes the instruction: not for a guarded store, nor for one after a call whose
// callee exits warp 1. There the probe counts them.
TEST_F(ToolExactness, MemAccessCountsRequestsOfGuardedAccessesAndAccessesAfterACall) {
  kernels_ = kCallFirstKernel;
  numberKernels();
  useTool("memaccess");
  int* out = allocate<int>(512);
  run("callThenStore", dim3(2), dim3(96), out);
  auto traced = tracedRequests();
  ASSERT_EQ(result_["instructions"].size(), 2u) << result_.dump();
  for (const auto& e : result_["instructions"]) {
    Expected want = fromTrace(traced.at(e["instruction"].get<uint32_t>()));
    EXPECT_EQ(e["requests"], want.requests);
    EXPECT_EQ(e["lanes"], want.lanes);
    EXPECT_EQ(e["sectors"], want.sectors);
    EXPECT_EQ(e["lines"], want.lines);
  }
  // The guarded store: every warp, 8 lanes of each; the store after the call: warps 0 and 2.
  const Json& guardedStore = result_["instructions"][0];
  const Json& afterCall = result_["instructions"][1];
  EXPECT_EQ(guardedStore["requests"], 2 * 3u);
  EXPECT_EQ(guardedStore["lanes"], 2 * 3 * 8u);
  EXPECT_EQ(afterCall["requests"], 2 * 2u);
  EXPECT_EQ(afterCall["lanes"], 2 * 64u);
}

// --- several tools in one module ---

struct TwoSlots {
  uint64_t first, second;
};

// Two tools whose probes branch (so each splits blocks) in one module, as `ocelot run -i
// branchdiv,instmix` instruments it: the second tool's sites are found in the blocks the first
// one's split made, and both results equal the trace.
TEST_F(InstMix, TwoProbeToolsInOneModuleBothEqualTheTrace) {
  registry_.loadPlugin(std::string(OCELOT_PROBE_TOOLS_DIR) + "/libocelot-branchdiv.so");
  auto branches = registry_.create("branchdiv", InstrumentorOptions{});
  instrumentors::InstrumentOptions options;
  options.label = "oracle_kernels";
  module_ =
      instrumentors::instrumentModule(kernels_, {{branches.get(), 0}, {tool_.get(), 0}}, options);
  ASSERT_TRUE(module_.ok) << module_.error;

  auto [table, out, counters] = divergentArguments(3 * 96);
  device_->setTracer(&trace_);
  DeviceFunction original = load(kernels_, "divergent");
  ASSERT_NE(original, nullptr);
  ASSERT_EQ(launch(original, dim3(3), dim3(96), 0, table, out, counters), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  device_->setTracer(nullptr);

  DeviceFunction instrumented = load(module_.ptx, "divergent");
  ASSERT_NE(instrumented, nullptr);
  LaunchInfo info;
  info.kernelName = "divergent";
  info.kernelLaunchIndex = 1;
  info.grid = {3, 1, 1};
  info.block = {96, 1, 1};
  BufferRequest first = branches->initialize(*module_.states[0], info);
  BufferRequest second = tool_->initialize(*module_.states[1], info);
  auto* a = allocate<std::byte>(first.bytes);
  auto* b = allocate<std::byte>(second.bytes);
  std::memset(a, 0, first.bytes);
  std::memset(b, 0, second.bytes);
  ASSERT_EQ(launch(instrumented, dim3(3), dim3(96), 0, table, out, counters,
                   TwoSlots{reinterpret_cast<uint64_t>(a), reinterpret_cast<uint64_t>(b)}),
            cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  Json branchResult = branches
                          ->finalize(*module_.states[0], info, DeviceFacts{},
                                     std::span<const std::byte>(a, first.bytes))
                          ->json();
  result_ = tool_
                ->finalize(*module_.states[1], info, DeviceFacts{},
                           std::span<const std::byte>(b, second.bytes))
                ->json();
  EXPECT_TRUE(branchResult["errors"].empty());
  EXPECT_TRUE(result_["errors"].empty());
  checkBranchesAgainstTrace(*this, trace_, branchResult);
  checkAgainstTrace();
}

// --- ctaclock as a probe (examples/probes/ctaclockprobe) ---

TEST_F(ToolExactness, CtaClockAsAProbeRecordsEveryCtaCompletely) {
  useTool("ctaclockprobe", "", OCELOT_PROBE_EXAMPLES_DIR);
  int* out = allocate<int>(3 * 80);
  run("partial", dim3(3), dim3(80), out); // warps of 32, 32 and 16 lanes; early returns
  auto values = [&](const char* region) {
    return result_["regions"][region]["values"].get<std::vector<uint64_t>>();
  };
  EXPECT_EQ(values("warpsStarted"), std::vector<uint64_t>(3, 3));
  EXPECT_EQ(values("threadsExited"), std::vector<uint64_t>(3, 80));
  auto notStart = values("notStartNs"), end = values("endNs"), sm = values("smPlusOne");
  ASSERT_EQ(notStart.size(), 3u);
  for (size_t c = 0; c < 3; ++c) {
    EXPECT_GT(sm[c], 0u);
    EXPECT_LE(~notStart[c], end[c]) << "CTA " << c << " ended before it started";
    EXPECT_NE(end[c], 0u);
  }
}

// --- memtrace ---

/// A memtrace file: its frames' headers, kernel names and records.
struct TraceFile {
  std::vector<memtrace::LaunchHeader> launches;
  std::vector<std::string> kernels;
  std::vector<memtrace::WarpAccess> records;
};

TraceFile readTrace(const std::string& path) {
  std::string compressed = readText(path);
  TraceFile out;
  size_t at = 0;
  while (at < compressed.size()) {
    size_t frame = ZSTD_findFrameCompressedSize(compressed.data() + at, compressed.size() - at);
    EXPECT_FALSE(ZSTD_isError(frame)) << ZSTD_getErrorName(frame);
    if (ZSTD_isError(frame))
      break;
    unsigned long long size = ZSTD_getFrameContentSize(compressed.data() + at, frame);
    std::string raw(size, '\0');
    EXPECT_EQ(ZSTD_decompress(raw.data(), raw.size(), compressed.data() + at, frame), size);
    memtrace::LaunchHeader h;
    std::memcpy(&h, raw.data(), sizeof h);
    EXPECT_STREQ(h.magic, "OCMTRC1");
    EXPECT_EQ(h.recordBytes, sizeof(memtrace::WarpAccess));
    EXPECT_EQ(raw.size(), sizeof h + h.kernelNameBytes + h.records * sizeof(memtrace::WarpAccess));
    out.launches.push_back(h);
    out.kernels.push_back(raw.substr(sizeof h, h.kernelNameBytes));
    size_t first = out.records.size();
    out.records.resize(first + h.records);
    std::memcpy(out.records.data() + first, raw.data() + sizeof h + h.kernelNameBytes,
                h.records * sizeof(memtrace::WarpAccess));
    at += frame;
  }
  return out;
}

class MemTrace : public ToolExactness {
protected:
  void SetUp() override {
    ToolExactness::SetUp();
    path_ = ::testing::TempDir() + "memtrace-test-" + std::to_string(::getpid()) + ".zst";
    std::remove(path_.c_str());
  }
  void TearDown() override {
    std::remove(path_.c_str());
    ToolExactness::TearDown();
  }
  /// Every lane's access of the last launch's records equals the trace's, record by warp.
  void checkAgainstTrace(const std::vector<memtrace::WarpAccess>& records) {
    using Key = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint64_t>;
    std::vector<Key> got, want;
    for (const auto& r : records) {
      for (uint32_t lane = 0; lane < 32; ++lane)
        if (r.mask & (1u << lane))
          got.emplace_back(r.instruction, r.cta, r.warp, lane, r.addresses[lane]);
      EXPECT_EQ(r.spaceAndKind >> 8, spaces_.at(r.instruction));
    }
    for (const auto& a : trace_.accesses) {
      auto id = instructionOfPc(a.pc);
      ASSERT_TRUE(id);
      probe::StateSpace space = spaces_.at(*id);
      if (space == probe::kGeneric || space == probe::kGlobal || space == probe::kShared ||
          space == probe::kLocal)
        want.emplace_back(*id, a.cta, a.warp, a.lane, a.address);
    }
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got.size(), want.size());
    EXPECT_TRUE(got == want) << "the trace file's accesses differ from the CPU device's trace";
  }
  std::string path_;
};

TEST_F(MemTrace, EveryLanesAddressOfEveryAccessIsInTheFile) {
  useTool("memtrace", "file=" + path_);
  float* in = allocate<float>(64 * 5);
  float* out = allocate<float>(64);
  run("strided", dim3(2), dim3(32), in, out, 5);
  TraceFile first = readTrace(path_);
  ASSERT_EQ(first.launches.size(), 1u);
  EXPECT_EQ(first.kernels[0], "strided");
  EXPECT_EQ(first.launches[0].dropped, 0u);
  EXPECT_EQ(first.records.size(), 4u); // a load and a store in each of 2 warps
  checkAgainstTrace(first.records);
  for (const auto& r : first.records) {
    if (classes_.at(r.instruction) != probe::kLoad)
      continue;
    for (uint32_t lane = 0; lane < 32; ++lane)
      EXPECT_EQ(r.addresses[lane], reinterpret_cast<uint64_t>(in + (r.cta * 32 + lane) * 5));
  }
  EXPECT_EQ(result_["records"], 4u);
  EXPECT_EQ(result_["dropped_capacity"], 0u);

  // Later launches append their frames: divergent lanes, shared memory, atomics, a device function.
  auto [table, divergentOut, counters] = divergentArguments(3 * 96);
  run("divergent", dim3(3), dim3(96), table, divergentOut, counters);
  TraceFile both = readTrace(path_);
  ASSERT_EQ(both.launches.size(), 2u);
  EXPECT_EQ(both.kernels[1], "divergent");
  checkAgainstTrace({both.records.begin() + 4, both.records.end()});
  int* sharedOut = allocate<int>(64);
  run("sharedConflicts", dim3(2), dim3(32), sharedOut, 8);
  TraceFile three = readTrace(path_);
  ASSERT_EQ(three.launches.size(), 3u);
  checkAgainstTrace(
      {three.records.begin() + static_cast<long>(both.records.size()), three.records.end()});
}

TEST_F(MemTrace, RecordsPastTheCapacityAreDroppedAndCounted) {
  useTool("memtrace", "file=" + path_ + ":records.count=3");
  float* in = allocate<float>(64 * 5);
  float* out = allocate<float>(64);
  run("strided", dim3(2), dim3(32), in, out, 5);
  EXPECT_EQ(result_["records"], 3u);
  EXPECT_EQ(result_["dropped_capacity"], 1u);
  EXPECT_NE(summary_.find("1 dropped"), std::string::npos) << summary_;
  TraceFile file = readTrace(path_);
  ASSERT_EQ(file.launches.size(), 1u);
  EXPECT_EQ(file.launches[0].records, 3u);
  EXPECT_EQ(file.launches[0].dropped, 1u);
}

TEST_F(MemTrace, SamplingTracesEveryNthWarp) {
  useTool("memtrace", "file=" + path_ + ":traceAccess.sample-warps=2");
  float* in = allocate<float>(256);
  float* out = allocate<float>(256);
  run("coalesced", dim3(2), dim3(128), in, out);
  TraceFile file = readTrace(path_);
  EXPECT_EQ(file.records.size(), 8u); // 4 of the 8 warps, a load and a store each
  for (const auto& r : file.records)
    EXPECT_EQ((r.cta * 4 + r.warp) % 2, 0u);
}

TEST_F(MemTrace, BadOptionsAndUnwritableFilesAreErrorsAndTheKernelStillRuns) {
  expectErrors_ = true;
  float* in = allocate<float>(64);
  float* out = allocate<float>(64);
  for (int i = 0; i < 64; ++i)
    in[i] = static_cast<float>(i);
  useTool("memtrace", "file=/nonexistent-dir/trace.zst");
  run("coalesced", dim3(1), dim3(64), in, out);
  ASSERT_EQ(result_["errors"].size(), 1u);
  EXPECT_NE(result_["errors"][0].get<std::string>().find("cannot write the trace file "
                                                         "'/nonexistent-dir/trace.zst'"),
            std::string::npos)
      << result_["errors"][0];
  EXPECT_EQ(result_["records"], 0u);
  EXPECT_EQ(out[63], 126.0f);

  useTool("memtrace", "file=" + path_ + ":max-mb=0");
  run("coalesced", dim3(1), dim3(64), in, out);
  ASSERT_EQ(result_["errors"].size(), 1u);
  EXPECT_NE(result_["errors"][0].get<std::string>().find("max-mb=0"), std::string::npos);
  EXPECT_NE(summary_.find("max-mb=0"), std::string::npos) << summary_;

  EXPECT_THROW(registry_.create("memtrace", InstrumentorOptions::parse("colour=red")),
               std::exception);
}

} // namespace
} // namespace ocelot::runtime::cpu::test
