#pragma once

#include "ir/Function.h"
#include "ir/Statement.h"
#include "runtime/cpu/DecodedKernel.h"
#include "runtime/cpu/FunctionFrame.h"
#include "runtime/cpu/ProgramBuilder.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

namespace ocelot::runtime::cpu {

class CpuModule;
struct ModuleVariable;

/// The state space a decoded memory access resolves its address in (see MemoryAccess.h).
enum class MemorySpace : uint8_t {
  Global,  ///< real addresses: global, constant and kernel-parameter memory
  Shared,  ///< offsets into the CTA's shared memory
  Local,   ///< offsets into the thread's local memory (frames, device-function parameters)
  Generic, ///< generic addresses: the shared and local windows, else global
};

/// An address operand after resolution: lane value of `row` + `offset` (+ the frame base when
/// `frameRelative`), in `space`.
struct ResolvedAddress {
  uint32_t row = kNone;
  int64_t offset = 0;
  bool frameRelative = false;
  MemorySpace space = MemorySpace::Generic;
};

/// Where a name used by an instruction lives.
struct SymbolValue {
  enum class Kind : uint8_t { Absolute, Shared, Frame, KernelParameter, Function, RegisterFormal };
  Kind kind = Kind::Absolute;
  uint64_t value = 0; ///< address, offset or function ordinal
};

/// Kernel-wide facts the operand decoder needs besides the function's own frame.
struct KernelSymbols {
  const CpuModule* module = nullptr;
  uintptr_t sharedWindow = 0;
  uintptr_t localWindow = 0;
  /// Static shared offsets of module-scope `.shared` variables this kernel uses.
  std::unordered_map<const ModuleVariable*, uint32_t> sharedOffsets;
  uint32_t dynamicSharedOffset = 0;
};

/// Turns the operands of one function's instructions into rows, predicates and addresses. Values
/// that are fixed for a launch become constant rows; values that depend on the activation (the
/// addresses of frame variables) or on time (clocks) are computed by instructions the decoder
/// emits just before the instruction that uses them. The first error is kept; callers check ok().
class OperandDecoder {
public:
  OperandDecoder(ProgramBuilder& builder, const KernelSymbols& kernel, uint32_t unit,
                 const ir::Function& function, const FunctionFrame& frame, bool isKernel);

  /// Sets the instruction whose operands are decoded next (scope for names, source for errors).
  void beginInstruction(const ir::Instruction& instruction, const InstructionSource& source);

  // --- Registers -----------------------------------------------------------------------------
  bool isPredicateRegister(ir::RegisterRef ref) const;
  uint32_t registerRow(ir::RegisterRef ref,
                       ir::VectorComponent component = ir::VectorComponent::None);
  uint32_t registerPredicate(ir::RegisterRef ref);

  // --- Operands ------------------------------------------------------------------------------
  /// A row holding the operand's value as `type` (registers, literals, special registers,
  /// symbol addresses).
  uint32_t source(const ir::Operand& operand, ir::ScalarType type);
  /// The row an instruction writes (a register, or the sink row for `_`).
  uint32_t destination(const ir::Operand& operand);
  uint32_t predicateSource(const ir::Operand& operand);
  uint32_t predicateDestination(const ir::Operand& operand);
  /// An address operand `[...]` of an instruction of state space `space`.
  std::optional<ResolvedAddress> address(const ir::Operand& operand, ir::StateSpace space);
  /// A name as seen from the current instruction.
  std::optional<SymbolValue> symbol(std::string_view name);

  ProgramBuilder& builder() { return builder_; }
  const KernelSymbols& kernel() const { return kernel_; }
  bool isKernel() const { return isKernel_; }
  const InstructionSource& source() const { return source_; }

  /// The registers the current instruction's operands read and write (for the LLVM executor,
  /// which must know what a handler touches).
  const RegisterAccesses& accesses() const { return accesses_; }

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  /// Records `message` unless an error is already recorded; returns kNone for convenience.
  uint32_t fail(std::string message);

private:
  uint32_t specialRegister(const ir::SpecialRegisterOperand& special);
  uint32_t symbolValueRow(const ir::SymbolOperand& symbol);
  uint32_t emitSupport(ExecuteFn execute, uint32_t destination, uint32_t source, int64_t imm,
                       uint32_t aux, bool predicate);

  ProgramBuilder& builder_;
  const KernelSymbols& kernel_;
  uint32_t unit_;
  const ir::Function& function_;
  const FunctionFrame& frame_;
  bool isKernel_;
  const ir::Instruction* instruction_ = nullptr;
  InstructionSource source_;
  std::unordered_map<uint64_t, uint32_t> rows_;       ///< (declarator, index) -> first row
  std::unordered_map<uint64_t, uint32_t> predicates_; ///< (declarator, index) -> predicate
  RegisterAccesses accesses_;
  bool writing_ = false; ///< registerRow/registerPredicate are resolving a destination
  std::string error_;
};

} // namespace ocelot::runtime::cpu
