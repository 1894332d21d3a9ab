// Where the basic-block counter puts counters: which blocks are derived from an equivalent block
// (straight-line chains, control equivalence within one loop iteration), which loop blocks count
// in registers, and the shapes where a block that looks equivalent is not.

#include "instrumentors/CounterPlacement.h"

#include "ir/InstructionForm.h"
#include "ir/Parser.h"
#include "passes/AnalysisManager.h"
#include "passes/LoopInfo.h"
#include "tests/passes/RandomPtx.h"
#include "tests/support/GeneratedPtx.h"

#include <gtest/gtest.h>

#include <string>

namespace ocelot::test {
namespace {

using instrumentors::CounterKind;
using instrumentors::CounterPlacement;
using instrumentors::PlacementOptions;

struct Placed {
  std::unique_ptr<ir::Module> module;
  CounterPlacement placement;
};

Placed place(const std::string& body, PlacementOptions options = {true, 32}) {
  std::string ptx = ".version 8.5\n.target sm_90\n.address_size 64\n"
                    ".visible .entry k(.param .u32 n)\n{\n"
                    "  .reg .pred %p<8>;\n  .reg .b32 %r<16>;\n" +
                    body + "}\n";
  auto parsed = ir::parsePtx(ptx, "<test>");
  EXPECT_TRUE(parsed.ok()) << parsed.firstError();
  Placed out;
  out.module = std::move(parsed.module);
  passes::AnalysisManager analyses;
  out.placement = placeCounters(*out.module->functions().front(), analyses, options);
  return out;
}

// The shape of the instrumentation benchmark's nbody: a tile loop whose header, barrier block and
// latch run once per tile, a conditional load, and an inner loop. Only the header, the
// conditional block and the inner loop need counters.
TEST(CounterPlacement, BlocksOfOneIterationShareTheHeadersCount) {
  Placed p = place(R"(
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra DONE;
HEAD:
  setp.lt.s32 %p2, %r2, 3;
  @%p2 bra JOIN;
  add.s32 %r3, %r3, 1;
JOIN:
  bar.sync 0;
  mov.u32 %r4, 0;
INNER:
  add.s32 %r4, %r4, 1;
  setp.lt.s32 %p3, %r4, 8;
  @%p3 bra INNER;
  add.s32 %r2, %r2, 1;
  setp.lt.s32 %p4, %r2, %r1;
  @%p4 bra HEAD;
DONE:
  ret;
)");
  const auto& b = p.placement.blocks;
  ASSERT_EQ(b.size(), 7u);                     // B0, HEAD, cond, JOIN, INNER, latch, DONE
  EXPECT_EQ(b[1].kind, CounterKind::Register); // HEAD
  EXPECT_EQ(b[2].kind, CounterKind::Register); // the conditional block
  EXPECT_EQ(b[3].kind, CounterKind::Derived);  // JOIN, once per tile
  EXPECT_EQ(b[3].source, 1u);
  EXPECT_EQ(b[4].kind, CounterKind::Register); // INNER
  EXPECT_EQ(b[5].kind, CounterKind::Derived);  // the latch, after INNER
  EXPECT_EQ(b[5].source, 1u);
  EXPECT_EQ(b[6].kind, CounterKind::Derived); // DONE: once per thread
  EXPECT_EQ(b[6].source, 0u);
  EXPECT_EQ(p.placement.registers, 3u);
}

// A loop with two latches: the one on the exit path post-dominates the header in the function,
// but an iteration can skip it (through the other latch), so it is not derived.
TEST(CounterPlacement, ALatchAnIterationCanSkipIsCounted) {
  Placed p = place(R"(
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
HEAD:
  add.s32 %r2, %r2, 1;
  and.b32 %r3, %r2, 1;
  setp.eq.s32 %p1, %r3, 0;
  @%p1 bra LAST;
  bra.uni HEAD;
LAST:
  setp.lt.s32 %p2, %r2, %r1;
  @%p2 bra HEAD;
  ret;
)");
  const auto& b = p.placement.blocks;
  ASSERT_EQ(b.size(), 5u); // B0, HEAD, the other latch, LAST, the return
  EXPECT_NE(b[3].kind, CounterKind::Derived);
  EXPECT_NE(b[2].kind, CounterKind::Derived);
  EXPECT_EQ(b[4].kind, CounterKind::Derived); // the return runs once, as B0
  EXPECT_EQ(b[4].source, 0u);
}

// A loop left by a break: its latch runs once less than its header per thread that breaks.
TEST(CounterPlacement, ALatchAfterABreakIsCounted) {
  Placed p = place(R"(
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
HEAD:
  add.s32 %r2, %r2, 1;
  setp.eq.s32 %p1, %r2, 5;
  @%p1 bra OUT;
  setp.lt.s32 %p2, %r2, %r1;
  @%p2 bra HEAD;
OUT:
  ret;
)");
  const auto& b = p.placement.blocks;
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b[1].kind, CounterKind::Register);
  EXPECT_EQ(b[2].kind, CounterKind::Register); // the latch
  EXPECT_EQ(b[3].kind, CounterKind::Derived);  // OUT: once per thread
  EXPECT_EQ(b[3].source, 0u);
}

const char* const kIfElse = R"(
  ld.param.u32 %r1, [n];
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra ELSE;
  add.s32 %r2, %r1, 1;
  bra.uni JOIN;
ELSE:
  add.s32 %r2, %r1, 2;
JOIN:
  ret;
)";

// An if/else: the join runs as often as the block before the branch; the arms do not.
TEST(CounterPlacement, TheJoinOfAnIfElseIsDerived) {
  Placed p = place(kIfElse);
  const auto& b = p.placement.blocks;
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b[0].kind, CounterKind::Atomic);
  EXPECT_EQ(b[1].kind, CounterKind::Atomic);
  EXPECT_EQ(b[2].kind, CounterKind::Atomic);
  EXPECT_EQ(b[3].kind, CounterKind::Derived);
  EXPECT_EQ(b[3].source, 0u);
  // derive=off: every block is counted.
  Placed off = place(kIfElse, PlacementOptions{false, 32});
  EXPECT_EQ(off.placement.blocks[3].kind, CounterKind::Atomic);
}

// The shape of async_copy's barrier_copy (cuda::barrier's wait): a spin loop whose exit block
// (control-equivalent to the entry, derived in the second step) leads straight to the next block
// (chain-derived from the exit block in the first step). The next block's count must come from a
// counted block, not from the exit block, which has no counter of its own: on the GPU bbcount
// reported 0 for it where every thread passes it.
TEST(CounterPlacement, AChainAfterALoopExitCountsFromACountedBlock) {
  Placed p = place(R"(
  ld.param.u32 %r1, [n];
  mov.u32 %r3, 0;
  bra.uni HEAD;
HEAD:
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p2, %r3, %r1;
  @%p2 bra HEAD;
  bra.uni AFTER;
AFTER:
  add.u32 %r4, %r3, 2;
  ret;
)");
  const auto& b = p.placement.blocks;
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b[0].kind, CounterKind::Atomic);
  EXPECT_EQ(b[2].kind, CounterKind::Derived); // the loop's exit runs once per entry
  EXPECT_EQ(b[2].source, 0u);
  EXPECT_EQ(b[3].kind, CounterKind::Derived);
  EXPECT_EQ(b[3].source, 0u); // was 2, a block without a counter
  for (const auto& block : b) {
    if (block.kind == CounterKind::Derived) {
      EXPECT_NE(b[block.source].kind, CounterKind::Derived);
    }
  }
}

// A guarded exit between the branch and the join: the join no longer post-dominates the branch.
TEST(CounterPlacement, AnExitOnTheWayIsRespected) {
  Placed p = place(R"(
  ld.param.u32 %r1, [n];
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra ELSE;
  setp.eq.s32 %p2, %r1, 7;
  @%p2 exit;
  bra.uni JOIN;
ELSE:
  add.s32 %r2, %r1, 2;
JOIN:
  ret;
)");
  const auto& b = p.placement.blocks;
  ASSERT_GE(b.size(), 4u);
  EXPECT_NE(b.back().kind, CounterKind::Derived);
}

// --- The reference: control equivalence as first written, one post-dominator tree per region
// over every block of the region and a walk over each block's dominators (quadratic and worse on
// deep nests; obviously what the documentation says).

using Node = passes::ControlFlowGraph::Node;
constexpr uint32_t kNoIndex = UINT32_MAX;

bool referenceMakesCalls(const ir::BasicBlock& block) {
  bool calls = false;
  block.forEachInstruction(
      [&](const ir::Instruction& inst) { calls = calls || inst.form().has(ir::kCall); });
  return calls;
}

class ReferenceRegionPostDominators {
public:
  ReferenceRegionPostDominators(const passes::ControlFlowGraph& cfg, const std::vector<Node>& nodes,
                                const passes::Loop* loop) {
    const uint32_t m = static_cast<uint32_t>(nodes.size());
    sink_ = m;
    index_.assign(cfg.size(), kNoIndex);
    for (uint32_t i = 0; i < m; ++i)
      index_[nodes[i]] = i;
    std::vector<std::vector<uint32_t>> successors(m + 1), predecessors(m + 1);
    for (uint32_t i = 0; i < m; ++i)
      for (const auto& edge : cfg.successors(nodes[i])) {
        bool ends = cfg.isVirtual(edge.to) || index_[edge.to] == kNoIndex ||
                    (loop != nullptr && edge.to == loop->header);
        uint32_t to = ends ? sink_ : index_[edge.to];
        successors[i].push_back(to);
        predecessors[to].push_back(i);
      }
    // Post-dominators by the set definition, iterated to the fixpoint (small graphs only).
    std::vector<std::vector<bool>> dominated(m + 1, std::vector<bool>(m + 1, true));
    dominated[sink_].assign(m + 1, false);
    dominated[sink_][sink_] = true;
    std::vector<bool> reaches(m + 1, false);
    reaches[sink_] = true;
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t x = 0; x < m; ++x) {
        bool any = false;
        std::vector<bool> meet(m + 1, true);
        for (uint32_t s : successors[x])
          if (reaches[s]) {
            any = true;
            for (uint32_t k = 0; k <= m; ++k)
              meet[k] = meet[k] && dominated[s][k];
          }
        if (!any)
          continue;
        meet[x] = true;
        if (!reaches[x] || meet != dominated[x]) {
          reaches[x] = true;
          dominated[x] = meet;
          changed = true;
        }
      }
    }
    reaches_ = reaches;
    dominated_ = dominated;
  }

  bool postDominates(Node b, Node a) const {
    uint32_t x = index_[a], target = index_[b];
    if (x == kNoIndex || target == kNoIndex || !reaches_[x])
      return false;
    return dominated_[x][target];
  }

private:
  uint32_t sink_ = 0;
  std::vector<uint32_t> index_;
  std::vector<bool> reaches_;
  std::vector<std::vector<bool>> dominated_;
};

std::vector<instrumentors::BlockCounter> referencePlacement(ir::Function& function) {
  passes::AnalysisManager analyses;
  const auto& cfg = analyses.getResult<passes::ControlFlowGraphAnalysis>(function);
  const auto& loops = analyses.getResult<passes::LoopAnalysis>(function);
  const auto& dominators = analyses.getResult<passes::DominatorTreeAnalysis>(function);
  const size_t n = cfg.blockCount();
  std::vector<instrumentors::BlockCounter> blocks(n);
  for (Node b = 0; b < n; ++b)
    if (!cfg.isReachable(b))
      blocks[b].kind = CounterKind::Unreachable;
  for (Node b : cfg.reversePostOrder()) {
    if (cfg.isVirtual(b) || blocks[b].kind != CounterKind::Atomic)
      continue;
    auto predecessors = cfg.predecessors(b);
    if (predecessors.size() != 1)
      continue;
    Node p = predecessors.front().from;
    if (cfg.isVirtual(p) || p == b || cfg.successors(p).size() != 1 ||
        referenceMakesCalls(*cfg.block(p)))
      continue;
    blocks[b].kind = CounterKind::Derived;
    blocks[b].source = blocks[p].kind == CounterKind::Derived ? blocks[p].source : p;
  }
  if (!loops.irreducibleEdges().empty())
    return blocks;
  std::vector<uint32_t> regions{passes::Loop::kNoLoop};
  for (uint32_t l = 0; l < loops.loops().size(); ++l)
    regions.push_back(l);
  for (uint32_t region : regions) {
    const passes::Loop* loop = region == passes::Loop::kNoLoop ? nullptr : &loops.loops()[region];
    std::vector<Node> nodes;
    if (loop != nullptr) {
      nodes = loop->nodes();
    } else {
      for (Node b = 0; b < n; ++b)
        if (cfg.isReachable(b))
          nodes.push_back(b);
    }
    bool calls = false;
    for (Node b : nodes)
      calls = calls || referenceMakesCalls(*cfg.block(b));
    if (calls)
      continue;
    ReferenceRegionPostDominators post(cfg, nodes, loop);
    for (Node b : cfg.reversePostOrder()) {
      if (cfg.isVirtual(b) || loops.loopIndexFor(b) != region ||
          blocks[b].kind != CounterKind::Atomic)
        continue;
      Node source = passes::ControlFlowGraph::kNone;
      for (Node a = dominators.idom(b); a != passes::DominatorTree::kNone && !cfg.isVirtual(a);
           a = dominators.idom(a)) {
        if (loop != nullptr && !loop->contains(a))
          break;
        if (loops.loopIndexFor(a) != region)
          continue;
        if (blocks[a].kind != CounterKind::Unreachable && post.postDominates(b, a))
          source = a;
      }
      if (source == passes::ControlFlowGraph::kNone)
        continue;
      blocks[b].kind = CounterKind::Derived;
      blocks[b].source =
          blocks[source].kind == CounterKind::Derived ? blocks[source].source : source;
    }
  }
  // A derived block counts as the counted block its source chain ends at (a chain head can be
  // derived after the chain was).
  for (auto& block : blocks)
    while (block.kind == CounterKind::Derived && blocks[block.source].kind == CounterKind::Derived)
      block.source = blocks[block.source].source;
  return blocks;
}

TEST(CounterPlacement, RandomControlFlowMatchesTheReference) {
  size_t derived = 0;
  for (unsigned seed = 1; seed <= 400; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    auto parsed = ir::parsePtx(randomKernel(seed, 2 + seed % 40), "<random>");
    ASSERT_TRUE(parsed.ok()) << parsed.firstError();
    ir::Function& f = *parsed.module->functions().front();
    std::vector<instrumentors::BlockCounter> expected = referencePlacement(f);
    passes::AnalysisManager analyses;
    CounterPlacement placed = placeCounters(f, analyses, PlacementOptions{true, 0});
    ASSERT_EQ(placed.blocks.size(), expected.size());
    for (size_t b = 0; b < expected.size(); ++b) {
      EXPECT_EQ(placed.blocks[b].kind, expected[b].kind) << "block " << b;
      if (expected[b].kind == CounterKind::Derived) {
        EXPECT_EQ(placed.blocks[b].source, expected[b].source) << "block " << b;
        EXPECT_NE(placed.blocks[placed.blocks[b].source].kind, CounterKind::Derived)
            << "block " << b << " derives from a block without a counter";
        ++derived;
      }
    }
    if (HasFailure())
      return;
  }
  EXPECT_GT(derived, 400u) << "the random kernels should exercise derivation";
}

TEST(CounterPlacement, DeepNestsAreLinear) {
  // The headers count; each latch runs once per run of its loop's header; the block after the
  // nest once per run of the first block. 20k levels: the reference needs hours here.
  const size_t depth = 20000;
  auto parsed = ir::parsePtx(testing::nestedLoops(depth), "<nest>");
  ASSERT_TRUE(parsed.ok()) << parsed.firstError();
  ir::Function& f = *parsed.module->functions().front();
  passes::AnalysisManager analyses;
  CounterPlacement placed = placeCounters(f, analyses, PlacementOptions{true, 0});
  ASSERT_EQ(placed.blocks.size(), 2 * depth + 1);
  // B0, headers B1..B{depth} (the innermost is its own latch), latches, the block after.
  EXPECT_EQ(placed.blocks[0].kind, CounterKind::Atomic);
  for (size_t level = 1; level <= depth; ++level)
    ASSERT_EQ(placed.blocks[level].kind, CounterKind::Atomic) << "header " << level;
  for (size_t level = depth - 1; level >= 1; --level) {
    const auto& latch = placed.blocks[2 * depth - level];
    ASSERT_EQ(latch.kind, CounterKind::Derived) << "latch " << level;
    ASSERT_EQ(latch.source, level) << "latch " << level;
  }
  EXPECT_EQ(placed.blocks[2 * depth].kind, CounterKind::Derived);
  EXPECT_EQ(placed.blocks[2 * depth].source, 0u);
  // Small nests agree with the reference.
  auto small = ir::parsePtx(testing::nestedLoops(40), "<small nest>");
  ASSERT_TRUE(small.ok());
  ir::Function& g = *small.module->functions().front();
  passes::AnalysisManager smallAnalyses;
  CounterPlacement smallPlaced = placeCounters(g, smallAnalyses, PlacementOptions{true, 0});
  auto expected = referencePlacement(g);
  for (size_t b = 0; b < expected.size(); ++b) {
    EXPECT_EQ(smallPlaced.blocks[b].kind, expected[b].kind) << b;
    EXPECT_EQ(smallPlaced.blocks[b].source, expected[b].source) << b;
  }
}

} // namespace
} // namespace ocelot::test
