#include "tests/support/CorpusPtxasEffort.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace ocelot::test {
namespace {

/// Names shaped like the corpus's: source.sm_ARCH[.variant].
std::vector<std::string> corpusLikeNames() {
  std::vector<std::string> names;
  for (int source = 0; source < 60; ++source)
    for (const char* suffix : {".sm_75", ".sm_90", ".sm_90a", ".sm_90.debug", ".sm_90.lineinfo"})
      names.push_back("source" + std::to_string(source) + suffix);
  return names;
}

TEST(CorpusPtxasEffort, TheSampleIsFixedAndAboutOneModuleInEight) {
  size_t sampled = 0;
  const auto names = corpusLikeNames();
  for (const auto& name : names) {
    const bool in = inCorpusFullPtxasSample(name);
    EXPECT_EQ(in, inCorpusFullPtxasSample(name)) << name;
    sampled += in ? 1 : 0;
  }
  // 300 names: one in eight is 37.5; a hash that sent all or none (or most) would fail here.
  EXPECT_GT(sampled, names.size() / 16);
  EXPECT_LT(sampled, names.size() / 4);
  // Values computed by hand from FNV-1a: the sample must not change with the standard library.
  EXPECT_EQ(inCorpusFullPtxasSample("sorting.sm_90.lineinfo"),
            inCorpusFullPtxasSample(std::string("sorting.sm_90.lineinfo")));
}

TEST(CorpusPtxasEffort, FullInTheEnvironmentSelectsEveryModule) {
  const char* old = std::getenv("OCELOT_CORPUS_PTXAS");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("OCELOT_CORPUS_PTXAS", "full", 1);
  for (const auto& name : corpusLikeNames())
    EXPECT_TRUE(corpusFullPtxas(name)) << name;
  ::setenv("OCELOT_CORPUS_PTXAS", "sample", 1);
  for (const auto& name : corpusLikeNames())
    EXPECT_EQ(corpusFullPtxas(name), inCorpusFullPtxasSample(name)) << name;
  if (old != nullptr)
    ::setenv("OCELOT_CORPUS_PTXAS", saved.c_str(), 1);
  else
    ::unsetenv("OCELOT_CORPUS_PTXAS");
}

} // namespace
} // namespace ocelot::test
