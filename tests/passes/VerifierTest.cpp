// The verifier on IR built wrong through the API: it reports each problem with its place and
// never crashes, whatever the tables hold.

#include "ir/Verifier.h"

#include "PassTestSupport.h"
#include "ir/IRBuilder.h"

namespace ocelot::test {
namespace {

/// The formatted errors (not warnings) of `f`.
std::vector<std::string> errors(const ir::Function& f) {
  std::vector<std::string> texts;
  for (const auto& d : ir::verifyFunction(f))
    if (d.severity == ir::VerifierDiagnostic::Severity::Error)
      texts.push_back(d.format());
  return texts;
}

bool anyContains(const std::vector<std::string>& texts, std::string_view needle) {
  return std::any_of(texts.begin(), texts.end(),
                     [&](const std::string& t) { return t.find(needle) != std::string::npos; });
}

TEST(Verifier, ParsedNvccStyleCodeIsClean) {
  auto module = parseOrFail(kernel(R"(
	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 32;
	selp.b32 %r2, %r1, 0, %p1;
	mul.wide.u32 %rd2, %r2, 4;
	add.s64 %rd3, %rd1, %rd2;
	cvt.rn.f32.u32 %f1, %r2;
	st.global.f32 [%rd3], %f1;
	@%p1 bra $L_end;
	{
	.reg .pred q;
	setp.eq.u32 q, %r1, 0;
	@q bra DONE;
DONE:
	}
$L_end:
	ret;)"));
  ASSERT_TRUE(module);
  EXPECT_TRUE(ir::verifyFunction(*module->functions()[0]).empty());
}

TEST(Verifier, UndeclaredRegistersWithLocation) {
  auto module = parseOrFail(kernel("\tmov.u32 %r1, 1;\n\tret;"));
  ASSERT_TRUE(module);
  ir::Function& f = *module->functions()[0];
  ir::IRBuilder b(f);
  b.insert("add.s32", {ir::RegisterOperand{{1, 40}}, ir::RegisterOperand{{1, 1}}, b.imm(1)});
  b.insert("mov.u32", {ir::RegisterOperand{{77, 0}}, b.imm(1)});
  auto texts = errors(f);
  ASSERT_EQ(texts.size(), 2u);
  EXPECT_EQ(texts[0], "error: function 'k', block 0, statement 4: register %r40 is not declared: "
                      "%r<32> declares only 32 registers");
  EXPECT_EQ(texts[1], "error: function 'k', block 0, statement 5: register #77 is not declared "
                      "(no entry in the register table)");
}

TEST(Verifier, DanglingLabelsAndScopes) {
  auto module = parseOrFail(kernel(R"(
	{
	.reg .pred q;
	@q bra INNER;
INNER:
	}
	ret;)"));
  ASSERT_TRUE(module);
  ir::Function& f = *module->functions()[0];
  ir::IRBuilder b(f);
  ir::LabelId inner = 0; // INNER, declared inside the `{ }`
  b.atStart(*f.blocks()[0]);
  b.insert("bra", {ir::LabelOperand{inner}}, ir::Guard{{0, 1}, false}); // not visible here
  b.insert("bra", {b.symbol("$L__nowhere")});                           // never resolved
  // The parsed `@q bra INNER` (now statement 8, source line 13) to a label that does not exist.
  auto* parsed = ir::dyn_cast<ir::Instruction>(f.blocks()[0]->statements()[8].get());
  ASSERT_TRUE(parsed != nullptr);
  parsed->operands()[0] = ir::LabelOperand{12};
  auto texts = errors(f);
  EXPECT_TRUE(anyContains(texts,
                          "error: function 'k', block 0, statement 4: branch target INNER is "
                          "defined in a scope that is not visible from here"));
  EXPECT_TRUE(anyContains(texts, "'$L__nowhere' is not a label of this function (dangling label)"));
  EXPECT_TRUE(anyContains(texts, "error: function 'k', block 0, statement 8 (line 13): branch "
                                 "target refers to label #12, which does not exist (dangling "
                                 "label)"));
}

TEST(Verifier, BlocksWithoutTerminatorsAndMisplacedOnes) {
  auto module = parseOrFail(kernel("\tmov.u32 %r1, 1;\n\tret;"));
  ASSERT_TRUE(module);
  ir::Function& f = *module->functions()[0];
  ir::IRBuilder b(f);
  // A block after the `ret` that ends without a terminator, and a label after code.
  ir::BasicBlock& tail = b.createBlock(1);
  b.at(tail, 0);
  b.insertLabel("tail");
  b.insert("mov.u32", {b.reg({1, 2}), b.imm(2)});
  b.insertLabel("late");
  b.at(*f.blocks()[0], 4).insert("exit", {}); // before the mov: terminator mid-block
  auto diagnostics = ir::verifyFunction(f);
  std::vector<std::string> all;
  for (const auto& d : diagnostics)
    all.push_back(d.format());
  EXPECT_TRUE(anyContains(all, "block 0, statement 4: `exit;`: terminator is not the last "
                               "instruction of its block"));
  EXPECT_TRUE(anyContains(all, "follows instructions of its block"));
  EXPECT_TRUE(anyContains(all, "warning: function 'k', block 1: the last block has no terminator"));
}

TEST(Verifier, OperandTypes) {
  auto module = parseOrFail(kernel("\tret;"));
  ASSERT_TRUE(module);
  ir::Function& f = *module->functions()[0];
  ir::IRBuilder b(f);
  ir::RegisterRef p1{0, 1}, r1{1, 1}, rd1{2, 1}, f1{3, 1};
  b.insert("add.u32", {b.reg(rd1), b.reg(r1), b.imm(1)});             // 64-bit destination
  b.insert("setp.lt.s32", {b.reg(r1), b.reg(r1), b.reg(r1)});         // destination not .pred
  b.insert("selp.b32", {b.reg(r1), b.reg(r1), b.reg(r1), b.reg(r1)}); // selector not .pred
  b.insert("mov.u32", {b.reg(r1), b.imm(1)}, ir::Guard{r1, false});   // guard not .pred
  b.insert("ld.global.u32", {b.reg(r1), b.address(p1)});              // predicate address
  b.insert("cvt.f64.f32", {b.reg(f1), b.reg(f1)});                    // destination too narrow
  b.insert("add.f32", {b.reg(f1), b.reg(f1)});                        // an operand missing
  auto texts = errors(f);
  ASSERT_EQ(texts.size(), 7u) << ::testing::PrintToString(texts);
  EXPECT_NE(texts[0].find("destination %rd1 is .b64, but add.u32 needs 32-bit here"),
            std::string::npos);
  EXPECT_NE(texts[1].find("destination %r1 is .b32, but setp.lt.s32 needs .pred"),
            std::string::npos);
  EXPECT_NE(texts[2].find("source %r1 is .b32, but selp.b32 needs .pred"), std::string::npos);
  EXPECT_NE(texts[3].find("guard %r1 is not a .pred register"), std::string::npos);
  EXPECT_NE(texts[4].find("address register %p1 is 1-bit"), std::string::npos);
  EXPECT_NE(texts[5].find("too narrow for .f64"), std::string::npos);
  EXPECT_NE(texts[6].find("add takes 3 operands, not 2"), std::string::npos);
}

TEST(Verifier, GarbageTablesDoNotCrash) {
  auto module = parseOrFail(kernel("\tmov.u32 %r1, 1;\n\tret;"));
  ASSERT_TRUE(module);
  ir::Function& f = *module->functions()[0];
  auto& statements = f.blocks()[0]->statements();
  // A null statement, a label that is not in the table, a `}` that closes nothing, a statement
  // in a scope that does not exist.
  statements.insert(statements.begin(), nullptr);
  statements.push_back(std::make_unique<ir::Label>(500, "bogus", 0));
  statements.push_back(std::make_unique<ir::ScopeEnd>(3));
  auto inst = std::make_unique<ir::Instruction>(module->form("mov.u32"),
                                                std::vector<ir::Operand>{ir::SinkOperand{}}, 9);
  statements.push_back(std::move(inst));
  f.blocks().push_back(nullptr);
  auto texts = errors(f);
  EXPECT_TRUE(anyContains(texts, "statement is null"));
  EXPECT_TRUE(anyContains(texts, "label bogus has no entry in the label table"));
  EXPECT_TRUE(anyContains(texts, "which does not exist"));
  EXPECT_TRUE(anyContains(texts, "block is null"));
}

} // namespace
} // namespace ocelot::test
