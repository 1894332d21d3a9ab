#include "ir/BasicBlock.h"

#include "ir/Casting.h"
#include "ir/InstructionForm.h"

namespace ocelot::ir {

const Label* BasicBlock::label() const {
  for (const auto& s : statements_) {
    if (const auto* label = dyn_cast<Label>(s.get()))
      return label;
    if (s->kind() == Statement::Kind::Instruction)
      return nullptr;
  }
  return nullptr;
}

const Instruction* BasicBlock::terminator() const {
  for (auto it = statements_.rbegin(); it != statements_.rend(); ++it)
    if (const auto* inst = dyn_cast<Instruction>(it->get()))
      return inst->form().isTerminator() ? inst : nullptr;
  return nullptr;
}

Instruction* BasicBlock::terminator() {
  return const_cast<Instruction*>(static_cast<const BasicBlock*>(this)->terminator());
}

bool BasicBlock::hasInstructions() const {
  for (const auto& s : statements_)
    if (s->kind() == Statement::Kind::Instruction)
      return true;
  return false;
}

} // namespace ocelot::ir
