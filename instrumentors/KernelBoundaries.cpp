#include "instrumentors/KernelBoundaries.h"

#include "ir/Casting.h"

namespace ocelot::instrumentors {

bool hasExitInstruction(const ir::Function& function) {
  bool found = false;
  for (const auto& block : function.blocks())
    block->forEachInstruction(
        [&](const ir::Instruction& inst) { found = found || inst.form().has(ir::kExit); });
  return found;
}

bool KernelBoundaryPass::appliesTo(const ir::Function& function) const {
  return function.hasBody() && buffer_.reaches(function) &&
         (function.isEntry() || hasExitInstruction(function));
}

passes::PreservedAnalyses KernelBoundaryPass::run(ir::Function& function,
                                                  passes::AnalysisManager& analyses) {
  if (function.isEntry()) {
    ir::IRBuilder b(*function.blocks().front(), &analyses);
    recordStart(b);
  }
  for (auto& block : function.blocks()) {
    for (size_t i = 0; i < block->statements().size(); ++i) {
      auto* inst = ir::dyn_cast<ir::Instruction>(block->statements()[i].get());
      if (inst == nullptr)
        continue;
      bool leaves =
          inst->form().has(ir::kExit) || (function.isEntry() && inst->form().has(ir::kReturn));
      if (!leaves)
        continue;
      ir::IRBuilder b(function, &analyses);
      b.at(*block, i);
      recordEnd(b, inst->guard());
      i = b.index();
    }
  }
  ir::BasicBlock& last = *function.blocks().back();
  if (function.isEntry() && last.terminator() == nullptr) {
    ir::IRBuilder b(function, &analyses);
    b.atEnd(last);
    recordEnd(b, std::nullopt);
  }
  return passes::PreservedAnalyses::controlFlow();
}

} // namespace ocelot::instrumentors
