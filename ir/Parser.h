#pragma once

#include "ir/Module.h"
#include "ir/PtxVersion.h"
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
  /// The module declares a PTX ISA version newer than the front end knows (kNewestPtxVersion).
  bool unsupportedVersion() const {
    return !diagnostics.empty() &&
           diagnostics.front().kind == DiagnosticKind::UnsupportedPtxVersion;
  }
  /// The first diagnostic as "file:line:column: message", or "" when there is none.
  std::string firstError() const { return diagnostics.empty() ? "" : diagnostics.front().format(); }
};

/// Longest token the front end takes (a name, a number, a directive word). Template-heavy code
/// gives mangled names of tens of thousands of characters (one of 12,516 broke the first limit of
/// 4,096) and ptxas takes names of 1e6: 16 MiB is beyond both, and a name costs its length once
/// (names are interned), which the parse's memory budget bounds anyway.
inline constexpr size_t kMaxPtxTokenLength = 16 << 20;

/// $OCELOT_PTX_MEMORY_MB megabytes when that is set to a number, else three quarters of the
/// machine's memory: a module too large for it is an error that names the module and the limit,
/// not an out-of-memory kill of the application.
size_t defaultParseMemoryBudget();

/// How to parse. The defaults are what Ocelot uses; the switches exist so that tests can check
/// one route against the other.
struct ParseOptions {
  /// Scan simple one-line instructions as one token instead of through the grammar's operand
  /// rules (same result, several times fewer parser steps).
  bool scannerFastPath = true;
  /// Modules declaring a newer `.version` are refused (DiagnosticKind::UnsupportedPtxVersion);
  /// nullopt accepts any version (tests of the grammar's tolerance of future PTX).
  std::optional<PtxVersion> newestVersion = kNewestPtxVersion;
  /// Parsing stops with a DiagnosticKind::ResourceLimit diagnostic, before memory runs out, when
  /// the text and the module's IR (statements, operands, blocks: nearly all of it) would take
  /// more than this many bytes. Default: defaultParseMemoryBudget(). 0: no limit.
  size_t memoryBudget = defaultParseMemoryBudget();
};

/// Parses PTX text of any PTX ISA version. Never throws on bad input and never reads past `text`:
/// malformed text gives a diagnostic with file, line, column and what was expected.
/// `fileName` only labels diagnostics.
ParseResult parsePtx(std::string_view text, std::string_view fileName = "<input>",
                     const ParseOptions& options = {});

/// parsePtx on text the caller no longer needs: it is parsed where it is (no copy) and freed, so
/// a large module's text and its copy are never in memory together.
ParseResult parsePtxBuffer(std::string&& text, std::string_view fileName = "<input>",
                           const ParseOptions& options = {});

/// Reads and parses a file; an unreadable file is a diagnostic too.
ParseResult parsePtxFile(const std::filesystem::path& path, const ParseOptions& options = {});

/// How many PTX texts this process has parsed so far, from any thread (one relaxed counter): the
/// tests of the module pipeline check with it that each module image is parsed once.
uint64_t textsParsed();

} // namespace ocelot::ir
