// The IR's own API: interning, instruction forms and traits, version tolerance (PTX that is
// newer than Ocelot), IR built through the API, structural equality.

#include "TestPtx.h"
#include "ir/Emitter.h"
#include "ir/IRBuilder.h"
#include "ir/InstructionForm.h"
#include "ir/InstructionTable.h"

#include <cstdlib>

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

TEST(AddressTest, ConstantExpressionOffsetsAreFolded) {
  // ptxas takes constant expressions after the `+` of an address; Ocelot folds them (the emitted
  // `[%rd1+3]` is the same address to ptxas).
  struct Case {
    const char* address;
    int64_t offset;
    const char* emitted;
  };
  const Case cases[] = {
      {"[%rd1+1+2]", 3, "[%rd1+3]"},       {"[%rd1 + 1 + 2 ]", 3, "[%rd1+3]"},
      {"[%rd1+4*(2+1)]", 12, "[%rd1+12]"}, {"[%rd1+-1+2]", 1, "[%rd1+1]"},
      {"[%rd1+(1-2)*8]", -8, "[%rd1+-8]"}, {"[%rd1+16/4-1]", 3, "[%rd1+3]"},
      {"[%rd1+2*3+4*5]", 26, "[%rd1+26]"}, {"[%rd1+-(2+2)]", -4, "[%rd1+-4]"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.address);
    std::string text = kernelWithBody("\tld.global.u32 %r1, " + std::string(c.address) +
                                      ";\n\tst.global.u32 [%rd1], %r1;\n\tret;");
    auto module = parseOrFail(text);
    ASSERT_NE(module, nullptr);
    const Instruction* load = instructionsOf(*module->functions()[0])[0];
    const auto& address = load->operands()[1].as<AddressOperand>();
    EXPECT_EQ(address.offset, c.offset);
    EXPECT_TRUE(address.explicitOffset);
    EXPECT_EQ(operandToString(*module->functions()[0], load->operands()[1]), c.emitted);
    auto reparsed = parseOrFail(emitPtx(*module));
    ASSERT_NE(reparsed, nullptr);
    EXPECT_TRUE(reparsed->equals(*module));
  }
  // A variable as the base.
  std::string text = kernelWithBody("\tld.global.u32 %r1, [g+4*2+1];\n\tret;");
  text.insert(text.find(".visible"), ".global .u32 g[16];\n");
  auto module = parseOrFail(text);
  ASSERT_NE(module, nullptr);
  const auto& address =
      instructionsOf(*module->functions()[0])[0]->operands()[1].as<AddressOperand>();
  EXPECT_EQ(address.offset, 9);
  EXPECT_EQ(std::get<SymbolOperand>(address.base).name, "g");
}

TEST(AddressTest, BadOffsetExpressionsAreErrors) {
  for (const char* bad :
       {"[%rd1+1/0]", "[%rd1+9223372036854775807+1]", "[%rd1+2*(3]", "[%rd1+0f3F800000+1]"}) {
    SCOPED_TRACE(bad);
    std::string text = kernelWithBody("\tld.global.u32 %r1, " + std::string(bad) + ";\n\tret;");
    ir::ParseResult result = ir::parsePtx(text, "bad.ptx");
    EXPECT_FALSE(result.ok());
  }
  ir::ParseResult zero =
      ir::parsePtx(kernelWithBody("\tld.global.u32 %r1, [%rd1+1/0];\n\tret;"), "zero.ptx");
  EXPECT_NE(zero.firstError().find("division by zero"), std::string::npos) << zero.firstError();
  ir::ParseResult big = ir::parsePtx(
      kernelWithBody("\tld.global.u32 %r1, [%rd1+9223372036854775807+1];\n\tret;"), "big.ptx");
  EXPECT_NE(big.firstError().find("does not fit in 64 bits"), std::string::npos)
      << big.firstError();
}

TEST(StreamingEmitterTest, WritesWhatEmitPtxWrites) {
  // Globals, declarations, kernels, a .file and a debug section, item by item.
  std::string text = R"(.version 9.0
.target sm_90
.address_size 64

.global .align 4 .u32 counter[4] = {1, 2, 3, 4};
.extern .func (.param .b32 r) ext(.param .b32 a);

.visible .entry k(.param .u64 k_param_0)
{
	.reg .b32 %r<4>;
	.loc 1 7 0
	mov.u32 %r1, 7;
	ret;
}
.visible .entry k2()
{
	ret;
}
	.file	1 "/src/k.cu"
	.section	.debug_str
	{
$L__info_string0:
.b8 107,0
	}
)";
  auto module = parseOrFail(text, "stream.ptx");
  ASSERT_NE(module, nullptr);
  const std::string whole = emitPtx(*module);
  for (bool perFunction : {true, false}) {
    std::string streamed;
    size_t pieces = 0;
    {
      StreamingEmitter stream(*module, [&](std::string_view piece) {
        streamed += piece;
        ++pieces;
      });
      if (perFunction) {
        for (const Function* f : module->functions()) {
          ASSERT_TRUE(stream.writeThrough(*f));
        }
      }
      stream.finish();
    }
    EXPECT_EQ(streamed, whole);
    EXPECT_GT(pieces, perFunction ? 2u : 0u);
  }
  // An item written already, or one inserted before what was written, is refused.
  StreamingEmitter stream(*module, [](std::string_view) {});
  const Function* first = module->functions()[1];
  ASSERT_TRUE(stream.writeThrough(*first));
  EXPECT_FALSE(stream.writeThrough(*module->functions()[0]));
  module->insert(0, std::make_unique<FileDirective>(2, "x.cu", std::nullopt, std::nullopt));
  EXPECT_FALSE(stream.writeThrough(*module->functions()[2]));
}

TEST(MemoryBudgetTest, ALargeModuleIsRefusedWithTheLimitNamed) {
  // 3 MB of instructions against a budget of 1 MB: refused where the parse stopped, with the
  // module's name, its size and the limit.
  std::string body;
  while (body.size() < (3u << 20))
    body += "\tadd.s32 %r1, %r2, 7;\n";
  std::string text = kernelWithBody(body + "\tret;");
  ir::ParseOptions options;
  options.memoryBudget = 1 << 20;
  ir::ParseResult refused = ir::parsePtx(text, "big.ptx", options);
  ASSERT_FALSE(refused.ok());
  ASSERT_EQ(refused.diagnostics.size(), 1u);
  EXPECT_EQ(refused.diagnostics[0].kind, ir::DiagnosticKind::ResourceLimit);
  EXPECT_NE(refused.firstError().find("big.ptx:"), std::string::npos);
  EXPECT_NE(refused.firstError().find("memory budget of 1 MB"), std::string::npos)
      << refused.firstError();
  EXPECT_NE(refused.firstError().find("OCELOT_PTX_MEMORY_MB"), std::string::npos);
  // With room it parses; the text alone over the budget is refused before parsing starts.
  options.memoryBudget = 64 << 20;
  EXPECT_TRUE(ir::parsePtx(text, "big.ptx", options).ok());
  options.memoryBudget = 1 << 10;
  EXPECT_EQ(ir::parsePtx(text, "big.ptx", options).diagnostics.at(0).position.line, 0u);
  options.memoryBudget = 0; // no limit
  EXPECT_TRUE(ir::parsePtx(text, "big.ptx", options).ok());
}

TEST(MemoryBudgetTest, TheDefaultComesFromTheEnvironmentOrTheMachine) {
  const char* saved = std::getenv("OCELOT_PTX_MEMORY_MB");
  std::string restore = saved != nullptr ? saved : "";
  ::setenv("OCELOT_PTX_MEMORY_MB", "12", 1);
  EXPECT_EQ(ir::defaultParseMemoryBudget(), size_t{12} << 20);
  EXPECT_EQ(ir::ParseOptions().memoryBudget, size_t{12} << 20);
  ::setenv("OCELOT_PTX_MEMORY_MB", "lots", 1); // not a number: the machine's default
  size_t machine = ir::defaultParseMemoryBudget();
  EXPECT_GT(machine, size_t{64} << 20);
  ::unsetenv("OCELOT_PTX_MEMORY_MB");
  EXPECT_EQ(ir::defaultParseMemoryBudget(), machine);
  if (saved != nullptr)
    ::setenv("OCELOT_PTX_MEMORY_MB", restore.c_str(), 1);
}

TEST(ParseBufferTest, ParsesLikeParsePtx) {
  std::string text = kernelWithBody("\tmov.u32 %r1, 0f3F800000;\n\tld.global.u32 %r2, [%rd1+4];\n"
                                    "\t@%p1 bra DONE;\nDONE:\n\tret;");
  auto expected = parseOrFail(text);
  ASSERT_NE(expected, nullptr);
  ir::ParseResult parsed = ir::parsePtxBuffer(std::string(text), "buffer.ptx");
  ASSERT_TRUE(parsed.ok()) << parsed.firstError();
  EXPECT_TRUE(parsed.module->equals(*expected));
  ir::ParseResult broken = ir::parsePtxBuffer(std::string("garbage"), "broken.ptx");
  EXPECT_EQ(broken.firstError().rfind("broken.ptx:1:", 0), 0u) << broken.firstError();
}

TEST(ArenaTest, StatementsOutliveTheirModule) {
  // Statements and operand boxes from a module's arena have no header; taken out of the module,
  // they keep its arena alive and are freed after it (ASan and UBSan builds check the memory).
  auto module =
      parseOrFail(kernelWithBody("\tld.global.u32 %r1, [%rd1+8];\n\tadd.s32 %r2, %r1, 7;\n\tret;"));
  ASSERT_NE(module, nullptr);
  auto& statements = module->functions()[0]->blocks()[0]->statements();
  std::vector<std::unique_ptr<Statement>> taken;
  for (auto& statement : statements)
    taken.push_back(std::move(statement));
  statements.clear();
  const Instruction* add = nullptr;
  for (const auto& statement : taken)
    if (const auto* inst = dyn_cast<Instruction>(statement.get());
        inst && inst->form().opcode() == Opcode::Add)
      add = inst;
  ASSERT_NE(add, nullptr);
  Operand copied = add->operands()[2];
  EXPECT_EQ(add->operands()[2], copied);
  // Names and forms die with the module: what outlives it may be destroyed, and read where it
  // holds no name.
  module.reset();
  EXPECT_EQ(copied.as<ImmediateOperand>().magnitude, 7u);
  EXPECT_EQ(add->operands()[2].as<ImmediateOperand>().magnitude, 7u);
  // Copies made outside a parse come from the heap.
  OperandList list = add->operands();
  list.push_back(ImmediateOperand::integer(-3));
  list.insert(list.begin(), SinkOperand{});
  EXPECT_EQ(list.size(), 5u);
  EXPECT_EQ(list[3], copied);
  list.erase(list.begin());
  EXPECT_EQ(list.back().as<ImmediateOperand>().integerValue(), -3);
  taken.clear(); // the last references to the arena
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
/// The source line of every item, function body brace and statement, in order.
std::vector<uint32_t> linesOf(const Module& module) {
  std::vector<uint32_t> lines;
  for (const auto& item : module.items()) {
    lines.push_back(item->line());
    if (const auto* f = dyn_cast<Function>(item.get())) {
      lines.push_back(f->bodyLine());
      lines.push_back(f->bodyEndLine());
      for (const auto& block : f->blocks())
        for (const auto& s : block->statements())
          lines.push_back(s->line());
    }
  }
  return lines;
}

TEST(EmitterTest, NumberingLinesGivesTheLinesOfTheText) {
  // `ret` is on the line after the `mov`: what a pass adds between them pushes it down.
  auto module = parseOrFail(kernelWithBody("\tmov.u32 %r1, %r2;\n\tret;"));
  ASSERT_NE(module, nullptr);
  Function& k = *module->findFunction("k");
  BasicBlock& entry = *k.blocks().front();
  // Three instructions before `ret`, as a pass adds them (line 0), through the IR builder.
  IRBuilder builder(entry);
  builder.before(entry, *entry.statements().back());
  RegisterRef r1{k.registerDeclarators().size() > 1 ? 1u : 0u, 1};
  for (int i = 0; i < 3; ++i)
    builder.insert("add.s32", {IRBuilder::reg(r1), IRBuilder::reg(r1), IRBuilder::imm(i)});
  DeclarationSpec spec;
  spec.words.push_back({module->intern(".global"), std::nullopt, {}});
  spec.words.push_back({module->intern(".u32"), std::nullopt, {}});
  spec.declarators.push_back({module->intern("added"), 0, false, {}, std::nullopt});
  module->insert(0, std::make_unique<GlobalVariable>(std::move(spec)));
  const std::string plain = emitPtx(*module);
  const std::vector<uint32_t> before = linesOf(*module);
  const std::string text = emitPtxNumberingLines(*module);
  EXPECT_EQ(text, plain);
  auto reparsed = parseOrFail(text);
  ASSERT_NE(reparsed, nullptr);
  EXPECT_NE(linesOf(*module), before); // there was something to number
  EXPECT_EQ(linesOf(*module), linesOf(*reparsed));
  EXPECT_EQ(emitPtx(*module), text);
}

} // namespace ocelot::test
