#pragma once

#include "ir/Module.h"

#include <cstddef>
#include <string>
#include <vector>

namespace ocelot::ir {

/// One problem the verifier found, with where it is.
struct VerifierDiagnostic {
  enum class Severity : uint8_t { Error, Warning };
  static constexpr size_t kNoIndex = static_cast<size_t>(-1);

  Severity severity = Severity::Error;
  std::string function;        ///< empty for module-level problems
  size_t block = kNoIndex;     ///< layout index of the block
  size_t statement = kNoIndex; ///< index of the statement in its block
  uint32_t line = 0;           ///< source line; 0 for statements built through the API
  std::string message;

  /// "error: function 'k', block 2, statement 5 (line 17): message".
  std::string format() const;
};

/// Checks that a function is well formed, beyond what the parser already guarantees for parsed
/// text, so that IR built or changed through the API is caught before it reaches ptxas:
///  * tables: scopes form a tree, every label is defined exactly once and once per name and
///    scope, every register reference names a declared register (and an index inside its range)
///    that is visible from the statement's scope and has a `.reg` declaration;
///  * control flow: branch targets are labels visible from the branch, `brx.idx` tables exist,
///    terminators end their block, labels start theirs, `{`/`}` balance, the last block does
///    not fall off the end of the function (a warning: ptxas accepts it);
///  * operand types: guards are predicates; the operands of arithmetic, logic, `mov`, `selp`,
///    `setp` and `cvt` have registers of the instruction's width; addresses are 32 or 64 bits;
///    operand counts of the common opcodes.
/// Never throws and never reads out of bounds, whatever the IR holds.
std::vector<VerifierDiagnostic> verifyFunction(const Function& function);

/// verifyFunction for every function with a body, plus module-level checks (duplicate names).
std::vector<VerifierDiagnostic> verifyModule(const Module& module);

/// True when `diagnostics` holds at least one error (warnings do not count).
bool hasErrors(const std::vector<VerifierDiagnostic>& diagnostics);

} // namespace ocelot::ir
