// Where the basic-block counter puts counters: which blocks are derived from an equivalent block
// (straight-line chains, control equivalence within one loop iteration), which loop blocks count
// in registers, and the shapes where a block that looks equivalent is not.

#include "instrumentors/CounterPlacement.h"

#include "ir/Parser.h"
#include "passes/AnalysisManager.h"

#include <gtest/gtest.h>

#include <string>

namespace ocelot::test {
namespace {

using instrumentors::CounterKind;
using instrumentors::CounterPlacement;
using instrumentors::PlacementOptions;

struct Placed {
  std::unique_ptr<ir::Module> module;
  CounterPlacement placement;
};

Placed place(const std::string& body, PlacementOptions options = {true, 32}) {
  std::string ptx = ".version 8.5\n.target sm_90\n.address_size 64\n"
                    ".visible .entry k(.param .u32 n)\n{\n"
                    "  .reg .pred %p<8>;\n  .reg .b32 %r<16>;\n" +
                    body + "}\n";
  auto parsed = ir::parsePtx(ptx, "<test>");
  EXPECT_TRUE(parsed.ok()) << parsed.firstError();
  Placed out;
  out.module = std::move(parsed.module);
  passes::AnalysisManager analyses;
  out.placement = placeCounters(*out.module->functions().front(), analyses, options);
  return out;
}

// The shape of the instrumentation benchmark's nbody: a tile loop whose header, barrier block and
// latch run once per tile, a conditional load, and an inner loop. Only the header, the
// conditional block and the inner loop need counters.
TEST(CounterPlacement, BlocksOfOneIterationShareTheHeadersCount) {
  Placed p = place(R"(
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra DONE;
HEAD:
  setp.lt.s32 %p2, %r2, 3;
  @%p2 bra JOIN;
  add.s32 %r3, %r3, 1;
JOIN:
  bar.sync 0;
  mov.u32 %r4, 0;
INNER:
  add.s32 %r4, %r4, 1;
  setp.lt.s32 %p3, %r4, 8;
  @%p3 bra INNER;
  add.s32 %r2, %r2, 1;
  setp.lt.s32 %p4, %r2, %r1;
  @%p4 bra HEAD;
DONE:
  ret;
)");
  const auto& b = p.placement.blocks;
  ASSERT_EQ(b.size(), 7u);                     // B0, HEAD, cond, JOIN, INNER, latch, DONE
  EXPECT_EQ(b[1].kind, CounterKind::Register); // HEAD
  EXPECT_EQ(b[2].kind, CounterKind::Register); // the conditional block
  EXPECT_EQ(b[3].kind, CounterKind::Derived);  // JOIN, once per tile
  EXPECT_EQ(b[3].source, 1u);
  EXPECT_EQ(b[4].kind, CounterKind::Register); // INNER
  EXPECT_EQ(b[5].kind, CounterKind::Derived);  // the latch, after INNER
  EXPECT_EQ(b[5].source, 1u);
  EXPECT_EQ(b[6].kind, CounterKind::Derived); // DONE: once per thread
  EXPECT_EQ(b[6].source, 0u);
  EXPECT_EQ(p.placement.registers, 3u);
}

// A loop with two latches: the one on the exit path post-dominates the header in the function,
// but an iteration can skip it (through the other latch), so it is not derived.
TEST(CounterPlacement, ALatchAnIterationCanSkipIsCounted) {
  Placed p = place(R"(
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
HEAD:
  add.s32 %r2, %r2, 1;
  and.b32 %r3, %r2, 1;
  setp.eq.s32 %p1, %r3, 0;
  @%p1 bra LAST;
  bra.uni HEAD;
LAST:
  setp.lt.s32 %p2, %r2, %r1;
  @%p2 bra HEAD;
  ret;
)");
  const auto& b = p.placement.blocks;
  ASSERT_EQ(b.size(), 5u); // B0, HEAD, the other latch, LAST, the return
  EXPECT_NE(b[3].kind, CounterKind::Derived);
  EXPECT_NE(b[2].kind, CounterKind::Derived);
  EXPECT_EQ(b[4].kind, CounterKind::Derived); // the return runs once, as B0
  EXPECT_EQ(b[4].source, 0u);
}

// A loop left by a break: its latch runs once less than its header per thread that breaks.
TEST(CounterPlacement, ALatchAfterABreakIsCounted) {
  Placed p = place(R"(
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
HEAD:
  add.s32 %r2, %r2, 1;
  setp.eq.s32 %p1, %r2, 5;
  @%p1 bra OUT;
  setp.lt.s32 %p2, %r2, %r1;
  @%p2 bra HEAD;
OUT:
  ret;
)");
  const auto& b = p.placement.blocks;
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b[1].kind, CounterKind::Register);
  EXPECT_EQ(b[2].kind, CounterKind::Register); // the latch
  EXPECT_EQ(b[3].kind, CounterKind::Derived);  // OUT: once per thread
  EXPECT_EQ(b[3].source, 0u);
}

const char* const kIfElse = R"(
  ld.param.u32 %r1, [n];
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra ELSE;
  add.s32 %r2, %r1, 1;
  bra.uni JOIN;
ELSE:
  add.s32 %r2, %r1, 2;
JOIN:
  ret;
)";

// An if/else: the join runs as often as the block before the branch; the arms do not.
TEST(CounterPlacement, TheJoinOfAnIfElseIsDerived) {
  Placed p = place(kIfElse);
  const auto& b = p.placement.blocks;
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b[0].kind, CounterKind::Atomic);
  EXPECT_EQ(b[1].kind, CounterKind::Atomic);
  EXPECT_EQ(b[2].kind, CounterKind::Atomic);
  EXPECT_EQ(b[3].kind, CounterKind::Derived);
  EXPECT_EQ(b[3].source, 0u);
  // derive=off: every block is counted.
  Placed off = place(kIfElse, PlacementOptions{false, 32});
  EXPECT_EQ(off.placement.blocks[3].kind, CounterKind::Atomic);
}

// A guarded exit between the branch and the join: the join no longer post-dominates the branch.
TEST(CounterPlacement, AnExitOnTheWayIsRespected) {
  Placed p = place(R"(
  ld.param.u32 %r1, [n];
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra ELSE;
  setp.eq.s32 %p2, %r1, 7;
  @%p2 exit;
  bra.uni JOIN;
ELSE:
  add.s32 %r2, %r1, 2;
JOIN:
  ret;
)");
  const auto& b = p.placement.blocks;
  ASSERT_GE(b.size(), 4u);
  EXPECT_NE(b.back().kind, CounterKind::Derived);
}

} // namespace
} // namespace ocelot::test
