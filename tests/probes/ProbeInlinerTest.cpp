// passes/ProbeInliner on hand-written probe modules (in the shape nvcc -rdc=true -ptx gives them):
// what it accepts and refuses, and what inlining keeps of the application's code.

#include "passes/ProbeInliner.h"

#include "ir/Casting.h"
#include "ir/Emitter.h"
#include "ir/Parser.h"
#include "ir/RegisterAccess.h"
#include "ir/Verifier.h"
#include "passes/AnalysisManager.h"
#include "tests/instrumentors/InstrumentorTestSupport.h"

#include <gtest/gtest.h>

#include <set>

namespace ocelot::passes {
namespace {

constexpr const char* kHeader = ".version 9.0\n.target sm_75\n.address_size 64\n";

/// A probe with an intrinsic call sequence, a branch and a store (the shape of nvcc's output).
constexpr const char* kProbeModule = R"(
.extern .func (.param .b64 func_retval0) __test_base
(
	.param .b32 __test_base_param_0
)
;
.extern .func (.param .b32 func_retval0) __test_value
()
;
.visible .func probe()
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<3>;

	// begin inline asm
	activemask.b32 %r1;
	// end inline asm
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b32 retval0;
	call.uni (retval0),
	__test_value,
	(
	);
	ld.param.b32 	%r2, [retval0+0];
	} // callseq 0
	setp.eq.s32 	%p1, %r2, 0;
	@%p1 bra 	$L__BB0_2;
	{ // callseq 1, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 	[param0+0], 1234;
	.param .b64 retval0;
	call.uni (retval0),
	__test_base,
	(
	param0
	);
	ld.param.b64 	%rd1, [retval0+0];
	} // callseq 1
	st.u32 	[%rd1+8], %r1;
$L__BB0_2:
	ret;
}

.visible .func straight()
{
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<2>;
	activemask.b32 %r1;
	popc.b32 	%r2, %r1;
	{ // callseq 2, 0
	.param .b32 param0;
	st.param.b32 	[param0+0], 1234;
	.param .b64 retval0;
	call.uni (retval0),
	__test_base,
	(
	param0
	);
	ld.param.b64 	%rd1, [retval0+0];
	} // callseq 2
	st.u32 	[%rd1], %r2;
	ret;
}

.visible .func unread()
{
	.reg .b32 	%r<3>;
	.reg .pred 	%p<2>;
	{ // callseq 3, 0
	.param .b32 retval0;
	call.uni (retval0),
	__test_value,
	(
	);
	ld.param.b32 	%r1, [retval0+0];
	} // callseq 3
	setp.eq.s32 	%p1, %r1, 1;
	@%p1 bra 	$L__BB3_2;
	popc.b32 	%r2, %r1;
$L__BB3_2:
	ret;
}

.visible .func nothing()
{
	ret;
}
)";

/// The application: a guarded store, and an inline-asm scope.
constexpr const char* kTarget = R"(
.visible .entry app(
	.param .u64 app_param_0
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<5>;
	.reg .b64 	%rd<3>;

	ld.param.u64 	%rd1, [app_param_0];
	mov.u32 	%r1, %tid.x;
	setp.lt.u32 	%p1, %r1, 16;
	@%p1 st.global.u32 	[%rd1], %r1;
	{
	.reg .b32 t;
	mov.u32 	t, %r1;
	add.u32 	%r2, t, 1;
	}
	st.global.u32 	[%rd1+4], %r2;
	ret;
}
)";

bool intrinsic(std::string_view name) {
  return name.starts_with("__test_");
}

std::unique_ptr<ir::Module> parse(const std::string& text) {
  ir::ParseResult parsed = ir::parsePtx(text, "test");
  EXPECT_TRUE(parsed.ok()) << parsed.firstError();
  return std::move(parsed.module);
}

/// Hooks of the tests: constants for the intrinsics, a write check that records its calls.
class TestHooks final : public InlineHooks {
public:
  void beginInstance(ir::IRBuilder&) override { ++instances; }
  void expandIntrinsic(ir::IRBuilder& b, const IntrinsicCall& call) override {
    calls.push_back(std::string(call.name));
    if (!call.result)
      return;
    if (call.name == "__test_base") {
      ASSERT_EQ(call.arguments.size(), 1u);
      EXPECT_EQ(call.arguments[0].as<ir::ImmediateOperand>().integerValue(), 1234);
      b.insert("mov.u64", {ir::IRBuilder::reg(*call.result), ir::IRBuilder::imm(4096)});
    } else {
      b.insert("mov.u32", {ir::IRBuilder::reg(*call.result), ir::IRBuilder::imm(1)});
    }
  }
  std::optional<ir::RegisterRef> guardWrite(ir::IRBuilder& b, ir::RegisterRef address,
                                            std::optional<std::pair<uint64_t, uint64_t>>) override {
    ++writes;
    return b.compare("ne", ir::ScalarType::U64, ir::IRBuilder::reg(address), ir::IRBuilder::imm(0));
  }
  int instances = 0, writes = 0;
  std::vector<std::string> calls;
};

/// The application's instructions (text of each, in order), leaving out the inlined ones.
std::vector<std::string> applicationInstructions(const ir::Function& f) {
  std::vector<std::string> out;
  for (const auto& block : f.blocks())
    block->forEachInstruction([&](const ir::Instruction& inst) {
      std::string text = std::string(inst.form().spelling());
      bool inlined = false;
      for (const auto& op : inst.operands())
        ir::forEachRegister(op, [&](const ir::RegisterOperand& r) {
          inlined = inlined || f.registerName(r.reg).starts_with("%ocl");
        });
      if (const auto& g = inst.guard())
        inlined = inlined || f.registerName(g->predicate).starts_with("%ocl");
      if (inst.operands().size() == 1 && inst.operands()[0].is<ir::LabelOperand>())
        inlined =
            inlined ||
            f.labels()[inst.operands()[0].as<ir::LabelOperand>().label].name.starts_with("$L__ocp");
      if (!inlined)
        out.push_back(text + " " + std::to_string(inst.operands().size()));
    });
  return out;
}

TEST(ProbeInliner, PreparesIntrinsicCallsBranchesAndWrites) {
  auto module = parse(std::string(kHeader) + kProbeModule);
  InlineTemplate t = InlineTemplate::prepare(*module->findFunction("probe"), intrinsic);
  EXPECT_EQ(t.name(), "probe");
  EXPECT_FALSE(t.empty());
  EXPECT_FALSE(t.straightLine());
  EXPECT_TRUE(t.writesMemory());
  EXPECT_TRUE(t.calls("__test_base"));
  EXPECT_TRUE(t.calls("__test_value"));
  EXPECT_GT(t.registerPressure(), 0u);
  InlineTemplate straight = InlineTemplate::prepare(*module->findFunction("straight"), intrinsic);
  EXPECT_TRUE(straight.straightLine());
  EXPECT_TRUE(straight.writesMemory());
  EXPECT_TRUE(InlineTemplate::prepare(*module->findFunction("nothing"), intrinsic).empty());
}

TEST(ProbeInliner, InlinesBeforeAGuardedInstructionForItsLanesOnly) {
  auto probes = parse(std::string(kHeader) + kProbeModule);
  InlineTemplate t = InlineTemplate::prepare(*probes->findFunction("probe"), intrinsic);
  auto target = parse(std::string(kHeader) + kTarget);
  ir::Function& app = *target->findFunction("app");
  std::vector<std::string> before = applicationInstructions(app);
  size_t blocksBefore = app.blocks().size();
  std::set<const ir::Instruction*> original;
  for (const auto& b : app.blocks())
    b->forEachInstruction([&](const ir::Instruction& inst) { original.insert(&inst); });

  AnalysisManager analyses;
  ProbeInliner inliner(app, &analyses);
  TestHooks hooks;
  // Before the guarded store (statement 3 of the only block after the declarations).
  ir::BasicBlock& block = *app.blocks().front();
  size_t index = 0;
  const ir::Instruction* guarded = nullptr;
  for (size_t i = 0; i < block.statements().size(); ++i)
    if (const auto* inst = ir::dyn_cast<ir::Instruction>(block.statements()[i].get()))
      if (inst->guard() && guarded == nullptr) {
        guarded = inst;
        index = i;
      }
  ASSERT_NE(guarded, nullptr);
  ir::BasicBlock& rest = inliner.inlineAt(t, block, index, guarded->guard(), hooks);
  EXPECT_NE(&rest, &block);
  EXPECT_EQ(rest.statements().size() > 1 ? rest.statements()[1].get() : nullptr, guarded);
  EXPECT_GT(app.blocks().size(), blocksBefore);
  EXPECT_EQ(hooks.instances, 1);
  EXPECT_EQ(hooks.writes, 1);
  EXPECT_EQ(hooks.calls, (std::vector<std::string>{"__test_value", "__test_base"}));
  EXPECT_EQ(inliner.instances(), 1u);
  EXPECT_GT(inliner.registerUnits(), 0u);

  // The application's instructions are all there, unchanged and in order.
  EXPECT_EQ(applicationInstructions(app), before);
  // The lanes whose guard is false skip the probe: `@!%p1 bra` to the continuation.
  bool skips = false;
  for (const auto& s : block.statements())
    if (const auto* inst = ir::dyn_cast<ir::Instruction>(s.get()))
      skips =
          skips || (inst->form().opcode() == ir::Opcode::Bra && inst->guard() &&
                    inst->guard()->negated && app.registerName(inst->guard()->predicate) == "%p1");
  EXPECT_TRUE(skips);
  // Inlined code writes fresh registers only.
  for (const auto& b : app.blocks())
    b->forEachInstruction([&](const ir::Instruction& inst) {
      if (original.contains(&inst))
        return;
      ir::forEachRegisterAccess(inst, [&](ir::RegisterRef ref, const ir::RegisterAccess& access) {
        if (access.written) {
          EXPECT_TRUE(app.registerName(ref).starts_with("%ocl")) << app.registerName(ref);
        }
      });
    });
  auto diagnostics = ir::verifyModule(*target);
  EXPECT_FALSE(ir::hasErrors(diagnostics)) << (diagnostics.empty() ? "" : diagnostics[0].format());
  test::PtxasRun run = test::runPtxas(ir::emitPtx(*target), "sm_90");
  if (run.ran) {
    EXPECT_EQ(run.status, 0) << run.output << ir::emitPtx(*target);
  }
}

TEST(ProbeInliner, InstancesShareRegistersAndGetTheirOwnLabels) {
  auto probes = parse(std::string(kHeader) + kProbeModule);
  InlineTemplate t = InlineTemplate::prepare(*probes->findFunction("probe"), intrinsic);
  auto target = parse(std::string(kHeader) + kTarget);
  ir::Function& app = *target->findFunction("app");
  AnalysisManager analyses;
  ProbeInliner inliner(app, &analyses);
  TestHooks hooks;
  inliner.inlineAt(t, *app.blocks().front(), ir::IRBuilder::startIndex(*app.blocks().front()),
                   std::nullopt, hooks);
  uint32_t units = inliner.registerUnits();
  size_t labels = app.labels().size();
  ir::BasicBlock& last = *app.blocks().back();
  inliner.inlineAt(t, last, ir::IRBuilder::endIndex(last), std::nullopt, hooks);
  EXPECT_EQ(inliner.registerUnits(), units); // the second instance reuses the first's registers
  EXPECT_GT(app.labels().size(), labels);    // but not its labels
  std::set<std::string_view> names;
  for (const auto& label : app.labels())
    EXPECT_TRUE(names.insert(label.name).second) << label.name;
  EXPECT_FALSE(ir::hasErrors(ir::verifyModule(*target)));
  test::PtxasRun run = test::runPtxas(ir::emitPtx(*target), "sm_90");
  if (run.ran) {
    EXPECT_EQ(run.status, 0) << run.output;
  }
}

TEST(ProbeInliner, StraightLineProbesDoNotSplitAndKeepTheScopeOfTheirPoint) {
  auto probes = parse(std::string(kHeader) + kProbeModule);
  InlineTemplate t = InlineTemplate::prepare(*probes->findFunction("straight"), intrinsic);
  auto target = parse(std::string(kHeader) + kTarget);
  ir::Function& app = *target->findFunction("app");
  ir::BasicBlock& block = *app.blocks().front();
  // Inside the inline-asm scope: before `add.u32 %r2, t, 1`.
  size_t index = 0;
  ir::ScopeId scope = 0;
  for (size_t i = 0; i < block.statements().size(); ++i)
    if (const auto* inst = ir::dyn_cast<ir::Instruction>(block.statements()[i].get()))
      if (inst->form().opcode() == ir::Opcode::Add) {
        index = i;
        scope = inst->scope();
      }
  ASSERT_NE(scope, 0u);
  size_t blocks = app.blocks().size();
  AnalysisManager analyses;
  ProbeInliner inliner(app, &analyses);
  TestHooks hooks;
  ir::BasicBlock& rest = inliner.inlineAt(t, block, index, std::nullopt, hooks);
  EXPECT_EQ(&rest, &block);
  EXPECT_EQ(app.blocks().size(), blocks);
  (void)index;
  const ir::Instruction* popc = nullptr;
  block.forEachInstruction([&](const ir::Instruction& inst) {
    if (inst.form().opcode() == ir::Opcode::Popc)
      popc = &inst;
  });
  ASSERT_NE(popc, nullptr);
  EXPECT_EQ(popc->scope(), scope);
  EXPECT_FALSE(ir::hasErrors(ir::verifyModule(*target)));
}

/// A store under `!constant && runtime` (nvcc: `or.pred` of the negations) and one under
/// `constant || runtime`: a site constant decides each whatever the run-time operand is.
constexpr const char* kPredicateLogicProbe = R"(
.extern .func (.param .b32 func_retval0) __test_value
()
;
.visible .func logic()
{
	.reg .pred 	%p<8>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<2>;
	activemask.b32 %r1;
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b32 retval0;
	call.uni (retval0),
	__test_value,
	(
	);
	ld.param.b32 	%r2, [retval0+0];
	} // callseq 0
	setp.ne.s32 	%p1, %r2, 0;
	setp.eq.s32 	%p2, %r1, -1;
	or.pred 	%p3, %p1, %p2;
	@%p3 bra 	$L__BB0_2;
	mov.u64 	%rd1, 0;
	st.u32 	[%rd1], %r1;
$L__BB0_2:
	not.pred 	%p4, %p1;
	and.pred 	%p5, %p4, %p2;
	xor.pred 	%p6, %p5, %p2;
	@%p6 bra 	$L__BB0_4;
	mov.u64 	%rd1, 8;
	st.u32 	[%rd1], %r1;
$L__BB0_4:
	ret;
}
)";

TEST(ProbeInliner, SiteConstantsDecidePredicateLogicWithRunTimeOperands) {
  auto probes = parse(std::string(kHeader) + kPredicateLogicProbe);
  class Hooks final : public InlineHooks {
  public:
    void expandIntrinsic(ir::IRBuilder& b, const IntrinsicCall& call) override {
      if (call.result)
        b.insert("mov.u32", {ir::IRBuilder::reg(*call.result), ir::IRBuilder::imm(int64_t(value))});
    }
    std::optional<uint64_t> constant(const IntrinsicCall&) override { return value; }
    std::optional<ir::RegisterRef>
    guardWrite(ir::IRBuilder&, ir::RegisterRef,
               std::optional<std::pair<uint64_t, uint64_t>>) override {
      return std::nullopt;
    }
    uint64_t value = 0;
  };
  for (uint64_t value : {0, 1}) {
    SCOPED_TRACE(value);
    InlineTemplate t = InlineTemplate::prepare(*probes->findFunction("logic"), intrinsic);
    auto target = parse(std::string(kHeader) + kTarget);
    ir::Function& app = *target->findFunction("app");
    AnalysisManager analyses;
    ProbeInliner inliner(app, &analyses);
    Hooks hooks;
    hooks.value = value;
    inliner.inlineAt(t, *app.blocks().front(), ir::IRBuilder::startIndex(*app.blocks().front()),
                     std::nullopt, hooks);
    // value 1: `or` is true, no first store; `and` is false, so the xor is the run-time operand:
    // the second store stays behind a branch. value 0: neither is decided, both stores stay.
    size_t stores = 0, ors = 0, branches = 0;
    for (const auto& b : app.blocks())
      b->forEachInstruction([&](const ir::Instruction& inst) {
        stores += inst.form().opcode() == ir::Opcode::St &&
                  inst.form().stateSpace() == ir::StateSpace::Generic;
        ors += inst.form().opcode() == ir::Opcode::Or;
        branches += inst.form().opcode() == ir::Opcode::Bra;
      });
    EXPECT_EQ(stores, value == 1 ? 1u : 2u);
    EXPECT_EQ(ors, value == 1 ? 0u : 1u); // decided: left out with its branch
    EXPECT_EQ(branches, value == 1 ? 1u : 2u);
  }
}

TEST(ProbeInliner, ConstantIntrinsicsFoldBranchesAndUnreadCodeIsLeftOut) {
  auto probes = parse(std::string(kHeader) + kProbeModule);
  // `probe`: __test_value is 1 here, so the store's branch is never taken... by the hooks'
  // constant; `unread`: whatever the branch, nothing reads popc's result.
  class ConstantHooks final : public InlineHooks {
  public:
    void expandIntrinsic(ir::IRBuilder& b, const IntrinsicCall& call) override {
      expanded.push_back(std::string(call.name));
      if (call.result)
        b.insert(call.name == "__test_base" ? "mov.u64" : "mov.u32",
                 {ir::IRBuilder::reg(*call.result),
                  ir::IRBuilder::imm(call.name == "__test_base" ? 4096 : 1)});
    }
    std::optional<uint64_t> constant(const IntrinsicCall& call) override {
      if (call.name == "__test_value")
        return value;
      return std::nullopt;
    }
    std::optional<uint64_t> bufferOffset(const IntrinsicCall& call) override {
      if (call.name == "__test_base")
        return 64;
      return std::nullopt;
    }
    std::optional<ir::RegisterRef>
    guardWrite(ir::IRBuilder& b, ir::RegisterRef address,
               std::optional<std::pair<uint64_t, uint64_t>> range) override {
      bytes = range;
      return b.compare("ne", ir::ScalarType::U64, ir::IRBuilder::reg(address),
                       ir::IRBuilder::imm(0));
    }
    uint64_t value = 0;
    std::vector<std::string> expanded;
    std::optional<std::pair<uint64_t, uint64_t>> bytes;
  };
  for (uint64_t value : {0, 1}) {
    SCOPED_TRACE(value);
    InlineTemplate t = InlineTemplate::prepare(*probes->findFunction("probe"), intrinsic);
    auto target = parse(std::string(kHeader) + kTarget);
    ir::Function& app = *target->findFunction("app");
    size_t blocks = app.blocks().size();
    AnalysisManager analyses;
    ProbeInliner inliner(app, &analyses);
    ConstantHooks hooks;
    hooks.value = value;
    inliner.inlineAt(t, *app.blocks().front(), ir::IRBuilder::startIndex(*app.blocks().front()),
                     std::nullopt, hooks);
    // value 0: `setp.eq %r2, 0` holds, the branch around the store is always taken: no store.
    // value 1: never taken: the store runs, straight line, no split; its bytes are known.
    size_t stores = 0;
    for (const auto& b : app.blocks())
      b->forEachInstruction([&](const ir::Instruction& inst) {
        stores += inst.form().opcode() == ir::Opcode::St &&
                  inst.form().stateSpace() == ir::StateSpace::Generic;
      });
    EXPECT_EQ(stores, value == 0 ? 0u : 1u);
    EXPECT_EQ(app.blocks().size(), blocks); // no branch left: no split
    EXPECT_EQ(hooks.expanded,
              value == 0 ? std::vector<std::string>{} : std::vector<std::string>{"__test_base"});
    if (value == 1) {
      ASSERT_TRUE(hooks.bytes);
      EXPECT_EQ(*hooks.bytes, (std::pair<uint64_t, uint64_t>{72, 76})); // [base + 64 + 8, +4)
    }
    EXPECT_FALSE(ir::hasErrors(ir::verifyModule(*target)));
  }
  InlineTemplate unread = InlineTemplate::prepare(*probes->findFunction("unread"), intrinsic);
  auto target = parse(std::string(kHeader) + kTarget);
  ir::Function& app = *target->findFunction("app");
  std::string text = ir::emitPtx(*target);
  AnalysisManager analyses;
  ProbeInliner inliner(app, &analyses);
  ConstantHooks hooks;
  inliner.inlineAt(unread, *app.blocks().front(), 3, std::nullopt, hooks);
  EXPECT_EQ(ir::emitPtx(*target), text); // nothing it computes is read
}

TEST(ProbeInliner, EmptyProbesAddNothing) {
  auto probes = parse(std::string(kHeader) + kProbeModule);
  InlineTemplate t = InlineTemplate::prepare(*probes->findFunction("nothing"), intrinsic);
  auto target = parse(std::string(kHeader) + kTarget);
  ir::Function& app = *target->findFunction("app");
  std::string text = ir::emitPtx(*target);
  AnalysisManager analyses;
  ProbeInliner inliner(app, &analyses);
  TestHooks hooks;
  inliner.inlineAt(t, *app.blocks().front(), 3, ir::Guard{ir::RegisterRef{0, 1}, false}, hooks);
  EXPECT_EQ(ir::emitPtx(*target), text);
  EXPECT_EQ(hooks.instances, 0);
}

/// Each bad probe body, and the reason prepare() gives.
struct BadProbe {
  const char* name;
  const char* body;
  const char* reason;
};

class ProbeInlinerRefuses : public ::testing::TestWithParam<BadProbe> {};

TEST_P(ProbeInlinerRefuses, WithAReason) {
  const BadProbe& bad = GetParam();
  std::string text = std::string(kHeader) +
                     ".global .align 4 .u32 counter;\n"
                     ".extern .func helper();\n"
                     ".visible .func other() { ret; }\n" +
                     bad.body;
  auto module = parse(text);
  ASSERT_TRUE(module);
  try {
    InlineTemplate::prepare(*module->findFunction("bad"), intrinsic);
    FAIL() << bad.name << " was accepted";
  } catch (const InlineError& e) {
    EXPECT_NE(std::string(e.what()).find(bad.reason), std::string::npos)
        << bad.name << ": " << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Bodies, ProbeInlinerRefuses,
    ::testing::Values(
        BadProbe{"exit", ".visible .func bad() { exit; }", "ends the thread"},
        BadProbe{"trap", ".visible .func bad() { trap; ret; }", "traps"},
        BadProbe{"barrier", ".visible .func bad() { bar.sync 0; ret; }", "waits at a barrier"},
        BadProbe{"shared write",
                 ".visible .func bad() { .reg .b32 %r<2>; st.shared.u32 [%r1], 1; ret; }",
                 "writes shared memory"},
        BadProbe{"local frame",
                 ".visible .func bad() { .local .align 4 .b8 __local_depot0[16]; ret; }",
                 "uses local memory"},
        BadProbe{"parameters", ".visible .func bad(.param .b32 x) { ret; }", "takes parameters"},
        BadProbe{"return value", ".visible .func (.param .b32 r) bad() { ret; }",
                 "returns a value"},
        BadProbe{"unknown opcode", ".visible .func bad() { frobnicate.u32; ret; }",
                 "an instruction Ocelot does not know"},
        BadProbe{"module variable",
                 ".visible .func bad() { .reg .b32 %r<2>; ld.global.u32 %r1, [counter]; ret; }",
                 "uses the variable 'counter'"},
        BadProbe{"unsupported call", ".visible .func bad() { call.uni helper, (); ret; }",
                 "calls 'helper', which probes cannot use"},
        BadProbe{"call of a defined function", ".visible .func bad() { call.uni other, (); ret; }",
                 "nvcc did not inline"},
        BadProbe{"recursion", ".visible .func bad() { call.uni bad, (); ret; }", "recurses"},
        BadProbe{"indirect call",
                 ".visible .func bad() { .reg .b64 %rd<2>; p: .callprototype ()_ (); "
                 "call.uni %rd1, (), p; ret; }",
                 "indirect call"},
        BadProbe{"setmaxnreg", ".visible .func bad() { setmaxnreg.inc.sync.aligned.u32 64; ret; }",
                 "changes the warp's state"}),
    [](const ::testing::TestParamInfo<BadProbe>& param) {
      std::string name = param.param.name;
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)))
          c = '_';
      return name;
    });

} // namespace
} // namespace ocelot::passes
