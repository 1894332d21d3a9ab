#pragma once

#include "ir/Module.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace ocelot::ir {

struct EmitOptions {
  /// Put every statement that came from source on its original line (padding with empty
  /// lines). ptxas' -G line tables and its error messages then refer to the same lines as the
  /// original PTX. Statements added by passes (line 0) follow on the next free line.
  bool preserveLines = true;
};

/// PTX text for `module`. Parsing the result gives a module that `equals` this one.
std::string emitPtx(const Module& module, const EmitOptions& options = {});

/// emitPtx (with the default options), and then every item and statement that was not written on
/// its source line gets the line it was written on: those passes added (line 0), and those that
/// what was added pushed down. The module then has the lines a parse of the text gives, so that
/// what is emitted from it later (instrumented copies) is what would be emitted from that parse.
std::string emitPtxNumberingLines(Module& module);

/// Appends PTX text for `module` to `out` (reuse one buffer for many modules).
void emitPtx(const Module& module, std::string& out, const EmitOptions& options = {});

/// The text of `module` written item by item, for callers that finish functions one at a time
/// and drop each once it is written (`ocelot ptx instrument` on large modules): the text, in
/// pieces, is exactly what emitPtx gives.
class StreamingEmitter {
public:
  /// Writes the header; the pieces go to `sink` (called with each piece of text).
  StreamingEmitter(const Module& module, std::function<void(std::string_view)> sink,
                   const EmitOptions& options = {});
  ~StreamingEmitter();
  StreamingEmitter(const StreamingEmitter&) = delete;
  StreamingEmitter& operator=(const StreamingEmitter&) = delete;

  /// Writes the items after the last one written, up to and including `item`. False (nothing
  /// written) when `item` is not one of them: the module's items changed before it, or it was
  /// written already.
  bool writeThrough(const ModuleItem& item);
  /// Writes the remaining items and the end of the module.
  void finish();

private:
  struct State;
  std::unique_ptr<State> state_;
};

/// The text of one operand, of one instruction (without indentation or newline), as PTX.
std::string operandToString(const Function& function, const Operand& operand);
std::string instructionToString(const Function& function, const Instruction& instruction);

} // namespace ocelot::ir
