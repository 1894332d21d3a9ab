// Front-end bugs the PTX corpus found, each reduced to a few hand-written lines: the snippet
// must parse, emit, and re-parse into an equal module (and, where the bug was in the text,
// emit what it should).

#include "ir/Emitter.h"
#include "ir/Parser.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace ocelot::test {
namespace {

/// Parses `ptx`, emits it, re-parses the emission and checks the two modules are equal.
/// Returns the emitted text ("" after a failure).
std::string roundTrip(const std::string& ptx) {
  ir::ParseResult first = ir::parsePtx(ptx, "regression.ptx");
  if (!first.ok()) {
    ADD_FAILURE() << first.firstError();
    return "";
  }
  // The parser's input buffer is freed by now; reuse its memory so that anything still pointing
  // into it reads garbage instead of the old text (ASan builds report such reads directly).
  for (int i = 0; i < 8; ++i) {
    auto scribble = std::make_unique<char[]>(ptx.size() + 2);
    std::memset(scribble.get(), '#', ptx.size() + 2);
  }
  std::string emitted = ir::emitPtx(*first.module);
  ir::ParseResult second = ir::parsePtx(emitted, "regression.emitted.ptx");
  if (!second.ok()) {
    ADD_FAILURE() << "emitted PTX does not parse: " << second.firstError() << "\n" << emitted;
    return "";
  }
  EXPECT_TRUE(first.module->equals(*second.module)) << emitted;
  return emitted;
}

// Bug: decimal floating-point operands (`createpolicy.fractional... 1.0;`, from inline asm)
// kept a view into the parser's input buffer instead of the module's string pool, so emitting
// after parsing printed freed memory (garbage such as `{ \t`) or crashed. Found in
// memory_model.cu and mbarrier_tma.cu (every variant).
TEST(ParserRegression, DecimalFloatOperandsOutliveTheInput) {
  std::string ptx = R"(.version 9.0
.target sm_90
.address_size 64

.visible .entry policies()
{
	.reg .b64 	%rd<4>;
	.reg .f32 	%f<2>;

	createpolicy.fractional.L2::evict_first.b64 %rd1, 1.0;
	createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %rd2, 0.5;
	mov.f32 	%f1, 1.5e3;
	createpolicy.fractional.L2::evict_last.b64 %rd3, 0.25;
	ret;
}
)";
  std::string emitted = roundTrip(ptx);
  EXPECT_NE(emitted.find("%rd1, 1.0;"), std::string::npos) << emitted;
  EXPECT_NE(emitted.find("%rd2, 0.5;"), std::string::npos) << emitted;
  EXPECT_NE(emitted.find("%f1, 1.5e3;"), std::string::npos) << emitted;
  EXPECT_NE(emitted.find("%rd3, 0.25;"), std::string::npos) << emitted;
}

// Bug: debug sections could not hold label differences. nvcc 13 writes the length fields of
// .debug_pubnames/.debug_pubtypes in sm_100a -G modules as `.b32 $L__pubNames_end0-$L__..start0`,
// which failed with "unexpected character '-'" (every compute_100a -G module).
TEST(ParserRegression, DebugSectionLabelDifferences) {
  std::string ptx = R"(.version 9.0
.target sm_100a, debug
.address_size 64

.visible .entry k()
{
	ret;
}
	.section	.debug_pubnames
	{
.b32 $L__pubNames_end0-$L__pubNames_start0
$L__pubNames_start0:
.b8 2
.b8 0
.b32 .debug_info
.b32 $L__pubNames_end0 - $L__pubNames_start0, $L__pubNames_start0-$L__pubNames_end0
.b32 0
$L__pubNames_end0:
	}
)";
  std::string emitted = roundTrip(ptx);
  EXPECT_NE(emitted.find(".b32 $L__pubNames_end0-$L__pubNames_start0\n"), std::string::npos)
      << emitted;
  EXPECT_NE(emitted.find("$L__pubNames_end0-$L__pubNames_start0, "
                         "$L__pubNames_start0-$L__pubNames_end0"),
            std::string::npos)
      << emitted;

  // The difference is its own kind of value: not the plain symbol, not a symbol plus offset.
  ir::ParseResult withDifference = ir::parsePtx(ptx);
  std::string plain = ptx;
  plain.replace(plain.find("$L__pubNames_end0-$L__pubNames_start0"),
                std::string_view("$L__pubNames_end0-$L__pubNames_start0").size(),
                "$L__pubNames_end0");
  ir::ParseResult withoutDifference = ir::parsePtx(plain);
  ASSERT_TRUE(withDifference.ok() && withoutDifference.ok());
  EXPECT_FALSE(withDifference.module->equals(*withoutDifference.module));
}

} // namespace
} // namespace ocelot::test
