// What `ocelot ptx cfg` prints: blocks with lines, dominators, edges, trees, loops; and Graphviz.

#include "passes/CfgPrinter.h"

#include "PassTestSupport.h"
#include "passes/AnalysisManager.h"

#include <fstream>
#include <sstream>

namespace ocelot::test {
namespace {

std::unique_ptr<ir::Module> nestedLoops() {
  std::ifstream in(std::string(OCELOT_SOURCE_DIR) + "/tests/passes/data/nested_loops.ptx");
  std::stringstream text;
  text << in.rdbuf();
  return parseOrFail(text.str());
}

TEST(CfgPrinter, Text) {
  auto module = nestedLoops();
  ASSERT_TRUE(module);
  passes::AnalysisManager am;
  std::string text = passes::printCfgText(*module->functions()[0], am);
  for (const char* expected : {
           "function nested (.entry): 5 blocks, 8 edges, 2 loops\n",
           "B2 ($L__BB0_2)  3 instructions  lines nested.cu:12\n"
           "  idom B1  ipdom B3  loop depth 2 (header)\n"
           "  -> B2 (branch) B3 (fallthrough)\n"
           "  <- B1 B2\n",
           "L0: header B1 ($L__BB0_1), depth 1, lines nested.cu:11-14\n"
           "      blocks B1 B2 B3; latches B3; exits B3->B4\n",
           "    L1: header B2 ($L__BB0_2), depth 2, lines nested.cu:12\n",
           "unreachable blocks: none\n",
       })
    EXPECT_NE(text.find(expected), std::string::npos) << "missing:\n"
                                                      << expected << "\nin:\n"
                                                      << text;
}

TEST(CfgPrinter, Dot) {
  auto module = nestedLoops();
  ASSERT_TRUE(module);
  passes::AnalysisManager am;
  std::string dot = passes::printCfgDot(*module->functions()[0], am);
  EXPECT_EQ(dot.rfind("digraph \"nested\" {\n", 0), 0u);
  EXPECT_NE(dot.find("subgraph cluster_loop0 {"), std::string::npos);
  EXPECT_NE(dot.find("    subgraph cluster_loop1 {"), std::string::npos); // nested inside L0
  EXPECT_NE(dot.find("n2 -> n2 [label=\"branch\"];"), std::string::npos);
  EXPECT_NE(dot.find("n4 -> n6 [style=dotted];"), std::string::npos); // ret -> exit
  EXPECT_EQ(dot.find('\t'), std::string::npos);
  EXPECT_EQ(dot.back(), '\n');
}

} // namespace
} // namespace ocelot::test
