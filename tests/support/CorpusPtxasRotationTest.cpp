#include "tests/support/CorpusPtxasRotation.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

namespace ocelot::test {
namespace {

constexpr size_t kLarge = kCorpusRotationMinBytes + 1;

/// Names shaped like the corpus's (source.target[.variant]).
std::vector<std::string> corpusLikeNames() {
  std::vector<std::string> names;
  for (const char* source : {"sorting", "async_copy", "cub_algorithms", "thrust_algorithms",
                             "clusters", "templates", "recursion_structs", "shared_memory"})
    for (const char* target : {"sm_75", "sm_90", "sm_90a"})
      for (const char* variant : {"", ".lineinfo", ".debug"})
        names.push_back(std::string(source) + "." + target + variant);
  return names;
}

/// Sets OCELOT_CORPUS_PTXAS for one test and restores it after.
class PtxasMode {
public:
  explicit PtxasMode(const char* value) {
    const char* old = std::getenv("OCELOT_CORPUS_PTXAS");
    had_ = old != nullptr;
    saved_ = had_ ? old : "";
    if (value != nullptr)
      ::setenv("OCELOT_CORPUS_PTXAS", value, 1);
    else
      ::unsetenv("OCELOT_CORPUS_PTXAS");
  }
  ~PtxasMode() {
    if (had_)
      ::setenv("OCELOT_CORPUS_PTXAS", saved_.c_str(), 1);
    else
      ::unsetenv("OCELOT_CORPUS_PTXAS");
  }

private:
  bool had_ = false;
  std::string saved_;
};

TEST(CorpusPtxasRotation, TheChoiceIsAFixedHashOfTheName) {
  // FNV-1a's published 32-bit values: the choice must not change with the standard library.
  EXPECT_EQ(fnv1a(""), 0x811c9dc5u);
  EXPECT_EQ(fnv1a("a"), 0xe40c292cu);
  EXPECT_EQ(fnv1a("foobar"), 0xbf9cf968u);
  // Computed by hand: FNV-1a("sorting.sm_75") = 1043800280, 0 mod 4; async_copy.sm_75: 2 mod 4.
  EXPECT_EQ(rotatedToolSet("sorting.sm_75", kLarge, 4), 0u);
  EXPECT_EQ(rotatedToolSet("async_copy.sm_75", kLarge, 4), 2u);
  for (const auto& name : corpusLikeNames())
    EXPECT_EQ(rotatedToolSet(name, kLarge, 4), rotatedToolSet(std::string(name), 1 << 20, 4))
        << name;
}

TEST(CorpusPtxasRotation, EveryToolSetIsChosenOverTheCorpus) {
  PtxasMode mode(nullptr);
  for (size_t toolSets = 1; toolSets <= 4; ++toolSets) {
    std::set<size_t> chosen;
    for (const auto& name : corpusLikeNames()) {
      auto index = rotatedToolSet(name, kLarge, toolSets);
      ASSERT_TRUE(index.has_value()) << name;
      ASSERT_LT(*index, toolSets) << name;
      chosen.insert(*index);
      // Exactly one tool set assembled per large module.
      size_t assembled = 0;
      for (size_t i = 0; i < toolSets; ++i)
        assembled += corpusAssemblesToolSet(name, kLarge, i, toolSets) ? 1 : 0;
      EXPECT_EQ(assembled, 1u) << name;
    }
    EXPECT_EQ(chosen.size(), toolSets) << toolSets << " tool sets";
  }
}

TEST(CorpusPtxasRotation, SmallModulesAssembleEveryToolSet) {
  PtxasMode mode(nullptr);
  for (const auto& name : corpusLikeNames()) {
    for (size_t bytes : {size_t{0}, size_t{1000}, kCorpusRotationMinBytes}) {
      EXPECT_FALSE(rotatedToolSet(name, bytes, 4).has_value()) << name << " " << bytes;
      for (size_t i = 0; i < 4; ++i)
        EXPECT_TRUE(corpusAssemblesToolSet(name, bytes, i, 4)) << name << " " << bytes;
    }
  }
  // No tool set to assemble: nothing to choose.
  EXPECT_FALSE(rotatedToolSet("sorting.sm_75", kLarge, 0).has_value());
}

TEST(CorpusPtxasRotation, FullInTheEnvironmentAssemblesEveryToolSet) {
  {
    PtxasMode mode("full");
    for (const auto& name : corpusLikeNames())
      for (size_t i = 0; i < 4; ++i)
        EXPECT_TRUE(corpusAssemblesToolSet(name, kLarge, i, 4)) << name;
  }
  PtxasMode mode("rotate");
  EXPECT_FALSE(corpusAssemblesToolSet("sorting.sm_75", kLarge, 1, 4));
}

} // namespace
} // namespace ocelot::test
