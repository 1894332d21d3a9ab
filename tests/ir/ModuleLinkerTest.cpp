// ir::linkModules: relocatable PTX units of a -rdc program linked into one module. Resolution of
// .extern against .visible/.weak/.common definitions, renaming of colliding unit-local symbols,
// .file renumbering, merged .debug_str, the header, the errors; ptxas assembles what it links.

#include "ir/ModuleLinker.h"

#include "TestPtx.h"
#include "ir/Emitter.h"
#include "tests/support/Ptxas.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace ocelot::test {
namespace {

constexpr std::string_view kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

/// The kernel unit of a three-unit program: calls step (unit 2) and finish (unit 3).
constexpr std::string_view kMain = R"(
.extern .func (.param .b32 r) step(.param .b32 a);
.extern .func (.param .b32 r) finish(.param .b32 a);
.file 1 "main.cu"
.visible .entry loop(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  mov.u32 %r1, %tid.x;
  .loc 1 7 1
  {
  .param .b32 p0;
  st.param.b32 [p0], %r1;
  .param .b32 rv;
  call.uni (rv), step, (p0);
  ld.param.b32 %r2, [rv];
  }
  {
  .param .b32 p0;
  st.param.b32 [p0], %r2;
  .param .b32 rv;
  call.uni (rv), finish, (p0);
  ld.param.b32 %r3, [rv];
  }
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2], %r3;
  ret;
}
)";

constexpr std::string_view kStep = R"(
.extern .func (.param .b32 r) mix(.param .b32 a);
.file 1 "step.cu"
.visible .func (.param .b32 r) step(.param .b32 a)
{
  .reg .b32 %r<3>;
  .loc 1 3 1
  ld.param.b32 %r1, [a];
  {
  .param .b32 p0;
  st.param.b32 [p0], %r1;
  .param .b32 rv;
  call.uni (rv), mix, (p0);
  ld.param.b32 %r2, [rv];
  }
  st.param.b32 [r], %r2;
  ret;
}
)";

constexpr std::string_view kMix = R"(
.file 1 "mix.cu"
.visible .func (.param .b32 r) mix(.param .b32 a)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [a];
  mul.lo.s32 %r2, %r1, 3;
  st.param.b32 [r], %r2;
  ret;
}
.visible .func (.param .b32 r) finish(.param .b32 a)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [a];
  shr.u32 %r2, %r1, 16;
  st.param.b32 [r], %r2;
  ret;
}
)";

std::string unit(std::string_view body, std::string_view header = kHeader) {
  return std::string(header) + std::string(body);
}

/// Parses every text and links them ("unit 0", "unit 1", ...).
ir::LinkResult link(const std::vector<std::string>& texts) {
  std::vector<std::unique_ptr<ir::Module>> parsed;
  std::vector<ir::LinkUnit> units;
  for (size_t i = 0; i < texts.size(); ++i) {
    parsed.push_back(parseOrFail(texts[i], "unit" + std::to_string(i)));
    if (!parsed.back())
      return {};
    units.push_back({parsed.back().get(), "unit " + std::to_string(i)});
  }
  return ir::linkModules(units);
}

size_t count(const std::string& text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

/// The linked module assembles (as a whole program, not relocatable, when nothing is left
/// unresolved).
void expectAssembles(const std::string& ptx) {
  PtxasResult result = runPtxas(ptx, "sm_90");
  if (!result.ran)
    GTEST_SKIP() << "ptxas could not be started";
  EXPECT_TRUE(result.ok()) << result.output << "\n" << ptx;
}

TEST(ModuleLinker, ResolvesExternsAcrossThreeUnits) {
  ir::LinkResult linked = link({unit(kMain), unit(kStep), unit(kMix)});
  ASSERT_TRUE(linked.ok()) << linked.error;
  EXPECT_TRUE(linked.unresolved.empty());
  EXPECT_TRUE(linked.renamed.empty());
  const std::string text = ir::emitPtx(*linked.module);
  EXPECT_EQ(count(text, ".extern"), 0u) << text;
  // One definition each, and a prototype (with the definition's linkage) where a unit used a
  // function of a later unit.
  for (std::string_view name : {"step", "mix", "finish", "loop"}) {
    size_t bodies = 0;
    for (const ir::Function* f : linked.module->functions())
      if (f->name() == name && f->hasBody())
        ++bodies;
    EXPECT_EQ(bodies, 1u) << name;
  }
  const ir::Function* first = linked.module->functions().front();
  EXPECT_EQ(first->name(), "step");
  EXPECT_FALSE(first->hasBody());
  EXPECT_EQ(first->linkage(), ir::Linkage::Visible);
  // Each unit's .file 1 follows the previous units'.
  EXPECT_NE(text.find(".file\t1 \"main.cu\""), std::string::npos) << text;
  EXPECT_NE(text.find(".file\t2 \"step.cu\""), std::string::npos) << text;
  EXPECT_NE(text.find(".file\t3 \"mix.cu\""), std::string::npos) << text;
  EXPECT_NE(text.find(".loc\t2 3 1"), std::string::npos) << text;
  EXPECT_NE(text.find(".loc\t1 7 1"), std::string::npos) << text;
  // The linked module is a whole program: it assembles without -c as well.
  expectAssembles(text);
  // And parses back to the same module.
  auto reparsed = parseOrFail(text, "linked");
  ASSERT_TRUE(reparsed);
  EXPECT_TRUE(reparsed->equals(*linked.module));
}

TEST(ModuleLinker, UnitOrderDoesNotMatter) {
  ir::LinkResult linked = link({unit(kMix), unit(kStep), unit(kMain)});
  ASSERT_TRUE(linked.ok()) << linked.error;
  const std::string text = ir::emitPtx(*linked.module);
  EXPECT_EQ(count(text, ".extern"), 0u) << text;
  expectAssembles(text);
}

constexpr std::string_view kLocalsA = R"(
.global .align 4 .u32 counter;
.global .align 1 .b8 $str[3] = {104, 105, 0};
.func (.param .b32 r) helper(.param .b32 a)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [a];
  ld.global.u32 %r2, [counter];
  add.s32 %r2, %r2, %r1;
  st.param.b32 [r], %r2;
  ret;
}
.visible .entry first(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  mov.u32 %r1, %tid.x;
  {
  .param .b32 p0;
  st.param.b32 [p0], %r1;
  .param .b32 rv;
  call.uni (rv), helper, (p0);
  ld.param.b32 %r2, [rv];
  }
  mov.u64 %rd1, $str;
  ld.param.u64 %rd2, [out];
  st.global.u32 [%rd2], %r2;
  ret;
}
)";

/// The same local names as kLocalsA, and a parameter that shadows one of them.
constexpr std::string_view kLocalsB = R"(
.global .align 4 .u32 counter;
.global .align 1 .b8 $str[4] = {121, 111, 117, 0};
.global .align 8 .u64 table[1] = {counter};
.func (.param .b32 r) helper(.param .b32 a)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [a];
  ld.global.u32 %r2, [counter];
  mul.lo.s32 %r2, %r2, %r1;
  st.param.b32 [r], %r2;
  ret;
}
.visible .entry second(.param .u64 counter)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  mov.u32 %r1, %tid.x;
  {
  .param .b32 p0;
  st.param.b32 [p0], %r1;
  .param .b32 rv;
  call.uni (rv), helper, (p0);
  ld.param.b32 %r2, [rv];
  }
  mov.u64 %rd1, $str;
  ld.param.u64 %rd2, [counter];
  st.global.u32 [%rd2], %r2;
  ret;
}
)";

TEST(ModuleLinker, RenamesCollidingLocalsOfLaterUnits) {
  ir::LinkResult linked = link({unit(kLocalsA), unit(kLocalsB)});
  ASSERT_TRUE(linked.ok()) << linked.error;
  ASSERT_EQ(linked.renamed.size(), 3u);
  for (const auto& r : linked.renamed) {
    EXPECT_EQ(r.unit, "unit 1");
    EXPECT_EQ(r.to, r.from + "_unit1");
  }
  const std::string text = ir::emitPtx(*linked.module);
  // Unit 0 keeps its names; unit 1's definitions and references use the new ones.
  EXPECT_NE(text.find(".global .align 4 .u32 counter;"), std::string::npos) << text;
  EXPECT_NE(text.find(".global .align 4 .u32 counter_unit1;"), std::string::npos) << text;
  EXPECT_NE(text.find("{counter_unit1}"), std::string::npos) << text;
  EXPECT_NE(text.find("ld.global.u32 \t%r2, [counter_unit1]"), std::string::npos) << text;
  EXPECT_NE(text.find("call.uni \t(rv), helper_unit1, (p0)"), std::string::npos) << text;
  EXPECT_NE(text.find("mov.u64 \t%rd1, $str_unit1"), std::string::npos) << text;
  // The kernel parameter named `counter` shadows the variable: not renamed.
  EXPECT_NE(text.find("ld.param.u64 \t%rd2, [counter]"), std::string::npos) << text;
  EXPECT_EQ(count(text, "[counter]"), 2u) << text; // unit 0's helper, unit 1's kernel
  expectAssembles(text);
}

TEST(ModuleLinker, FreshNamesAvoidExistingOnes) {
  std::string taken = std::string(kLocalsB) + ".global .align 4 .u32 counter_unit1;\n";
  ir::LinkResult linked = link({unit(kLocalsA), unit(taken)});
  ASSERT_TRUE(linked.ok()) << linked.error;
  const std::string text = ir::emitPtx(*linked.module);
  EXPECT_NE(text.find(".u32 counter__unit1;"), std::string::npos) << text;
  expectAssembles(text);
}

constexpr std::string_view kWeakDefinition = R"(
.weak .func (.param .b32 r) shared(.param .b32 a)
{
  .reg .b32 %r<2>;
  ld.param.b32 %r1, [a];
  st.param.b32 [r], %r1;
  ret;
}
)";

constexpr std::string_view kStrongDefinition = R"(
.visible .func (.param .b32 r) shared(.param .b32 a)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [a];
  add.s32 %r2, %r1, 41;
  st.param.b32 [r], %r2;
  ret;
}
)";

const ir::Function* definitionOf(const ir::Module& module, std::string_view name) {
  for (const ir::Function* f : module.functions())
    if (f->name() == name && f->hasBody())
      return f;
  return nullptr;
}

TEST(ModuleLinker, VisibleWinsOverWeakAndTheFirstWeakWinsOverLaterOnes) {
  ir::LinkResult strong = link({unit(kWeakDefinition), unit(kStrongDefinition)});
  ASSERT_TRUE(strong.ok()) << strong.error;
  const ir::Function* kept = definitionOf(*strong.module, "shared");
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ(kept->linkage(), ir::Linkage::Visible);
  const std::string text = ir::emitPtx(*strong.module);
  EXPECT_NE(text.find("41"), std::string::npos);
  EXPECT_EQ(count(text, ".weak"), 0u) << text; // the weak one became a prototype, .visible
  expectAssembles(text);

  ir::LinkResult weak = link({unit(kWeakDefinition), unit(kWeakDefinition)});
  ASSERT_TRUE(weak.ok()) << weak.error;
  size_t bodies = 0;
  for (const ir::Function* f : weak.module->functions())
    bodies += f->hasBody() ? 1 : 0;
  EXPECT_EQ(bodies, 1u);
  expectAssembles(ir::emitPtx(*weak.module));
}

TEST(ModuleLinker, TheLargestCommonVariableWins) {
  ir::LinkResult linked = link({unit(".common .global .align 4 .b32 pool[4];\n"),
                                unit(".common .global .align 4 .b32 pool[16];\n"),
                                unit(".common .global .align 4 .b32 pool[8];\n")});
  ASSERT_TRUE(linked.ok()) << linked.error;
  const std::string text = ir::emitPtx(*linked.module);
  EXPECT_EQ(count(text, "pool"), 1u) << text;
  EXPECT_NE(text.find("pool[16]"), std::string::npos) << text;
}

TEST(ModuleLinker, AnExternVariableDefinedLaterMovesTheDefinitionUp) {
  constexpr std::string_view user = R"(
.extern .global .align 4 .u32 limit;
.visible .entry use(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.global.u32 %r1, [limit];
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], %r1;
  ret;
}
)";
  ir::LinkResult linked = link({unit(user), unit(".visible .global .align 4 .u32 limit = 7;\n")});
  ASSERT_TRUE(linked.ok()) << linked.error;
  const std::string text = ir::emitPtx(*linked.module);
  EXPECT_EQ(count(text, "limit = 7"), 1u) << text;
  EXPECT_LT(text.find("limit = 7"), text.find(".entry use")) << text;
  EXPECT_EQ(count(text, ".extern"), 0u) << text;
  expectAssembles(text);
}

TEST(ModuleLinker, SymbolsNoUnitDefinesStayExternOnce) {
  constexpr std::string_view caller = R"(
.extern .func (.param .b64 r) cudaGetParameterBufferV2(.param .b64 a, .param .b64 b);
.visible .func use%s()
{
  .reg .b64 %rd<2>;
  {
  .param .b64 p0;
  st.param.b64 [p0], 0;
  .param .b64 p1;
  st.param.b64 [p1], 0;
  .param .b64 rv;
  call.uni (rv), cudaGetParameterBufferV2, (p0, p1);
  ld.param.b64 %rd1, [rv];
  }
  ret;
}
)";
  std::string a(caller), b(caller);
  a.replace(a.find("%s"), 2, "A");
  b.replace(b.find("%s"), 2, "B");
  ir::LinkResult linked = link({unit(a), unit(b)});
  ASSERT_TRUE(linked.ok()) << linked.error;
  EXPECT_EQ(linked.unresolved, std::vector<std::string>{"cudaGetParameterBufferV2"});
  const std::string text = ir::emitPtx(*linked.module);
  EXPECT_EQ(count(text, ".extern .func"), 1u) << text;
  expectAssembles(text); // relocatable (ptxas -c): the driver's linker resolves the rest
}

TEST(ModuleLinker, TheHighestVersionWins) {
  ir::LinkResult linked = link({unit(kMix, ".version 8.5\n.target sm_90\n.address_size 64\n"),
                                unit(kStep, ".version 9.0\n.target sm_90\n.address_size 64\n")});
  ASSERT_TRUE(linked.ok()) << linked.error;
  EXPECT_EQ(linked.module->version(), "9.0");
}

TEST(ModuleLinker, MergesTheDebugStringsOfLineinfoUnits) {
  constexpr std::string_view strings = R"(
.section .debug_str
{
$L__info_string0:
.b8 102,0
}
)";
  std::string withLoc = std::string(kStep);
  withLoc.replace(withLoc.find(".loc 1 3 1"), 10,
                  ".loc 1 2 1\n  .loc 1 3 1, function_name $L__info_string0, inlined_at 1 2 1");
  ir::LinkResult linked = link({unit(std::string(kMain) + std::string(strings)),
                                unit(withLoc + std::string(strings)), unit(kMix)});
  ASSERT_TRUE(linked.ok()) << linked.error;
  const std::string text = ir::emitPtx(*linked.module);
  EXPECT_EQ(count(text, ".section"), 1u) << text;
  EXPECT_NE(text.find("$L__info_string0:"), std::string::npos) << text;
  EXPECT_NE(text.find("$L__info_string0_unit1:"), std::string::npos) << text;
  EXPECT_NE(text.find("function_name $L__info_string0_unit1, inlined_at 2 2 1"), std::string::npos)
      << text;
  expectAssembles(text);
}

TEST(ModuleLinker, DuplicateStrongDefinitionsAreAnError) {
  ir::LinkResult linked = link({unit(kMix), unit(kMix)});
  EXPECT_FALSE(linked.ok());
  EXPECT_EQ(linked.error, "finish is defined in both unit 0 and unit 1 (two .visible definitions)");
}

TEST(ModuleLinker, ConflictingDeclarationsAreAnError) {
  constexpr std::string_view wrong = R"(
.extern .func (.param .b64 r) mix(.param .b32 a);
)";
  ir::LinkResult linked = link({unit(wrong), unit(kMix)});
  EXPECT_FALSE(linked.ok());
  EXPECT_NE(linked.error.find("conflicting declarations of mix"), std::string::npos)
      << linked.error;

  ir::LinkResult kinds = link({unit(".extern .global .align 4 .u32 mix;\n"), unit(kMix)});
  EXPECT_FALSE(kinds.ok());
  EXPECT_NE(kinds.error.find("mix is a variable in unit 0 but a function in unit 1"),
            std::string::npos)
      << kinds.error;

  ir::LinkResult types = link(
      {unit(".extern .global .align 4 .u32 v;\n"), unit(".visible .global .align 8 .u64 v;\n")});
  EXPECT_FALSE(types.ok());
  EXPECT_NE(types.error.find("conflicting declarations of v"), std::string::npos) << types.error;
}

TEST(ModuleLinker, CommonAndDefinedAreAnError) {
  ir::LinkResult linked = link({unit(".common .global .align 4 .b32 pool[4];\n"),
                                unit(".visible .global .align 4 .b32 pool[4];\n")});
  EXPECT_FALSE(linked.ok());
  EXPECT_EQ(linked.error, "pool is .common in unit 0 but defined as .visible in unit 1");
}

TEST(ModuleLinker, LocalKernelsOfOneNameAreAnError) {
  constexpr std::string_view local = ".entry k()\n{\n  ret;\n}\n";
  ir::LinkResult linked = link({unit(local), unit(local)});
  EXPECT_FALSE(linked.ok());
  EXPECT_NE(linked.error.find("kernel k is local to both unit 0 and unit 1"), std::string::npos)
      << linked.error;
  ir::LinkResult clash = link({unit(".visible .global .align 4 .u32 k;\n"), unit(local)});
  EXPECT_FALSE(clash.ok());
  EXPECT_NE(clash.error.find("kernel k of unit 1 has the name of another unit's symbol"),
            std::string::npos)
      << clash.error;
}

TEST(ModuleLinker, HeadersMustAgree) {
  ir::LinkResult targets =
      link({unit(kMix), unit(kStep, ".version 9.0\n.target sm_80\n.address_size 64\n")});
  EXPECT_FALSE(targets.ok());
  EXPECT_EQ(targets.error, "unit 0 targets sm_90 but unit 1 targets sm_80: units of one program "
                           "must have the same .target");
  ir::LinkResult debug =
      link({unit(kMix, ".version 9.0\n.target sm_90, debug\n.address_size 64\n"),
            unit(kStep, ".version 9.0\n.target sm_90, debug\n.address_size 64\n")});
  EXPECT_FALSE(debug.ok());
  EXPECT_NE(debug.error.find("-G"), std::string::npos) << debug.error;
  EXPECT_FALSE(ir::linkModules({}).ok());
}

/// The corpus's -rdc pair (tests/corpus/src/rdc_library.cu, rdc_consumer.cu), when the corpus
/// was built: linked, it assembles.
TEST(ModuleLinker, CorpusRdcPairAssembles) {
  const std::string dir = std::string(OCELOT_BINARY_DIR) + "/tests/corpus/ptx/";
  const std::string library = dir + "rdc_library.sm_90.ptx";
  const std::string consumer = dir + "rdc_consumer.sm_90.ptx";
  if (!std::filesystem::exists(library) || !std::filesystem::exists(consumer))
    GTEST_SKIP() << "the corpus was not built (-DOCELOT_BUILD_CORPUS=ON)";
  ir::LinkResult linked = link({readTextFile(consumer), readTextFile(library)});
  ASSERT_TRUE(linked.ok()) << linked.error;
  const std::string text = ir::emitPtx(*linked.module);
  EXPECT_EQ(count(text, ".extern .func"), linked.unresolved.size() - 1) << text; // + dynamic smem
  expectAssembles(text);
}

} // namespace
} // namespace ocelot::test
