// Every module of the PTX corpus with probes: an empty probe at every basic block (which must add
// nothing but the buffer parameter), probecount (a counter probe at every block), and on modules
// up to 100 KB the oracle tool's probes (block counters, memory traces before and after accesses,
// branch predicates). Each result must verify, and assemble with ptxas for the module's own
// target, except on -G modules over 100 KB, where ptxas needs over 12 GB: there they are
// verified only. An sm_90a module whose instrumented code is its sm_90 module's but for .target,
// and a -lineinfo module over 64 KB whose instrumented code is its plain build's but for the line
// table (tests/support/CorpusTwins.h), are instrumented and verified here and assembled by that
// module's test. A module over 64 KB is instrumented and verified with every tool set, but ptxas assembles
// only one tool set's module, chosen by a hash of the module's name (tests/support/
// CorpusPtxasRotation.h; OCELOT_CORPUS_PTXAS=full assembles all). One test per module.

#include "instrumentors/ModuleInstrumenter.h"
#include "instrumentors/ProbeInstrumentor.h"
#include "tests/instrumentors/InstrumentorTestSupport.h"
#include "tests/support/CorpusManifest.h"
#include "tests/support/CorpusPtxasRotation.h"
#include "tests/support/CorpusTwins.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

namespace ocelot::test {

void PrintTo(const CorpusEntry& entry, std::ostream* out) {
  *out << entry.name();
}

namespace {

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::shared_ptr<instrumentors::ProbeInstrumentor> tool(const std::string& name,
                                                       const std::string& options = "") {
  auto shared = std::make_shared<instrumentors::ProbeInstrumentor::Shared>();
  shared->definition.name = name;
  shared->definition.ptx = {readText(std::string(OCELOT_PROBE_PTX_DIR) + "/" + name + ".ptx")};
  return std::make_shared<instrumentors::ProbeInstrumentor>(shared,
                                                            InstrumentorOptions::parse(options));
}

/// A shipped probe tool (tools/probes) with its probes as ocelot_add_probe_tool compiled them.
std::shared_ptr<instrumentors::ProbeInstrumentor> shippedTool(const std::string& name) {
  auto shared = std::make_shared<instrumentors::ProbeInstrumentor::Shared>();
  shared->definition.name = name;
  shared->definition.ptx = {readText(std::string(OCELOT_SHIPPED_PROBE_TOOLS_BUILD_DIR) + "/" +
                                     name + "_probes/probes.ptx")};
  return std::make_shared<instrumentors::ProbeInstrumentor>(shared, InstrumentorOptions{});
}

class CorpusProbes : public ::testing::TestWithParam<CorpusEntry> {};

TEST_P(CorpusProbes, InstrumentedPtxAssembles) {
  const CorpusEntry& entry = GetParam();
  const std::string ptx = readText(entry.ptx);
  ASSERT_FALSE(ptx.empty()) << entry.ptx;
  const bool linked = entry.linkedUnit(ptx);
  instrumentors::InstrumentOptions options;
  options.label = entry.name();
  options.linked = linked;
  // A twin (tests/support/CorpusTwins.h: an sm_90a module of an sm_90 one, a large -lineinfo
  // module of its plain build): each instrumented module is compared with the base module's,
  // instrumented alike; the same but for .target or the line table, the base module's test
  // assembles it.
  const std::optional<CorpusEntry> base = corpusTwinBase(entry, ptx, corpusEntries());
  const std::string basePtx = base ? base->text() : std::string();
  size_t leftToBase = 0;

  // Modules over 100 KB (the thrust/cub builds, -G ones above all) cost ptxas minutes and
  // gigabytes each: there the empty probe's framework changes are assembled as part of the
  // shipped tools' module below, and probecount is instrumented and verified but not assembled
  // (the smaller modules assemble it). Assembling all four tools' probes in one -G module took
  // ptxas over 22 GB (thrust_algorithms.sm_90.debug, killed by the OOM killer).
#ifdef OCELOT_SHIPPED_PROBE_TOOLS_BUILD_DIR
  const bool large = ptx.size() > 100 * 1024;
#else
  const bool large = false; // no shipped tools' module to carry the framework's changes
#endif
  // Large -G modules' shipped tools are verified, not assembled: ptxas grows past 12 GB and 5
  // CPU-minutes on thrust_algorithms.sm_90.debug with these probes (the CI machine's memory).
  // Their release and lineinfo builds are assembled.
  const bool debug = entry.name().find(".debug") != std::string::npos;
  // The tool sets whose instrumented module ptxas may assemble here, in a fixed order. On a
  // module over 64 KB it assembles one of them, the same one as the base module's for a twin (so
  // that the module it leaves to the base module's test is assembled there).
  std::vector<std::string> toolSets;
  if (!large)
    toolSets = {"empty probe", "probecount"};
#ifdef OCELOT_SHIPPED_PROBE_TOOLS_BUILD_DIR
  if (!(large && debug))
    toolSets.push_back("shipped tools");
#endif
  if (ptx.size() <= 100 * 1024)
    toolSets.push_back("oracle");
  const std::string rotationName = base ? base->name() : entry.name();
  size_t skipped = 0;
  auto assembles = [&](const std::string& toolSet) {
    const size_t index = static_cast<size_t>(std::find(toolSets.begin(), toolSets.end(), toolSet) -
                                             toolSets.begin());
    const bool yes = corpusAssemblesToolSet(rotationName, ptx.size(), index, toolSets.size());
    if (!yes)
      ++skipped;
    return yes;
  };
  auto assemble = [&](const instrumentors::InstrumentedPtx& result,
                      const std::vector<instrumentors::SlotRequest>& slots) {
    if (base) {
      auto baseOut = instrumentors::instrumentModule(basePtx, slots, options);
      if (baseOut.ok && sameCodeAsTwin(result.ptx, entry, baseOut.ptx, *base)) {
        ++leftToBase;
        return PtxasRun{true, 0, "the same code as " + base->name()};
      }
    }
    return runPtxas(result.ptx, entry.arch);
  };

  // The empty probe at every block: the same PTX as the same tool placing nothing (only the
  // buffer parameter and the framework's changes).
  auto empty = tool("emptyprobe");
  auto out = instrumentors::instrumentModule(ptx, {{empty.get(), 0}}, options);
  ASSERT_TRUE(out.ok) << entry.name() << ": " << out.error;
  auto nowhere = tool("emptyprobe", "nothing.kernel=^no kernel has this name$");
  auto reference = instrumentors::instrumentModule(ptx, {{nowhere.get(), 0}}, options);
  ASSERT_TRUE(reference.ok) << reference.error;
  EXPECT_TRUE(out.ptx == reference.ptx) << "the empty probe added code";
  EXPECT_EQ(out.ptx.find("$L__ocp"), std::string::npos);

  PtxasRun run;
  auto counts = tool("probecount");
  if (!large && assembles("empty probe")) {
    run = assemble(out, {{empty.get(), 0}});
    ASSERT_TRUE(run.ran) << "ptxas did not run";
    EXPECT_EQ(run.status, 0) << entry.name() << " (empty probe):\n" << run.output.substr(0, 4000);
  }
  // bbcount's counting as a probe (probecount): a counter probe at every block.
  out = instrumentors::instrumentModule(ptx, {{counts.get(), 0}}, options);
  ASSERT_TRUE(out.ok) << entry.name() << ": " << out.error;
  if (!large && assembles("probecount")) {
    run = assemble(out, {{counts.get(), 0}});
    ASSERT_TRUE(run.ran) << "ptxas did not run";
    EXPECT_EQ(run.status, 0) << entry.name() << " (probecount):\n" << run.output.substr(0, 4000);
  }

#ifdef OCELOT_SHIPPED_PROBE_TOOLS_BUILD_DIR
  // The shipped tools side by side, as `ocelot run -i branchdiv,instmix,...` has them (warpeff's
  // probes are instmix's); the memory tools on modules up to 100 KB, as the oracle below.
  {
    auto branchdiv = shippedTool("branchdiv"), instmix = shippedTool("instmix");
    auto memaccess = shippedTool("memaccess"), memtrace = shippedTool("memtrace");
    std::vector<instrumentors::SlotRequest> slots = {{branchdiv.get(), 0}, {instmix.get(), 0}};
    if (!large)
      slots.insert(slots.end(), {{memaccess.get(), 0}, {memtrace.get(), 0}});
    out = instrumentors::instrumentModule(ptx, slots, options);
    ASSERT_TRUE(out.ok) << entry.name() << " (shipped tools): " << out.error;
    if (!(large && debug) && assembles("shipped tools")) {
      run = assemble(out, slots);
      ASSERT_TRUE(run.ran) << "ptxas did not run";
      EXPECT_EQ(run.status, 0) << entry.name() << " (shipped tools):\n"
                               << run.output.substr(0, 4000);
    }
    // Four tools' probes in one large module, verified (not assembled): the tools share blocks
    // that end without an instruction to anchor on in every -G module.
    if (large) {
      slots.insert(slots.end(), {{empty.get(), 0}, {counts.get(), 0}});
      out = instrumentors::instrumentModule(ptx, slots, options);
      ASSERT_TRUE(out.ok) << entry.name() << " (four tools): " << out.error;
    }
  }
#endif

  // The oracle's probes but the one before every instruction (ProbeOracleTest runs that one):
  // block counters, memory traces before and after accesses, branch predicates. On modules up to
  // 100 KB: ptxas spends minutes on the largest with a probe at every memory access.
  auto report = [&] {
    if (skipped > 0)
      std::cout << entry.name() << ": ptxas on " << toolSets.size() - skipped << " of "
                << toolSets.size() << " tool sets' modules (over 64 KB: one, by a hash of "
                << rotationName << "; OCELOT_CORPUS_PTXAS=full for all)\n";
  };
  if (ptx.size() > 100 * 1024) {
    report();
    return;
  }
  auto oracle = tool("oracle", "countInstructions.kernel=^no kernel has this name$");
  out = instrumentors::instrumentModule(ptx, {{oracle.get(), 0}}, options);
  ASSERT_TRUE(out.ok) << entry.name() << ": " << out.error;
  if (assembles("oracle")) {
    run = assemble(out, {{oracle.get(), 0}});
    ASSERT_TRUE(run.ran) << "ptxas did not run";
    EXPECT_EQ(run.status, 0) << entry.name() << " (oracle):\n" << run.output.substr(0, 4000);
  }
  report();
  if (leftToBase > 0)
    std::cout << entry.name() << ": " << leftToBase << " instrumented modules the same as "
              << base->name() << "'s but for .target: assembled by its test\n";
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusProbes, ::testing::ValuesIn(corpusEntries()),
                         [](const ::testing::TestParamInfo<CorpusEntry>& param) {
                           return CorpusEntry::testName(param.param);
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CorpusProbes);

} // namespace
} // namespace ocelot::test
