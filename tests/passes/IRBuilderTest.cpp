// The IR builder: insertion points, fresh registers that never collide, the common sequences of
// instrumentation, and ptxas accepting what it builds.

#include "ir/IRBuilder.h"

#include "PassTestSupport.h"
#include "ir/Verifier.h"

namespace ocelot::test {
namespace {

std::vector<std::string> instructionTexts(const ir::Function& f, const ir::BasicBlock& block) {
  std::vector<std::string> texts;
  block.forEachInstruction(
      [&](const ir::Instruction& inst) { texts.push_back(ir::instructionToString(f, inst)); });
  return texts;
}

TEST(IRBuilder, BlockStartIsAfterLabelsAndDeclarations) {
  auto module = parseOrFail(kernel(R"(
	ld.param.u64 %rd1, [k_param_0];
	@%p1 bra $L_b;
	mov.u32 %r1, 1;
$L_b:
	.pragma "nounroll";
	add.s32 %r1, %r1, 1;
	ret;)"));
  ASSERT_TRUE(module);
  ir::Function& f = *module->functions()[0];
  ir::IRBuilder builder(f);
  // Block 0 starts after its `.reg` lines; block 2 after its label and pragma.
  builder.mov(ir::ScalarType::U32, builder.imm(7));
  builder.atStart(*f.blocks()[2]).mov(ir::ScalarType::U32, builder.imm(8));
  builder.atEnd(*f.blocks()[2]).mov(ir::ScalarType::U32, builder.imm(9));
  EXPECT_EQ(instructionTexts(f, *f.blocks()[0]),
            (std::vector<std::string>{"mov.u32 \t%ocl_r0, 7;", "ld.param.u64 \t%rd1, [k_param_0];",
                                      "@%p1 bra \t$L_b;"}));
  EXPECT_EQ(instructionTexts(f, *f.blocks()[2]),
            (std::vector<std::string>{"mov.u32 \t%ocl_r1, 8;", "add.s32 \t%r1, %r1, 1;",
                                      "mov.u32 \t%ocl_r2, 9;", "ret;"}));
  const auto& statements = f.blocks()[2]->statements();
  EXPECT_EQ(statements[0]->kind(), ir::Statement::Kind::Label);
  EXPECT_EQ(statements[1]->kind(), ir::Statement::Kind::Pragma);
  std::string text = ir::emitPtx(*module);
  EXPECT_NE(text.find(".reg .b32 %ocl_r<3>;"), std::string::npos) << text;
  EXPECT_TRUE(ir::verifyFunction(f).empty());
}

TEST(IRBuilder, FreshRegistersNeverCollide) {
  // The function already uses names the builder would pick.
  auto module = parseOrFail(R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry k()
{
	.reg .b32 %ocl_r<4>;
	.reg .b64 %ocl_rd1;
	mov.u32 %ocl_r1, 1;
	ret;
})");
  ASSERT_TRUE(module);
  ir::Function& f = *module->functions()[0];
  ir::IRBuilder builder(f);
  ir::RegisterRef a = builder.createRegister(ir::ScalarType::U32);
  ir::RegisterRef b = builder.createRegister(ir::ScalarType::U64);
  ir::RegisterRef c = builder.createRegister(ir::ScalarType::U64);
  std::set<std::string> names{f.registerName(a), f.registerName(b), f.registerName(c)};
  EXPECT_EQ(names.size(), 3u);
  EXPECT_EQ(f.registerName(a), "%ocl_r4"); // grows the function's own range past its end
  EXPECT_EQ(names.count("%ocl_rd1"), 0u);
  // The emitted PTX declares each once and parses back.
  auto reparsed = parseOrFail(ir::emitPtx(*module));
  EXPECT_TRUE(reparsed);
}

TEST(IRBuilder, InstrumentationSequencesAssemble) {
  // Listing 1 of the paper, one line each: a per-thread counter for block 0, and a CTA timer.
  auto module = parseOrFail(R"(.version 9.0
.target sm_90
.address_size 64
.global .align 8 .u64 counters;
.global .align 8 .u64 timers[1024];
.visible .entry k(.param .u64 k_param_0)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 32;
	@%p1 bra $L_end;
	st.global.u32 [%rd1], %r1;
$L_end:
	ret;
})");
  ASSERT_TRUE(module);
  ir::Function& f = *module->functions()[0];
  using ir::ScalarType;
  using ir::StateSpace;
  for (auto& block : f.blocks()) {
    ir::IRBuilder b(*block);
    auto base = b.load(StateSpace::Global, ScalarType::U64, b.symbol("counters"));
    auto thread = b.readSpecial("%tid", ir::VectorComponent::X);
    auto slot = b.elementAddress(b.reg(base), b.reg(thread), 8);
    auto count = b.load(StateSpace::Global, ScalarType::U64, b.reg(slot));
    b.store(StateSpace::Global, ScalarType::U64, b.reg(slot),
            b.reg(b.add(ScalarType::U64, b.reg(count), b.imm(1))));
  }
  ir::IRBuilder b(*f.blocks().back());
  b.atEnd(*f.blocks().back());
  auto clock = b.readSpecial("%clock64");
  auto sm = b.readSpecial("%smid");
  auto cta = b.readSpecial("%ctaid", ir::VectorComponent::X);
  auto entry = b.elementAddress(b.reg(b.addressOf("timers")), b.reg(cta), 8);
  b.atomic("add", StateSpace::Global, ScalarType::U64, b.reg(entry), b.reg(clock));
  b.reduce("add", StateSpace::Global, ScalarType::U32, b.address("timers", 8), b.reg(sm));
  auto wide = b.convert(ScalarType::U64, ScalarType::U32, b.reg(sm));
  auto scaled = b.mad(ScalarType::U64, b.reg(wide), b.imm(3), b.reg(clock));
  auto p = b.compare("gt", ScalarType::U64, b.reg(scaled), b.imm(0));
  b.insert("st.global.u64", {b.address("timers"), b.reg(scaled)}, ir::Guard{p, false});
  EXPECT_FALSE(ir::hasErrors(ir::verifyFunction(f)));
  std::string text = ir::emitPtx(*module);
  auto ptxas = runPtxas(text, "sm_90");
  EXPECT_TRUE(ptxas.ok()) << ptxas.output << text;
}

TEST(IRBuilder, NewBlocksAndLabels) {
  auto module = parseOrFail(kernel("\tmov.u32 %r1, 1;\n\tret;"));
  ASSERT_TRUE(module);
  ir::Function& f = *module->functions()[0];
  ir::IRBuilder b(f);
  ir::BasicBlock& extra = b.createBlock(1);
  b.at(extra, 0);
  const ir::Label& label = b.insertLabel("x");
  b.insert("ret", {});
  EXPECT_EQ(label.name().substr(0, 9), "$L__ocl_x");
  b.atEnd(*f.blocks()[0]).branch(label.id());
  // The original `ret` is no longer last: the verifier says so, with where.
  auto diagnostics = ir::verifyFunction(f);
  ASSERT_TRUE(ir::hasErrors(diagnostics));
  EXPECT_NE(diagnostics[0].format().find("block 0"), std::string::npos);
}

} // namespace
} // namespace ocelot::test
