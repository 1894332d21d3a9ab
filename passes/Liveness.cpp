#include "passes/Liveness.h"

#include "ir/RegisterAccess.h"
#include "passes/AnalysisManager.h"

#include <algorithm>

namespace ocelot::passes {

AnalysisKey LivenessAnalysis::Key;

Liveness LivenessAnalysis::run(ir::Function& function, AnalysisManager& am) {
  return Liveness(am.getResult<ControlFlowGraphAnalysis>(function),
                  am.getResult<RegisterNumberingAnalysis>(function));
}

Liveness::Liveness(const ControlFlowGraph& cfg, const RegisterNumbering& numbering)
    : cfg_(&cfg), numbering_(&numbering) {
  const size_t nodes = cfg.size();
  const uint32_t registers = numbering.size();
  const ir::Function& function = cfg.function();

  // `.reg` return values of a `.func` are read by whoever called it.
  for (const auto& spec : function.signature().returns)
    if (spec.stateSpace() == ir::StateSpace::Reg)
      for (const auto& d : spec.declarators)
        for (uint32_t id = 0; id < function.registerDeclarators().size(); ++id)
          if (function.registerDeclarators()[id].scope == 0 &&
              function.registerDeclarators()[id].name == d.name)
            if (uint32_t r = numbering.id(ir::RegisterRef{id, 0}); r != RegisterNumbering::kNone)
              exitLive_.push_back(r);

  // Upward-exposed reads and kills of each block, as sparse lists. `stamp` remembers the last
  // block that killed (or read) a register, so no per-block clearing is needed.
  std::vector<std::vector<uint32_t>> upward(nodes), kills(nodes);
  std::vector<uint32_t> killedIn(registers, UINT32_MAX), readIn(registers, UINT32_MAX);
  for (Node n = 0; n < cfg.blockCount(); ++n) {
    cfg.block(n)->forEachInstruction([&](const ir::Instruction& inst) {
      ir::forEachRegisterAccess(inst, [&](const ir::RegisterRef& ref, const ir::RegisterAccess& a) {
        uint32_t r = numbering.id(ref);
        if (!a.read || r == RegisterNumbering::kNone || killedIn[r] == n || readIn[r] == n)
          return;
        readIn[r] = n;
        upward[n].push_back(r);
      });
      ir::forEachRegisterAccess(inst, [&](const ir::RegisterRef& ref, const ir::RegisterAccess& a) {
        uint32_t r = numbering.id(ref);
        if (!a.kills || r == RegisterNumbering::kNone || killedIn[r] == n)
          return;
        killedIn[r] = n;
        kills[n].push_back(r);
      });
    });
  }

  // Global names: registers read before written in some block, or live at the exit.
  globalIndex_.assign(registers, RegisterNumbering::kNone);
  auto addGlobal = [&](uint32_t r) {
    if (globalIndex_[r] == RegisterNumbering::kNone) {
      globalIndex_[r] = static_cast<uint32_t>(globals_.size());
      globals_.push_back(r);
    }
  };
  for (const auto& list : upward)
    for (uint32_t r : list)
      addGlobal(r);
  for (uint32_t r : exitLive_)
    addGlobal(r);
  const size_t g = globals_.size();

  std::vector<BitVector> use(nodes, BitVector(g)), kill(nodes, BitVector(g));
  for (Node n = 0; n < nodes; ++n) {
    for (uint32_t r : upward[n])
      use[n].set(globalIndex_[r]);
    for (uint32_t r : kills[n])
      if (globalIndex_[r] != RegisterNumbering::kNone)
        kill[n].set(globalIndex_[r]);
  }
  liveIn_.assign(nodes, BitVector(g));
  liveOut_.assign(nodes, BitVector(g));
  for (uint32_t r : exitLive_)
    liveIn_[cfg.exit()].set(globalIndex_[r]);

  // Post-order visits successors first, so most information flows in one round. Unreachable
  // blocks are iterated too: their liveness is still well defined.
  std::vector<Node> order(cfg.reversePostOrder().rbegin(), cfg.reversePostOrder().rend());
  for (Node n : cfg.unreachableBlocks())
    order.push_back(n);
  for (bool changed = true; changed;) {
    changed = false;
    ++iterations_;
    for (Node n : order) {
      if (n == cfg.exit())
        continue;
      BitVector& out = liveOut_[n];
      for (const auto& edge : cfg.successors(n))
        changed |= out.unite(liveIn_[edge.to]);
      changed |= liveIn_[n].assignUnionMinus(use[n], out, kill[n]);
    }
  }
}

std::vector<uint32_t> Liveness::expand(const BitVector& set) const {
  std::vector<uint32_t> registers;
  set.forEach([&](size_t g) { registers.push_back(globals_[g]); });
  std::sort(registers.begin(), registers.end());
  return registers;
}

LiveScanner::LiveScanner(const Liveness& liveness, ControlFlowGraph::Node node)
    : liveness_(liveness), live_(liveness.numbering().size()) {
  liveness.liveOut_[node].forEach([&](size_t g) { add(liveness.globals_[g]); });
}

void LiveScanner::add(uint32_t id) {
  if (live_.test(id))
    return;
  live_.set(id);
  if (liveness_.numbering().isPredicate(id))
    ++predicates_;
  else
    units_ += liveness_.numbering().units(id);
}

void LiveScanner::remove(uint32_t id) {
  if (!live_.test(id))
    return;
  live_.reset(id);
  if (liveness_.numbering().isPredicate(id))
    --predicates_;
  else
    units_ -= liveness_.numbering().units(id);
}

void LiveScanner::step(const ir::Instruction& instruction) {
  // live-before = (live-after − kills) ∪ reads; a register both read and killed stays live.
  const RegisterNumbering& numbering = liveness_.numbering();
  reads_.clear();
  ir::forEachRegisterAccess(instruction,
                            [&](const ir::RegisterRef& ref, const ir::RegisterAccess& access) {
                              uint32_t r = numbering.id(ref);
                              if (r == RegisterNumbering::kNone)
                                return;
                              if (access.kills)
                                remove(r);
                              if (access.read)
                                reads_.push_back(r);
                            });
  for (uint32_t r : reads_)
    add(r);
}

bool LiveScanner::isLive(ir::RegisterRef ref) const {
  uint32_t r = liveness_.numbering().id(ref);
  return r != RegisterNumbering::kNone && live_.test(r);
}

} // namespace ocelot::passes
