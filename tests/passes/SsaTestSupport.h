#pragma once

// Checks that a function in SSA form is in SSA form: every new register written once, every read
// of one dominated by its write (φ inputs at the end of their predecessor).

#include "PassTestSupport.h"
#include "passes/DominatorTree.h"
#include "passes/SsaForm.h"

#include <map>

namespace ocelot::test {

/// Problems with `form` as SSA over `function` (empty when it is valid).
inline std::vector<std::string> ssaProblems(ir::Function& function, const passes::SsaForm& form) {
  using Node = passes::ControlFlowGraph::Node;
  std::vector<std::string> problems;
  passes::ControlFlowGraph cfg(function);
  passes::DominatorTree dom(cfg, passes::DominatorTree::Direction::Forward);
  auto isNew = [&](ir::RegisterRef ref) {
    return std::find(form.newDeclarators.begin(), form.newDeclarators.end(), ref.declarator) !=
           form.newDeclarators.end();
  };
  struct Site {
    Node node;
    size_t index; ///< instruction index in the block; SIZE_MAX-1 for a φ (before everything)
  };
  constexpr size_t kPhi = static_cast<size_t>(-1);
  std::map<ir::RegisterRef, Site> defs;
  auto define = [&](ir::RegisterRef ref, Site site) {
    if (!defs.emplace(ref, site).second)
      problems.push_back(function.registerName(ref) + " is written more than once");
  };
  for (const auto& [block, phis] : form.phis)
    for (const auto& phi : phis)
      define(phi.result, Site{cfg.node(*block), kPhi});
  std::map<const ir::Instruction*, Site> where;
  for (Node n = 0; n < cfg.blockCount(); ++n) {
    size_t i = 0;
    cfg.block(n)->forEachInstruction([&](const ir::Instruction& inst) {
      where[&inst] = Site{n, i};
      ir::forEachRegisterAccess(inst, [&](const ir::RegisterRef& ref, const ir::RegisterAccess& a) {
        if (a.written && isNew(ref))
          define(ref, Site{n, i});
      });
      ++i;
    });
  }
  // A read at `at` (kPhi index: the end of block at.node) must be dominated by the write.
  auto checkRead = [&](ir::RegisterRef ref, Site at, const std::string& what) {
    if (!isNew(ref))
      return;
    auto it = defs.find(ref);
    if (it == defs.end()) {
      problems.push_back(what + " reads " + function.registerName(ref) + ", never written");
      return;
    }
    Site def = it->second;
    bool ok;
    if (at.index == kPhi) // end of a predecessor
      ok = dom.dominates(def.node, at.node);
    else if (def.node == at.node)
      ok = def.index == kPhi || def.index < at.index;
    else
      ok = dom.dominates(def.node, at.node);
    if (!ok)
      problems.push_back(what + " reads " + function.registerName(ref) +
                         ", whose write does not dominate it");
  };
  for (const auto& [inst, site] : where)
    ir::forEachRegisterAccess(*inst, [&](const ir::RegisterRef& ref, const ir::RegisterAccess& a) {
      if (a.read && !(a.written && !a.isGuard && isNew(ref) && defs.count(ref) &&
                      defs[ref].node == site.node && defs[ref].index == site.index))
        checkRead(ref, site, "`" + ir::instructionToString(function, *inst) + "`");
    });
  for (const auto& tie : form.ties)
    if (tie.input)
      checkRead(*tie.input, where[tie.instruction], "a tie");
  for (const auto& [block, phis] : form.phis)
    for (const auto& phi : phis)
      for (const auto& in : phi.incoming)
        if (in.value && in.predecessor)
          checkRead(*in.value, Site{cfg.node(*in.predecessor), kPhi}, "a φ input");
  return problems;
}

} // namespace ocelot::test
