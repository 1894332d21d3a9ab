#include "runtime/cpu/llvm/ConstantRegisters.h"

#include "ir/BasicBlock.h"
#include "ir/Casting.h"
#include "ir/InstructionForm.h"
#include "ir/Statement.h"

#include <iterator>

namespace ocelot::runtime::cpu::native {

ConstantRegisters::ConstantRegisters(const ir::Function& function) {
  std::unordered_map<uint64_t, int> writes;
  for (const auto& block : function.blocks()) {
    for (const auto& statement : block->statements()) {
      const auto* instruction = ir::dyn_cast<ir::Instruction>(statement.get());
      if (instruction == nullptr)
        continue;
      const ir::InstructionForm& form = instruction->form();
      const auto pattern = form.traits().definitions;
      if (pattern == ir::DefinitionPattern::Unknown) {
        usable_ = false;
        return;
      }
      if (pattern == ir::DefinitionPattern::None || instruction->operands().empty())
        continue;
      if (pattern == ir::DefinitionPattern::Call) {
        const auto& operands = instruction->operands();
        if (const auto* list = operands[0].getIf<ir::ArgumentListOperand>())
          for (const ir::Operand& result : list->arguments)
            forEachRegister(result, [&](ir::RegisterRef ref) { ++writes[key(ref)]; });
        continue;
      }
      const ir::Operand& destination = instruction->operands()[0];
      forEachRegister(destination, [&](ir::RegisterRef ref) { ++writes[key(ref)]; });
      const auto* target = destination.getIf<ir::RegisterOperand>();
      if (form.opcode() == ir::Opcode::Mov && target != nullptr && !instruction->guard() &&
          instruction->operands().size() == 2)
        if (const auto* value = instruction->operands()[1].getIf<ir::ImmediateOperand>();
            value != nullptr && !value->isFloat())
          values_[key(target->reg)] = value->integerValue();
    }
  }
  for (auto it = values_.begin(); it != values_.end();)
    it = writes[it->first] == 1 ? std::next(it) : values_.erase(it);
}

} // namespace ocelot::runtime::cpu::native
