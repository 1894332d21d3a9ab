#include "passes/DefUseChains.h"

#include "ir/RegisterAccess.h"
#include "passes/AnalysisManager.h"

#include <algorithm>

namespace ocelot::passes {

AnalysisKey DefUseAnalysis::Key;

DefUseChains DefUseAnalysis::run(ir::Function& function, AnalysisManager& am) {
  const auto& cfg = am.getResult<ControlFlowGraphAnalysis>(function);
  return DefUseChains(std::make_unique<SsaRenaming>(
      cfg, am.getResult<DominatorTreeAnalysis>(function),
      am.getResult<DominanceFrontierAnalysis>(function), am.getResult<LivenessAnalysis>(function),
      SsaRenaming::Options{}));
}

DefUseChains::DefUseChains(std::unique_ptr<SsaRenaming> renaming) : renaming_(std::move(renaming)) {
  const SsaRenaming& ssa = *renaming_;
  const size_t values = ssa.valueCount();

  // The merge graph: a φ depends on its incoming values, a non-killing write on the value before
  // it. Its strongly connected components (Tarjan, iterative) are merged, then each component's
  // reaching definitions are its own plus those of the components it depends on, which Tarjan
  // finishes first.
  std::vector<std::vector<ValueId>> phiInputs(values);
  for (SsaRenaming::Node n = 0; n < ssa.cfg().size(); ++n)
    for (const auto& phi : ssa.phis(n))
      for (ValueId in : phi.incoming)
        if (in != SsaRenaming::kNoValue)
          phiInputs[phi.value].push_back(in);
  auto forEachInput = [&](ValueId v, auto&& fn) {
    const auto& value = ssa.value(v);
    if (value.kind == SsaRenaming::ValueKind::Phi)
      for (ValueId in : phiInputs[v])
        fn(in);
    else if (value.previous != SsaRenaming::kNoValue)
      fn(value.previous);
  };

  constexpr uint32_t kUnvisited = UINT32_MAX;
  component_.assign(values, kUnvisited);
  std::vector<uint32_t> index(values, kUnvisited), low(values, 0);
  std::vector<bool> onStack(values, false);
  std::vector<ValueId> stack;
  uint32_t counter = 0;
  struct Frame {
    ValueId value;
    size_t next;
    std::vector<ValueId> inputs;
  };
  for (ValueId root = 0; root < values; ++root) {
    if (index[root] != kUnvisited)
      continue;
    std::vector<Frame> frames;
    auto open = [&](ValueId v) {
      index[v] = low[v] = counter++;
      stack.push_back(v);
      onStack[v] = true;
      Frame frame{v, 0, {}};
      forEachInput(v, [&](ValueId in) { frame.inputs.push_back(in); });
      frames.push_back(std::move(frame));
    };
    open(root);
    while (!frames.empty()) {
      Frame& frame = frames.back();
      if (frame.next < frame.inputs.size()) {
        ValueId w = frame.inputs[frame.next++];
        if (index[w] == kUnvisited)
          open(w);
        else if (onStack[w])
          low[frame.value] = std::min(low[frame.value], index[w]);
        continue;
      }
      ValueId v = frame.value;
      if (low[v] == index[v]) {
        uint32_t c = static_cast<uint32_t>(reach_.size());
        std::vector<ValueId> reach;
        std::vector<ValueId> members;
        ValueId w;
        do {
          w = stack.back();
          stack.pop_back();
          onStack[w] = false;
          component_[w] = c;
          members.push_back(w);
        } while (w != v);
        for (ValueId m : members) {
          if (ssa.value(m).kind != SsaRenaming::ValueKind::Phi)
            reach.push_back(m);
          forEachInput(m, [&](ValueId in) {
            if (component_[in] != c) {
              const auto& more = reach_[component_[in]];
              reach.insert(reach.end(), more.begin(), more.end());
            }
          });
        }
        std::sort(reach.begin(), reach.end());
        reach.erase(std::unique(reach.begin(), reach.end()), reach.end());
        reach_.push_back(std::move(reach));
      }
      frames.pop_back();
      if (!frames.empty())
        low[frames.back().value] = std::min(low[frames.back().value], low[v]);
    }
  }

  // Invert: for every read, each definition it may see gets the read as a use.
  std::vector<uint32_t> counts(values + 1, 0);
  auto forEachRead = [&](auto&& fn) {
    for (uint32_t i = 0; i < ssa.instructions().size(); ++i) {
      auto occurrences = ssa.occurrences(i);
      size_t k = 0;
      ir::forEachRegisterAccess(*ssa.instructions()[i],
                                [&](const ir::RegisterRef& ref, const ir::RegisterAccess&) {
                                  if (occurrences[k].use != SsaRenaming::kNoValue)
                                    for (ValueId d : reaching(occurrences[k].use))
                                      fn(d, i, ref);
                                  ++k;
                                });
    }
  };
  forEachRead([&](ValueId d, uint32_t, const ir::RegisterRef&) { ++counts[d + 1]; });
  for (size_t v = 0; v < values; ++v)
    counts[v + 1] += counts[v];
  useStart_ = counts;
  useList_.resize(counts[values]);
  forEachRead([&](ValueId d, uint32_t i, const ir::RegisterRef& ref) {
    useList_[counts[d]++] = {i, ref};
  });
}

std::vector<DefinitionSite> DefUseChains::reachingDefinitions(const ir::Instruction& instruction,
                                                              ir::RegisterRef reg) const {
  const SsaRenaming& ssa = *renaming_;
  std::vector<DefinitionSite> result;
  uint32_t i = ssa.indexOf(instruction);
  if (i == UINT32_MAX)
    return result;
  auto occurrences = ssa.occurrences(i);
  std::vector<ValueId> found;
  size_t k = 0;
  ir::forEachRegisterAccess(instruction,
                            [&](const ir::RegisterRef& ref, const ir::RegisterAccess&) {
                              if (ref == reg && occurrences[k].use != SsaRenaming::kNoValue) {
                                const auto& more = reaching(occurrences[k].use);
                                found.insert(found.end(), more.begin(), more.end());
                              }
                              ++k;
                            });
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  for (ValueId d : found) {
    const auto& value = ssa.value(d);
    const ir::Instruction* site = value.kind == SsaRenaming::ValueKind::Definition
                                      ? ssa.instructions()[value.instruction]
                                      : nullptr;
    result.push_back(DefinitionSite{site, ssa.numbering().ref(value.variable)});
  }
  return result;
}

std::vector<UseSite> DefUseChains::usesOf(ValueId definition) const {
  std::vector<UseSite> result;
  for (uint32_t u = useStart_[definition]; u < useStart_[definition + 1]; ++u)
    result.push_back(UseSite{renaming_->instructions()[useList_[u].first], useList_[u].second});
  // One read per instruction and register, however many operands name it.
  result.erase(std::unique(result.begin(), result.end()), result.end());
  return result;
}

std::vector<UseSite> DefUseChains::uses(const ir::Instruction& instruction,
                                        ir::RegisterRef reg) const {
  const SsaRenaming& ssa = *renaming_;
  std::vector<UseSite> result;
  uint32_t i = ssa.indexOf(instruction);
  if (i == UINT32_MAX)
    return result;
  auto occurrences = ssa.occurrences(i);
  size_t k = 0;
  ir::forEachRegisterAccess(instruction,
                            [&](const ir::RegisterRef& ref, const ir::RegisterAccess&) {
                              if (ref == reg && occurrences[k].def != SsaRenaming::kNoValue) {
                                auto more = usesOf(occurrences[k].def);
                                result.insert(result.end(), more.begin(), more.end());
                              }
                              ++k;
                            });
  return result;
}

std::vector<UseSite> DefUseChains::usesOfEntryValue(ir::RegisterRef reg) const {
  const SsaRenaming& ssa = *renaming_;
  uint32_t v = ssa.numbering().id(reg);
  for (ValueId d = 0; d < ssa.valueCount(); ++d)
    if (ssa.value(d).kind == SsaRenaming::ValueKind::Entry && ssa.value(d).variable == v)
      return usesOf(d);
  return {};
}

} // namespace ocelot::passes
