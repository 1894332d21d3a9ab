// Def-use chains: which writes each read may see, against brute-force reaching definitions.

#include "passes/DefUseChains.h"

#include "PassTestSupport.h"
#include "RandomPtx.h"
#include "passes/AnalysisManager.h"

namespace ocelot::test {
namespace {

using passes::ControlFlowGraph;
using Node = ControlFlowGraph::Node;

TEST(DefUseChains, GuardedWritesAndLoops) {
  auto module = parseOrFail(kernel(R"(
	mov.u32 %r1, 0;
	@%p1 mov.u32 %r1, 5;
$L_loop:
	add.s32 %r1, %r1, 1;
	setp.lt.s32 %p2, %r1, 10;
	@%p2 bra $L_loop;
	st.global.u32 [%rd1], %r1;
	ret;)"));
  ASSERT_TRUE(module);
  ir::Function& f = *module->functions()[0];
  passes::AnalysisManager am;
  const auto& chains = am.getResult<passes::DefUseAnalysis>(f);
  auto instructions = [&] {
    std::vector<const ir::Instruction*> list;
    for (const auto& b : f.blocks())
      b->forEachInstruction([&](const ir::Instruction& i) { list.push_back(&i); });
    return list;
  }();
  const ir::Instruction& mov0 = *instructions[0];
  const ir::Instruction& mov5 = *instructions[1];
  const ir::Instruction& add = *instructions[2];
  const ir::Instruction& store = *instructions[5];
  ir::RegisterRef r1 = add.operands()[0].as<ir::RegisterOperand>().reg;

  // The add sees both initial writes (the guarded one does not kill the first) and itself.
  auto defs = chains.reachingDefinitions(add, r1);
  std::set<const ir::Instruction*> sites;
  for (const auto& d : defs)
    sites.insert(d.instruction);
  EXPECT_EQ(sites, (std::set<const ir::Instruction*>{&mov0, &mov5, &add}));
  // The store sees only the add.
  auto storeDefs = chains.reachingDefinitions(store, r1);
  ASSERT_EQ(storeDefs.size(), 1u);
  EXPECT_EQ(storeDefs[0].instruction, &add);
  // mov0 reaches the add only (the guarded mov5 is a use of it in SSA terms, not a read).
  auto uses = chains.uses(mov0, r1);
  ASSERT_EQ(uses.size(), 1u);
  EXPECT_EQ(uses[0].instruction, &add);
  EXPECT_EQ(chains.uses(add, r1).size(), 3u); // setp, add itself, store
  // %rd1 is never written: the store reads its entry value.
  ir::RegisterRef rd1 =
      std::get<ir::RegisterOperand>(store.operands()[0].as<ir::AddressOperand>().base).reg;
  auto entry = chains.reachingDefinitions(store, rd1);
  ASSERT_EQ(entry.size(), 1u);
  EXPECT_EQ(entry[0].instruction, nullptr);
  EXPECT_EQ(chains.usesOfEntryValue(rd1).size(), 1u);
}

TEST(DefUseChains, RandomKernelsMatchBruteForce) {
  for (unsigned seed = 1; seed <= 200; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    auto module = parseOrFail(randomKernel(seed, 2 + seed % 12));
    ASSERT_TRUE(module);
    ir::Function& f = *module->functions()[0];
    passes::AnalysisManager am;
    const auto& cfg = am.getResult<passes::ControlFlowGraphAnalysis>(f);
    const auto& chains = am.getResult<passes::DefUseAnalysis>(f);
    InstructionGraph graph(cfg);
    // use-def: every read in reachable code.
    std::map<std::pair<const ir::Instruction*, ir::RegisterRef>, std::set<const ir::Instruction*>>
        expectedUses; // def -> reads, from the brute force
    for (Node n : cfg.reversePostOrder()) {
      if (cfg.isVirtual(n))
        continue;
      for (size_t i = 0; i < graph.of(n).size(); ++i) {
        const ir::Instruction& inst = graph.at(Point{n, i});
        std::set<ir::RegisterRef> read;
        ir::forEachRegisterAccess(inst,
                                  [&](const ir::RegisterRef& ref, const ir::RegisterAccess& a) {
                                    if (a.read)
                                      read.insert(ref);
                                  });
        for (ir::RegisterRef reg : read) {
          auto expected = bruteForceReachingDefinitions(graph, Point{n, i}, reg);
          std::set<const ir::Instruction*> actual;
          for (const auto& d : chains.reachingDefinitions(inst, reg))
            actual.insert(d.instruction);
          EXPECT_EQ(actual, expected)
              << f.registerName(reg) << " read by instruction " << i << " of " << cfg.name(n);
          for (const ir::Instruction* d : expected)
            if (d != nullptr)
              expectedUses[{d, reg}].insert(&inst);
        }
      }
    }
    // def-use: the inverse.
    for (const auto& [def, reads] : expectedUses) {
      std::set<const ir::Instruction*> actual;
      for (const auto& use : chains.uses(*def.first, def.second))
        actual.insert(use.instruction);
      EXPECT_EQ(actual, reads);
    }
    if (HasFailure())
      return;
  }
}

} // namespace
} // namespace ocelot::test
