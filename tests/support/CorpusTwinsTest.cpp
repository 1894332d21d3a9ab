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

} // namespace
} // namespace ocelot::test
