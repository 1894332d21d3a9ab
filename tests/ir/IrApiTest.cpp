// The IR's own API: interning, instruction forms and traits, version tolerance (PTX that is
// newer than Ocelot), IR built through the API, structural equality.

#include "TestPtx.h"
#include "ir/Emitter.h"
#include "ir/InstructionForm.h"
#include "ir/InstructionTable.h"

namespace ocelot::test {
namespace {

using namespace ocelot::ir;

TEST(StringPoolTest, InternsEachTextOnce) {
  StringPool pool;
  std::string a = "ld.global.f32", b = "ld.global.f32";
  std::string_view first = pool.intern(a), second = pool.intern(b);
  EXPECT_EQ(first.data(), second.data());
  EXPECT_EQ(first, "ld.global.f32");
  std::string big(100000, 'z');
  EXPECT_EQ(pool.intern(big), big);
  EXPECT_EQ(pool.intern("ld.global.f32").data(), first.data()); // still valid after a big one
}

TEST(InstructionTableTest, QualifiedEntriesSelectBehaviour) {
  auto traits = [](std::string_view spelling) {
    static std::vector<std::unique_ptr<InstructionForm>> keep;
    keep.push_back(std::make_unique<InstructionForm>(spelling));
    return keep.back()->traits();
  };
  EXPECT_EQ(traits("mbarrier.init.shared.b64").definitions, DefinitionPattern::None);
  EXPECT_EQ(traits("mbarrier.arrive.shared.b64").definitions, DefinitionPattern::FirstOperand);
  EXPECT_EQ(traits("wmma.store.d.sync.aligned.row.m16n16k16.f32").definitions,
            DefinitionPattern::None);
  EXPECT_EQ(traits("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32").definitions,
            DefinitionPattern::FirstOperand);
  EXPECT_EQ(traits("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16").definitions,
            DefinitionPattern::FirstOperandReadWrite);
  EXPECT_TRUE(traits("bar.red.popc.u32").has(kCtaBarrier));
  EXPECT_EQ(traits("bar.red.popc.u32").definitions, DefinitionPattern::FirstOperand);
  EXPECT_EQ(traits("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32").definitions,
            DefinitionPattern::None);
  EXPECT_TRUE(
      traits("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32").has(kAsynchronous));
  EXPECT_EQ(traits("call.uni").definitions, DefinitionPattern::Call);
  EXPECT_TRUE(traits("ret").has(kReturn));
}

TEST(InstructionTableTest, UnknownOpcodesAreConservative) {
  InstructionForm form("frobnicate.sync.x4.b32");
  EXPECT_FALSE(form.traits().known());
  EXPECT_EQ(form.traits().definitions, DefinitionPattern::Unknown);
  EXPECT_TRUE(form.has(kSideEffects));
  EXPECT_TRUE(form.has(kMemoryRead));
  EXPECT_TRUE(form.has(kMemoryWrite));
  EXPECT_FALSE(form.isTerminator());
  EXPECT_FALSE(isKnownOpcode("frobnicate"));
  EXPECT_TRUE(isKnownOpcode("tcgen05"));
}

TEST(VersionToleranceTest, FuturePtxParsesAndRoundTrips) {
  // Opcodes, modifiers, types, special registers, targets and directives Ocelot has never seen.
  const char* text = R"(.version 12.7
.target sm_200f, texmode_unified
.address_size 64
.global .align 16 .f4x9 future_table[4];
.visible .entry k(.param .u64 .ptr .tensor::grid .align 16 k_param_0)
.blocksareclusters
.reqnctapercluster 2, 1, 1
{
	.reg .b32 %r<4>;
	.reg .pred %p<2>;
	frobnicate.sync.aligned.x4.cta_group::2.b32 %r1, [%r2+8], {%r3, _}, 0f3F800000;
	mov.u32 %r2, %future_special.z;
	tcgen05.mma.cta_group::1.kind::f16 [%r1], %r2, %r3, %r1, %p1;
	ret;
}
)";
  // The grammar takes any version; only the version check (on by default) refuses 12.7.
  ir::ParseOptions anyVersion;
  anyVersion.newestVersion = std::nullopt;
  auto module = parseOrFail(text, "future.ptx", anyVersion);
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->targets(), (std::vector<std::string_view>{"sm_200f", "texmode_unified"}));
  const Function* k = module->findFunction("k");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->directives().size(), 2u);
  auto insts = instructionsOf(*k);
  ASSERT_EQ(insts.size(), 4u);
  EXPECT_FALSE(insts[0]->form().traits().known());
  EXPECT_EQ(insts[0]->form().modifiers().size(), 5u);
  EXPECT_TRUE(insts[1]->operands()[1].is<SpecialRegisterOperand>());
  EXPECT_TRUE(insts[2]->form().traits().known()); // tcgen05 is in the table
  EXPECT_EQ(module->findGlobal("future_table")->spec().typeWord(), ".f4x9");

  std::string emitted = emitPtx(*module);
  auto reparsed = parseOrFail(emitted, "future-emitted.ptx", anyVersion);
  ASSERT_NE(reparsed, nullptr);
  EXPECT_TRUE(reparsed->equals(*module));
}

TEST(VersionToleranceTest, NewerPtxVersionIsRefusedWithItsOwnKind) {
  std::string text = kernelWithBody("\tret;");
  ASSERT_EQ(text.rfind(".version 9.0\n", 0), 0u);
  for (const char* version : {"9.1", "10.0", "99.9", "12.7"}) {
    std::string newer = ".version " + std::string(version) + text.substr(12);
    ir::ParseResult result = ir::parsePtx(newer, "newer.ptx");
    ASSERT_FALSE(result.ok()) << version;
    ASSERT_EQ(result.diagnostics.size(), 1u);
    EXPECT_TRUE(result.unsupportedVersion()) << result.firstError();
    EXPECT_EQ(result.diagnostics.front().kind, ir::DiagnosticKind::UnsupportedPtxVersion);
    EXPECT_EQ(result.firstError(),
              "newer.ptx:1:1: unsupported PTX ISA version " + std::string(version) +
                  ": the newest Ocelot knows is 9.0 (CUDA 13.0); compile for an older PTX version");
  }
  for (const char* version : {"9.0", "8.8", "7.0", "1.0", "9.00"}) {
    std::string older = ".version " + std::string(version) + text.substr(12);
    ir::ParseResult result = ir::parsePtx(older, "older.ptx");
    EXPECT_TRUE(result.ok()) << version << ": " << result.firstError();
  }
  // Other errors keep the syntax kind.
  ir::ParseResult broken = ir::parsePtx(kernelWithBody("\tbra NOWHERE;"), "broken.ptx");
  ASSERT_FALSE(broken.ok());
  EXPECT_FALSE(broken.unsupportedVersion());
  EXPECT_EQ(broken.diagnostics.front().kind, ir::DiagnosticKind::Syntax);
}

TEST(VersionToleranceTest, MalformedVersionIsASyntaxError) {
  std::string text = kernelWithBody("\tret;");
  for (const char* version : {"9.0e1", "0f3F800000", "9.1234567890"}) {
    std::string bad = ".version " + std::string(version) + text.substr(12);
    ir::ParseResult result = ir::parsePtx(bad, "bad.ptx");
    ASSERT_FALSE(result.ok()) << version;
    EXPECT_EQ(result.diagnostics.front().kind, ir::DiagnosticKind::Syntax);
    EXPECT_NE(result.firstError().find("malformed .version"), std::string::npos)
        << result.firstError();
  }
}

TEST(EqualityTest, DetectsChangedOperands) {
  std::string text = kernelWithBody("\tadd.s32 %r1, %r2, 7;\n\tret;");
  auto a = parseOrFail(text), b = parseOrFail(text);
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(a->equals(*b));
  auto* inst = const_cast<Instruction*>(instructionsOf(*b->findFunction("k"))[0]);
  inst->operands()[2] = ImmediateOperand::integer(8);
  EXPECT_FALSE(a->equals(*b));
  inst->operands()[2] = ImmediateOperand::integer(7);
  EXPECT_TRUE(a->equals(*b));
  inst->setForm(b->form("sub.s32"));
  EXPECT_FALSE(a->equals(*b));
}

TEST(EqualityTest, SourceLinesDoNotMatter) {
  auto a = parseOrFail(kernelWithBody("\tret;"));
  auto b = parseOrFail(kernelWithBody("\n\n\n\tret;"));
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(a->equals(*b));
}

TEST(BuiltThroughApiTest, SynthesizedStatementsFollowEachOther) {
  auto module = parseOrFail(kernelWithBody("\tret;"));
  ASSERT_NE(module, nullptr);
  Function& k = *module->findFunction("k");
  BasicBlock& entry = *k.blocks().front();
  // Insert `add.s32 %r1, %r2, 5;` before `ret`, as a pass would (line 0: no source line).
  std::vector<Operand> operands;
  RegisterRef r1{k.registerDeclarators().size() > 1 ? 1u : 0u, 1};
  RegisterRef r2{r1.declarator, 2};
  operands.push_back(RegisterOperand{r1});
  operands.push_back(RegisterOperand{r2});
  operands.push_back(ImmediateOperand::integer(5));
  auto add = std::make_unique<Instruction>(module->form("add.s32"), std::move(operands), 0);
  size_t retIndex = entry.statements().size() - 1;
  entry.insert(retIndex, std::move(add));
  std::string emitted = emitPtx(*module);
  EXPECT_NE(emitted.find("add.s32 \t%r1, %r2, 5;\n"), std::string::npos) << emitted;
  EXPECT_LT(emitted.find("add.s32"), emitted.find("ret;"));
  auto reparsed = parseOrFail(emitted);
  ASSERT_NE(reparsed, nullptr);
  EXPECT_TRUE(reparsed->equals(*module));
}

TEST(EmitterTest, CompactModeDropsSourceLayout) {
  auto module = parseOrFail(kernelWithBody("\n\n\n\n\n\tret;"));
  ASSERT_NE(module, nullptr);
  std::string preserved = emitPtx(*module, EmitOptions{true});
  std::string compact = emitPtx(*module, EmitOptions{false});
  EXPECT_NE(preserved.find("\n\n\n\n\n\tret;"), std::string::npos);
  EXPECT_EQ(compact.find("\n\n\n\n\n\tret;"), std::string::npos);
  EXPECT_EQ(instructionToString(*module->findFunction("k"),
                                *instructionsOf(*module->findFunction("k"))[0]),
            "ret;");
}

} // namespace
} // namespace ocelot::test
