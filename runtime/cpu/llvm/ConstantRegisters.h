#pragma once

#include "ir/Function.h"
#include "ir/Operand.h"

#include <cstdint>
#include <optional>
#include <unordered_map>

namespace ocelot::runtime::cpu::native {

/// Registers of a function that hold one integer constant: written once, by an unguarded `mov`
/// of an immediate (nvcc materializes shfl's lane operands and member masks this way).
class ConstantRegisters {
public:
  explicit ConstantRegisters(const ir::Function& function);

  /// The value of an immediate operand, or of a register holding one constant.
  std::optional<int64_t> value(const ir::Operand& operand) const {
    if (const auto* immediate = operand.getIf<ir::ImmediateOperand>())
      return immediate->isFloat() ? std::nullopt : std::optional(immediate->integerValue());
    const auto* reg = operand.getIf<ir::RegisterOperand>();
    if (reg == nullptr || !usable_)
      return std::nullopt;
    auto it = values_.find(key(reg->reg));
    return it == values_.end() ? std::nullopt : std::optional(it->second);
  }

private:
  static uint64_t key(ir::RegisterRef ref) { return (uint64_t{ref.declarator} << 32) | ref.index; }
  template <class Fn> static void forEachRegister(const ir::Operand& operand, Fn&& fn) {
    if (const auto* reg = operand.getIf<ir::RegisterOperand>())
      fn(reg->reg);
    else if (const auto* vector = operand.getIf<ir::VectorOperand>())
      for (const ir::Operand& element : vector->elements)
        forEachRegister(element, fn);
    else if (const auto* dual = operand.getIf<ir::DualOperand>())
      for (const ir::Operand& part : dual->parts)
        forEachRegister(part, fn);
  }

  bool usable_ = true;
  std::unordered_map<uint64_t, int64_t> values_;
};

} // namespace ocelot::runtime::cpu::native
