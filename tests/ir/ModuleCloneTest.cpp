// ir::cloneModule: the copy prints exactly as the original, equals it, refers only to itself
// (names, instruction forms, label statements, blocks' functions), survives the original, and
// changing it leaves the original as it was.

#include "ir/ModuleClone.h"

#include "TestPtx.h"
#include "ir/Emitter.h"
#include "ir/IRBuilder.h"
#include "tests/support/GeneratedPtx.h"

#include <gtest/gtest.h>

#include <functional>

namespace ocelot::test {
namespace {

/// What the samples do not have: `.alias`, `.calltargets`, initializer lists of every kind,
/// decimal-float immediates, symbol and generic initializers, vector and address operands.
constexpr std::string_view kConstructs = R"(
.version 8.5
.target sm_90
.address_size 64

.global .align 4 .b32 table[4] = {1, 2, 300000, -4};
.global .align 8 .u64 pointers[2] = {generic(table), table};
.global .align 4 .f32 nested[2][2] = {{0f3F800000, 1.5}, {2.0, 3.0}};
.const .align 1 .b8 bytes[3] = {1, 2, 3};

.func (.param .b32 r) callee(.param .b32 a)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [a];
  add.s32 %r2, %r1, 1;
  st.param.b32 [r], %r2;
  ret;
}
.func (.param .b32 r) other(.param .b32 a)
{
  .reg .b32 %r<2>;
  ld.param.b32 %r1, [a];
  st.param.b32 [r], %r1;
  ret;
}
.alias callee_alias, callee;

.visible .entry kernel(.param .u64 out, .param .u32 n)
.maxntid 128, 1, 1
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  .reg .f32 %f<5>;
  ct: .calltargets callee, other;
  proto: .callprototype (.param .b32 _) _ (.param .b32 _);
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 bra DONE;
  mov.u64 %rd2, callee;
  {
    .reg .b32 inner;
    .param .b32 param0;
    .param .b32 retval0;
    st.param.b32 [param0], %r2;
    call (retval0), %rd2, (param0), ct;
    ld.param.b32 inner, [retval0];
    mov.b32 %r3, inner;
  }
  mov.f32 %f1, 0f3F800000;
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u32 [%rd4+0], %r3;
DONE:
  ret;
}
)";

std::vector<std::string> samplePaths() {
  const std::string root = OCELOT_SOURCE_DIR;
  return {root + "/tests/ir/data/wild.ptx", root + "/tests/driverapi/kernels.ptx",
          root + "/tests/passes/data/nested_loops.ptx",
          root + "/tests/fuzz/regressions/fastpath-zero-unsigned-suffix.ptx"};
}

/// Every PTX text the test clones, with a name for messages.
std::vector<std::pair<std::string, std::string>> samples() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& path : samplePaths())
    out.emplace_back(path, readTextFile(path));
  out.emplace_back("constructs", std::string(kConstructs));
  out.emplace_back("nvccLikeModule", testing::nvccLikeModule(200 << 10));
  out.emplace_back("nestedLoops", testing::nestedLoops(40));
  out.emplace_back("callChain", testing::callChain(50));
  return out;
}

/// Whether `text` lies in memory that `module`'s names could come from: checked through the
/// module's pool, which gives back its own copy for a text it holds.
bool internedIn(ir::Module& module, std::string_view text) {
  return text.empty() || module.intern(text).data() == text.data();
}

/// Checks that the names inside `operand` are the copy's.
void expectOperandNames(ir::Module& copy, const ir::Operand& operand) {
  if (const auto* symbol = operand.getIf<ir::SymbolOperand>()) {
    EXPECT_TRUE(internedIn(copy, symbol->name)) << symbol->name;
  } else if (const auto* special = operand.getIf<ir::SpecialRegisterOperand>()) {
    EXPECT_TRUE(internedIn(copy, special->name)) << special->name;
  } else if (const auto* address = operand.getIf<ir::AddressOperand>()) {
    if (const auto* base = std::get_if<ir::SymbolOperand>(&address->base)) {
      EXPECT_TRUE(internedIn(copy, base->name)) << base->name;
    }
    for (const ir::Operand& part : address->extra)
      expectOperandNames(copy, part);
  } else if (const auto* vector = operand.getIf<ir::VectorOperand>()) {
    for (const ir::Operand& element : vector->elements)
      expectOperandNames(copy, element);
  } else if (const auto* list = operand.getIf<ir::ArgumentListOperand>()) {
    for (const ir::Operand& argument : list->arguments)
      expectOperandNames(copy, argument);
  }
}

/// Checks that every reference of `copy` is its own, and that none is the original's.
void expectSelfContained(ir::Module& copy, const ir::Module& original) {
  ASSERT_EQ(copy.items().size(), original.items().size());
  for (std::string_view target : copy.targets())
    EXPECT_TRUE(internedIn(copy, target));
  for (size_t i = 0; i < copy.items().size(); ++i) {
    auto* f = ir::dyn_cast<ir::Function>(copy.items()[i].get());
    if (f == nullptr)
      continue;
    const auto* g = ir::cast<ir::Function>(original.items()[i].get());
    EXPECT_EQ(&f->module(), &copy);
    EXPECT_TRUE(internedIn(copy, f->name()));
    EXPECT_NE(f->name().data(), g->name().data());
    EXPECT_EQ(copy.findFunction(f->name()) != nullptr, true);
    for (const auto& r : f->registerDeclarators())
      EXPECT_TRUE(internedIn(copy, r.name)) << r.name;
    for (const auto& block : f->blocks()) {
      EXPECT_EQ(&block->parent(), f);
      for (const auto& s : block->statements()) {
        if (const auto* inst = ir::dyn_cast<ir::Instruction>(s.get())) {
          EXPECT_EQ(&copy.form(inst->form().spelling()), &inst->form());
          EXPECT_TRUE(internedIn(copy, inst->form().spelling()));
          for (const ir::Operand& operand : inst->operands())
            expectOperandNames(copy, operand);
        }
      }
    }
    // Every label the table defines is a statement of the copy's blocks.
    for (const auto& label : f->labels()) {
      if (label.statement == nullptr)
        continue;
      bool found = false;
      for (const auto& block : f->blocks())
        for (const auto& s : block->statements())
          found = found || s.get() == label.statement;
      EXPECT_TRUE(found) << label.name;
      EXPECT_TRUE(internedIn(copy, label.name));
    }
  }
}

TEST(ModuleClone, PrintsEqualsAndRefersOnlyToItself) {
  for (const auto& [name, text] : samples()) {
    SCOPED_TRACE(name);
    auto original = parseOrFail(text, name);
    ASSERT_NE(original, nullptr);
    const std::string printed = ir::emitPtx(*original);
    auto copy = ir::cloneModule(*original);
    EXPECT_EQ(ir::emitPtx(*copy), printed);
    EXPECT_TRUE(copy->equals(*original));
    // Without lines, too: the copy keeps every line, so only its contents can differ here.
    EXPECT_EQ(ir::emitPtx(*copy, {.preserveLines = false}),
              ir::emitPtx(*original, {.preserveLines = false}));
    expectSelfContained(*copy, *original);
    // A copy of the copy is the same again.
    EXPECT_EQ(ir::emitPtx(*ir::cloneModule(*copy)), printed);
  }
}

TEST(ModuleClone, OutlivesTheOriginal) {
  for (const auto& [name, text] : samples()) {
    SCOPED_TRACE(name);
    auto original = parseOrFail(text, name);
    ASSERT_NE(original, nullptr);
    const std::string printed = ir::emitPtx(*original);
    auto copy = ir::cloneModule(*original);
    original.reset(); // under ASan, any view into the original is a use after free below
    EXPECT_EQ(ir::emitPtx(*copy), printed);
    auto reparsed = parseOrFail(printed, name);
    ASSERT_NE(reparsed, nullptr);
    EXPECT_TRUE(copy->equals(*reparsed));
  }
}

TEST(ModuleClone, ChangingTheCopyLeavesTheOriginal) {
  for (const auto& [name, text] : samples()) {
    SCOPED_TRACE(name);
    auto original = parseOrFail(text, name);
    ASSERT_NE(original, nullptr);
    const std::string printed = ir::emitPtx(*original);
    auto copy = ir::cloneModule(*original);
    // Change names, operands, tables and blocks of every defined function of the copy.
    bool changed = false;
    for (ir::Function* f : copy->functions()) {
      if (!f->hasBody() || f->blocks().empty())
        continue;
      f->directives().push_back({copy->intern(".maxnreg"), {32}});
      for (auto& block : f->blocks())
        block->forEachInstruction([&](ir::Instruction& inst) {
          inst.setForm(copy->form(std::string(inst.form().spelling()) + ".changed"));
          for (ir::Operand& operand : inst.operands())
            if (auto* symbol = operand.getIf<ir::SymbolOperand>())
              symbol->offset += 8;
        });
      f->insertBlock(0);
      changed = true;
    }
    if (!changed)
      continue;
    EXPECT_NE(ir::emitPtx(*copy), printed);
    EXPECT_EQ(ir::emitPtx(*original), printed);
    copy.reset();
    EXPECT_EQ(ir::emitPtx(*original), printed);
  }
}

} // namespace
} // namespace ocelot::test
