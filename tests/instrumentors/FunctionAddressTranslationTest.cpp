// Function-pointer identity in instrumented copies (instrumentors/FunctionAddressTable.h,
// FunctionAddressTranslation.h): which functions the table lists, what the translation rewrites,
// which kernels it leaves uninstrumented and why; every result assembles with ptxas.

#include "instrumentors/FunctionAddressTranslation.h"

#include "InstrumentorTestSupport.h"
#include "instrumentors/FunctionAddressTable.h"
#include "ir/Emitter.h"
#include "ir/Parser.h"

#include <gtest/gtest.h>

#include <map>

namespace ocelot::test {
namespace {

using instrumentors::OriginalFunctionAddresses;

/// Three functions of one shape, one of another; a table of two of them; kernels that take an
/// address, call through a pointer (a prototype, a `.calltargets` list), and one without either.
const char* kPointers = R"(.version 8.5
.target sm_90
.address_size 64

.func (.param .b32 r) twice(.param .b32 x);
.func (.param .b32 r) thrice(.param .b32 x);

.global .align 8 .u64 table[2] = {twice, thrice};

.func (.param .b32 r) twice(.param .b32 x)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [x];
	add.s32 %r2, %r1, %r1;
	st.param.b32 [r], %r2;
	ret;
}

.func (.param .b32 r) thrice(.param .b32 x)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [x];
	mul.lo.s32 %r2, %r1, 3;
	st.param.b32 [r], %r2;
	ret;
}

.func (.param .b32 r) negate(.param .b32 x)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [x];
	neg.s32 %r2, %r1;
	st.param.b32 [r], %r2;
	ret;
}

.func (.param .b64 r) wide(.param .b64 x)
{
	.reg .b64 %rd<3>;
	ld.param.b64 %rd1, [x];
	add.s64 %rd2, %rd1, 1;
	st.param.b64 [r], %rd2;
	ret;
}

.visible .entry take(.param .u64 out)
{
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [out];
	mov.u64 %rd2, negate;
	st.global.u64 [%rd1], %rd2;
	mov.u64 %rd3, wide;
	st.global.u64 [%rd1+8], %rd3;
	ret;
}

.visible .entry call_proto(.param .u64 out, .param .u32 which)
{
	.reg .pred %p<2>;
	.reg .b32 %r<3>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [which];
	mov.u64 %rd2, table;
	mul.wide.u32 %rd3, %r1, 8;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.u64 %rd5, [%rd4];
	{
	.param .b32 arg;
	st.param.b32 [arg], %r1;
	.param .b32 ret0;
	proto : .callprototype (.param .b32 _) _ (.param .b32 _);
	call (ret0), %rd5, (arg), proto;
	ld.param.b32 %r2, [ret0];
	}
	st.global.u32 [%rd1], %r2;
	ret;
}

.visible .entry call_targets(.param .u64 fn, .param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [fn];
	ld.param.u64 %rd2, [out];
	{
	.param .b32 arg;
	st.param.b32 [arg], 7;
	.param .b32 ret0;
	both : .calltargets twice, thrice;
	call (ret0), %rd1, (arg), both;
	ld.param.b32 %r1, [ret0];
	}
	st.global.u32 [%rd2], %r1;
	ret;
}

.visible .entry plain(.param .u64 out)
{
	.reg .b64 %rd<2>;
	.reg .b32 %r<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	st.global.u32 [%rd1], %r1;
	ret;
}
)";

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

void expectAssembles(const std::string& ptx) {
  if (!ptxasAvailable())
    GTEST_SKIP() << "ptxas not found";
  PtxasRun run = runPtxas(ptx, "sm_90");
  EXPECT_TRUE(run.ok()) << run.output << "\n" << ptx;
}

/// `ptx` as the module pipeline loads it: with its function-address table.
std::string withTable(const std::string& ptx) {
  auto parsed = ir::parsePtx(ptx, "test");
  EXPECT_TRUE(parsed.ok()) << parsed.firstError();
  instrumentors::addFunctionAddressTable(*parsed.module, 0);
  return ir::emitPtx(*parsed.module);
}

/// Original addresses as a loaded module would hold them: 0x100 * (position in the table + 1).
OriginalFunctionAddresses fakeOriginals(std::map<std::string, size_t>* asked = nullptr) {
  return [asked](std::string_view name, size_t entries) -> std::optional<std::vector<uint64_t>> {
    if (asked != nullptr)
      (*asked)[std::string(name)] = entries;
    std::vector<uint64_t> values;
    for (size_t i = 0; i < entries; ++i)
      values.push_back(0x100 * (i + 1));
    return values;
  };
}

instrumentors::InstrumentedPtx instrument(const std::string& ptx,
                                          const OriginalFunctionAddresses& originals,
                                          bool linked = false,
                                          const std::string& list = "bbcount,ctaclock") {
  static std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  instrumentors::InstrumentorRegistry registry;
  std::vector<instrumentors::SlotRequest> slots;
  for (const auto& spec : instrumentors::parseInstrumentorList(list)) {
    keep.push_back(registry.create(spec.name, spec.options));
    slots.push_back({keep.back().get(), keep.back()->variant(LaunchInfo{}, {}).variant});
  }
  instrumentors::InstrumentOptions options;
  options.label = "test";
  options.linked = linked;
  options.addresses = [](std::string_view) -> std::optional<uint64_t> { return 0x7000; };
  options.functionAddresses = originals;
  return instrumentors::instrumentModule(ptx, slots, options);
}

std::string exclusionOf(const instrumentors::InstrumentedPtx& out, const std::string& kernel) {
  for (const auto& e : out.exclusions)
    if (e.function == kernel)
      return e.reason;
  return {};
}

TEST(FunctionAddressTable, ListsFunctionsUsedAsValuesNotKernelsOrDirectCalls) {
  auto parsed = ir::parsePtx(kPointers, "test");
  ASSERT_TRUE(parsed.ok());
  auto taken = instrumentors::addressTakenFunctions(*parsed.module);
  std::vector<std::string> names(taken.begin(), taken.end());
  // In order of first use: the table's initializer, then `take`'s movs. `.calltargets` names
  // targets, not addresses.
  EXPECT_EQ(names, (std::vector<std::string>{"twice", "thrice", "negate", "wide"}));
}

TEST(FunctionAddressTable, IsAddedAfterTheFunctionsAndAssembles) {
  std::string ptx = withTable(kPointers);
  EXPECT_NE(ptx.find(".global .align 8 .u64 __ocelot_function_addresses_0[4] = {twice, thrice, "
                     "negate, wide};"),
            std::string::npos)
      << ptx;
  EXPECT_GT(ptx.find("__ocelot_function_addresses_0"), ptx.find(".entry plain"));
  auto tables = instrumentors::functionAddressTables(*ir::parsePtx(ptx, "again").module);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].name, "__ocelot_function_addresses_0");
  EXPECT_EQ(tables[0].functions.size(), 4u);
  expectAssembles(ptx);
}

TEST(FunctionAddressTable, ModulesWithoutFunctionPointersAreLeftExactlyAsTheyWere) {
  auto parsed = ir::parsePtx(kLoopKernel, "test");
  ASSERT_TRUE(parsed.ok());
  const std::string before = ir::emitPtx(*parsed.module);
  EXPECT_EQ(instrumentors::addFunctionAddressTable(*parsed.module, 0), 0u);
  EXPECT_EQ(ir::emitPtx(*parsed.module), before);
}

TEST(FunctionAddressTranslation, NamesBecomeOriginalAddressesAndCallsTranslate) {
  std::map<std::string, size_t> asked;
  auto out = instrument(withTable(kPointers), fakeOriginals(&asked));
  ASSERT_TRUE(out.ok) << out.error;
  EXPECT_EQ(asked["__ocelot_function_addresses_0"], 4u);
  EXPECT_EQ(out.translatedFunctions, 4u);
  // take: negate and wide are the table's third and fourth entries.
  EXPECT_NE(out.ptx.find("mov.u64 \t%rd2, 0x300;"), std::string::npos) << out.ptx;
  EXPECT_NE(out.ptx.find("mov.u64 \t%rd3, 0x400;"), std::string::npos) << out.ptx;
  EXPECT_EQ(out.materializedAddresses, 2u);
  // call_proto: a chain over the three functions of its shape (not `wide`), into the copies.
  EXPECT_EQ(out.translatedCalls, 2u);
  // call_proto's pointer is %rd5, call_targets' %rd1.
  for (const char* original : {"0x100;", "0x200;", "0x300;"})
    EXPECT_EQ(occurrences(out.ptx, std::string("%rd5, ") + original), 1u) << original << out.ptx;
  EXPECT_EQ(occurrences(out.ptx, "%rd5, 0x400;"), 0u) << "wide cannot be called with proto";
  EXPECT_EQ(occurrences(out.ptx, "%rd1, 0x100;"), 1u);
  EXPECT_EQ(occurrences(out.ptx, "%rd1, 0x200;"), 1u);
  EXPECT_EQ(occurrences(out.ptx, "%rd1, 0x300;"), 0u) << "call_targets names twice and thrice";
  EXPECT_EQ(occurrences(out.ptx, ", twice;"), 2u) << out.ptx; // the copies, not the originals
  EXPECT_EQ(occurrences(out.ptx, ", negate;"), 1u);
  // Every kernel stays instrumented; the module's own tables and vtables are not touched.
  for (const char* kernel : {"take", "call_proto", "call_targets", "plain"})
    EXPECT_TRUE(out.kernels.contains(kernel)) << kernel << ": " << exclusionOf(out, kernel);
  EXPECT_NE(out.ptx.find("table[2] = {twice, thrice}"), std::string::npos);
  expectAssembles(out.ptx);
}

TEST(FunctionAddressTranslation, UnknownOriginalsLeaveOnlyTheKernelsThatNeedThemUninstrumented) {
  auto none = [](std::string_view, size_t) -> std::optional<std::vector<uint64_t>> {
    return std::nullopt;
  };
  auto out = instrument(withTable(kPointers), none);
  ASSERT_TRUE(out.ok) << out.error;
  for (const char* kernel : {"take", "call_proto", "call_targets"}) {
    EXPECT_FALSE(out.kernels.contains(kernel)) << kernel;
    EXPECT_NE(exclusionOf(out, kernel).find("original addresses are unknown"), std::string::npos)
        << exclusionOf(out, kernel);
  }
  EXPECT_TRUE(out.kernels.contains("plain"));
  EXPECT_EQ(out.translatedCalls, 0u);
  EXPECT_NE(out.ptx.find("mov.u64 \t%rd2, negate;"), std::string::npos) << "left as it was";
  expectAssembles(out.ptx);

  // Without the pipeline's table (the module is the application's own binary) the same.
  auto bare = instrument(kPointers, fakeOriginals());
  EXPECT_FALSE(bare.kernels.contains("call_proto"));
  EXPECT_NE(exclusionOf(bare, "call_proto").find("recorded no function addresses"),
            std::string::npos);
  EXPECT_TRUE(bare.kernels.contains("plain"));
}

TEST(FunctionAddressTranslation, ATableOfTheWrongSizeIsNotTrusted) {
  auto wrong = [](std::string_view, size_t entries) -> std::optional<std::vector<uint64_t>> {
    return std::vector<uint64_t>(entries + 1, 0x100);
  };
  auto out = instrument(withTable(kPointers), wrong);
  EXPECT_FALSE(out.kernels.contains("take"));
  EXPECT_NE(exclusionOf(out, "take").find("does not match"), std::string::npos);
}

TEST(FunctionAddressTranslation, ManyCandidatesUseABinarySearchOverSortedTables) {
  // 40 functions of one shape, declared after the kernel that calls through a pointer (the pass
  // must declare them before its tables).
  std::string ptx = ".version 8.5\n.target sm_90\n.address_size 64\n\n";
  ptx += R"(.visible .entry call_many(.param .u64 fn, .param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [fn];
	ld.param.u64 %rd2, [out];
	{
	.param .b32 arg;
	st.param.b32 [arg], 7;
	.param .b32 ret0;
	proto : .callprototype (.param .b32 _) _ (.param .b32 _);
	call (ret0), %rd1, (arg), proto;
	ld.param.b32 %r1, [ret0];
	}
	st.global.u32 [%rd2], %r1;
	ret;
}
)";
  std::string table = ".global .align 8 .u64 many[40] = {";
  for (int i = 0; i < 40; ++i) {
    std::string name = "f" + std::to_string(i);
    ptx += ".func (.param .b32 r) " + name +
           "(.param .b32 x)\n{\n\t.reg .b32 %r<3>;\n\tld.param.b32 " +
           "%r1, [x];\n\tadd.s32 %r2, %r1, " + std::to_string(i) +
           ";\n\tst.param.b32 [r], %r2;\n\tret;\n}\n";
    table += (i ? ", " : "") + name;
  }
  ptx += table + "};\n";
  // Original addresses in descending order, so that sorting matters.
  auto descending = [](std::string_view, size_t entries) -> std::optional<std::vector<uint64_t>> {
    std::vector<uint64_t> values;
    for (size_t i = 0; i < entries; ++i)
      values.push_back(0x10000 - 0x40 * i);
    return values;
  };
  auto out = instrument(withTable(ptx), descending);
  ASSERT_TRUE(out.ok) << out.error;
  EXPECT_TRUE(out.kernels.contains("call_many")) << exclusionOf(out, "call_many");
  EXPECT_EQ(out.translatedCalls, 1u);
  // 40 candidates pad to 64 entries: six probes, then the match.
  EXPECT_NE(out.ptx.find("__ocelot_sorted_function_addresses[64] = {0xF640, 0xF680"),
            std::string::npos)
      << out.ptx;
  EXPECT_NE(out.ptx.find("__ocelot_sorted_function_copies[64] = {f39, f38"), std::string::npos);
  EXPECT_EQ(occurrences(out.ptx, "ld.global.nc.u64"), 6u + 2u);
  EXPECT_EQ(occurrences(out.ptx, "setp.eq.u64"), 1u);
  expectAssembles(out.ptx);
}

TEST(FunctionAddressTranslation, KernelAddressesAndLinkedIndirectCallsCannotKeepIdentity) {
  std::string ptx = kPointers;
  ptx += R"(
.visible .entry launcher(.param .u64 out)
{
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	mov.u64 %rd2, plain;
	st.global.u64 [%rd1], %rd2;
	ret;
}
)";
  auto out = instrument(withTable(ptx), fakeOriginals());
  ASSERT_TRUE(out.ok) << out.error;
  EXPECT_FALSE(out.kernels.contains("launcher"));
  EXPECT_NE(exclusionOf(out, "launcher").find("takes the address of kernel plain"),
            std::string::npos)
      << exclusionOf(out, "launcher");
  EXPECT_TRUE(out.kernels.contains("call_proto"));

  auto linked = instrument(withTable(kPointers), fakeOriginals(), /*linked=*/true);
  ASSERT_TRUE(linked.ok) << linked.error;
  EXPECT_FALSE(linked.kernels.contains("call_proto"));
  EXPECT_NE(exclusionOf(linked, "call_proto").find("-rdc"), std::string::npos);
  EXPECT_TRUE(linked.kernels.contains("take")) << "its table holds what it takes";
  expectAssembles(linked.ptx);
}

TEST(FunctionAddressTranslation, FunctionScopeInitializersHoldOriginalAddresses) {
  const std::string ptx = R"(.version 8.5
.target sm_90
.address_size 64

.func (.param .b32 r) g(.param .b32 x)
{
	.reg .b32 %r<2>;
	ld.param.b32 %r1, [x];
	st.param.b32 [r], %r1;
	ret;
}

.visible .entry k(.param .u64 p)
{
	.global .align 8 .u64 local_table[2] = {g, 0};
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	mov.u64 %rd2, local_table;
	ld.global.u64 %rd3, [%rd2];
	st.global.u64 [%rd1], %rd3;
	ret;
}
)";
  auto parsed = ir::parsePtx(ptx, "test");
  ASSERT_TRUE(parsed.ok()) << parsed.firstError();
  EXPECT_EQ(instrumentors::addressTakenFunctions(*parsed.module).size(), 1u);
  auto out = instrument(withTable(ptx), fakeOriginals());
  ASSERT_TRUE(out.ok) << out.error;
  EXPECT_NE(out.ptx.find("local_table[2] = {0x100, 0}"), std::string::npos) << out.ptx;
  EXPECT_EQ(out.materializedAddresses, 1u);
  EXPECT_TRUE(out.kernels.contains("k"));
  expectAssembles(out.ptx);
}

TEST(FunctionAddressTranslation, OfflineInstrumentationShowsTheTranslationWithPlaceholders) {
  auto out = instrument(kPointers, nullptr);
  ASSERT_TRUE(out.ok) << out.error;
  EXPECT_EQ(out.translatedCalls, 2u);
  EXPECT_TRUE(out.kernels.contains("call_proto"));
  expectAssembles(out.ptx);
}

} // namespace
} // namespace ocelot::test
