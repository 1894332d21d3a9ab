#pragma once

#include "ir/InstructionForm.h"
#include "ir/Statement.h"
#include "runtime/cpu/DecodedKernel.h"
#include "runtime/cpu/HalfPrecision.h"
#include "runtime/cpu/OperandDecoder.h"

#include <optional>
#include <string>
#include <string_view>

namespace ocelot::runtime::cpu {

/// What a family decoder gets: the IR instruction, the operand decoder of its function and the
/// decoded instruction to fill in (guard, source and control were set by the kernel decoder).
struct DecodeContext {
  const ir::Instruction& instruction;
  const ir::InstructionForm& form;
  OperandDecoder& operands;
  DecodedInstruction& out;
  std::string error;

  /// What the instruction is: a family's decoder switches on it.
  ir::Opcode opcode() const { return form.opcode(); }
  size_t operandCount() const { return instruction.operands().size(); }
  const ir::Operand& operand(size_t index) const { return instruction.operands()[index]; }
  bool has(std::string_view modifier) const { return form.hasModifier(modifier); }
  /// The instruction type: the last type modifier (`cvt.f32.s32` -> s32 is the source; use
  /// firstType() for the destination).
  std::optional<ir::ScalarType> type() const { return form.lastType(); }
  std::optional<ir::ScalarType> firstType() const { return form.firstType(); }

  bool fail(std::string message) {
    if (error.empty())
      error = std::move(message);
    return false;
  }
  /// "unsupported" with the reason, for forms the CPU device does not implement.
  bool unsupported(std::string_view what = {}) {
    return fail(what.empty() ? "not supported by the CPU device"
                             : "not supported by the CPU device (" + std::string(what) + ")");
  }
  bool expectOperands(size_t count) {
    return operandCount() == count ? true : fail("expected " + std::to_string(count) + " operands");
  }
  bool ok() const { return error.empty() && operands.ok(); }

  uint32_t destination(size_t index) { return operands.destination(operand(index)); }
  uint32_t source(size_t index, ir::ScalarType type) {
    return operands.source(operand(index), type);
  }
  uint32_t predicateDestination(size_t index) {
    return operands.predicateDestination(operand(index));
  }
  uint32_t predicateSource(size_t index) { return operands.predicateSource(operand(index)); }

  /// .rn/.rz/.rm/.rp (and the integer-rounding .rni/.rzi/.rmi/.rpi), or `fallback`.
  RoundingMode rounding(RoundingMode fallback) const;
  /// Whether a rounding modifier was written at all.
  bool hasRounding() const;
  bool hasIntegerRounding() const;
};

/// An add/sub that executes as a fused multiply-add with the product of `multiply` (see
/// Contraction.h); `productOperand` is the add's source that the product feeds.
bool decodeContractedAdd(DecodeContext& context, const ir::Instruction& multiply,
                         size_t productOperand);
/// decodeContractedAdd for .f16, .f16x2, .bf16 and .bf16x2.
bool decodeContractedHalfAdd(DecodeContext& context, const ir::Instruction& multiply,
                             size_t productOperand);

/// Decodes one family of instructions into `context.out`. Returns false with context.error set.
using FamilyDecoder = bool (*)(DecodeContext& context);

/// The decoder of a family (ir/Opcodes.def gives each opcode's), or nullptr for the families the
/// CPU device does not run (None and the features of laterFeature()) and ThreadControl, which the
/// kernel decoder handles itself (it lays out branches and calls).
FamilyDecoder familyDecoder(ir::SemanticFamily family);

/// For families the CPU device does not run yet, the feature they belong to ("tensor cores");
/// empty for every other family.
std::string_view laterFeature(ir::SemanticFamily family);

// Families (one file each).
bool decodeIntegerArithmetic(DecodeContext& context);
bool decodeFloatArithmetic(DecodeContext& context);
bool decodeHalfArithmetic(DecodeContext& context);
bool decodeLogic(DecodeContext& context);
bool decodeComparison(DecodeContext& context);
bool decodeMove(DecodeContext& context);
bool decodeConversion(DecodeContext& context);
bool decodeMemory(DecodeContext& context);
bool decodeAtomic(DecodeContext& context);
bool decodeWarp(DecodeContext& context);
bool decodeTexture(DecodeContext& context);
bool decodeAsyncCopy(DecodeContext& context);
bool decodeHint(DecodeContext& context);
bool decodeVideo(DecodeContext& context);
bool decodeMatrix(DecodeContext& context);
bool decodeBarrier(DecodeContext& context);

} // namespace ocelot::runtime::cpu
