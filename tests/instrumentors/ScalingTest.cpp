// Shapes ptxas accepts at sizes no corpus module reaches: loops nested 20k deep and a call chain of
// 100k functions. The analyses, `ocelot ptx cfg`'s printer and bbcount's instrumentation must stay
// near-linear on them. What is bounded is the work: CTest's timeout (generous: sanitizer builds
// run here too) fails a quadratic algorithm, which needs hours at these sizes, and the printed
// text must grow linearly with the blocks.

#include "instrumentors/InstrumentorRegistry.h"
#include "instrumentors/ModuleInstrumenter.h"
#include "ir/Parser.h"
#include "passes/AnalysisManager.h"
#include "passes/CallGraph.h"
#include "passes/CfgPrinter.h"
#include "passes/DominatorTree.h"
#include "passes/LoopInfo.h"
#include "tests/support/GeneratedPtx.h"

#include <gtest/gtest.h>

namespace ocelot::test {
namespace {

instrumentors::InstrumentedPtx instrumentWithBlockCounts(const std::string& ptx) {
  instrumentors::InstrumentorRegistry registry;
  auto counter = registry.create("bbcount", {});
  std::vector<instrumentors::SlotRequest> slots{
      {counter.get(), counter->variant(LaunchInfo{}, KernelFacts{}).variant}};
  instrumentors::InstrumentOptions options;
  options.label = "scaling";
  return instrumentors::instrumentModule(ptx, slots, options);
}

TEST(Scaling, LoopsNested20kDeep) {
  const size_t depth = 20000;
  const std::string ptx = testing::nestedLoops(depth);
  auto parsed = ir::parsePtx(ptx, "nest.ptx");
  ASSERT_TRUE(parsed.ok()) << parsed.firstError();
  ir::Function& f = *parsed.module->functions().front();
  passes::AnalysisManager analyses;
  const auto& cfg = analyses.getResult<passes::ControlFlowGraphAnalysis>(f);
  const auto& dom = analyses.getResult<passes::DominatorTreeAnalysis>(f);
  const auto& postdom = analyses.getResult<passes::PostDominatorTreeAnalysis>(f);
  const auto& loops = analyses.getResult<passes::LoopAnalysis>(f);
  ASSERT_EQ(cfg.blockCount(), 2 * depth + 1);
  ASSERT_EQ(loops.loops().size(), depth);
  EXPECT_EQ(dom.depth(static_cast<passes::ControlFlowGraph::Node>(depth)), depth + 1);
  EXPECT_EQ(postdom.idom(0), 1u);
  const passes::Loop& innermost =
      *loops.loopFor(static_cast<passes::ControlFlowGraph::Node>(depth));
  EXPECT_EQ(innermost.depth, depth);
  EXPECT_EQ(innermost.size, 1u);
  EXPECT_EQ(loops.loops()[0].size, 2 * depth - 1);
  EXPECT_TRUE(loops.loops()[0].contains(static_cast<passes::ControlFlowGraph::Node>(depth)));
  EXPECT_FALSE(innermost.contains(0));

  // `ocelot ptx cfg`: text and Graphviz, at most a kilobyte per block (the capped indentation
  // included).
  std::string text = passes::printCfgText(f, analyses);
  std::string dot = passes::printCfgDot(f, analyses);
  EXPECT_LT(text.size(), 1000 * cfg.blockCount());
  EXPECT_LT(dot.size(), 1000 * cfg.blockCount());
  EXPECT_NE(text.find("blocks B1..B39999; latches B39999"), std::string::npos);

  instrumentors::InstrumentedPtx instrumented = instrumentWithBlockCounts(ptx);
  ASSERT_TRUE(instrumented.ok) << instrumented.error;
  EXPECT_GT(instrumented.ptx.size(), ptx.size());
}

TEST(Scaling, CallChainOf100kFunctions) {
  const size_t count = 100000;
  const std::string ptx = testing::callChain(count);
  auto parsed = ir::parsePtx(ptx, "chain.ptx");
  ASSERT_TRUE(parsed.ok()) << parsed.firstError();
  ir::Module& module = *parsed.module;
  ASSERT_EQ(module.functions().size(), count + 1);
  passes::AnalysisManager analyses;
  const auto& calls = analyses.getResult<passes::CallGraphAnalysis>(module);
  const ir::Function* kernel = module.findFunction("chain");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(calls.reachableFrom(*kernel).size(), count + 1);
  size_t sites = 0;
  for (const ir::Function* f : module.functions()) {
    EXPECT_FALSE(calls.isRecursive(*f));
    sites += calls.callsTo(*f).size();
  }
  EXPECT_EQ(sites, count);

  size_t printed = 0;
  for (ir::Function* f : module.functions())
    printed += passes::printCfgText(*f, analyses).size();
  EXPECT_LT(printed, 2000 * (count + 1));

  instrumentors::InstrumentedPtx instrumented = instrumentWithBlockCounts(ptx);
  ASSERT_TRUE(instrumented.ok) << instrumented.error;
  EXPECT_TRUE(instrumented.exclusions.empty());
}

} // namespace
} // namespace ocelot::test
