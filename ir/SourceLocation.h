#pragma once

#include <cstdint>
#include <string>

namespace ocelot::ir {

/// A position in a PTX text, 1-based. Line 0 means "not from source" (created by a pass).
struct SourcePosition {
  uint32_t line = 0;
  uint32_t column = 0;
  friend bool operator==(const SourcePosition&, const SourcePosition&) = default;
};

/// The span of a grammar symbol; the parser's location type.
struct SourceRange {
  SourcePosition begin;
  SourcePosition end;
};

/// What kind of problem a diagnostic reports, for callers that answer differently (the runtime
/// maps UnsupportedPtxVersion to cudaErrorUnsupportedPtxVersion, the rest to cudaErrorInvalidPtx).
enum class DiagnosticKind : uint8_t {
  Syntax,                ///< malformed or inconsistent PTX (also: unreadable input)
  UnsupportedPtxVersion, ///< `.version` newer than the newest PTX ISA Ocelot knows
  ResourceLimit,         ///< the module is larger than ParseOptions::memoryBudget allows
};

/// One error or warning about PTX input, with everything a user needs to find it.
struct Diagnostic {
  std::string file;
  SourcePosition position;
  std::string message;
  DiagnosticKind kind = DiagnosticKind::Syntax;

  /// "file:line:column: message", the format compilers use so editors can jump to it.
  std::string format() const {
    return file + ":" + std::to_string(position.line) + ":" + std::to_string(position.column) +
           ": " + message;
  }
};

} // namespace ocelot::ir
