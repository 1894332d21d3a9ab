// Dominators, post-dominators and dominance frontiers, against the textbook iterative set
// algorithm on hand-made and random control flow.

#include "passes/DominatorTree.h"

#include "PassTestSupport.h"
#include "RandomPtx.h"
#include "passes/AnalysisManager.h"
#include "passes/DominanceFrontier.h"

namespace ocelot::test {
namespace {

using passes::ControlFlowGraph;
using passes::DominatorTree;
using Node = ControlFlowGraph::Node;

/// Checks a tree against the reference idoms, and its queries against the tree's own parents.
void expectMatchesReference(const ControlFlowGraph& cfg, const DominatorTree& tree) {
  auto reference = referenceIdoms(cfg, tree.isPostDominatorTree(), tree.virtualExitEdges());
  for (Node n = 0; n < cfg.size(); ++n) {
    EXPECT_EQ(tree.idom(n), reference[n]) << "idom of " << cfg.name(n);
    // dominates() agrees with walking up the tree.
    for (Node m = 0; m < cfg.size(); ++m) {
      bool walk = false;
      if (tree.contains(n) && tree.contains(m))
        for (Node x = n; x != DominatorTree::kNone; x = tree.idom(x))
          if (x == m) {
            walk = true;
            break;
          }
      ASSERT_EQ(tree.dominates(m, n), walk) << cfg.name(m) << " dom " << cfg.name(n);
    }
  }
}

TEST(DominatorTree, DiamondAndLoop) {
  auto module = parseOrFail(kernel(R"(
	setp.eq.s32 %p1, %r1, 0;
	@%p1 bra $L_else;
	mov.u32 %r2, 1;
	bra.uni $L_join;
$L_else:
	mov.u32 %r2, 2;
$L_join:
	add.s32 %r3, %r3, 1;
	setp.lt.s32 %p2, %r3, 10;
	@%p2 bra $L_join;
	ret;)"));
  ASSERT_TRUE(module);
  passes::AnalysisManager am;
  ir::Function& f = *module->functions()[0];
  const auto& cfg = am.getResult<passes::ControlFlowGraphAnalysis>(f);
  const auto& dom = am.getResult<passes::DominatorTreeAnalysis>(f);
  const auto& post = am.getResult<passes::PostDominatorTreeAnalysis>(f);
  // B0 cond | B1 then | B2 else | B3 join (loop) | B4 ret
  ASSERT_EQ(cfg.blockCount(), 5u);
  EXPECT_EQ(dom.idom(0), cfg.entry());
  EXPECT_EQ(dom.idom(1), 0u);
  EXPECT_EQ(dom.idom(2), 0u);
  EXPECT_EQ(dom.idom(3), 0u);
  EXPECT_EQ(dom.idom(4), 3u);
  EXPECT_EQ(dom.idom(cfg.exit()), 4u);
  EXPECT_EQ(post.idom(0), 3u);
  EXPECT_EQ(post.idom(1), 3u);
  EXPECT_EQ(post.idom(3), 4u);
  EXPECT_EQ(post.idom(4), cfg.exit());
  EXPECT_EQ(dom.nearestCommonDominator(1, 2), 0u);
  EXPECT_EQ(dom.depth(3), 2u); // entry -> B0 -> B3

  const auto& df = am.getResult<passes::DominanceFrontierAnalysis>(f);
  EXPECT_EQ(std::vector<Node>(df.frontier(1).begin(), df.frontier(1).end()), std::vector<Node>{3});
  EXPECT_EQ(std::vector<Node>(df.frontier(3).begin(), df.frontier(3).end()), std::vector<Node>{3});
  EXPECT_TRUE(df.frontier(0).empty());
  expectMatchesReference(cfg, dom);
  expectMatchesReference(cfg, post);
}

TEST(DominatorTree, InfiniteLoopGetsAVirtualExitEdge) {
  auto module = parseOrFail(kernel(R"(
	@%p1 bra $L_spin;
	ret;
$L_spin:
	add.s32 %r1, %r1, 1;
	bra.uni $L_spin;)"));
  ASSERT_TRUE(module);
  ControlFlowGraph cfg(*module->functions()[0]);
  DominatorTree post(cfg, DominatorTree::Direction::Post);
  ASSERT_EQ(post.virtualExitEdges(), std::vector<Node>{2});
  EXPECT_EQ(post.idom(2), cfg.exit());
  EXPECT_EQ(post.idom(0), cfg.exit()); // B0 reaches exit through B1 or "through" the loop
  expectMatchesReference(cfg, post);
}

TEST(DominatorTree, UnreachableBlocksAreNotInTheTree) {
  auto module = parseOrFail(kernel("\tret;\n$L_dead:\n\tbra.uni $L_dead;"));
  ASSERT_TRUE(module);
  ControlFlowGraph cfg(*module->functions()[0]);
  DominatorTree dom(cfg, DominatorTree::Direction::Forward);
  EXPECT_FALSE(dom.contains(1));
  EXPECT_EQ(dom.idom(1), DominatorTree::kNone);
  EXPECT_FALSE(dom.dominates(0, 1));
  EXPECT_EQ(dom.nearestCommonDominator(0, 1), DominatorTree::kNone);
}

/// The frontier by its definition: y ∈ DF(x) iff x dominates a predecessor of y and does not
/// strictly dominate y.
void expectFrontierMatchesDefinition(const ControlFlowGraph& cfg, const DominatorTree& dom,
                                     const passes::DominanceFrontier& df) {
  for (Node x = 0; x < cfg.size(); ++x) {
    std::vector<Node> expected;
    if (dom.contains(x))
      for (Node y = 0; y < cfg.size(); ++y) {
        bool dominatesPredecessor = false;
        for (const auto& e : cfg.predecessors(y))
          dominatesPredecessor |= dom.dominates(x, e.from);
        if (dominatesPredecessor && !dom.strictlyDominates(x, y))
          expected.push_back(y);
      }
    auto actual = df.frontier(x);
    EXPECT_EQ(std::vector<Node>(actual.begin(), actual.end()), expected) << "DF of " << cfg.name(x);
  }
}

TEST(DominatorTree, RandomControlFlowMatchesTheReference) {
  for (unsigned seed = 1; seed <= 300; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    auto module = parseOrFail(randomKernel(seed, 2 + seed % 30));
    ASSERT_TRUE(module);
    ControlFlowGraph cfg(*module->functions()[0]);
    DominatorTree dom(cfg, DominatorTree::Direction::Forward);
    DominatorTree post(cfg, DominatorTree::Direction::Post);
    expectMatchesReference(cfg, dom);
    expectMatchesReference(cfg, post);
    expectFrontierMatchesDefinition(cfg, dom, passes::DominanceFrontier(cfg, dom));
    if (HasFailure())
      return;
  }
}

} // namespace
} // namespace ocelot::test
