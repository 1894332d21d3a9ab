#include "passes/SplitBlocksAtCalls.h"

#include "ir/Casting.h"
#include "ir/InstructionForm.h"

namespace ocelot::passes {

PreservedAnalyses SplitBlocksAtCalls::run(ir::Function& function, AnalysisManager&) {
  bool changed = false;
  auto& blocks = function.blocks();
  for (size_t b = 0; b < blocks.size(); ++b) {
    auto& statements = blocks[b]->statements();
    for (size_t i = 0; i < statements.size(); ++i) {
      const auto* inst = ir::dyn_cast<ir::Instruction>(statements[i].get());
      if (inst == nullptr || !inst->form().has(ir::kCall))
        continue;
      // Split only when an instruction follows in this block.
      bool instructionFollows = false;
      for (size_t j = i + 1; j < statements.size() && !instructionFollows; ++j)
        instructionFollows = statements[j]->kind() == ir::Statement::Kind::Instruction;
      if (!instructionFollows)
        break;
      ir::BasicBlock& rest = function.insertBlock(b + 1);
      for (size_t j = i + 1; j < statements.size(); ++j)
        rest.statements().push_back(std::move(statements[j]));
      statements.resize(i + 1);
      changed = true;
      break; // continue with the new block, which the loop visits next
    }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ocelot::passes
