#pragma once

#include "ir/Module.h"
#include "ir/SourceLocation.h"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ocelot::ir {

/// The outcome of parsing: a module, or the diagnostics that explain why there is none.
struct ParseResult {
  std::unique_ptr<Module> module; ///< null when parsing failed
  std::vector<Diagnostic> diagnostics;

  bool ok() const { return module != nullptr; }
  /// The first diagnostic as "file:line:column: message", or "" when there is none.
  std::string firstError() const { return diagnostics.empty() ? "" : diagnostics.front().format(); }
};

/// Parses PTX text of any PTX ISA version. Never throws on bad input and never reads past `text`:
/// malformed text gives a diagnostic with file, line, column and what was expected.
/// `fileName` only labels diagnostics.
ParseResult parsePtx(std::string_view text, std::string_view fileName = "<input>");

/// Reads and parses a file; an unreadable file is a diagnostic too.
ParseResult parsePtxFile(const std::filesystem::path& path);

} // namespace ocelot::ir
