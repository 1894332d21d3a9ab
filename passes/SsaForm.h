#pragma once

#include "ir/Function.h"

#include <optional>
#include <string>
#include <vector>

namespace ocelot::passes {

class AnalysisManager;

/// A φ-function at the start of a block. PTX has no φ instruction, so φs live here, beside the
/// function, while it is in SSA form.
struct SsaPhi {
  ir::RegisterRef result;
  ir::RegisterRef variable; ///< the original register
  struct Incoming {
    ir::BasicBlock* predecessor;          ///< nullptr for the virtual entry
    std::optional<ir::RegisterRef> value; ///< nullopt: undefined on that edge
  };
  std::vector<Incoming> incoming;
};

/// An instruction whose written register also needs the old value: a guarded write (the old
/// value survives when the guard is false) or a read-write operand (`wgmma` accumulators). In
/// SSA the instruction writes `result`; leaving SSA puts `mov result, input` before it.
struct SsaTie {
  ir::Instruction* instruction;
  ir::RegisterRef result;
  std::optional<ir::RegisterRef> input; ///< nullopt: the old value is undefined
};

/// A function in SSA form: its registers renamed so that each is written once, plus the φs and
/// ties the PTX cannot express. While a function is in SSA form its PTX is not what it computes
/// (φs are missing); fromSsa() makes it plain PTX again.
///
/// Renamed are the registers declared at body scope with a scalar type. Left alone, and
/// documented as such: registers declared inside `{ }` scopes (inline asm: moving their values
/// across the scope would be illegal), `.reg` parameters and return values of a `.func` (callers
/// see them by name), vector registers and registers used through components (`%v.x` writes
/// part of a register), registers touched by opcodes the instruction table does not know, and
/// registers that would need a φ at a block whose label is inside a `{ }` scope (the edge could
/// not be split when leaving SSA).
struct SsaForm {
  ir::Function* function = nullptr;
  /// φs per block, blocks in layout order.
  std::vector<std::pair<ir::BasicBlock*, std::vector<SsaPhi>>> phis;
  std::vector<SsaTie> ties;
  /// Register-table entries created for the new names (one range per original declarator).
  std::vector<uint32_t> newDeclarators;
  size_t renamedVariables = 0;
  size_t excludedVariables = 0;
  size_t values = 0;
  size_t phiCount() const {
    size_t n = 0;
    for (const auto& [block, list] : phis)
      n += list.size();
    return n;
  }
};

/// Puts `function` into SSA form (Cytron et al., pruned by liveness). Uses and invalidates the
/// function's analyses in `analyses`.
SsaForm toSsa(ir::Function& function, AnalysisManager& analyses);

struct SsaDestructionResult {
  bool ok = true;
  std::string error;
  size_t copies = 0;     ///< `mov`s inserted
  size_t splitEdges = 0; ///< critical edges that got a block
};

/// Leaves SSA form: each φ becomes copies on its incoming edges (critical edges are split, the
/// copies of one edge are ordered as a parallel copy), each tie a copy before its instruction.
/// The result is plain PTX that ptxas accepts; registers keep their SSA names.
SsaDestructionResult fromSsa(SsaForm& form, AnalysisManager& analyses);

} // namespace ocelot::passes
