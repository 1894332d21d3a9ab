// Every module of the PTX corpus, instrumented by each instrumentor (bbcount per warp, bbcount
// per thread, ctaclock, and all of them together), must give PTX that ptxas assembles for the
// module's own target (a module that is another's code for an architecture-specific target,
// tests/support/CorpusTwins.h, is instrumented here and assembled by its base module's test). One
// test per module, discovered from the manifest when ctest runs.

#include "InstrumentorTestSupport.h"
#include "tests/support/CorpusManifest.h"
#include "tests/support/CorpusTwins.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace ocelot::test {

void PrintTo(const CorpusEntry& entry, std::ostream* out) {
  *out << entry.name();
}

namespace {

class CorpusInstrument : public ::testing::TestWithParam<CorpusEntry> {};

TEST_P(CorpusInstrument, InstrumentedPtxAssembles) {
  const CorpusEntry& entry = GetParam();
  const std::string ptx = entry.text();
  ASSERT_FALSE(ptx.empty()) << entry.ptx;
  // -rdc modules are units of a device-linked program.
  const bool linked = entry.linkedUnit(ptx);
  // Another module's code for an architecture-specific target: its test assembles it.
  const bool assemble = assembleCorpusEntry(entry, ptx, corpusEntries());
  instrumentors::InstrumentorRegistry registry;
  for (const char* list : {"bbcount", "bbcount-thread", "ctaclock", "bbcount,ctaclock"}) {
    SCOPED_TRACE(list);
    std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
    const std::vector<instrumentors::SlotRequest> slots = slotsFor(list, registry, &keep);
    instrumentors::InstrumentOptions options;
    options.label = entry.name();
    options.linked = linked;
    auto out = instrumentors::instrumentModule(ptx, slots, options);
    ASSERT_TRUE(out.ok) << entry.name() << ": " << out.error;
    // bbcount,ctaclock adds nothing new to its parts' assemblies.
    if (std::string(list) == "bbcount,ctaclock" || !assemble)
      continue;
    PtxasRun run = runPtxas(out.ptx, entry.arch);
    ASSERT_TRUE(run.ran) << "ptxas did not run";
    EXPECT_EQ(run.status, 0) << entry.name() << " " << list << ":\n" << run.output;
  }
}

std::vector<CorpusEntry> entries() {
  auto all = corpusEntries();
  return all;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusInstrument, ::testing::ValuesIn(entries()),
                         [](const ::testing::TestParamInfo<CorpusEntry>& param) {
                           return CorpusEntry::testName(param.param);
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CorpusInstrument);

} // namespace
} // namespace ocelot::test
