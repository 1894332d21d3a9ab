// Liveness per block and per instruction, and register pressure: the operand rules (guards,
// vectors, dual destinations, sinks, calls, unknown opcodes) by hand, and everything against a
// brute-force path search on random kernels.

#include "passes/Liveness.h"

#include "PassTestSupport.h"
#include "RandomPtx.h"
#include "passes/AnalysisManager.h"
#include "passes/RegisterPressure.h"

namespace ocelot::test {
namespace {

using passes::ControlFlowGraph;
using Node = ControlFlowGraph::Node;

/// Live-before sets of every instruction of `node`, as register names, by LiveScanner.
std::vector<std::set<std::string>> scannedLiveness(const ir::Function& f,
                                                   const passes::Liveness& liveness,
                                                   const ControlFlowGraph& cfg, Node node) {
  std::vector<const ir::Instruction*> instructions;
  cfg.block(node)->forEachInstruction(
      [&](const ir::Instruction& inst) { instructions.push_back(&inst); });
  std::vector<std::set<std::string>> result(instructions.size());
  passes::LiveScanner scan(liveness, node);
  for (size_t i = instructions.size(); i-- > 0;) {
    scan.step(*instructions[i]);
    scan.live().forEach([&](size_t id) {
      result[i].insert(f.registerName(liveness.numbering().ref(static_cast<uint32_t>(id))));
    });
  }
  return result;
}

std::set<std::string> liveInNames(const ir::Function& f, const passes::Liveness& liveness,
                                  Node node) {
  std::set<std::string> names;
  for (uint32_t id : liveness.liveIn(node))
    names.insert(f.registerName(liveness.numbering().ref(id)));
  return names;
}

struct Fixture {
  std::unique_ptr<ir::Module> module;
  passes::AnalysisManager am;
  ir::Function* f = nullptr;
  const ControlFlowGraph* cfg = nullptr;
  const passes::Liveness* liveness = nullptr;
  explicit Fixture(const std::string& text) : module(parseOrFail(text)) {
    if (!module)
      return;
    f = module->functions().back();
    cfg = &am.getResult<passes::ControlFlowGraphAnalysis>(*f);
    liveness = &am.getResult<passes::LivenessAnalysis>(*f);
  }
};

TEST(Liveness, GuardedWritesDoNotKill) {
  Fixture t(kernel(R"(
	mov.u32 %r1, 1;
	@%p1 bra $L_b;
$L_b:
	@%p2 mov.u32 %r1, 2;
	mov.u32 %r2, 3;
	add.s32 %r3, %r1, %r2;
	st.global.u32 [%rd1], %r3;
	ret;)"));
  ASSERT_TRUE(t.f);
  // %r1 is live into $L_b: the guarded write may not happen. %r2 is written first: not live.
  EXPECT_EQ(liveInNames(*t.f, *t.liveness, 1), (std::set<std::string>{"%p2", "%r1", "%rd1"}));
  auto perInstruction = scannedLiveness(*t.f, *t.liveness, *t.cfg, 1);
  EXPECT_EQ(perInstruction[0], (std::set<std::string>{"%p2", "%r1", "%rd1"}));
  EXPECT_EQ(perInstruction[2], (std::set<std::string>{"%r1", "%r2", "%rd1"}));
  EXPECT_EQ(perInstruction[3], (std::set<std::string>{"%r3", "%rd1"}));
}

TEST(Liveness, OperandShapes) {
  Fixture t(kernel(R"(
	ld.global.v4.f32 {%f1, %f2, _, %f4}, [%rd1];
	shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;
	setp.eq.s32 %p2|%p3, %r3, 0;
	mad.lo.s32 %r4, %r5, %r6, %r7;
	foo.bar %r8, %r9;
	st.global.v2.f32 [%rd2+8], {%f1, %f4};
	ret;)"));
  ASSERT_TRUE(t.f);
  auto live = scannedLiveness(*t.f, *t.liveness, *t.cfg, 0);
  // Before the load: its address, and everything read later and not written before.
  EXPECT_EQ(live[0], (std::set<std::string>{"%rd1", "%rd2", "%r2", "%r3", "%r5", "%r6", "%r7",
                                            "%r8", "%r9"}));
  // The unknown opcode may or may not write %r8: it stays live before it, and it reads both.
  EXPECT_EQ(live[4], (std::set<std::string>{"%f1", "%f4", "%rd2", "%r8", "%r9"}));
  // The sink `_` is no register; the vector store reads its elements.
  EXPECT_EQ(live[5], (std::set<std::string>{"%f1", "%f4", "%rd2"}));
}

TEST(Liveness, CallArgumentsAreParametersNotRegisters) {
  Fixture t(R"(.version 9.0
.target sm_90
.address_size 64
.extern .func (.param .b32 r) f(.param .b32 a);
.visible .entry k()
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<2>;
	{
	.param .b32 param0;
	st.param.b32 [param0], %r1;
	.param .b32 retval0;
	call.uni (retval0), f, (param0);
	ld.param.b32 %r2, [retval0];
	}
	call.uni %rd1, (param0);
	ret;
})");
  ASSERT_TRUE(t.f);
  auto live = scannedLiveness(*t.f, *t.liveness, *t.cfg, 0);
  EXPECT_EQ(live[0], (std::set<std::string>{"%r1", "%rd1"}));
  EXPECT_EQ(live[1], std::set<std::string>{"%rd1"}); // the call itself reads no register
}

TEST(Liveness, RegisterReturnValuesAreLiveAtTheExit) {
  Fixture t(R"(.version 9.0
.target sm_90
.address_size 64
.func (.reg .b32 out) f(.reg .b32 in)
{
	.reg .b32 %r<2>;
	add.s32 %r1, in, 1;
	mov.u32 out, %r1;
	ret;
})");
  ASSERT_TRUE(t.f);
  EXPECT_EQ(liveInNames(*t.f, *t.liveness, 0), std::set<std::string>{"in"});
  auto live = scannedLiveness(*t.f, *t.liveness, *t.cfg, 0);
  EXPECT_EQ(live[2], std::set<std::string>{"out"});
}

TEST(RegisterPressure, CountsUnitsAndPredicates) {
  Fixture t(kernel(R"(
	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, 1;
	mov.u32 %r2, 2;
	setp.lt.s32 %p1, %r1, %r2;
	selp.b32 %r3, %r1, %r2, %p1;
	st.global.u32 [%rd1], %r3;
	ret;)"));
  ASSERT_TRUE(t.f);
  const auto& pressure = t.am.getResult<passes::RegisterPressureAnalysis>(*t.f);
  // After setp: %rd1 (2 units), %r1, %r2 (1 each) and %p1.
  EXPECT_EQ(pressure.block(0).maxUnits, 4u);
  EXPECT_EQ(pressure.block(0).maxPredicates, 1u);
  EXPECT_EQ(pressure.function().maxUnits, 4u);
}

TEST(Liveness, RandomKernelsMatchBruteForce) {
  for (unsigned seed = 1; seed <= 200; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Fixture t(randomKernel(seed, 2 + seed % 12));
    ASSERT_TRUE(t.f);
    InstructionGraph graph(*t.cfg);
    const auto& numbering = t.liveness->numbering();
    for (Node n = 0; n < t.cfg->blockCount(); ++n) {
      auto live = scannedLiveness(*t.f, *t.liveness, *t.cfg, n);
      for (size_t i = 0; i < graph.of(n).size(); ++i)
        for (uint32_t id = 0; id < numbering.size(); ++id) {
          ir::RegisterRef reg = numbering.ref(id);
          bool expected = bruteForceLiveBefore(graph, Point{n, i}, reg, false);
          EXPECT_EQ(live[i].count(t.f->registerName(reg)) == 1, expected)
              << t.f->registerName(reg) << " before instruction " << i << " of " << t.cfg->name(n);
          if (i == 0) {
            EXPECT_EQ(t.liveness->isLiveIn(n, reg), expected);
          }
        }
      if (HasFailure())
        return;
    }
  }
}

} // namespace
} // namespace ocelot::test
