// Every module of the PTX corpus, instrumented by each instrumentor (bbcount per warp, bbcount
// per thread, ctaclock, and all of them together), must give PTX that ptxas assembles for the
// module's own target. One test per module, discovered from the manifest when ctest runs.

#include "InstrumentorTestSupport.h"
#include "tests/support/CorpusManifest.h"

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
  std::ifstream in(entry.ptx, std::ios::binary);
  ASSERT_TRUE(in) << entry.ptx;
  std::stringstream text;
  text << in.rdbuf();
  const std::string ptx = text.str();
  // -rdc modules are units of a device-linked program.
  const bool linked = ptx.find(".extern .func") != std::string::npos ||
                      entry.name().starts_with("rdc_") ||
                      entry.name().starts_with("dynamic_parallelism");
  instrumentors::InstrumentorRegistry registry;
  for (const char* list : {"bbcount", "bbcount-thread", "ctaclock", "bbcount,ctaclock"}) {
    SCOPED_TRACE(list);
    std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
    std::vector<instrumentors::SlotRequest> slots;
    for (const auto& spec : instrumentors::parseInstrumentorList(list)) {
      keep.push_back(registry.create(spec.name, spec.options));
      slots.push_back({keep.back().get(), keep.back()->variant(LaunchInfo{}, {}).variant});
    }
    instrumentors::InstrumentOptions options;
    options.label = entry.name();
    options.linked = linked;
    auto out = instrumentors::instrumentModule(ptx, slots, options);
    ASSERT_TRUE(out.ok) << entry.name() << ": " << out.error;
    if (std::string(list) == "bbcount,ctaclock")
      continue; // assembled below only when the combination differs: it adds nothing new
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
                         [](const ::testing::TestParamInfo<CorpusEntry>& entry) {
                           std::string name = entry.param.name();
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CorpusInstrument);

} // namespace
} // namespace ocelot::test
