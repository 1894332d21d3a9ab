// `--nvtx-include` rules in Nsight Compute's syntax (ocelot/NvtxRule.h): parsing, and which
// push/pop stacks each rule accepts.

#include "ocelot/NvtxRule.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace ocelot {
namespace {

using Stack = std::vector<std::string>;

TEST(NvtxRule, ParsesDomainsPushPopAndStartEndRanges) {
  NvtxRule plain = NvtxRule::parse("compute/");
  EXPECT_TRUE(plain.pushPop);
  EXPECT_EQ(plain.domain, "");
  EXPECT_EQ(plain.path, Stack({"compute"}));
  NvtxRule nested = NvtxRule::parse("mylib@a/b/");
  EXPECT_EQ(nested.domain, "mylib");
  EXPECT_EQ(nested.path, Stack({"a", "b"}));
  NvtxRule anchored = NvtxRule::parse("[a/b]/");
  EXPECT_TRUE(anchored.anchoredOuter);
  EXPECT_TRUE(anchored.anchoredInner);
  NvtxRule startEnd = NvtxRule::parse("dom@load data");
  EXPECT_FALSE(startEnd.pushPop);
  EXPECT_EQ(startEnd.domain, "dom");
  EXPECT_EQ(startEnd.path, Stack({"load data"}));
  for (const char* bad : {"", "/", "a//b/", "@x/", "d@"})
    EXPECT_THROW(NvtxRule::parse(bad), std::invalid_argument) << bad;
}

TEST(NvtxRule, MatchesStacksAsNsightComputeDoes) {
  const Stack stack = {"main", "compute", "phase1"};
  EXPECT_TRUE(NvtxRule::parse("compute/").matchesStack(stack)); // anywhere
  EXPECT_TRUE(NvtxRule::parse("compute/phase1/").matchesStack(stack));
  EXPECT_FALSE(NvtxRule::parse("main/phase1/").matchesStack(stack)); // not directly inside
  EXPECT_TRUE(NvtxRule::parse("main/*/phase1/").matchesStack(stack));
  EXPECT_TRUE(NvtxRule::parse("main/*/compute/").matchesStack(stack)); // * may be empty
  EXPECT_TRUE(NvtxRule::parse("[main/").matchesStack(stack));
  EXPECT_FALSE(NvtxRule::parse("[compute/").matchesStack(stack));
  EXPECT_TRUE(NvtxRule::parse("phase1]/").matchesStack(stack));
  EXPECT_FALSE(NvtxRule::parse("compute]/").matchesStack(stack));
  EXPECT_TRUE(NvtxRule::parse("[main/compute/phase1]/").matchesStack(stack));
  EXPECT_FALSE(NvtxRule::parse("other/").matchesStack(stack));
  EXPECT_FALSE(NvtxRule::parse("compute/").matchesStack({}));
}

} // namespace
} // namespace ocelot
