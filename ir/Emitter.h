#pragma once

#include "ir/Module.h"

#include <string>

namespace ocelot::ir {

struct EmitOptions {
  /// Put every statement that came from source on its original line (padding with empty
  /// lines). ptxas' -G line tables and its error messages then refer to the same lines as the
  /// original PTX. Statements added by passes (line 0) follow on the next free line.
  bool preserveLines = true;
};

/// PTX text for `module`. Parsing the result gives a module that `equals` this one.
std::string emitPtx(const Module& module, const EmitOptions& options = {});

/// Appends PTX text for `module` to `out` (reuse one buffer for many modules).
void emitPtx(const Module& module, std::string& out, const EmitOptions& options = {});

/// The text of one operand, of one instruction (without indentation or newline), as PTX.
std::string operandToString(const Function& function, const Operand& operand);
std::string instructionToString(const Function& function, const Instruction& instruction);

} // namespace ocelot::ir
