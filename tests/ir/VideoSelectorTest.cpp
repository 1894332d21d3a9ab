// The byte and half-word selectors of the video instructions (`%r1.b2`, `%r2.h1`, and the merged
// destination `%r3.b0`) are register components: they parse on the grammar's and the statement
// scanner's routes, are kept in the IR, and are emitted as written. SIMD selectors and masks
// (`.b3210`, `.h10`) are rejected instead of being silently dropped.

#include "TestPtx.h"
#include "ir/Emitter.h"

namespace ocelot::test {
namespace {

using namespace ocelot::ir;

const Instruction& onlyInstruction(const Module& module) {
  const Function* kernel = module.findFunction("k");
  EXPECT_NE(kernel, nullptr);
  auto instructions = instructionsOf(*kernel);
  EXPECT_EQ(instructions.size(), 1u);
  return *instructions.front();
}

TEST(VideoSelectorTest, SelectorsAreComponentsOfTheirRegisters) {
  auto module = parseOrFail(kernelWithBody("\tvadd.s32.u32.s32.sat.add %r1, %r2.b2, %r3.h1, %r4;"),
                            "video.ptx");
  ASSERT_NE(module, nullptr);
  const Instruction& inst = onlyInstruction(*module);
  ASSERT_EQ(inst.operands().size(), 4u);
  EXPECT_EQ(inst.operands()[0].as<RegisterOperand>().component, VectorComponent::None);
  EXPECT_EQ(inst.operands()[1].as<RegisterOperand>().component, VectorComponent::B2);
  EXPECT_EQ(inst.operands()[2].as<RegisterOperand>().component, VectorComponent::H1);
  const std::string emitted = emitPtx(*module);
  EXPECT_NE(emitted.find("%r2.b2, %r3.h1, %r4"), std::string::npos) << emitted;
}

TEST(VideoSelectorTest, EverySelectorRoundTrips) {
  for (const char* selector : {"b0", "b1", "b2", "b3", "h0", "h1"}) {
    const std::string body =
        std::string("\tvset.u32.u32.lt %r1.") + selector + ", %r2." + selector + ", %r3, %r1;";
    auto module = parseOrFail(kernelWithBody(body), "video.ptx");
    ASSERT_NE(module, nullptr) << selector;
    const std::string emitted = emitPtx(*module);
    EXPECT_NE(emitted.find(std::string("%r1.") + selector + ", %r2." + selector), std::string::npos)
        << emitted;
    auto again = parseOrFail(emitted, "emitted.ptx");
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(emitPtx(*again), emitted);
  }
}

TEST(VideoSelectorTest, RegistersNamedWithoutPercentTakeSelectors) {
  // Inline asm declares registers such as `t` in a brace scope; `t.b1` is then a merged
  // destination (the lexer reads the dotted word as a mnemonic, so the grammar must accept it).
  auto module = parseOrFail(
      kernelWithBody("\t{ .reg .b32 t; mov.b32 t, %r3; vadd.u32.u32.s32.sat t.b1, %r1.b3, %r2.h0, "
                     "t; mov.b32 %r4, t; }"),
      "bare.ptx");
  ASSERT_NE(module, nullptr);
  const Function* kernel = module->findFunction("k");
  ASSERT_NE(kernel, nullptr);
  bool found = false;
  for (const Instruction* inst : instructionsOf(*kernel))
    if (inst->operands().size() == 4 && inst->operands()[0].is<RegisterOperand>() &&
        inst->operands()[0].as<RegisterOperand>().component == VectorComponent::B1)
      found = true;
  EXPECT_TRUE(found) << emitPtx(*module);
  auto again = parseOrFail(emitPtx(*module), "emitted.ptx");
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(emitPtx(*again), emitPtx(*module));
  // An undeclared name with a selector is an error that names it, not a symbol.
  ParseResult result =
      parsePtx(kernelWithBody("\tvadd.u32.u32.u32 q.b1, %r1, %r2, %r3;"), "undeclared.ptx");
  EXPECT_FALSE(result.ok());
  EXPECT_NE(result.firstError().find("q.b1"), std::string::npos) << result.firstError();
}

TEST(VideoSelectorTest, SimdSelectorsAreRejectedNotDropped) {
  for (const char* body : {"\tvadd4.u32.u32.u32 %r1, %r2.b3210, %r3, %r4;",
                           "\tvadd2.u32.u32.u32 %r1.h10, %r2, %r3, %r4;"}) {
    ParseResult result = parsePtx(kernelWithBody(body), "simd.ptx");
    EXPECT_FALSE(result.ok()) << body;
    EXPECT_NE(result.firstError().find("selector"), std::string::npos) << result.firstError();
  }
}

} // namespace
} // namespace ocelot::test
