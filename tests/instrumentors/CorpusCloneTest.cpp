// Every corpus module prepared as the module pipeline prepares it (parsed, given its function
// address table, emitted): its clone prints as it does, and an instrumented copy made from a
// clone of the IR is byte for byte the copy made by parsing the emitted text again (what the
// runtime did before instrumented copies started from the catalog's IR). Instrumenting the clones
// leaves the module itself unchanged. One test per module, discovered from the manifest.

#include "InstrumentorTestSupport.h"
#include "instrumentors/FunctionAddressTable.h"
#include "ir/Emitter.h"
#include "ir/ModuleClone.h"
#include "ir/Parser.h"
#include "tests/support/CorpusManifest.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace ocelot::test {

void PrintTo(const CorpusEntry& entry, std::ostream* out); // CorpusInstrumentTest.cpp

namespace {

class CorpusClone : public ::testing::TestWithParam<CorpusEntry> {};

TEST_P(CorpusClone, InstrumentedFromTheCloneAsFromTheText) {
  const CorpusEntry& entry = GetParam();
  const std::string ptx = entry.text();
  ASSERT_FALSE(ptx.empty()) << entry.ptx;
  const bool linked = entry.linkedUnit(ptx);
  ir::ParseResult parsed = ir::parsePtx(ptx, entry.name());
  ASSERT_TRUE(parsed.ok()) << parsed.firstError();
  ir::Module& module = *parsed.module;
  instrumentors::addFunctionAddressTable(module, 0);
  const std::string text = ir::emitPtxNumberingLines(module);
  // With the lines of its text, the module emits that text again.
  ASSERT_TRUE(ir::emitPtx(module) == text) << "the module's lines are not those of its text";
  {
    auto copy = ir::cloneModule(module);
    EXPECT_EQ(ir::emitPtx(*copy), text);
    EXPECT_TRUE(copy->equals(module));
  }
  instrumentors::InstrumentorRegistry registry;
  for (const char* list : {"bbcount", "bbcount-thread", "ctaclock", "bbcount,ctaclock"}) {
    SCOPED_TRACE(list);
    std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
    const std::vector<instrumentors::SlotRequest> slots = slotsFor(list, registry, &keep);
    instrumentors::InstrumentOptions options;
    options.label = entry.name();
    options.linked = linked;
    auto fromText = instrumentors::instrumentModule(text, slots, options);
    auto fromClone = instrumentors::instrumentModule(ir::cloneModule(module), slots, options);
    ASSERT_EQ(fromText.ok, fromClone.ok) << fromText.error << " / " << fromClone.error;
    EXPECT_EQ(fromText.error, fromClone.error);
    EXPECT_TRUE(fromText.ptx == fromClone.ptx) << "the instrumented PTX differs";
    EXPECT_EQ(fromText.kernels, fromClone.kernels);
    ASSERT_EQ(fromText.exclusions.size(), fromClone.exclusions.size());
    for (size_t i = 0; i < fromText.exclusions.size(); ++i) {
      EXPECT_EQ(fromText.exclusions[i].function, fromClone.exclusions[i].function);
      EXPECT_EQ(fromText.exclusions[i].reason, fromClone.exclusions[i].reason);
    }
    EXPECT_EQ(fromText.redirectedVariables, fromClone.redirectedVariables);
    EXPECT_EQ(fromText.translatedFunctions, fromClone.translatedFunctions);
    EXPECT_EQ(fromText.materializedAddresses, fromClone.materializedAddresses);
    EXPECT_EQ(fromText.translatedCalls, fromClone.translatedCalls);
  }
  EXPECT_TRUE(ir::emitPtx(module) == text) << "instrumenting clones changed the module";
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusClone, ::testing::ValuesIn(corpusEntries()),
                         [](const ::testing::TestParamInfo<CorpusEntry>& param) {
                           return CorpusEntry::testName(param.param);
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CorpusClone);

} // namespace
} // namespace ocelot::test
