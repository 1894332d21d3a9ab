#include "ir/Casting.h"
#include "ir/IRBuilder.h"
#include "ir/InstructionForm.h"
#include "passes/AnalysisManager.h"
#include "passes/ControlFlowGraph.h"
#include "passes/EdgeSplitting.h"
#include "passes/ParallelCopy.h"
#include "passes/SsaForm.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace ocelot::passes {

namespace {

/// `mov.pred`, `mov.b16` ... `mov.b128`: bit-size moves serve every type of their width.
std::string_view moveSpelling(const ir::RegisterDeclarator& d) {
  if (d.type == ir::ScalarType::Pred)
    return "mov.pred";
  switch (d.type ? ir::scalarTypeBits(*d.type) : 32) {
  case 16:
    return "mov.b16";
  case 64:
    return "mov.b64";
  case 128:
    return "mov.b128";
  default:
    return "mov.b32";
  }
}

class Destruction {
public:
  Destruction(ir::Function& function, AnalysisManager& analyses)
      : f_(function), builder_(function),
        cfg_(analyses.getResult<ControlFlowGraphAnalysis>(function)) {}

  SsaDestructionResult run(SsaForm& form);

private:
  std::unique_ptr<ir::Instruction> makeCopy(const Copy& copy, ir::ScopeId scope) {
    const auto& d = f_.declaratorOf(copy.destination);
    ++result_.copies;
    // One form per spelling, looked up once: functions get thousands of copies.
    std::string_view spelling = moveSpelling(d);
    auto cached = std::find_if(forms_.begin(), forms_.end(),
                               [&](const auto* form) { return form->spelling() == spelling; });
    const ir::InstructionForm& form =
        cached != forms_.end() ? **cached : *forms_.emplace_back(&f_.module().form(spelling));
    return std::make_unique<ir::Instruction>(
        form,
        std::vector<ir::Operand>{ir::RegisterOperand{copy.destination},
                                 ir::RegisterOperand{copy.source}},
        scope);
  }
  ir::RegisterRef temporary(ir::RegisterRef like) {
    const auto d = f_.declaratorOf(like); // copy: the table grows
    return builder_.createRegisters(d.typeWord, "%ssa_tmp", 1);
  }
  /// Copies to put before statement `index` of `block`, in order.
  void plan(ir::BasicBlock* block, size_t index, std::vector<Copy> copies) {
    auto& at = planned_[block][index];
    at.insert(at.end(), copies.begin(), copies.end());
  }
  void insertPlanned();

  ir::Function& f_;
  ir::IRBuilder builder_;
  const ControlFlowGraph& cfg_;
  SsaDestructionResult result_;
  std::unordered_map<ir::BasicBlock*, std::map<size_t, std::vector<Copy>>> planned_;
  std::vector<const ir::InstructionForm*> forms_;
};

SsaDestructionResult Destruction::run(SsaForm& form) {
  // Ties: `mov result, input` right before the instruction.
  std::unordered_map<const ir::Instruction*, std::vector<Copy>> tieCopies;
  for (const SsaTie& tie : form.ties)
    if (tie.input && !(*tie.input == tie.result))
      tieCopies[tie.instruction].push_back(Copy{tie.result, *tie.input});
  if (!tieCopies.empty())
    for (auto& block : f_.blocks()) {
      const auto& statements = block->statements();
      for (size_t i = 0; i < statements.size(); ++i)
        if (auto it = tieCopies.find(ir::dyn_cast<ir::Instruction>(statements[i].get()));
            it != tieCopies.end())
          plan(block.get(), i, it->second);
    }

  // φs: one parallel copy per incoming edge, at the end of a predecessor with one successor,
  // else in a block of its own on the (critical) edge.
  for (auto& [block, phis] : form.phis) {
    std::vector<ir::BasicBlock*> predecessors;
    for (const auto& phi : phis)
      for (const auto& in : phi.incoming)
        if (std::find(predecessors.begin(), predecessors.end(), in.predecessor) ==
            predecessors.end())
          predecessors.push_back(in.predecessor);
    for (ir::BasicBlock* predecessor : predecessors) {
      std::vector<Copy> parallel;
      for (const auto& phi : phis)
        for (const auto& in : phi.incoming)
          if (in.predecessor == predecessor && in.value)
            parallel.push_back(Copy{phi.result, *in.value});
      if (parallel.empty())
        continue;
      if (predecessor == nullptr) {
        result_.ok = false;
        result_.error = "a φ has a defined value on the entry edge";
        return result_;
      }
      std::vector<Copy> sequence = sequentializeParallelCopy(
          std::move(parallel), [&](ir::RegisterRef like) { return temporary(like); });
      ControlFlowGraph::Node from = cfg_.node(*predecessor);
      ControlFlowGraph::Node to = cfg_.node(*block);
      if (from == ControlFlowGraph::kNone || to == ControlFlowGraph::kNone) {
        result_.ok = false;
        result_.error = "the blocks of a φ changed while the function was in SSA form";
        return result_;
      }
      auto successors = cfg_.successors(from);
      if (successors.size() == 1) {
        plan(predecessor, ir::IRBuilder::endIndex(*predecessor), std::move(sequence));
        continue;
      }
      auto edge = std::find_if(successors.begin(), successors.end(),
                               [&](const auto& e) { return e.to == to; });
      std::string why;
      ir::BasicBlock* split = edge == successors.end()
                                  ? nullptr
                                  : splitEdge(builder_, *predecessor, *block, edge->kind, &why);
      if (split == nullptr) {
        result_.ok = false;
        result_.error = "cannot split the edge " + cfg_.name(from, true) + " -> " +
                        cfg_.name(to, true) + ": " + why;
        return result_;
      }
      ++result_.splitEdges;
      plan(split, ir::IRBuilder::endIndex(*split), std::move(sequence));
    }
  }
  insertPlanned();
  return result_;
}

void Destruction::insertPlanned() {
  // Rebuild each block's statement list once, however many copies it receives.
  for (auto& [block, byIndex] : planned_) {
    auto& statements = block->statements();
    std::vector<std::pair<size_t, ir::ScopeId>> scopes;
    for (const auto& [index, copies] : byIndex)
      scopes.emplace_back(index, ir::IRBuilder::scopeAt(f_, *block, index));
    ir::BasicBlock::StatementList rebuilt;
    rebuilt.reserve(statements.size() + byIndex.size() * 2);
    auto plannedAt = byIndex.begin();
    size_t scopeIndex = 0;
    for (size_t i = 0; i <= statements.size(); ++i) {
      if (plannedAt != byIndex.end() && plannedAt->first == i) {
        for (const Copy& copy : plannedAt->second)
          rebuilt.push_back(makeCopy(copy, scopes[scopeIndex].second));
        ++plannedAt;
        ++scopeIndex;
      }
      if (i < statements.size())
        rebuilt.push_back(std::move(statements[i]));
    }
    statements = std::move(rebuilt);
  }
}

} // namespace

SsaDestructionResult fromSsa(SsaForm& form, AnalysisManager& analyses) {
  if (form.function == nullptr)
    return SsaDestructionResult{false, "no function", 0, 0};
  ir::Function& function = *form.function;
  SsaDestructionResult result = Destruction(function, analyses).run(form);
  analyses.invalidate(function, PreservedAnalyses::none());
  form = SsaForm{};
  return result;
}

} // namespace ocelot::passes
