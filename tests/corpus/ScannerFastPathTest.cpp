// The scanner reads simple one-line instructions as one token (PtxLexer.l, STATEMENT state) and
// the parse context takes them apart; the grammar's operand rules are the reference. Every corpus
// module must give the same IR by both routes.

#include "ir/Parser.h"
#include "tests/support/CorpusManifest.h"

#include <gtest/gtest.h>

namespace ocelot::test {
namespace {

TEST(ScannerFastPath, GivesTheGrammarsModuleForEveryCorpusModule) {
  std::vector<CorpusEntry> entries = corpusEntries();
  if (entries.empty())
    GTEST_SKIP() << "the corpus was not built";
  ir::ParseOptions grammarOnly;
  grammarOnly.scannerFastPath = false;
  for (const CorpusEntry& entry : entries) {
    ir::ParseResult fast = ir::parsePtxFile(entry.ptx);
    ir::ParseResult reference = ir::parsePtxFile(entry.ptx, grammarOnly);
    ASSERT_TRUE(reference.ok()) << reference.firstError();
    ASSERT_TRUE(fast.ok()) << fast.firstError();
    EXPECT_TRUE(fast.module->equals(*reference.module)) << entry.name();
  }
}

} // namespace
} // namespace ocelot::test
