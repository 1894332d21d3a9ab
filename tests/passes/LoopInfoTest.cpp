// Natural loops: nesting, latches, exits, irreducible control flow, source lines; and on random
// control flow, the definition of a natural loop checked node by node.

#include "passes/LoopInfo.h"

#include "PassTestSupport.h"
#include "RandomPtx.h"
#include "passes/AnalysisManager.h"
#include "passes/SourceLines.h"

namespace ocelot::test {
namespace {

using passes::ControlFlowGraph;
using passes::Loop;
using Node = ControlFlowGraph::Node;

TEST(LoopInfo, NestedLoopsWithDepthsAndSourceLines) {
  auto module = parseOrFail(R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry k()
{
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.loc 1 10 0
	mov.u32 %r1, 0;
$L_outer:
	.loc 1 11 0
	mov.u32 %r2, 0;
$L_inner:
	.loc 1 12 0
	add.s32 %r2, %r2, 1;
	setp.lt.s32 %p1, %r2, 8;
	@%p1 bra $L_inner;
	.loc 1 14 0
	add.s32 %r1, %r1, 1;
	setp.lt.s32 %p2, %r1, 8;
	@%p2 bra $L_outer;
	.loc 1 16 0
	ret;
}
	.file	1 "/src/kernels/nest.cu"
)");
  ASSERT_TRUE(module);
  passes::AnalysisManager am;
  ir::Function& f = *module->functions()[0];
  const auto& loops = am.getResult<passes::LoopAnalysis>(f);
  // B0 | B1 outer header | B2 inner header+latch | B3 outer latch | B4 ret
  ASSERT_EQ(loops.loops().size(), 2u);
  const Loop& outer = loops.loops()[0];
  const Loop& inner = loops.loops()[1];
  EXPECT_EQ(outer.header, 1u);
  EXPECT_EQ(outer.nodes(), (std::vector<Node>{1, 2, 3}));
  EXPECT_EQ(outer.latches, std::vector<Node>{3});
  EXPECT_EQ(outer.depth, 1u);
  EXPECT_EQ(inner.header, 2u);
  EXPECT_EQ(inner.nodes(), std::vector<Node>{2});
  EXPECT_EQ(inner.parent, 0u);
  EXPECT_EQ(inner.depth, 2u);
  EXPECT_EQ(outer.children, std::vector<uint32_t>{1});
  EXPECT_EQ(loops.depth(0), 0u);
  EXPECT_EQ(loops.depth(2), 2u);
  EXPECT_EQ(loops.loopFor(3), &outer);
  ASSERT_EQ(inner.exits.size(), 1u);
  EXPECT_EQ(inner.exits[0].to, 3u);
  EXPECT_TRUE(loops.irreducibleEdges().empty());

  const auto& lines = am.getResult<passes::SourceLineAnalysis>(f);
  EXPECT_EQ(lines.describe(lines.lines(inner)), "nest.cu:12");
  EXPECT_EQ(lines.describe(lines.lines(outer)), "nest.cu:11-14");
  EXPECT_EQ(lines.firstLocation(1).line, 11u);
  EXPECT_EQ(lines.fileName(1), "/src/kernels/nest.cu");
}

TEST(LoopInfo, IrreducibleCycleIsReportedAndFormsNoLoop) {
  // Two entries into the cycle B1 <-> B2.
  auto module = parseOrFail(kernel(R"(
	@%p1 bra $L_b;
$L_a:
	add.s32 %r1, %r1, 1;
	@%p2 ret;
$L_b:
	add.s32 %r1, %r1, 2;
	bra.uni $L_a;)"));
  ASSERT_TRUE(module);
  ControlFlowGraph cfg(*module->functions()[0]);
  passes::DominatorTree dom(cfg, passes::DominatorTree::Direction::Forward);
  passes::LoopInfo loops(cfg, dom);
  EXPECT_TRUE(loops.loops().empty());
  ASSERT_EQ(loops.irreducibleEdges().size(), 1u);
}

TEST(LoopInfo, RandomLoopsFollowTheDefinition) {
  for (unsigned seed = 1; seed <= 300; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    auto module = parseOrFail(randomKernel(seed, 2 + seed % 30));
    ASSERT_TRUE(module);
    ControlFlowGraph cfg(*module->functions()[0]);
    passes::DominatorTree dom(cfg, passes::DominatorTree::Direction::Forward);
    passes::LoopInfo loops(cfg, dom);
    for (const Loop& loop : loops.loops()) {
      for (Node latch : loop.latches)
        EXPECT_TRUE(dom.dominates(loop.header, latch)) << "header must dominate its latches";
      // Every node of the loop is dominated by the header and reaches a latch inside the loop.
      for (Node n : loop.nodes()) {
        EXPECT_TRUE(dom.dominates(loop.header, n));
        std::vector<Node> work{n};
        std::set<Node> seen{n};
        bool reachesLatch = false;
        while (!work.empty() && !reachesLatch) {
          Node x = work.back();
          work.pop_back();
          reachesLatch =
              std::find(loop.latches.begin(), loop.latches.end(), x) != loop.latches.end();
          for (const auto& e : cfg.successors(x))
            if (loop.contains(e.to) && seen.insert(e.to).second)
              work.push_back(e.to);
        }
        EXPECT_TRUE(reachesLatch);
      }
      // Nesting: the parent contains the loop, and depth counts the ancestors.
      if (loop.parent != Loop::kNoLoop) {
        const Loop& parent = loops.loops()[loop.parent];
        for (Node n : loop.nodes())
          EXPECT_TRUE(parent.contains(n));
        EXPECT_EQ(loop.depth, parent.depth + 1);
      } else {
        EXPECT_EQ(loop.depth, 1u);
      }
    }
    // Every back edge (target dominates source) has a loop headed by its target.
    for (Node n = 0; n < cfg.size(); ++n)
      for (const auto& e : cfg.successors(n))
        if (cfg.isReachable(n) && dom.dominates(e.to, n)) {
          ASSERT_NE(loops.loopFor(e.to), nullptr);
          bool found = false;
          for (const Loop& loop : loops.loops())
            found |= loop.header == e.to && loop.contains(n);
          EXPECT_TRUE(found);
        }
    if (HasFailure())
      return;
  }
}

} // namespace
} // namespace ocelot::test
