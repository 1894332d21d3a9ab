#include "tests/support/CorpusTwins.h"

#include <gtest/gtest.h>

namespace ocelot::test {
namespace {

const std::string kBody = "\n.address_size 64\n\n.visible .entry k()\n{\n\tret;\n}\n";

TEST(CorpusTwins, TheSameCodeForAnotherTargetIsATwin) {
  EXPECT_TRUE(samePtxButTarget(".version 9.0\n.target sm_90a" + kBody, "sm_90a",
                               ".version 9.0\n.target sm_90" + kBody, "sm_90"));
  EXPECT_TRUE(samePtxButTarget(".version 9.0\n.target sm_90a, debug" + kBody, "sm_90a",
                               ".version 9.0\n.target sm_90, debug" + kBody, "sm_90"));
}

TEST(CorpusTwins, OtherCodeOrOtherTargetFlagsAreNot) {
  // One instruction more.
  EXPECT_FALSE(samePtxButTarget(".version 9.0\n.target sm_90a" + kBody + "\n", "sm_90a",
                                ".version 9.0\n.target sm_90" + kBody, "sm_90"));
  // The debug flag on one side only.
  EXPECT_FALSE(samePtxButTarget(".version 9.0\n.target sm_90a, debug" + kBody, "sm_90a",
                                ".version 9.0\n.target sm_90" + kBody, "sm_90"));
  // Another PTX version.
  EXPECT_FALSE(samePtxButTarget(".version 8.8\n.target sm_90a" + kBody, "sm_90a",
                                ".version 9.0\n.target sm_90" + kBody, "sm_90"));
  // No target line.
  EXPECT_FALSE(samePtxButTarget(".version 9.0" + kBody, "sm_90a", ".version 9.0" + kBody, "sm_90"));
}

TEST(CorpusTwins, OnlyArchitectureSpecificTargetsHaveABaseTwin) {
  CorpusEntry base{"/c/ptx/sorting.sm_90.ptx", "sm_90", CorpusVariant::Plain, "/c/x.cubin"};
  CorpusEntry twin{"/c/ptx/sorting.sm_90a.ptx", "sm_90a", CorpusVariant::Plain, "/c/y.cubin"};
  // The base module's file does not exist here, so its text is empty: not the same code.
  EXPECT_FALSE(baseTargetTwin(twin, ".version 9.0\n.target sm_90a" + kBody, {base, twin}));
  // A base target never has a twin.
  EXPECT_FALSE(baseTargetTwin(base, ".version 9.0\n.target sm_90" + kBody, {base, twin}));
  EXPECT_FALSE(corpusTwinBase(twin, ".version 9.0\n.target sm_90a" + kBody, {base}));
}

TEST(CorpusTwins, TheSameCodeWithALineTableIsALineInfoTwin) {
  const std::string plain = ".version 9.0\n.target sm_90\n.address_size 64\n\n.visible .entry k()\n"
                            "{\n\tmov.u32 %r1, 1;\n\tret;\n}\n";
  const std::string lined =
      ".version 9.0\n.target sm_90\n.address_size 64\n\n.visible .entry k()\n{\n"
      "\t.loc\t1 4 3\n\tmov.u32 %r1, 1;\n\t.loc\t1 5 1, function_name $L__info_string0\n"
      "\tret;\n}\n\t.file\t1 \"/src/k.cu\"\n\t.section\t.debug_str\n\t{\n$L__info_string0:\n"
      ".b8 107,0\n\t}\n";
  EXPECT_TRUE(samePtxButLineTable(lined, plain));
  EXPECT_TRUE(samePtxButLineTable(plain, plain));
  // Another instruction, or another operand, is other code.
  std::string other = lined;
  other.replace(other.find("%r1, 1"), 6, "%r1, 2");
  EXPECT_FALSE(samePtxButLineTable(other, plain));
  // Only the .debug_str section goes: any other section stays.
  std::string section = plain + "\t.section\t.debug_abbrev\n\t{\n.b8 1\n\t}\n";
  EXPECT_FALSE(samePtxButLineTable(section, plain));

  CorpusEntry base{"/c/ptx/k.sm_90.ptx", "sm_90", CorpusVariant::Plain, "/c/x.cubin"};
  CorpusEntry twin{"/c/ptx/k.sm_90.lineinfo.ptx", "sm_90", CorpusVariant::LineInfo, "/c/y.cubin"};
  EXPECT_TRUE(sameCodeAsTwin(lined, twin, plain, base));
  EXPECT_FALSE(sameCodeAsTwin(other, twin, plain, base));
  // Small -lineinfo modules are assembled themselves (their line tables under ptxas): no twin.
  EXPECT_FALSE(lineInfoTwin(twin, lined, {base, twin}));
  // A large one whose plain build cannot be read (empty text here) is not a twin either.
  const std::string large = lined + std::string(70 * 1024, '\n');
  EXPECT_FALSE(lineInfoTwin(twin, large, {base, twin}));
  // Only -lineinfo modules have a plain twin.
  EXPECT_FALSE(lineInfoTwin(base, large, {base, twin}));
}

} // namespace
} // namespace ocelot::test
