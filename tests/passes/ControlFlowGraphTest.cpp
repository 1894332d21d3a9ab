// The control-flow graph: edges of every kind of terminator, brx.idx tables, calls, scoped labels,
// unreachable blocks and malformed control flow.

#include "PassTestSupport.h"
#include "ir/IRBuilder.h"
#include "passes/AnalysisManager.h"
#include "passes/PassManager.h"
#include "passes/SplitBlocksAtCalls.h"

namespace ocelot::test {
namespace {

using passes::ControlFlowGraph;
using passes::EdgeKind;
using Node = ControlFlowGraph::Node;

/// "B1:branch B2:fallthrough" for the successors of `node`.
std::string successorsOf(const ControlFlowGraph& cfg, Node node) {
  std::string text;
  for (const auto& e : cfg.successors(node))
    text += (text.empty() ? "" : " ") + cfg.name(e.to) + ":" + std::string(edgeKindName(e.kind));
  return text;
}

TEST(ControlFlowGraph, StraightLineHasVirtualEntryAndExit) {
  auto module = parseOrFail(kernel("\tmov.u32 %r1, 1;\n\tret;"));
  ASSERT_TRUE(module);
  ControlFlowGraph cfg(*module->functions()[0]);
  ASSERT_EQ(cfg.blockCount(), 1u);
  EXPECT_EQ(successorsOf(cfg, cfg.entry()), "B0:fallthrough");
  EXPECT_EQ(successorsOf(cfg, 0), "exit:exit");
  EXPECT_EQ(cfg.predecessors(cfg.exit()).size(), 1u);
  EXPECT_TRUE(cfg.problems().empty());
  EXPECT_EQ(cfg.reversePostOrder(), (std::vector<Node>{cfg.entry(), 0, cfg.exit()}));
}

TEST(ControlFlowGraph, BranchesReturnsExitsAndTraps) {
  auto module = parseOrFail(kernel(R"(
	setp.eq.s32 %p1, %r1, 0;
	@%p1 bra $L_a;
	@!%p1 ret;
	@%p2 exit;
	bra.uni $L_b;
$L_a:
	@%p3 trap;
	exit;
$L_b:
	mov.u32 %r2, 1;)"));
  ASSERT_TRUE(module);
  ControlFlowGraph cfg(*module->functions()[0]);
  // B0: setp; @p bra | B1: @!p ret | B2: @p exit | B3: bra | B4: $L_a @p trap | B5: exit | B6: $L_b
  ASSERT_EQ(cfg.blockCount(), 7u);
  EXPECT_EQ(successorsOf(cfg, 0), "B4:branch B1:fallthrough");
  EXPECT_EQ(successorsOf(cfg, 1), "exit:exit B2:fallthrough");
  EXPECT_EQ(successorsOf(cfg, 2), "exit:exit B3:fallthrough");
  EXPECT_EQ(successorsOf(cfg, 3), "B6:branch");
  EXPECT_EQ(successorsOf(cfg, 4), "exit:exit B5:fallthrough");
  EXPECT_EQ(successorsOf(cfg, 5), "exit:exit");
  // The last block has no terminator: it falls off the end of the function.
  EXPECT_EQ(successorsOf(cfg, 6), "exit:exit");
  EXPECT_TRUE(cfg.unreachableBlocks().empty());
}

TEST(ControlFlowGraph, GuardedBranchToTheNextBlockIsOneEdge) {
  auto module = parseOrFail(kernel("\t@%p1 bra $L_next;\n$L_next:\n\tret;"));
  ASSERT_TRUE(module);
  ControlFlowGraph cfg(*module->functions()[0]);
  EXPECT_EQ(successorsOf(cfg, 0), "B1:branch");
  EXPECT_EQ(cfg.predecessors(1).size(), 1u);
}

TEST(ControlFlowGraph, BrxIdxReachesEveryTableTarget) {
  auto module = parseOrFail(kernel(R"(
	ts: .branchtargets $L_0, $L_1, $L_2, $L_1;
	ld.param.u32 %r1, [k_param_0];
	brx.idx %r1, ts;
$L_0:
	mov.u32 %r2, 0;
	bra.uni $L_end;
$L_1:
	mov.u32 %r2, 1;
	bra.uni $L_end;
$L_2:
	mov.u32 %r2, 2;
$L_end:
	ret;)"));
  ASSERT_TRUE(module);
  ControlFlowGraph cfg(*module->functions()[0]);
  EXPECT_EQ(successorsOf(cfg, 0), "B1:branch B2:branch B3:branch");
  EXPECT_TRUE(cfg.problems().empty());
  EXPECT_EQ(cfg.predecessors(4).size(), 3u);
}

TEST(ControlFlowGraph, CallsDoNotSplitBlocksUnlessAsked) {
  const std::string text = R"(.version 9.0
.target sm_90
.address_size 64
.func (.param .b32 r) f(.param .b32 a)
{
	.reg .b32 %r<2>;
	ld.param.b32 %r1, [a];
	st.param.b32 [r], %r1;
	ret;
}
.visible .entry k()
{
	.reg .b32 %r<4>;
	mov.u32 %r1, 1;
	{
	.param .b32 param0;
	st.param.b32 [param0], %r1;
	.param .b32 retval0;
	call.uni (retval0), f, (param0);
	ld.param.b32 %r2, [retval0];
	}
	add.s32 %r3, %r2, 1;
	ret;
})";
  auto module = parseOrFail(text);
  ASSERT_TRUE(module);
  ir::Function& k = *module->findFunction("k");
  EXPECT_EQ(ControlFlowGraph(k).blockCount(), 1u);

  passes::PassManager manager;
  manager.add<passes::SplitBlocksAtCalls>();
  passes::AnalysisManager analyses;
  auto result = manager.run(*module, analyses);
  ASSERT_TRUE(result.ok) << result.error;
  ControlFlowGraph split(k);
  ASSERT_EQ(split.blockCount(), 2u);
  EXPECT_EQ(successorsOf(split, 0), "B1:fallthrough");
  EXPECT_TRUE(split.block(0)->terminator() == nullptr); // ends with the call, not a terminator
  EXPECT_TRUE(runPtxas(ir::emitPtx(*module), "sm_90").ok());
}

TEST(ControlFlowGraph, LabelsOfInlineAsmScopesResolvePerScope) {
  // Two inline-asm scopes each define DONE; each branch goes to the DONE of its own scope.
  auto module = parseOrFail(kernel(R"(
	{
	.reg .pred q;
	setp.gt.u32 q, %r1, 10;
	@q bra DONE;
	mov.u32 %r2, 1;
DONE:
	}
	{
	.reg .pred q;
	setp.gt.u32 q, %r1, 3;
	@q bra DONE;
	mov.u32 %r2, 7;
DONE:
	}
	ret;)"));
  ASSERT_TRUE(module);
  ControlFlowGraph cfg(*module->functions()[0]);
  // B0: { setp @q bra | B1: mov | B2: DONE: } { setp @q bra | B3: mov | B4: DONE: } ret
  ASSERT_EQ(cfg.blockCount(), 5u);
  EXPECT_EQ(successorsOf(cfg, 0), "B2:branch B1:fallthrough");
  EXPECT_EQ(successorsOf(cfg, 2), "B4:branch B3:fallthrough");
  EXPECT_EQ(successorsOf(cfg, 4), "exit:exit");
}

TEST(ControlFlowGraph, UnreachableBlocksStayAndAreReported) {
  auto module = parseOrFail(kernel(R"(
	bra.uni $L_end;
	mov.u32 %r1, 1;
$L_dead:
	mov.u32 %r2, 2;
	bra.uni $L_dead;
$L_end:
	ret;)"));
  ASSERT_TRUE(module);
  ControlFlowGraph cfg(*module->functions()[0]);
  ASSERT_EQ(cfg.blockCount(), 4u);
  EXPECT_EQ(cfg.unreachableBlocks(), (std::vector<Node>{1, 2}));
  EXPECT_FALSE(cfg.isReachable(1));
  EXPECT_TRUE(cfg.isReachable(3));
  EXPECT_EQ(successorsOf(cfg, 2), "B2:branch"); // still has its edges
}

TEST(ControlFlowGraph, MalformedControlFlowIsAProblemNotACrash) {
  auto module = parseOrFail(kernel("\tmov.u32 %r1, 1;\n\tret;"));
  ASSERT_TRUE(module);
  ir::Function& f = *module->functions()[0];
  ir::IRBuilder builder(f);
  // A return in the middle of the block, then a branch to a label that does not exist.
  builder.atStart(*f.blocks()[0]).insert("ret", {});
  builder.at(*f.blocks()[0], f.blocks()[0]->statements().size())
      .insert("bra", {ir::LabelOperand{999}});
  ControlFlowGraph cfg(f);
  ASSERT_EQ(cfg.problems().size(), 3u); // two misplaced terminators, one unknown target
  EXPECT_NE(cfg.problems()[0].message.find("not the last instruction"), std::string::npos);
  EXPECT_NE(cfg.problems()[2].message.find("not a label"), std::string::npos);
}

TEST(ControlFlowGraph, EmptyBodyGoesFromEntryToExit) {
  auto module = parseOrFail(".version 9.0\n.target sm_90\n.address_size 64\n"
                            ".visible .entry k()\n{\n}\n");
  ASSERT_TRUE(module);
  ControlFlowGraph cfg(*module->functions()[0]);
  EXPECT_EQ(cfg.blockCount(), 0u);
  EXPECT_EQ(successorsOf(cfg, cfg.entry()), "exit:fallthrough");
}

} // namespace
} // namespace ocelot::test
