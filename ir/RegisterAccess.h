#pragma once

#include "ir/InstructionForm.h"
#include "ir/Statement.h"

#include <type_traits>

namespace ocelot::ir {

/// How one occurrence of a register in an instruction touches it. Every analysis that asks
/// "which registers does this instruction read and write" goes through forEachRegisterAccess, so
/// the rules below live in one place:
///  * the guard predicate is read;
///  * registers inside an address (`[%rd1+4]`, texture coordinates) are read, wherever the address
///    appears;
///  * the operands the instruction table names (DefinitionPattern) are written, the rest read;
///  * a write kills the old value only when it certainly replaces the whole register: not under a
///    guard (`@%p mov %r1, 1` keeps %r1 when %p is false), not through a vector component
///    (`mov.f32 %v.x, ...` keeps %v.y), not for an unknown opcode (which may or may not write);
///  * read-write operands (`wgmma.mma_async` accumulators) and unknown opcodes read as well.
struct RegisterAccess {
  bool read = false;
  bool written = false;
  bool kills = false;   ///< written, and the previous value is certainly dead afterwards
  bool isGuard = false; ///< the guard predicate `@%p`
  /// Written without killing because of the guard (not because of a component or unknown opcode).
  bool guarded = false;
};

namespace detail {

template <class Inst>
using OperandOf = std::conditional_t<std::is_const_v<Inst>, const Operand, Operand>;

/// Calls fn(ref, access) for every register of `operand`; `written` applies to registers outside
/// addresses only (an address is never a destination).
template <class Op, class Fn>
void visitOperandRegisters(Op& operand, bool written, bool read, bool mayKill, Fn& fn) {
  constexpr bool isConst = std::is_const_v<Op>;
  using Reg = std::conditional_t<isConst, const RegisterOperand, RegisterOperand>;
  using Addr = std::conditional_t<isConst, const AddressOperand, AddressOperand>;
  using Vec = std::conditional_t<isConst, const VectorOperand, VectorOperand>;
  using Dual = std::conditional_t<isConst, const DualOperand, DualOperand>;
  using List = std::conditional_t<isConst, const ArgumentListOperand, ArgumentListOperand>;
  if (auto* reg = operand.template getIf<RegisterOperand>()) {
    Reg& r = *reg;
    RegisterAccess access;
    access.written = written;
    access.read = read || !written;
    access.kills = written && mayKill && r.component == VectorComponent::None;
    fn(r.reg, access);
  } else if (auto* address = operand.template getIf<AddressOperand>()) {
    Addr& a = *address;
    if (auto* base = std::get_if<RegisterOperand>(&a.base)) {
      RegisterAccess access;
      access.read = true;
      fn(base->reg, access);
    }
    for (auto& part : a.extra)
      visitOperandRegisters(part, false, true, false, fn);
  } else if (auto* vector = operand.template getIf<VectorOperand>()) {
    Vec& v = *vector;
    for (auto& element : v.elements)
      visitOperandRegisters(element, written, read, mayKill, fn);
  } else if (auto* dual = operand.template getIf<DualOperand>()) {
    Dual& d = *dual;
    for (auto& part : d.parts)
      visitOperandRegisters(part, written, read, mayKill, fn);
  } else if (auto* list = operand.template getIf<ArgumentListOperand>()) {
    List& l = *list;
    for (auto& argument : l.arguments)
      visitOperandRegisters(argument, written, read, mayKill, fn);
  }
}

} // namespace detail

/// Calls `fn(RegisterRef& ref, const RegisterAccess& access)` for every register occurrence of
/// `instruction` (const or not: with a mutable instruction the callback may rename `ref`), the
/// guard first, then the operands in order. A register written and read by the same operand is
/// reported once with both flags set.
template <class Inst, class Fn>
requires std::is_same_v<std::remove_const_t<Inst>, Instruction>
void forEachRegisterAccess(Inst& instruction, Fn&& fn) {
  const OpcodeTraits& traits = instruction.form().traits();
  if (instruction.guard()) {
    RegisterAccess access;
    access.read = true;
    access.isGuard = true;
    if constexpr (std::is_const_v<Inst>) {
      fn(instruction.guard()->predicate, access);
    } else {
      // Guard is stored by value; rename through a copy and write it back.
      Guard guard = *instruction.guard();
      fn(guard.predicate, access);
      instruction.setGuard(guard);
    }
  }
  const bool guarded = instruction.guard().has_value();
  auto& operands = instruction.operands();
  auto callback = [&](auto& ref, const RegisterAccess& access) {
    RegisterAccess a = access;
    a.guarded = a.written && guarded;
    fn(ref, a);
  };
  for (size_t i = 0; i < operands.size(); ++i) {
    auto& operand = operands[i];
    bool written = false, read = false, mayKill = !guarded;
    switch (traits.definitions) {
    case DefinitionPattern::FirstOperand:
      written = i == 0;
      break;
    case DefinitionPattern::FirstOperandReadWrite:
      written = i == 0;
      read = i == 0;
      break;
    case DefinitionPattern::Call:
      // `call (ret...), target, (args...)`: a leading list is the return list.
      written = i == 0 && operands.size() > 1 && operand.template is<ArgumentListOperand>();
      break;
    case DefinitionPattern::Unknown:
      written = true;
      read = true;
      mayKill = false;
      break;
    case DefinitionPattern::None:
      break;
    }
    detail::visitOperandRegisters(operand, written, read, mayKill, callback);
  }
}

} // namespace ocelot::ir
