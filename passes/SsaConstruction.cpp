#include "ir/Casting.h"
#include "ir/IRBuilder.h"
#include "ir/RegisterAccess.h"
#include "passes/AnalysisManager.h"
#include "passes/SsaForm.h"
#include "passes/SsaRenaming.h"

#include <algorithm>
#include <unordered_set>

namespace ocelot::passes {

namespace {

/// Whether `mov` can copy a register of this type (PTX registers are 1, 16, 32, 64 or 128 bits).
bool copyable(const ir::RegisterDeclarator& d) {
  if (!d.type || d.vectorWidth != 1)
    return false;
  unsigned bits = ir::scalarTypeBits(*d.type);
  return *d.type == ir::ScalarType::Pred || bits == 16 || bits == 32 || bits == 64 || bits == 128;
}

/// The registers toSsa may rename (see SsaForm), by RegisterNumbering id; `seen` marks the
/// registers the body mentions at all.
std::vector<bool> chooseVariables(const ir::Function& function, const RegisterNumbering& numbering,
                                  std::vector<bool>& seen) {
  std::vector<bool> variables(numbering.size(), false);
  std::unordered_set<std::string_view> signatureRegisters;
  for (const auto* list : {&function.signature().returns, &function.signature().parameters})
    for (const auto& spec : *list)
      if (spec.stateSpace() == ir::StateSpace::Reg)
        for (const auto& d : spec.declarators)
          signatureRegisters.insert(d.name);
  const auto& declarators = function.registerDeclarators();
  for (uint32_t d = 0; d < declarators.size(); ++d) {
    const auto& declarator = declarators[d];
    if (declarator.scope != 0 || !copyable(declarator) ||
        signatureRegisters.contains(declarator.name))
      continue;
    uint32_t count = declarator.parameterized ? declarator.count : 1;
    for (uint32_t i = 0; i < count; ++i)
      if (uint32_t id = numbering.id(ir::RegisterRef{d, i}); id != RegisterNumbering::kNone)
        variables[id] = true;
  }
  seen.assign(numbering.size(), false);
  for (const auto& block : function.blocks())
    block->forEachInstruction([&](const ir::Instruction& inst) {
      const bool unknown = inst.form().traits().definitions == ir::DefinitionPattern::Unknown;
      ir::forEachRegisterAccess(inst, [&](const ir::RegisterRef& ref, const ir::RegisterAccess&) {
        uint32_t id = numbering.id(ref);
        if (id == RegisterNumbering::kNone)
          return;
        seen[id] = true;
        if (unknown)
          variables[id] = false;
      });
      for (const auto& operand : inst.operands())
        ir::forEachRegister(operand, [&](const ir::RegisterOperand& reg) {
          uint32_t id = numbering.id(reg.reg);
          if (reg.component != ir::VectorComponent::None && id != RegisterNumbering::kNone)
            variables[id] = false;
        });
    });
  return variables;
}

} // namespace

SsaForm toSsa(ir::Function& function, AnalysisManager& analyses) {
  SsaForm form;
  form.function = &function;
  const auto& cfg = analyses.getResult<ControlFlowGraphAnalysis>(function);
  const auto& numbering = analyses.getResult<RegisterNumberingAnalysis>(function);
  std::vector<bool> appears;
  std::vector<bool> variables = chooseVariables(function, numbering, appears);

  SsaRenaming::Options options;
  options.variables = std::move(variables);
  options.canPlacePhi = [&](ControlFlowGraph::Node node) {
    if (cfg.isVirtual(node))
      return false;
    // Leaving SSA may have to branch to the block from the end of the function.
    for (const auto& s : cfg.block(node)->statements())
      if (const auto* label = ir::dyn_cast<ir::Label>(s.get()); label && label->scope() != 0)
        return false;
    return true;
  };
  SsaRenaming ssa(cfg, analyses.getResult<DominatorTreeAnalysis>(function),
                  analyses.getResult<DominanceFrontierAnalysis>(function),
                  analyses.getResult<LivenessAnalysis>(function), std::move(options));

  // One new range per original declarator, `%r` -> `%r_ssa<N>`, numbered in value order.
  const size_t values = ssa.valueCount();
  form.values = values;
  std::vector<ir::RegisterRef> name(values);
  std::vector<uint32_t> perDeclarator(function.registerDeclarators().size(), 0);
  for (SsaRenaming::ValueId v = 0; v < values; ++v) {
    const auto& value = ssa.value(v);
    name[v] = numbering.ref(value.variable);
    if (value.kind != SsaRenaming::ValueKind::Entry)
      ++perDeclarator[name[v].declarator];
  }
  ir::IRBuilder builder(function);
  std::vector<ir::RegisterRef> next(perDeclarator.size());
  for (uint32_t d = 0; d < perDeclarator.size(); ++d) {
    if (perDeclarator[d] == 0)
      continue;
    const auto declarator = function.registerDeclarators()[d]; // copy: the table grows
    next[d] = builder.createRegisters(declarator.typeWord, std::string(declarator.name) + "_ssa",
                                      perDeclarator[d]);
    if (std::find(form.newDeclarators.begin(), form.newDeclarators.end(), next[d].declarator) ==
        form.newDeclarators.end())
      form.newDeclarators.push_back(next[d].declarator);
  }
  for (SsaRenaming::ValueId v = 0; v < values; ++v)
    if (ssa.value(v).kind != SsaRenaming::ValueKind::Entry) {
      uint32_t d = name[v].declarator;
      name[v] = next[d];
      ++next[d].index;
    }
  auto nameOf = [&](SsaRenaming::ValueId v) -> std::optional<ir::RegisterRef> {
    if (v == SsaRenaming::kNoValue || ssa.value(v).kind == SsaRenaming::ValueKind::Entry)
      return std::nullopt; // undefined: renamed registers are never parameters
    return name[v];
  };

  // Rewrite every register occurrence with its value's name; record ties.
  uint32_t index = 0;
  for (auto& block : function.blocks())
    for (auto& statement : block->statements()) {
      auto* inst = ir::dyn_cast<ir::Instruction>(statement.get());
      if (inst == nullptr)
        continue;
      auto occurrences = ssa.occurrences(index++);
      size_t k = 0;
      ir::forEachRegisterAccess(*inst, [&](ir::RegisterRef& ref, const ir::RegisterAccess&) {
        const auto& occurrence = occurrences[k++];
        if (occurrence.def != SsaRenaming::kNoValue) {
          ref = name[occurrence.def];
          SsaRenaming::ValueId old = occurrence.use != SsaRenaming::kNoValue
                                         ? occurrence.use
                                         : ssa.value(occurrence.def).previous;
          if (old != SsaRenaming::kNoValue)
            form.ties.push_back(SsaTie{inst, ref, nameOf(old)});
        } else if (occurrence.use != SsaRenaming::kNoValue) {
          ref = name[occurrence.use];
        }
      });
    }

  for (ControlFlowGraph::Node n = 0; n < cfg.blockCount(); ++n) {
    auto phis = ssa.phis(n);
    if (phis.empty())
      continue;
    auto preds = cfg.predecessors(n);
    std::vector<SsaPhi> list;
    for (const auto& phi : phis) {
      SsaPhi p;
      p.result = name[phi.value];
      p.variable = numbering.ref(phi.variable);
      for (size_t k = 0; k < preds.size(); ++k)
        p.incoming.push_back({cfg.block(preds[k].from), nameOf(phi.incoming[k])});
      list.push_back(std::move(p));
    }
    form.phis.emplace_back(cfg.block(n), std::move(list));
  }

  for (uint32_t v = 0; v < numbering.size(); ++v)
    if (appears[v])
      ++(ssa.isRenamed(v) ? form.renamedVariables : form.excludedVariables);
  analyses.invalidate(function, PreservedAnalyses::controlFlow());
  return form;
}

} // namespace ocelot::passes
