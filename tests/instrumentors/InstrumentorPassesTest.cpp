// The instrumentors' passes on small kernels: where counters go, the hidden parameter, slot
// threading through device functions, and that the result assembles; then each instrumentor's
// host side (initialize/finalize) on buffers written by hand.

#include "InstrumentorTestSupport.h"
#include "instrumentors/BasicBlockCounter.h"
#include "instrumentors/BlockCountState.h"
#include "instrumentors/CtaClock.h"
#include "instrumentors/LaunchClock.h"
#include "ocelot/BasicBlockCounts.h"
#include "ocelot/CtaClockTimes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

namespace ocelot::test {
namespace {

using instrumentors::BlockCountState;
using instrumentors::CounterKind;

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

void expectAssembles(const std::string& ptx, const std::string& arch = "sm_90") {
  if (!ptxasAvailable())
    GTEST_SKIP() << "ptxas not found";
  PtxasRun run = runPtxas(ptx, arch);
  EXPECT_TRUE(run.ok()) << run.output << "\n" << ptx;
}

LaunchInfo launchOf(const std::string& kernel, Dim3 grid, Dim3 block) {
  LaunchInfo info;
  info.kernelName = kernel;
  info.demangledName = kernel;
  info.grid = grid;
  info.block = block;
  return info;
}

/// A counter buffer of `bytes` holding `words` (what the device would have copied back).
std::vector<std::byte> bufferOf(const std::vector<uint64_t>& words, size_t bytes) {
  std::vector<std::byte> buffer(bytes);
  std::memcpy(buffer.data(), words.data(), std::min(bytes, words.size() * sizeof(uint64_t)));
  return buffer;
}

TEST(BasicBlockCounter, PerThreadMatrixHasNoAtomicsAndAssembles) {
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  auto out = instrumentWith(kLoopKernel, "bbcount-thread", &keep);
  ASSERT_TRUE(out.ok) << out.error;
  // The application's parameters stay; the hidden one is appended last.
  EXPECT_NE(out.ptx.find(".param .u64 loop_param_0"), std::string::npos);
  EXPECT_NE(out.ptx.find(".param .align 8 .b8 __ocelot_instrumentation[8]"), std::string::npos)
      << out.ptx;
  EXPECT_EQ(occurrences(out.ptx, "atom."), 0u);
  EXPECT_EQ(occurrences(out.ptx, "red."), 0u);
  // One load-add-store per counted block: B0 and LOOP (DONE runs once per thread, as B0).
  EXPECT_EQ(occurrences(out.ptx, "st.global.u64"), 2u) << out.ptx;
  EXPECT_EQ(out.kernels.count("loop"), 1u);
  expectAssembles(out.ptx);
}

TEST(BasicBlockCounter, PerThreadFinalizeSumsColumnsAndCountsInstructions) {
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  auto out = instrumentWith(kLoopKernel, "bbcount-thread", &keep);
  ASSERT_TRUE(out.ok) << out.error;
  const PTXInstrumentor& counter = *keep[0];
  LaunchInfo launch = launchOf("loop", {1, 1, 1}, {4, 1, 1});
  BufferRequest request = counter.initialize(*out.states[0], launch);
  ASSERT_EQ(request.bytes, 3u * 4u * 8u); // rows x threads x 8
  std::vector<uint64_t> matrix = {1, 1, 1, 1, /* loop */ 5, 5, 0, 5, /* done */ 1, 1, 1, 1};
  std::vector<std::byte> buffer = bufferOf(matrix, request.bytes);
  auto result = counter.finalize(*out.states[0], launch, DeviceFacts{132, 0, 90}, buffer);
  const auto* counts = dynamic_cast<const BasicBlockCounts*>(result.get());
  ASSERT_NE(counts, nullptr);
  ASSERT_EQ(counts->blocks().size(), 3u);
  EXPECT_EQ(counts->mode(), BasicBlockCounts::Mode::PerThread);
  EXPECT_EQ(counts->entryCount(), 4u);
  EXPECT_EQ(counts->blocks()[1].count, 15u);
  EXPECT_EQ(counts->blocks()[1].label, "LOOP");
  EXPECT_EQ(counts->blocks()[1].activeThreads, 3u);
  // B0: 6 instructions, LOOP: 4, DONE: 5 (instrumentation excluded).
  EXPECT_EQ(counts->blocks()[0].instructions, 6u);
  EXPECT_EQ(counts->blocks()[1].instructions, 4u);
  EXPECT_EQ(counts->blocks()[2].instructions, 5u);
  EXPECT_EQ(counts->dynamicInstructions(), 4u * 6 + 15u * 4 + 4u * 5);
  ASSERT_EQ(counts->threadCounts(1).size(), 4u);
  EXPECT_EQ(counts->threadCounts(1)[2], 0u);
}

TEST(BasicBlockCounter, PerWarpUsesActivemaskPopcAndRegistersInLoops) {
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  auto out = instrumentWith(kLoopKernel, "bbcount", &keep);
  ASSERT_TRUE(out.ok) << out.error;
  EXPECT_NE(out.ptx.find("activemask.b32"), std::string::npos) << out.ptx;
  EXPECT_NE(out.ptx.find("popc.b32"), std::string::npos);
  EXPECT_NE(out.ptx.find("red.global.add.u64"), std::string::npos);
  const auto& state = static_cast<const BlockCountState&>(*out.states[0]);
  const auto& kernel = state.kernels.at("loop");
  ASSERT_EQ(kernel.rows.size(), 3u);
  EXPECT_EQ(kernel.rows[0].kind, CounterKind::Atomic);
  EXPECT_EQ(kernel.rows[1].kind, CounterKind::Register); // the loop body: a register, flushed
  EXPECT_EQ(kernel.rows[2].kind, CounterKind::Derived);  // DONE: once per thread, as B0
  EXPECT_EQ(kernel.rows[2].sourceRow, kernel.rows[0].index + state.functionRowCount());
  EXPECT_EQ(kernel.registerCounters, 1u);
  expectAssembles(out.ptx);
}

// Register counters are 32-bit (half the registers of 64-bit ones) and widened when flushed.
TEST(BasicBlockCounter, RegisterCountersAre32Bit) {
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  auto out = instrumentWith(kLoopKernel, "bbcount", &keep);
  ASSERT_TRUE(out.ok) << out.error;
  EXPECT_EQ(occurrences(out.ptx, "\tadd.u32"), 1u) << out.ptx; // the loop body's increment
  EXPECT_NE(out.ptx.find("cvt.u64.u32"), std::string::npos);
  EXPECT_NE(out.ptx.find("redux.sync.add.u32"), std::string::npos);
}

// A launch shorter than 2^32 cycles cannot wrap a 32-bit counter; a longer one flags exactly the
// blocks counted in registers (and those derived from them).
TEST(BasicBlockCounter, LongLaunchesFlagRegisterCountsThatMayHaveWrapped) {
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  auto out = instrumentWith(kLoopKernel, "bbcount:stripes=1", &keep);
  ASSERT_TRUE(out.ok) << out.error;
  LaunchInfo launch = launchOf("loop", {1, 1, 1}, {32, 1, 1});
  BufferRequest request = keep[0]->initialize(*out.states[0], launch);
  std::vector<uint64_t> rows = {32, 320, 32};
  std::vector<std::byte> buffer = bufferOf(rows, request.bytes);
  auto finalized = [&](double ms, int clockKHz) {
    DeviceFacts facts{132, clockKHz, 90, ms};
    auto result = keep[0]->finalize(*out.states[0], launch, facts, buffer);
    return std::dynamic_pointer_cast<const BasicBlockCounts>(result);
  };
  auto quick = finalized(2.0, 1980000); // 4 M cycles
  ASSERT_NE(quick, nullptr);
  for (const auto& block : quick->blocks())
    EXPECT_FALSE(block.mayHaveWrapped) << block.index;
  EXPECT_EQ(quick->summary().find("wrapped"), std::string::npos);
  auto slow = finalized(3000.0, 1980000); // 5.9 G cycles
  ASSERT_NE(slow, nullptr);
  EXPECT_FALSE(slow->blocks()[0].mayHaveWrapped);
  EXPECT_TRUE(slow->blocks()[1].mayHaveWrapped); // the loop body's register
  EXPECT_FALSE(slow->blocks()[2].mayHaveWrapped);
  EXPECT_EQ(slow->blocks()[1].count, 320u);
  EXPECT_NE(slow->summary().find("may have wrapped"), std::string::npos) << slow->summary();
  // No clock (the CPU device): 5 GHz bounds it. No time: it may have.
  EXPECT_FALSE(finalized(500.0, 0)->blocks()[1].mayHaveWrapped);
  EXPECT_TRUE(finalized(0.0, 1980000)->blocks()[1].mayHaveWrapped);
}

// The occupancy guard's caps become `.maxnreg` on the kernels they name; a lower `.maxnreg` of the
// application stays, and the result assembles.
TEST(ModuleInstrumenter, RegisterCapsBecomeMaxnreg) {
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  auto out = instrumentWith(kLoopKernel, "bbcount", &keep, nullptr, {{"loop", 32}});
  ASSERT_TRUE(out.ok) << out.error;
  EXPECT_NE(out.ptx.find(".maxnreg 32"), std::string::npos) << out.ptx;
  expectAssembles(out.ptx);
  auto none = instrumentWith(kLoopKernel, "bbcount", &keep, nullptr, {{"other", 32}});
  ASSERT_TRUE(none.ok) << none.error;
  EXPECT_EQ(none.ptx.find(".maxnreg"), std::string::npos);

  std::string capped = kLoopKernel;
  capped.replace(capped.find("\n{"), 2, " .maxnreg 24\n{");
  auto lower = instrumentWith(capped, "bbcount", &keep, nullptr, {{"loop", 40}});
  ASSERT_TRUE(lower.ok) << lower.error;
  EXPECT_NE(lower.ptx.find(".maxnreg 24"), std::string::npos) << lower.ptx;
  EXPECT_EQ(occurrences(lower.ptx, ".maxnreg"), 1u);
  auto higher = instrumentWith(capped, "bbcount", &keep, nullptr, {{"loop", 16}});
  ASSERT_TRUE(higher.ok) << higher.error;
  EXPECT_NE(higher.ptx.find(".maxnreg 16"), std::string::npos) << higher.ptx;
  EXPECT_EQ(occurrences(higher.ptx, ".maxnreg"), 1u);
  expectAssembles(higher.ptx);
}

TEST(BasicBlockCounter, PerWarpFinalizeSumsStripes) {
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  auto out = instrumentWith(kLoopKernel, "bbcount:stripes=2", &keep);
  ASSERT_TRUE(out.ok) << out.error;
  LaunchInfo launch = launchOf("loop", {2, 1, 1}, {64, 1, 1});
  BufferRequest request = keep[0]->initialize(*out.states[0], launch);
  ASSERT_EQ(request.bytes, 3u * 2u * 8u); // rows x stripes x 8
  std::vector<uint64_t> stripes = {64, 64, 640, 640, 64, 64};
  std::vector<std::byte> buffer = bufferOf(stripes, request.bytes);
  auto result = keep[0]->finalize(*out.states[0], launch, DeviceFacts{}, buffer);
  const auto* counts = dynamic_cast<const BasicBlockCounts*>(result.get());
  ASSERT_NE(counts, nullptr);
  EXPECT_EQ(counts->mode(), BasicBlockCounts::Mode::PerWarp);
  EXPECT_EQ(counts->entryCount(), launch.threads());
  EXPECT_EQ(counts->blocks()[1].count, 1280u);
}

// Issue 18 item 9: counts from a buffer that something else overwrote (a stray store of the
// application, memory reused after a device reset) are never reported.
TEST(BasicBlockCounter, ABufferWhoseEntryCountIsNotTheThreadsIsNotReported) {
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  for (const char* list : {"bbcount:stripes=2", "bbcount-thread"}) {
    auto out = instrumentWith(kLoopKernel, list, &keep);
    ASSERT_TRUE(out.ok) << out.error;
    LaunchInfo launch = launchOf("loop", {1, 1, 1}, {2, 1, 1});
    BufferRequest request = keep.back()->initialize(*out.states[0], launch);
    std::vector<uint64_t> garbage(request.bytes / 8, 750000000000000ull);
    std::vector<std::byte> buffer = bufferOf(garbage, request.bytes);
    try {
      keep.back()->finalize(*out.states[0], launch, DeviceFacts{}, buffer);
      ADD_FAILURE() << list << ": garbage counts were reported";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("overwritten"), std::string::npos) << e.what();
    }
  }
}

TEST(BasicBlockCounter, DeviceFunctionsGetTheSlotAndStraightLineBlocksAreDerived) {
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  auto out = instrumentWith(kCallKernel, "bbcount", &keep);
  ASSERT_TRUE(out.ok) << out.error;
  EXPECT_NE(out.ptx.find(".param .b64 __ocelot_instrumentation_0"), std::string::npos) << out.ptx;
  EXPECT_NE(out.ptx.find("(param0, %ocl_rd"), std::string::npos) << out.ptx;
  const auto& state = static_cast<const BlockCountState&>(*out.states[0]);
  ASSERT_EQ(state.functionRows.size(), 1u); // twice: one block
  EXPECT_EQ(state.functionRows[0].function, "twice");
  const auto& kernel = state.kernels.at("caller");
  EXPECT_EQ(kernel.reachableFunctionRows.size(), 1u);
  expectAssembles(out.ptx);
  for (const char* list : {"bbcount-thread", "ctaclock", "bbcount,ctaclock"}) {
    auto other = instrumentWith(kCallKernel, list, &keep);
    ASSERT_TRUE(other.ok) << list << ": " << other.error;
    expectAssembles(other.ptx);
  }
}

// The code structure lists functions in module order and numbers files in the order the module
// names them, whatever order bbcount describes functions in (device functions first, each one's
// analyses dropped once described): here a kernel naming kernel.cu comes before the device
// function that names helper.cu first.
TEST(BasicBlockCounter, CodeStructureFollowsTheModulesOrder) {
  constexpr const char* kModule = R"(.version 8.0
.target sm_90
.address_size 64
.file 1 "/src/helper.cu"
.file 2 "/src/kernel.cu"
.func (.param .b32 r) twice(.param .b32 a);
.visible .entry first(.param .u64 p)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<2>;
	.loc 2 10 0
	ld.param.u64 %rd1, [p];
	mov.u32 %r1, 7;
	{
	.param .b32 a0;
	.param .b32 r0;
	st.param.b32 [a0], %r1;
	call.uni (r0), twice, (a0);
	ld.param.b32 %r2, [r0];
	}
	st.global.u32 [%rd1], %r2;
	ret;
}
.func (.param .b32 r) twice(.param .b32 a)
{
	.reg .b32 %r<3>;
	.loc 1 5 0
	ld.param.b32 %r1, [a];
	.loc 2 3 0
	add.s32 %r2, %r1, %r1;
	st.param.b32 [r], %r2;
	ret;
}
)";
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  auto out = instrumentWith(kModule, "bbcount", &keep);
  ASSERT_TRUE(out.ok) << out.error;
  const auto& state = static_cast<const BlockCountState&>(*out.states[0]);
  ASSERT_EQ(state.functionRows.size(), 1u);
  EXPECT_EQ(state.functionRows[0].function, "twice");
  EXPECT_EQ(state.kernels.at("first").reachableFunctionRows, std::vector<uint32_t>{0});
  const CodeStructure& structure = *state.structure;
  EXPECT_EQ(structure.files(), (std::vector<std::string>{"/src/kernel.cu", "/src/helper.cu"}));
  ASSERT_EQ(structure.functions().size(), 2u);
  EXPECT_EQ(structure.functions()[0].name, "first");
  EXPECT_TRUE(structure.functions()[0].entry);
  for (const auto& block : structure.functions()[0].blocks)
    for (const auto& line : block.lines)
      EXPECT_EQ(line.file, 0u);
  const CodeStructure::Function& twice = structure.functions()[1];
  EXPECT_EQ(twice.name, "twice");
  ASSERT_EQ(twice.blocks.size(), 1u);
  // Sorted by (file, line) in the module's numbering: kernel.cu:3 (3 instructions), helper.cu:5.
  ASSERT_EQ(twice.blocks[0].lines.size(), 2u);
  EXPECT_EQ(twice.blocks[0].lines[0].file, 0u);
  EXPECT_EQ(twice.blocks[0].lines[0].line, 3u);
  EXPECT_EQ(twice.blocks[0].lines[0].instructions, 3u);
  EXPECT_EQ(twice.blocks[0].lines[1].file, 1u);
  EXPECT_EQ(twice.blocks[0].lines[1].line, 5u);
  EXPECT_EQ(twice.blocks[0].lines[1].instructions, 1u);
  expectAssembles(out.ptx);
}

TEST(BasicBlockCounter, OverBudgetLaunchesSwitchToPerWarpWithANote) {
  instrumentors::BasicBlockCounter counter({{"mode", "per-thread"}, {"budget-mb", "1"}});
  KernelFacts facts;
  facts.basicBlocks = 10;
  LaunchInfo small = launchOf("k", {1, 1, 1}, {256, 1, 1});
  EXPECT_EQ(counter.variant(small, facts).variant, instrumentors::BasicBlockCounter::kPerThread);
  LaunchInfo large = launchOf("k", {4096, 1, 1}, {256, 1, 1}); // 10 x 1M x 8 bytes = 80 MB
  VariantChoice choice = counter.variant(large, facts);
  EXPECT_EQ(choice.variant, instrumentors::BasicBlockCounter::kPerWarp);
  EXPECT_NE(choice.note.find("1 MB budget"), std::string::npos) << choice.note;
}

TEST(BasicBlockCounter, BadOptionsAreClearErrors) {
  instrumentors::InstrumentorRegistry registry;
  EXPECT_THROW(registry.create("bbcount", InstrumentorOptions::parse("mode=bogus")),
               std::invalid_argument);
  EXPECT_THROW(registry.create("bbcount", InstrumentorOptions::parse("mdoe=per-warp")),
               std::invalid_argument);
  EXPECT_THROW(registry.create("bbcount", InstrumentorOptions::parse("stripes=3")),
               std::invalid_argument);
  EXPECT_THROW(registry.create("bbcount-thread", InstrumentorOptions::parse("mode=per-warp")),
               std::invalid_argument);
}

TEST(CtaClock, RecordsClocksAndSmidAndAssembles) {
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  auto out = instrumentWith(kLoopKernel, "ctaclock", &keep);
  ASSERT_TRUE(out.ok) << out.error;
  EXPECT_NE(out.ptx.find("%clock64"), std::string::npos);
  EXPECT_NE(out.ptx.find("%globaltimer"), std::string::npos);
  EXPECT_NE(out.ptx.find("%smid"), std::string::npos);
  expectAssembles(out.ptx);
}

TEST(CtaClock, FinalizeGivesPerSmBusyTimeAndImbalance) {
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  auto out = instrumentWith(kLoopKernel, "ctaclock", &keep);
  ASSERT_TRUE(out.ok) << out.error;
  LaunchInfo launch = launchOf("loop", {3, 1, 1}, {64, 1, 1});
  BufferRequest request = keep[0]->initialize(*out.states[0], launch);
  ASSERT_EQ(request.bytes, 3u * 48u);
  std::vector<std::byte> buffer(request.bytes);
  auto record = [&](uint64_t cta, uint64_t start, uint64_t end, uint32_t sm) {
    std::byte* r = buffer.data() + cta * 48;
    uint64_t notStart = ~start, notStartNs = ~(start * 10), endNs = end * 10;
    uint32_t smPlusOne = sm + 1, warps = 2, threads = 64;
    std::memcpy(r + 0, &notStart, 8);
    std::memcpy(r + 8, &end, 8);
    std::memcpy(r + 16, &notStartNs, 8);
    std::memcpy(r + 24, &endNs, 8);
    std::memcpy(r + 32, &smPlusOne, 4);
    std::memcpy(r + 36, &warps, 4);
    std::memcpy(r + 40, &threads, 4);
  };
  record(0, 100, 200, 0);
  record(1, 150, 300, 0); // overlaps CTA 0 on SM 0: busy 100..300
  record(2, 100, 150, 1);
  auto result = keep[0]->finalize(*out.states[0], launch, DeviceFacts{2, 0, 90}, buffer);
  const auto* times = dynamic_cast<const CtaClockTimes*>(result.get());
  ASSERT_NE(times, nullptr);
  EXPECT_TRUE(times->complete()) << (times->problems().empty() ? "" : times->problems()[0]);
  ASSERT_EQ(times->sms().size(), 2u);
  EXPECT_EQ(times->sms()[0].ctas, 2u);
  EXPECT_EQ(times->sms()[0].busyCycles, 200u);
  EXPECT_EQ(times->sms()[1].busyCycles, 50u);
  EXPECT_DOUBLE_EQ(times->imbalance(), 200.0 / 125.0);
}

/// `ptx` under bbcount and the launch clock, as the runtime instruments it: with a completion slot
/// or without one.
instrumentors::InstrumentedPtx instrumentWithLaunchClock(const std::string& ptx,
                                                         bool completionWord) {
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  instrumentors::InstrumentorRegistry registry;
  std::vector<instrumentors::SlotRequest> slots = slotsFor("bbcount", registry, &keep);
  auto clock = std::make_shared<instrumentors::LaunchClock>();
  slots.push_back({clock.get(), 0});
  instrumentors::InstrumentOptions options;
  options.label = "test";
  options.completionWord = completionWord;
  return instrumentors::instrumentModule(ptx, slots, options);
}

// The clock Ocelot adds to every instrumented kernel: the GPU time without events in the stream.
TEST(LaunchClock, FoldsGlobaltimerAtEntryAndEveryExitAndAssembles) {
  auto out = instrumentWithLaunchClock(kLoopKernel, false);
  ASSERT_TRUE(out.ok) << out.error;
  const instrumentors::LaunchClock clock;
  // The start (max of the complement) at entry, the end at the kernel's ret.
  EXPECT_GE(occurrences(out.ptx, "%globaltimer"), 2u) << out.ptx;
  EXPECT_GE(occurrences(out.ptx, "red.global.max.u64"), 2u) << out.ptx;
  EXPECT_EQ(clock.initialize(*out.states[1], LaunchInfo{}).bytes,
            instrumentors::LaunchClock::kBufferBytes);
  // Without a completion slot: no exit count, no word.
  EXPECT_EQ(out.ptx.find("st.relaxed.sys"), std::string::npos) << out.ptx;
  EXPECT_FALSE(instrumentors::LaunchClock::signalsCompletion(*out.states[1]));
  expectAssembles(out.ptx);
}

// Issue 14: with a completion slot, every exit adds the leaving lanes to the exit count, and the
// lane that completes the grid's thread count releases the completion word to the host.
TEST(LaunchClock, CountsExitsAndReleasesTheCompletionWordAndAssembles) {
  auto out = instrumentWithLaunchClock(kLoopKernel, true);
  ASSERT_TRUE(out.ok) << out.error;
  std::string why;
  EXPECT_TRUE(instrumentors::LaunchClock::signalsCompletion(*out.states[1], &why)) << why;
  // bbcount's pointer, the clock's, the word's.
  EXPECT_NE(out.ptx.find("__ocelot_instrumentation[24]"), std::string::npos) << out.ptx;
  // The count releases the warp's results at GPU scope; the word needs no system-scope fence.
  EXPECT_EQ(occurrences(out.ptx, "atom.acq_rel.gpu.global.add.u64"), 1u) << out.ptx;
  EXPECT_EQ(occurrences(out.ptx, "st.relaxed.sys.global.u32"), 1u) << out.ptx;
  EXPECT_EQ(occurrences(out.ptx, "fence."), 0u) << out.ptx;
  EXPECT_EQ(occurrences(out.ptx, "bar.warp.sync"), 1u) << out.ptx;
  expectAssembles(out.ptx);
}

// A device function that leaves the kernel (`exit`) where the buffers cannot reach (its address is
// taken): threads leaving there are never counted, so the module's kernels do not signal (the
// runtime waits for an event instead), and the PTX still assembles.
TEST(LaunchClock, AnExitInUnreachableCodeMeansNoSignal) {
  const std::string ptx = R"(.version 8.5
.target sm_90
.address_size 64

.func leave(.param .u32 code)
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  ld.param.u32 %r1, [code];
  setp.ne.u32 %p1, %r1, 0;
  @%p1 exit;
  ret;
}

.visible .entry k(.param .u64 table)
{
  .reg .b64 %rd<3>;
  .reg .b32 %r<2>;
  mov.u64 %rd1, leave;
  ld.param.u64 %rd2, [table];
  st.global.u64 [%rd2], %rd1;
  mov.u32 %r1, %tid.x;
  {
  .param .b32 arg;
  st.param.b32 [arg], %r1;
  call.uni leave, (arg);
  }
  ret;
}
)";
  auto out = instrumentWithLaunchClock(ptx, true);
  ASSERT_TRUE(out.ok) << out.error;
  std::string why;
  EXPECT_FALSE(instrumentors::LaunchClock::signalsCompletion(*out.states[1], &why));
  EXPECT_NE(why.find("leave"), std::string::npos) << why;
  EXPECT_EQ(out.ptx.find("st.relaxed.sys"), std::string::npos) << out.ptx;
  expectAssembles(out.ptx);
}

TEST(LaunchClock, GpuTimeIsTheLatestEndMinusTheEarliestStart) {
  using instrumentors::LaunchClock;
  std::vector<std::byte> buffer(LaunchClock::kRecords * LaunchClock::kRecordBytes);
  EXPECT_FALSE(LaunchClock::gpuNanoseconds(buffer)) << "no warp ran";
  auto record = [&](uint32_t r, uint64_t start, uint64_t end) {
    uint64_t notStart = ~start;
    std::memcpy(buffer.data() + r * LaunchClock::kRecordBytes, &notStart, 8);
    std::memcpy(buffer.data() + r * LaunchClock::kRecordBytes + 8, &end, 8);
  };
  record(0, 1000, 1300);
  record(7, 950, 1200);
  record(31, 1100, 1250);
  EXPECT_EQ(LaunchClock::gpuNanoseconds(buffer), std::optional<uint64_t>(350));
  EXPECT_FALSE(LaunchClock::gpuNanoseconds(std::span<const std::byte>(buffer).first(16)))
      << "a buffer too short is no clock's";
  record(3, 2000, 0); // a start without any end: the kernel did not finish
  std::vector<std::byte> startsOnly(buffer.size());
  std::memcpy(startsOnly.data() + 3 * LaunchClock::kRecordBytes, buffer.data() + 3 * 16, 8);
  EXPECT_FALSE(LaunchClock::gpuNanoseconds(startsOnly));
}

TEST(CtaClock, MissingCtaIsAProblemNotACrash) {
  LaunchInfo launch = launchOf("k", {2, 1, 1}, {32, 1, 1});
  std::vector<CtaClockTimes::Cta> ctas(2);
  ctas[0].warpsStarted = 1;
  ctas[0].threadsExited = 32;
  ctas[0].endCycle = 10;
  CtaClockTimes times(launch, DeviceFacts{1, 0, 90}, ctas);
  EXPECT_FALSE(times.complete());
}

TEST(Framework, KernelsWhoseParametersFillTheSpaceAreLeftAlone) {
  std::string ptx = ".version 7.0\n.target sm_75\n.address_size 64\n"
                    ".visible .entry big(.param .align 8 .b8 big_param_0[4352])\n{\n\tret;\n}\n";
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  auto out = instrumentWith(ptx, "bbcount", &keep);
  ASSERT_TRUE(out.ok) << out.error;
  EXPECT_EQ(out.kernels.count("big"), 0u);
  ASSERT_EQ(out.exclusions.size(), 1u);
  EXPECT_NE(out.exclusions[0].reason.find("parameter space"), std::string::npos);
}

TEST(Framework, PtxThatDoesNotParseIsAnErrorValue) {
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  auto out = instrumentWith(".version 8.5\n.target sm_90\n.entry k( {", "bbcount", &keep);
  EXPECT_FALSE(out.ok);
  EXPECT_NE(out.error.find("parse"), std::string::npos) << out.error;
}

} // namespace
} // namespace ocelot::test
