// SSA construction and destruction: φ placement, ties for guarded writes, critical edges, inline
// asm scopes, parallel copies; round trips checked three ways: SSA validity, what the program
// computes (interpreted before and after), and ptxas accepting the result.

#include "PassTestSupport.h"
#include "RandomPtx.h"
#include "SsaTestSupport.h"
#include "ir/Verifier.h"
#include "passes/AnalysisManager.h"
#include "passes/ParallelCopy.h"
#include "passes/SsaForm.h"

namespace ocelot::test {
namespace {

struct RoundTrip {
  std::string ptx;                    ///< the emitted result
  std::vector<passes::SsaForm> forms; ///< statistics of each function's SSA form (emptied)
  size_t phis = 0, ties = 0, copies = 0, splitEdges = 0;
};

/// To SSA and back for every function of `module`, checking the SSA form and the verifier.
RoundTrip roundTrip(ir::Module& module) {
  RoundTrip result;
  passes::AnalysisManager am;
  for (ir::Function* f : module.functions()) {
    if (!f->hasBody())
      continue;
    passes::SsaForm form = passes::toSsa(*f, am);
    for (const auto& problem : ssaProblems(*f, form))
      ADD_FAILURE() << f->name() << ": " << problem;
    result.phis += form.phiCount();
    result.ties += form.ties.size();
    auto destruction = passes::fromSsa(form, am);
    EXPECT_TRUE(destruction.ok) << destruction.error;
    result.copies += destruction.copies;
    result.splitEdges += destruction.splitEdges;
    for (const auto& d : ir::verifyFunction(*f))
      if (d.severity == ir::VerifierDiagnostic::Severity::Error)
        ADD_FAILURE() << d.format();
  }
  result.ptx = ir::emitPtx(module);
  return result;
}

TEST(Ssa, LoopCounterGetsAPhi) {
  auto module = parseOrFail(kernel(R"(
	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, 0;
$L_loop:
	add.s32 %r1, %r1, 1;
	setp.lt.s32 %p1, %r1, 10;
	@%p1 bra $L_loop;
	st.global.u32 [%rd1], %r1;
	ret;)"));
  ASSERT_TRUE(module);
  ir::Function& f = *module->functions()[0];
  Trace before = interpret(f);
  passes::AnalysisManager am;
  passes::SsaForm form = passes::toSsa(f, am);
  EXPECT_TRUE(ssaProblems(f, form).empty());
  ASSERT_EQ(form.phis.size(), 1u);
  ASSERT_EQ(form.phis[0].second.size(), 1u);
  const passes::SsaPhi& phi = form.phis[0].second[0];
  EXPECT_EQ(f.registerName(phi.variable), "%r1");
  ASSERT_EQ(phi.incoming.size(), 2u);
  EXPECT_TRUE(phi.incoming[0].value && phi.incoming[1].value);
  EXPECT_EQ(form.ties.size(), 0u);
  auto destruction = passes::fromSsa(form, am);
  ASSERT_TRUE(destruction.ok) << destruction.error;
  // The loop is one block that branches to itself and falls out: its back edge is critical.
  EXPECT_EQ(destruction.splitEdges, 1u);
  std::string text = ir::emitPtx(*module);
  EXPECT_NE(text.find("%r_ssa"), std::string::npos);
  auto reparsed = parseOrFail(text);
  ASSERT_TRUE(reparsed);
  Trace after = interpret(*reparsed->functions()[0]);
  EXPECT_EQ(after.stores, before.stores);
  EXPECT_EQ(before.stores, (std::vector<std::pair<uint64_t, uint64_t>>{{0, 10}}));
  auto ptxas = runPtxas(text, "sm_90");
  EXPECT_TRUE(ptxas.ok()) << ptxas.output << text;
}

TEST(Ssa, GuardedWriteIsTiedToTheOldValue) {
  auto module = parseOrFail(kernel(R"(
	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, 3;
	setp.ne.s32 %p1, %r1, 0;
	@%p1 add.s32 %r1, %r1, 4;
	@!%p1 mov.u32 %r1, 9;
	st.global.u32 [%rd1], %r1;
	ret;)"));
  ASSERT_TRUE(module);
  ir::Function& f = *module->functions()[0];
  Trace before = interpret(f);
  passes::AnalysisManager am;
  passes::SsaForm form = passes::toSsa(f, am);
  EXPECT_TRUE(ssaProblems(f, form).empty());
  EXPECT_EQ(form.ties.size(), 2u);
  auto destruction = passes::fromSsa(form, am);
  ASSERT_TRUE(destruction.ok);
  EXPECT_EQ(destruction.copies, 2u);
  std::string text = ir::emitPtx(*module);
  auto reparsed = parseOrFail(text);
  ASSERT_TRUE(reparsed);
  EXPECT_EQ(interpret(*reparsed->functions()[0]).stores, before.stores);
  EXPECT_EQ(before.stores, (std::vector<std::pair<uint64_t, uint64_t>>{{0, 7}}));
  EXPECT_TRUE(runPtxas(text, "sm_90").ok());
}

TEST(Ssa, CriticalEdgesAreSplit) {
  // B0 -> B2 is critical (B0 has two successors, B2 two predecessors) by a branch; B3 -> B4 by
  // falling through.
  auto module = parseOrFail(kernel(R"(
	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, 1;
	setp.lt.s32 %p1, %r2, 5;
	@%p1 bra $L_join;
	mov.u32 %r1, 2;
$L_join:
	add.s32 %r2, %r2, %r1;
	setp.lt.s32 %p2, %r2, 20;
	@%p2 bra $L_join;
	st.global.u32 [%rd1], %r2;
	ret;)"));
  ASSERT_TRUE(module);
  Trace before = interpret(*module->functions()[0]);
  RoundTrip result = roundTrip(*module);
  EXPECT_GE(result.splitEdges, 1u);
  auto reparsed = parseOrFail(result.ptx);
  ASSERT_TRUE(reparsed);
  EXPECT_EQ(interpret(*reparsed->functions()[0]).stores, before.stores);
  auto ptxas = runPtxas(result.ptx, "sm_90");
  EXPECT_TRUE(ptxas.ok()) << ptxas.output << result.ptx;
}

TEST(Ssa, BrxIdxCriticalEdgeUsesACopyOfTheTable) {
  auto module = parseOrFail(kernel(R"(
	ts: .branchtargets $L_0, $L_1, $L_join;
	ld.param.u64 %rd1, [k_param_0];
	ld.global.u32 %r1, [%rd1];
	mov.u32 %r2, 5;
	brx.idx %r1, ts;
$L_0:
	mov.u32 %r2, 6;
	bra.uni $L_join;
$L_1:
	mov.u32 %r2, 7;
$L_join:
	st.global.u32 [%rd1], %r2;
	ret;)"));
  ASSERT_TRUE(module);
  RoundTrip result = roundTrip(*module);
  EXPECT_EQ(result.splitEdges, 1u);
  EXPECT_NE(result.ptx.find("ts_ocl0: .branchtargets"), std::string::npos) << result.ptx;
  auto ptxas = runPtxas(result.ptx, "sm_90");
  EXPECT_TRUE(ptxas.ok()) << ptxas.output << result.ptx;
}

TEST(Ssa, InlineAsmScopesAreLeftAlone) {
  auto module = parseOrFail(kernel(R"(
	ld.param.u64 %rd1, [k_param_0];
	ld.global.u32 %r1, [%rd1];
	{
	.reg .pred q;
	.reg .u32 t;
	setp.gt.u32 q, %r1, 10;
	mov.u32 %r2, 1;
	@q bra DONE;
	add.u32 t, %r1, 1;
	mov.u32 %r2, t;
DONE:
	}
	st.global.u32 [%rd1], %r2;
	ret;)"));
  ASSERT_TRUE(module);
  ir::Function& f = *module->functions()[0];
  passes::AnalysisManager am;
  passes::SsaForm form = passes::toSsa(f, am);
  EXPECT_TRUE(ssaProblems(f, form).empty());
  // %r2 would need a φ at DONE, a label inside the scope: it is not renamed. q and t are scoped.
  EXPECT_TRUE(form.phis.empty());
  EXPECT_EQ(form.excludedVariables, 3u);
  auto destruction = passes::fromSsa(form, am);
  ASSERT_TRUE(destruction.ok);
  std::string text = ir::emitPtx(*module);
  EXPECT_NE(text.find("setp.gt.u32 \tq, %r_ssa"), std::string::npos) << text;
  EXPECT_NE(text.find("mov.u32 \t%r2, t;"), std::string::npos) << text;
  auto ptxas = runPtxas(text, "sm_90");
  EXPECT_TRUE(ptxas.ok()) << ptxas.output << text;
}

TEST(Ssa, RandomKernelsComputeTheSameAndAssemble) {
  size_t assembled = 0, phis = 0, splits = 0;
  for (unsigned seed = 1; seed <= 300; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    auto module = parseOrFail(randomKernel(seed, 2 + seed % 16));
    ASSERT_TRUE(module);
    Trace before = interpret(*module->functions()[0]);
    ASSERT_TRUE(before.error.empty()) << before.error;
    RoundTrip result = roundTrip(*module);
    phis += result.phis;
    splits += result.splitEdges;
    auto reparsed = parseOrFail(result.ptx);
    ASSERT_TRUE(reparsed);
    Trace after = interpret(*reparsed->functions()[0]);
    ASSERT_TRUE(after.error.empty()) << after.error;
    // Runs cut short by the step limit compare on the stores both made.
    size_t common = std::min(before.stores.size(), after.stores.size());
    if (before.returned && after.returned)
      EXPECT_EQ(after.stores, before.stores);
    else
      EXPECT_TRUE(
          std::equal(before.stores.begin(), before.stores.begin() + common, after.stores.begin()));
    EXPECT_EQ(after.returned, before.returned);
    // ptxas is the slow part: every tenth kernel.
    if (seed % 10 == 0) {
      auto ptxas = runPtxas(result.ptx, "sm_90");
      EXPECT_TRUE(ptxas.ok()) << ptxas.output << result.ptx;
      ++assembled;
    }
    if (HasFailure())
      return;
  }
  EXPECT_EQ(assembled, 30u);
  EXPECT_GT(phis, 100u); // the kernels do exercise φs and split edges
  EXPECT_GT(splits, 10u);
}

// --- Parallel copies ---------------------------------------------------------------------------

/// Runs `copies` one after another on registers that start out holding their own index.
std::map<uint32_t, uint32_t> simulate(const std::vector<passes::Copy>& copies) {
  std::map<uint32_t, uint32_t> value;
  for (uint32_t r = 0; r < 32; ++r)
    value[r] = r;
  for (const auto& c : copies)
    value[c.destination.index] = value[c.source.index];
  return value;
}

TEST(ParallelCopy, SequencesHaveTheParallelMeaning) {
  auto ref = [](uint32_t i) { return ir::RegisterRef{0, i}; };
  uint32_t nextTemporary = 20;
  auto temporary = [&](ir::RegisterRef) { return ref(nextTemporary++); };
  std::vector<std::vector<passes::Copy>> cases = {
      {{ref(1), ref(2)}, {ref(2), ref(1)}},                   // swap
      {{ref(1), ref(2)}, {ref(2), ref(3)}, {ref(3), ref(1)}}, // rotation
      {{ref(1), ref(2)}, {ref(2), ref(3)}, {ref(3), ref(4)}}, // chain
      {{ref(1), ref(1)}, {ref(2), ref(1)}},                   // self copy and fan-out
      {{ref(1), ref(2)}, {ref(2), ref(1)}, {ref(3), ref(1)}, {ref(4), ref(3)}},
  };
  for (const auto& parallel : cases) {
    std::map<uint32_t, uint32_t> expected = simulate({});
    for (const auto& c : parallel)
      expected[c.destination.index] = c.source.index;
    auto sequence = passes::sequentializeParallelCopy(parallel, temporary);
    auto actual = simulate(sequence);
    for (uint32_t r = 0; r < 20; ++r)
      EXPECT_EQ(actual[r], expected[r]) << "register " << r;
  }
}

} // namespace
} // namespace ocelot::test
