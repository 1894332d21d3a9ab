#include "passes/DominanceFrontier.h"

#include "passes/AnalysisManager.h"

#include <algorithm>

namespace ocelot::passes {

AnalysisKey DominanceFrontierAnalysis::Key;

DominanceFrontier DominanceFrontierAnalysis::run(ir::Function& function, AnalysisManager& am) {
  return DominanceFrontier(am.getResult<ControlFlowGraphAnalysis>(function),
                           am.getResult<DominatorTreeAnalysis>(function));
}

DominanceFrontier::DominanceFrontier(const ControlFlowGraph& cfg, const DominatorTree& dom) {
  const size_t n = cfg.size();
  std::vector<std::vector<Node>> sets(n);
  for (Node y = 0; y < n; ++y) {
    auto preds = cfg.predecessors(y);
    if (preds.size() < 2 || !dom.contains(y))
      continue;
    for (const auto& edge : preds) {
      Node runner = edge.from;
      if (!dom.contains(runner))
        continue; // an unreachable predecessor has no dominators
      while (runner != dom.idom(y) && runner != DominatorTree::kNone) {
        auto& set = sets[runner];
        if (set.empty() || set.back() != y)
          set.push_back(y);
        runner = dom.idom(runner);
      }
    }
  }
  start_.assign(n + 1, 0);
  for (Node x = 0; x < n; ++x) {
    auto& set = sets[x];
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
    start_[x + 1] = start_[x] + static_cast<uint32_t>(set.size());
  }
  members_.reserve(start_[n]);
  for (auto& set : sets)
    members_.insert(members_.end(), set.begin(), set.end());
}

} // namespace ocelot::passes
