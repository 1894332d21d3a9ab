// Every module of the PTX corpus, instrumented by each instrumentor (bbcount per warp, bbcount
// per thread, ctaclock, and all of them together), must give PTX that ptxas assembles for the
// module's own target (an sm_90a module whose instrumented code is its sm_90 module's is
// assembled by that module's test: tests/support/CorpusTwins.h). A module over 64 KB is
// instrumented with every instrumentor but assembled with one of the three, chosen by its name
// (tests/support/CorpusPtxasRotation.h; OCELOT_CORPUS_PTXAS=full assembles all): ptxas took 151 s
// of CI's time on thrust_algorithms.sm_90.debug alone. One test per module, discovered from the
// manifest when ctest runs.

#include "InstrumentorTestSupport.h"
#include "tests/support/CorpusManifest.h"
#include "tests/support/CorpusPtxasRotation.h"
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
  // A twin (tests/support/CorpusTwins.h: an sm_90a module of an sm_90 one, a large -lineinfo
  // module of its plain build): an instrumented module the same as the base module's, instrumented
  // alike, but for .target or the line table is assembled by the base module's test, which the
  // rotation (by the base module's name) has assemble the same list.
  const std::optional<CorpusEntry> base = corpusTwinBase(entry, ptx, corpusEntries());
  const std::string basePtx = base ? base->text() : std::string();
  instrumentors::InstrumentorRegistry registry;
  // The lists ptxas may assemble, in a fixed order (the rotation's indices).
  constexpr size_t kAssembled = 3;
  size_t index = 0;
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
    if (std::string(list) == "bbcount,ctaclock")
      continue;
    if (!corpusAssemblesToolSet(base ? base->name() : entry.name(), ptx.size(), index++,
                                kAssembled))
      continue;
    if (base) {
      auto baseOut = instrumentors::instrumentModule(basePtx, slots, options);
      if (baseOut.ok && sameCodeAsTwin(out.ptx, entry, baseOut.ptx, *base))
        continue;
    }
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
