#include "tests/support/CorpusManifest.h"

#include <gtest/gtest.h>

#include <fstream>
#include <unistd.h>

namespace ocelot::test {
namespace {

class CorpusManifestTest : public ::testing::Test {
protected:
  std::filesystem::path write(const std::string& text) {
    path_ = std::filesystem::temp_directory_path() /
            ("ocelot-manifest-" + std::to_string(::getpid()) + ".tsv");
    std::ofstream(path_) << text;
    return path_;
  }
  void TearDown() override {
    if (!path_.empty())
      std::filesystem::remove(path_);
  }

private:
  std::filesystem::path path_;
};

TEST_F(CorpusManifestTest, ReadsEntries) {
  CorpusManifest m = readCorpusManifest(
      write("/b/ptx/atomics.sm_90.ptx\tsm_90\tplain\t/b/cubin/atomics.sm_90.cubin\n"
            "/b/ptx/x.sm_90a.debug.ptx\tsm_90a\tdebug\t/b/cubin/x.sm_90a.debug.cubin\n"
            "\n"
            "/b/ptx/y.sm_75.lineinfo.ptx\tsm_75\tlineinfo\t/b/cubin/y.sm_75.lineinfo.cubin\n"));
  ASSERT_TRUE(m.ok()) << m.error;
  ASSERT_EQ(m.entries.size(), 3u);
  EXPECT_EQ(m.entries[0].ptx, "/b/ptx/atomics.sm_90.ptx");
  EXPECT_EQ(m.entries[0].arch, "sm_90");
  EXPECT_EQ(m.entries[0].variant, CorpusVariant::Plain);
  EXPECT_EQ(m.entries[0].originalCubin, "/b/cubin/atomics.sm_90.cubin");
  EXPECT_EQ(m.entries[0].name(), "atomics.sm_90");
  EXPECT_EQ(m.entries[1].variant, CorpusVariant::Debug);
  EXPECT_EQ(m.entries[1].arch, "sm_90a");
  EXPECT_EQ(m.entries[2].variant, CorpusVariant::LineInfo);
  EXPECT_EQ(corpusVariantName(m.entries[2].variant), "lineinfo");
}

TEST_F(CorpusManifestTest, MalformedLinesNameTheLine) {
  CorpusManifest m = readCorpusManifest(
      write("/b/a.ptx\tsm_90\tplain\t/b/a.cubin\n/b/c.ptx sm_90 plain /b/c.cubin\n"));
  EXPECT_FALSE(m.ok());
  EXPECT_NE(m.error.find(":2: expected 4 tab-separated fields, found 1"), std::string::npos)
      << m.error;
  EXPECT_EQ(m.entries.size(), 1u);

  m = readCorpusManifest(write("/b/a.ptx\tsm_90\tfast\t/b/a.cubin\n"));
  EXPECT_NE(m.error.find(":1: unknown variant 'fast'"), std::string::npos) << m.error;
  m = readCorpusManifest(write("b/a.ptx\tsm_90\tplain\t/b/a.cubin\n"));
  EXPECT_NE(m.error.find("absolute"), std::string::npos) << m.error;
  m = readCorpusManifest(write("/b/a.ptx\tcompute_90\tplain\t/b/a.cubin\n"));
  EXPECT_NE(m.error.find("compute_90"), std::string::npos) << m.error;
}

TEST_F(CorpusManifestTest, MissingFileIsAnError) {
  CorpusManifest m = readCorpusManifest("/nonexistent/ocelot/manifest.tsv");
  EXPECT_FALSE(m.ok());
  EXPECT_TRUE(m.entries.empty());
}

TEST_F(CorpusManifestTest, PtxasOptionsFollowTheCubinsElfType) {
  std::filesystem::path cubin = write("");
  auto writeHeader = [&](unsigned char type) {
    std::string header(64, '\0');
    header.replace(0, 4,
                   "\x7f"
                   "ELF");
    header[16] = static_cast<char>(type);
    std::ofstream(cubin, std::ios::binary) << header;
  };
  CorpusEntry entry;
  entry.arch = "sm_90a";
  entry.originalCubin = cubin;
  writeHeader(2); // ET_EXEC: whole-program ptxas
  EXPECT_EQ(ptxasOptions(entry), (std::vector<std::string>{"-arch=sm_90a"}));
  writeHeader(1); // ET_REL: ptxas -c
  EXPECT_EQ(ptxasOptions(entry), (std::vector<std::string>{"-arch=sm_90a", "-c"}));
  entry.originalCubin = "/nonexistent/ocelot/x.cubin";
  EXPECT_EQ(ptxasOptions(entry), (std::vector<std::string>{"-arch=sm_90a"}));
}

TEST(CorpusManifestPath, PointsIntoTheBuildTree) {
  std::filesystem::path path = corpusManifestPath();
  EXPECT_TRUE(path.is_absolute());
  EXPECT_EQ(path.filename(), "manifest.tsv");
  EXPECT_EQ(path.parent_path().filename(), "corpus");
}

} // namespace
} // namespace ocelot::test
