// Every analysis on every function of every module of the PTX corpus (one test per module,
// discovered from the manifest when ctest runs):
//  * the CFG has no problems and the verifier accepts the parsed IR;
//  * dominators and post-dominators equal the textbook iterative algorithm's;
//  * every loop header dominates its latches;
//  * on functions of at most kBruteForceLimit instructions, liveness and def-use chains equal
//    brute-force path searches;
//  * the SSA round trip gives valid SSA, verifier-clean IR, and PTX that parses back and that
//    ptxas assembles (every module, -G ones included: ptxas over the whole round-tripped corpus
//    takes about a minute on the CI machine, docs/passes.md).

#include "PassTestSupport.h"
#include "SsaTestSupport.h"
#include "ir/Verifier.h"
#include "passes/AnalysisManager.h"
#include "passes/DefUseChains.h"
#include "passes/Liveness.h"
#include "passes/LoopInfo.h"
#include "tests/support/CorpusManifest.h"

#include <fstream>
#include <sstream>

namespace ocelot::test {

/// Test names and failure messages show the module's name, not the entry's bytes.
void PrintTo(const CorpusEntry& entry, std::ostream* out) {
  *out << entry.name();
}

namespace {

constexpr size_t kBruteForceLimit = 120; // instructions

using passes::ControlFlowGraph;
using Node = ControlFlowGraph::Node;

class CorpusAnalyses : public ::testing::TestWithParam<CorpusEntry> {};

void checkDominators(const ControlFlowGraph& cfg, const passes::DominatorTree& tree,
                     const std::string& what) {
  auto reference = referenceIdoms(cfg, tree.isPostDominatorTree(), tree.virtualExitEdges());
  for (Node n = 0; n < cfg.size(); ++n)
    if (tree.idom(n) != reference[n]) {
      ADD_FAILURE() << what << ": idom of " << cfg.name(n, true) << " is " << cfg.name(tree.idom(n))
                    << ", the reference says " << cfg.name(reference[n]);
      return;
    }
}

void checkLivenessByBruteForce(ir::Function& f, passes::AnalysisManager& am) {
  const auto& cfg = am.getResult<passes::ControlFlowGraphAnalysis>(f);
  const auto& liveness = am.getResult<passes::LivenessAnalysis>(f);
  const auto& numbering = liveness.numbering();
  InstructionGraph graph(cfg);
  // Registers the function mentions.
  std::set<ir::RegisterRef> registers;
  for (Node n = 0; n < cfg.blockCount(); ++n)
    for (const auto* inst : graph.of(n))
      ir::forEachRegisterAccess(
          *inst, [&](const ir::RegisterRef& r, const ir::RegisterAccess&) { registers.insert(r); });
  std::vector<uint32_t> exitLive = liveness.liveAtExit();
  for (Node n = 0; n < cfg.blockCount(); ++n) {
    const auto& instructions = graph.of(n);
    // Live-before of each instruction by the scanner, walking backwards.
    std::vector<passes::BitVector> scanned(instructions.size());
    passes::LiveScanner scan(liveness, n);
    for (size_t i = instructions.size(); i-- > 0;) {
      scan.step(*instructions[i]);
      scanned[i] = scan.live();
    }
    for (size_t i = 0; i < instructions.size(); ++i)
      for (ir::RegisterRef reg : registers) {
        uint32_t id = numbering.id(reg);
        bool atExit = std::find(exitLive.begin(), exitLive.end(), id) != exitLive.end();
        bool expected = bruteForceLiveBefore(graph, Point{n, i}, reg, atExit);
        if (scanned[i].test(id) != expected) {
          ADD_FAILURE() << "liveness of " << f.registerName(reg) << " before instruction " << i
                        << " of " << cfg.name(n, true) << ": " << !expected << ", brute force "
                        << expected;
          return;
        }
      }
  }
}

void checkDefUseByBruteForce(ir::Function& f, passes::AnalysisManager& am) {
  const auto& cfg = am.getResult<passes::ControlFlowGraphAnalysis>(f);
  const auto& chains = am.getResult<passes::DefUseAnalysis>(f);
  InstructionGraph graph(cfg);
  for (Node n : cfg.reversePostOrder()) {
    if (cfg.isVirtual(n))
      continue;
    for (size_t i = 0; i < graph.of(n).size(); ++i) {
      const ir::Instruction& inst = graph.at(Point{n, i});
      std::set<ir::RegisterRef> read;
      ir::forEachRegisterAccess(inst, [&](const ir::RegisterRef& r, const ir::RegisterAccess& a) {
        if (a.read)
          read.insert(r);
      });
      for (ir::RegisterRef reg : read) {
        auto expected = bruteForceReachingDefinitions(graph, Point{n, i}, reg);
        std::set<const ir::Instruction*> actual;
        for (const auto& d : chains.reachingDefinitions(inst, reg))
          actual.insert(d.instruction);
        if (actual != expected) {
          ADD_FAILURE() << "reaching definitions of " << f.registerName(reg) << " at `"
                        << ir::instructionToString(f, inst) << "` differ from brute force";
          return;
        }
      }
    }
  }
}

TEST_P(CorpusAnalyses, AllFunctions) {
  const CorpusEntry& entry = GetParam();
  std::ifstream in(entry.ptx, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  auto parsed = ir::parsePtx(text, entry.ptx.string());
  ASSERT_TRUE(parsed.ok()) << parsed.firstError();
  ir::Module& module = *parsed.module;

  size_t functions = 0;
  for (ir::Function* f : module.functions()) {
    if (!f->hasBody())
      continue;
    ++functions;
    SCOPED_TRACE("function " + std::string(f->name()));
    for (const auto& d : ir::verifyFunction(*f))
      EXPECT_NE(d.severity, ir::VerifierDiagnostic::Severity::Error) << d.format();

    passes::AnalysisManager am;
    const auto& cfg = am.getResult<passes::ControlFlowGraphAnalysis>(*f);
    for (const auto& problem : cfg.problems())
      ADD_FAILURE() << cfg.name(problem.node, true) << ": " << problem.message;
    const auto& dom = am.getResult<passes::DominatorTreeAnalysis>(*f);
    checkDominators(cfg, dom, "dominators");
    checkDominators(cfg, am.getResult<passes::PostDominatorTreeAnalysis>(*f), "post-dominators");
    for (const auto& loop : am.getResult<passes::LoopAnalysis>(*f).loops())
      for (Node latch : loop.latches)
        EXPECT_TRUE(dom.dominates(loop.header, latch))
            << "loop header " << cfg.name(loop.header, true) << " does not dominate latch "
            << cfg.name(latch, true);
    if (f->instructionCount() <= kBruteForceLimit) {
      checkLivenessByBruteForce(*f, am);
      checkDefUseByBruteForce(*f, am);
    }

    passes::SsaForm form = passes::toSsa(*f, am);
    for (const auto& problem : ssaProblems(*f, form))
      ADD_FAILURE() << "SSA: " << problem;
    auto destruction = passes::fromSsa(form, am);
    ASSERT_TRUE(destruction.ok) << destruction.error;
    for (const auto& d : ir::verifyFunction(*f))
      EXPECT_NE(d.severity, ir::VerifierDiagnostic::Severity::Error) << "after SSA: " << d.format();
    if (HasFailure())
      return;
  }
  EXPECT_GT(functions, 0u);

  std::string emitted = ir::emitPtx(module);
  auto reparsed = ir::parsePtx(emitted, "<ssa>");
  ASSERT_TRUE(reparsed.ok()) << reparsed.firstError();
  auto ptxas = runPtxas(emitted, entry.arch);
  ASSERT_TRUE(ptxas.ran) << "cannot run ptxas";
  EXPECT_TRUE(ptxas.ok()) << ptxas.output;
}

std::string testName(const ::testing::TestParamInfo<CorpusEntry>& info) {
  return CorpusEntry::testName(info.param);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusAnalyses, ::testing::ValuesIn(corpusEntries()), testName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CorpusAnalyses);

} // namespace
} // namespace ocelot::test
