// Replays every input the fuzzer ever crashed on (tests/fuzz/regressions) and the seed corpus
// through the fuzz target, in the normal (and the ASan/UBSan) build.

#include "PtxFuzzTarget.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> inputs() {
  std::vector<fs::path> files;
  for (const char* dir : {"/tests/fuzz/regressions", "/tests/ir/malformed", "/tests/ir/data"})
    for (const auto& entry : fs::directory_iterator(std::string(OCELOT_SOURCE_DIR) + dir))
      if (entry.is_regular_file() && entry.path().filename() != "README.md")
        files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

class FuzzRegressionTest : public ::testing::TestWithParam<fs::path> {};

TEST_P(FuzzRegressionTest, DoesNotCrash) {
  std::ifstream in(GetParam(), std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  EXPECT_EQ(ocelot::fuzz::fuzzPtxParser(bytes.data(), bytes.size()), 0);
}

INSTANTIATE_TEST_SUITE_P(Inputs, FuzzRegressionTest, ::testing::ValuesIn(inputs()),
                         [](const ::testing::TestParamInfo<fs::path>& param) {
                           std::string name = param.param.parent_path().filename().string() + "_" +
                                              param.param.stem().string();
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           return name;
                         });

} // namespace
