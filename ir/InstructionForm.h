#pragma once

#include "ir/InstructionTable.h"
#include "ir/Types.h"

#include <optional>
#include <string_view>
#include <vector>

namespace ocelot::ir {

/// One distinct instruction spelling such as `ld.global.nc.L2::cache_hint.v4.f32`, split into the
/// opcode and its ordered modifiers, with what the instruction table says about it. A module keeps
/// one form per spelling (nvcc output has a few hundred), so instructions hold a pointer, and the
/// modifiers are split and looked up once per spelling instead of once per instruction.
class InstructionForm {
public:
  /// `spelling` must outlive the form (the module interns it).
  explicit InstructionForm(std::string_view spelling);

  std::string_view spelling() const { return spelling_; }
  /// What the instruction is (Opcode::Unknown for opcodes the table does not know).
  Opcode opcode() const { return opcode_; }
  /// The opcode as written (`ld` of `ld.global.u32`), also for unknown opcodes.
  std::string_view opcodeName() const { return opcodeName_; }
  /// Modifiers in source order, without the leading dot: {"global", "nc", "L2::cache_hint", ...}.
  const std::vector<std::string_view>& modifiers() const { return modifiers_; }
  bool hasModifier(std::string_view modifier) const;

  const OpcodeTraits& traits() const { return *traits_; }
  bool has(InstructionFlag flag) const { return traits_->has(flag); }
  /// What the executor does with it (the family the CPU back end dispatches on).
  SemanticFamily family() const { return traits_->family; }
  /// Control leaves the straight-line sequence here: bra, brx, ret, exit, trap.
  bool isTerminator() const { return has(kTerminator); }
  bool accessesMemory() const { return has(kMemoryRead) || has(kMemoryWrite); }

  /// The state space named by the first state-space modifier (`ld.shared` -> Shared); Generic for
  /// memory instructions without one (`ld.u32`); None for everything else.
  StateSpace stateSpace() const { return stateSpace_; }
  /// The last modifier that names a type (`cvt.rn.f32.s32` -> S32), if any.
  std::optional<ScalarType> lastType() const { return lastType_; }
  /// The first modifier that names a type (`cvt.rn.f32.s32` -> F32), if any.
  std::optional<ScalarType> firstType() const { return firstType_; }
  /// Vector width from a `.v2`/`.v4`/`.v8` modifier, 1 otherwise.
  unsigned vectorWidth() const { return vectorWidth_; }

private:
  std::string_view spelling_;
  std::string_view opcodeName_;
  Opcode opcode_ = Opcode::Unknown;
  std::vector<std::string_view> modifiers_;
  const OpcodeTraits* traits_;
  StateSpace stateSpace_ = StateSpace::None;
  std::optional<ScalarType> lastType_;
  std::optional<ScalarType> firstType_;
  unsigned vectorWidth_ = 1;
};

} // namespace ocelot::ir
