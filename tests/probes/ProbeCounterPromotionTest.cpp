// ProbeCounterPromotionPass (instrumentors/ProbeCounterPromotion.h): counter updates in loops move
// into registers flushed at the loops' exits. Each kernel runs on the CPU device as written and
// after the pass, on the same arguments; the buffer's counters must be identical. Counters the
// kernel reads, updates whose address is not the buffer's plus a thread constant, and loops that
// call functions stay atomic.

#include "instrumentors/ProbeCounterPromotion.h"

#include "ir/Casting.h"
#include "ir/Emitter.h"
#include "ir/IRBuilder.h"
#include "ir/Parser.h"
#include "passes/ControlFlowGraph.h"
#include "passes/LoopInfo.h"
#include "passes/PassManager.h"
#include "tests/cpu/CpuDeviceFixture.h"
#include "tests/support/Ptxas.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace ocelot::runtime::cpu::test {
namespace {

/// The buffer is the kernel's parameter `buf`, as BufferPlan loads its slot.
class ParameterBuffer final : public BufferAccess {
public:
  bool reaches(const ir::Function& function) const override { return function.isEntry(); }
  ir::RegisterRef bufferAddress(ir::IRBuilder& builder) const override {
    return builder.load(ir::StateSpace::Param, ir::ScalarType::U64, builder.address("buf"));
  }
};

constexpr const char* kHeader = R"(.version 8.0
.target sm_80
.address_size 64
)";

// Counters in an outer loop and in a loop nested in it (32- and 64-bit, red and atom with an
// unused result, a stripe by %ctaid.x, a guarded update), leaving through an early `ret`, an
// early branch out and the loop's end (both to a block with two ways in, from blocks with two
// ways out: flushed before the branches, under their conditions).
constexpr const char* kLoops = R"(
.visible .entry loops(.param .u64 out, .param .u32 n, .param .u64 buf)
{
  .reg .pred %p<8>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, 0;
$outer:
  ld.param.u64 %rd1, [buf];
  add.u64 %rd2, %rd1, 16;
  red.global.add.u64 [%rd2], 1;
  mov.u32 %r4, 0;
$inner:
  ld.param.u64 %rd3, [buf];
  mov.u32 %r5, %ctaid.x;
  and.b32 %r6, %r5, 3;
  cvt.u64.u32 %rd4, %r6;
  shl.b64 %rd5, %rd4, 3;
  add.s64 %rd6, %rd3, %rd5;
  atom.global.add.u64 %rd7, [%rd6+64], 2;
  and.b32 %r7, %r4, 1;
  setp.eq.u32 %p6, %r7, 0;
  ld.param.u64 %rd10, [buf];
  @%p6 atom.add.u64 %rd11, [%rd10+32], 3;
  add.u32 %r4, %r4, 1;
  setp.le.u32 %p1, %r4, %r2;
  @%p1 bra $inner;
  setp.eq.u32 %p2, %r2, 5;
  setp.eq.u32 %p3, %r3, 2;
  and.pred %p4, %p2, %p3;
  @%p4 ret;
  ld.param.u64 %rd8, [buf];
  red.global.add.u32 [%rd8+128], %r2;
  setp.eq.u32 %p7, %r2, 9;
  @%p7 bra $done;
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p5, %r3, %r1;
  @%p5 bra $outer;
$done:
  ld.param.u64 %rd9, [out];
  cvta.to.global.u64 %rd12, %rd9;
  mul.wide.u32 %rd13, %r2, 4;
  add.s64 %rd14, %rd12, %rd13;
  st.global.u32 [%rd14], %r3;
  ret;
}
)";

// The counter's value is read in the loop (an atom whose result is used): stays atomic.
constexpr const char* kUsed = R"(
.visible .entry used(.param .u64 out, .param .u32 n, .param .u64 buf)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u32 %r1, [n];
  ld.param.u64 %rd4, [out];
  cvta.to.global.u64 %rd5, %rd4;
  mov.u32 %r3, 0;
$loop:
  ld.param.u64 %rd1, [buf];
  atom.global.add.u64 %rd2, [%rd1+16], 1;
  st.global.u64 [%rd5], %rd2;
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, %r1;
  @%p1 bra $loop;
  ret;
}
)";

// The address moves with the loop (buffer + 8 * i): not a thread constant, stays atomic.
constexpr const char* kMoving = R"(
.visible .entry moving(.param .u64 out, .param .u32 n, .param .u64 buf)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u32 %r1, [n];
  mov.u32 %r3, 0;
$loop:
  ld.param.u64 %rd1, [buf];
  mul.wide.u32 %rd2, %r3, 8;
  add.s64 %rd3, %rd1, %rd2;
  red.global.add.u64 [%rd3+16], 1;
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, %r1;
  @%p1 bra $loop;
  ret;
}
)";

// The loop also loads the counter: stays atomic. A counter elsewhere in the buffer, which nothing
// reads, moves.
constexpr const char* kRead = R"(
.visible .entry read(.param .u64 out, .param .u32 n, .param .u64 buf)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u32 %r1, [n];
  ld.param.u64 %rd4, [out];
  cvta.to.global.u64 %rd5, %rd4;
  mov.u32 %r3, 0;
$loop:
  ld.param.u64 %rd1, [buf];
  red.global.add.u64 [%rd1+16], 1;
  red.global.add.u64 [%rd1+48], 1;
  ld.global.u64 %rd2, [%rd1+16];
  st.global.u64 [%rd5], %rd2;
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, %r1;
  @%p1 bra $loop;
  ret;
}
)";

// The outer loop calls a function (which could `exit`): its counter stays atomic. The loop inside
// it makes no call: its counter moves, flushed and zeroed at each of its exits, since it runs
// again in the next outer iteration.
constexpr const char* kCalls = R"(
.func helper()
{
  ret;
}
.visible .entry calls(.param .u64 out, .param .u32 n, .param .u64 buf)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, 0;
$loop:
  ld.param.u64 %rd1, [buf];
  red.global.add.u64 [%rd1+16], 1;
  call.uni helper, ();
  mov.u32 %r4, 0;
$inner:
  ld.param.u64 %rd2, [buf];
  red.global.add.u64 [%rd2+24], 1;
  add.u32 %r4, %r4, 1;
  setp.le.u32 %p2, %r4, %r2;
  @%p2 bra $inner;
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, %r1;
  @%p1 bra $loop;
  ret;
}
)";

// The first block is the loop: there is no block that runs once per call to zero registers in.
constexpr const char* kLoopFirst = R"(
.visible .entry first(.param .u64 out, .param .u32 n, .param .u64 buf)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
$loop:
  ld.param.u64 %rd1, [buf];
  red.global.add.u64 [%rd1+16], 1;
  atom.global.add.u64 %rd2, [%rd1+24], 1;
  setp.eq.u64 %p1, %rd2, 2;
  @%p1 bra $loop;
  ret;
}
)";

struct Promoted {
  std::string original;
  std::string ptx;
  uint32_t updates = 0;
  uint32_t counters = 0;
  /// red and atom of the kernel's own in loop blocks after the pass (the flushes, which address the
  /// counters through registers the pass made, %ocl_*, are not counted)
  uint32_t reductionsInLoops = 0;
  uint32_t reductions = 0; ///< red and atom anywhere, after the pass
};

Promoted promote(const std::string& body, uint32_t budget = 32) {
  Promoted result;
  result.original = std::string(kHeader) + body;
  ir::ParseResult parsed = ir::parsePtx(result.original);
  EXPECT_TRUE(parsed.ok()) << parsed.firstError();
  if (!parsed.ok())
    return result;
  ParameterBuffer buffer;
  passes::AnalysisManager analyses;
  passes::PassManager manager;
  auto& pass = manager.add<instrumentors::ProbeCounterPromotionPass>(buffer, budget);
  manager.run(*parsed.module, analyses);
  result.updates = pass.promotedUpdates();
  result.counters = pass.promotedCounters();
  result.ptx = ir::emitPtx(*parsed.module);
  for (ir::Function* f : parsed.module->functions()) {
    if (!f->hasBody())
      continue;
    passes::AnalysisManager fresh;
    const auto& cfg = fresh.getResult<passes::ControlFlowGraphAnalysis>(*f);
    const auto& loops = fresh.getResult<passes::LoopAnalysis>(*f);
    for (passes::ControlFlowGraph::Node b = 0; b < cfg.blockCount(); ++b)
      cfg.block(b)->forEachInstruction([&](const ir::Instruction& inst) {
        ir::Opcode op = inst.form().opcode();
        if (op != ir::Opcode::Red && op != ir::Opcode::Atom)
          return;
        ++result.reductions;
        bool flush = ir::instructionToString(*f, inst).find("%ocl_") != std::string::npos;
        if (loops.depth(b) > 0 && !flush)
          ++result.reductionsInLoops;
      });
  }
  return result;
}

class ProbeCounterPromotion : public CpuDeviceTest {
protected:
  /// Runs `kernel` of both texts on the same arguments; returns the two buffers (and outputs).
  void runBoth(const Promoted& p, const char* kernel, dim3 grid, dim3 block, uint32_t n) {
    for (int version = 0; version < 2; ++version) {
      const bool failedBefore = HasFailure();
      DeviceFunction f = load(version == 0 ? p.original : p.ptx, kernel);
      if (!failedBefore && HasFailure())
        return;
      uint64_t* buffer = allocate<uint64_t>(kWords);
      uint32_t* out = allocate<uint32_t>(1024);
      std::memset(buffer, 0, kWords * 8);
      std::memset(out, 0, 1024 * 4);
      ASSERT_EQ(launch(f, grid, block, 0, out, n, buffer), cudaSuccess);
      ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
      words_[version].assign(buffer, buffer + kWords);
      outputs_[version].assign(out, out + 1024);
    }
  }
  static constexpr size_t kWords = 32;
  std::vector<uint64_t> words_[2];
  std::vector<uint32_t> outputs_[2];
};

TEST_F(ProbeCounterPromotion, LoopCountersAreFlushedAtEveryExit) {
  Promoted p = promote(kLoops);
  ASSERT_FALSE(p.ptx.empty());
  // Four counters (the outer one, the striped and the guarded inner ones, the 32-bit one), no
  // reduction left in a loop, a flush of each at the early ret and on both exit edges.
  EXPECT_EQ(p.updates, 4u);
  EXPECT_EQ(p.counters, 4u);
  EXPECT_EQ(p.reductionsInLoops, 0u) << p.ptx;
  EXPECT_EQ(p.reductions, 4u * 3u) << p.ptx;

  // 2 CTAs of 40 threads (a partial warp), 4 outer iterations: thread 5 returns in the third,
  // thread 9 leaves after the first; the inner loop runs tid + 1 times.
  runBoth(p, "loops", dim3(2), dim3(40), 4);
  ASSERT_EQ(words_[1].size(), kWords);
  EXPECT_EQ(words_[1], words_[0]);
  EXPECT_EQ(outputs_[1], outputs_[0]);
  // The counts themselves: outer iterations of 80 threads.
  uint64_t outer = 0, inner = 0, guarded = 0, tids = 0;
  for (uint32_t cta = 0; cta < 2; ++cta)
    for (uint32_t t = 0; t < 40; ++t) {
      uint32_t iterations = t == 5 ? 3 : t == 9 ? 1 : 4;
      outer += iterations;
      inner += iterations * (t + 1);
      guarded += iterations * ((t + 2) / 2);
      tids += (t == 5 ? 2 : iterations) * uint64_t{t};
    }
  EXPECT_EQ(words_[0][2], outer);
  EXPECT_EQ(words_[0][4], 3 * guarded);
  EXPECT_EQ(words_[0][8] + words_[0][9], 2 * inner); // CTA 0 and 1 in stripes 0 and 1
  EXPECT_EQ(words_[0][16] & 0xffffffffu, tids);

  ocelot::test::PtxasResult assembled = ocelot::test::runPtxas(p.ptx, "sm_80");
  if (assembled.ran) {
    EXPECT_TRUE(assembled.ok()) << assembled.output << p.ptx;
  }
}

TEST_F(ProbeCounterPromotion, CounterWhoseValueIsUsedStaysAtomic) {
  Promoted p = promote(kUsed);
  EXPECT_EQ(p.updates, 0u);
  EXPECT_EQ(p.reductionsInLoops, 1u);
  runBoth(p, "used", dim3(1), dim3(32), 3);
  ASSERT_EQ(words_[1].size(), kWords);
  EXPECT_EQ(words_[1], words_[0]);
  EXPECT_EQ(words_[0][2], 96u);
}

TEST_F(ProbeCounterPromotion, AddressThatMovesWithTheLoopStaysAtomic) {
  Promoted p = promote(kMoving);
  EXPECT_EQ(p.updates, 0u);
  EXPECT_EQ(p.reductionsInLoops, 1u);
  runBoth(p, "moving", dim3(1), dim3(32), 3);
  ASSERT_EQ(words_[1].size(), kWords);
  EXPECT_EQ(words_[1], words_[0]);
  EXPECT_EQ(words_[0][2] + words_[0][3] + words_[0][4], 96u);
}

TEST_F(ProbeCounterPromotion, CounterTheKernelLoadsStaysAtomic) {
  Promoted p = promote(kRead);
  // Only the counter at +48 moves.
  EXPECT_EQ(p.updates, 1u);
  EXPECT_EQ(p.reductionsInLoops, 1u);
  runBoth(p, "read", dim3(1), dim3(32), 3);
  ASSERT_EQ(words_[1].size(), kWords);
  EXPECT_EQ(words_[1], words_[0]);
  EXPECT_EQ(words_[0][6], 96u);
}

TEST_F(ProbeCounterPromotion, LoopsThatCallStayAtomic) {
  Promoted p = promote(kCalls);
  EXPECT_EQ(p.updates, 1u);
  EXPECT_EQ(p.reductionsInLoops, 1u) << p.ptx; // the outer counter
  runBoth(p, "calls", dim3(1), dim3(32), 3);
  ASSERT_EQ(words_[1].size(), kWords);
  EXPECT_EQ(words_[1], words_[0]);
  EXPECT_EQ(words_[0][2], 96u);
  EXPECT_EQ(words_[0][3], 3u * (32u * 33u / 2u));
}

TEST_F(ProbeCounterPromotion, ALoopAtTheFunctionsStartStaysAtomic) {
  Promoted p = promote(kLoopFirst);
  EXPECT_EQ(p.updates, 0u);
  EXPECT_EQ(p.reductionsInLoops, 2u);
}

TEST_F(ProbeCounterPromotion, RegisterBudgetKeepsTheRestAtomic) {
  // Three units: one 64-bit counter of the inner loop (innermost loops first) and the 32-bit
  // counter; the other two stay atomic.
  Promoted p = promote(kLoops, 3);
  EXPECT_EQ(p.counters, 2u);
  EXPECT_EQ(p.reductionsInLoops, 2u) << p.ptx;
  runBoth(p, "loops", dim3(2), dim3(40), 4);
  ASSERT_EQ(words_[1].size(), kWords);
  EXPECT_EQ(words_[1], words_[0]);
}

} // namespace
} // namespace ocelot::runtime::cpu::test
