#include "passes/RegisterPressure.h"

#include "ir/Casting.h"
#include "passes/AnalysisManager.h"

#include <algorithm>

namespace ocelot::passes {

AnalysisKey RegisterPressureAnalysis::Key;

RegisterPressure RegisterPressureAnalysis::run(ir::Function& function, AnalysisManager& am) {
  return RegisterPressure(am.getResult<ControlFlowGraphAnalysis>(function),
                          am.getResult<LivenessAnalysis>(function));
}

RegisterPressure::RegisterPressure(const ControlFlowGraph& cfg, const Liveness& liveness) {
  blocks_.resize(cfg.size());
  for (Node n = 0; n < cfg.blockCount(); ++n) {
    LiveScanner scan(liveness, n);
    Block& block = blocks_[n];
    auto record = [&] {
      block.maxUnits = std::max(block.maxUnits, scan.liveUnits());
      block.maxPredicates = std::max(block.maxPredicates, scan.livePredicates());
    };
    record();
    const auto& statements = cfg.block(n)->statements();
    for (auto it = statements.rbegin(); it != statements.rend(); ++it)
      if (const auto* inst = ir::dyn_cast<ir::Instruction>(it->get())) {
        scan.step(*inst);
        record();
      }
    max_.maxUnits = std::max(max_.maxUnits, block.maxUnits);
    max_.maxPredicates = std::max(max_.maxPredicates, block.maxPredicates);
  }
}

} // namespace ocelot::passes
