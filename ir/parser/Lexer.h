#pragma once

#include "PtxGrammar.hpp"
#include "ir/SourceLocation.h"

#include <string>
#include <string_view>

namespace ocelot::ir::detail {

class ParseContext;

/// Wraps the reentrant Flex scanner: one per parse, no global state. Scans `text` in place (the
/// caller guarantees two NUL bytes after it), so token texts are views into the input.
class Lexer {
public:
  /// Tokens longer than this are rejected (no PTX construct needs more; a fuzzer's megabyte
  /// identifier is an error, not a megabyte symbol).
  static constexpr size_t kMaxTokenLength = 4096;

  Lexer(char* text, size_t size, ParseContext& ctx);
  ~Lexer();
  Lexer(const Lexer&) = delete;
  Lexer& operator=(const Lexer&) = delete;

  PtxParser::symbol_type next();

  /// "identifier 'foo'" for the last token read (used in syntax error messages).
  std::string describe(PtxParser::symbol_kind_type kind, const char* bisonName) const;
  /// The user-facing name of a token kind from Bison's table ("\";\"" -> "';'").
  static std::string tokenName(const char* bisonName);

  // --- Used by the scanner's actions ------------------------------------------------------
  SourceRange beginToken(const char* text, size_t length);
  void newLine(const char* next) {
    ++line_;
    lineStart_ = next;
  }
  std::string_view tokenText(const char* text, size_t length) const;
  ImmediateOperand integer(std::string_view text, int base, size_t prefix) const;
  ImmediateOperand floatBits(std::string_view text, ImmediateOperand::Format format) const;
  ImmediateOperand decimalFloat(std::string_view text) const;
  [[noreturn]] void fail(const std::string& message) const;
  const SourceRange& location() const { return location_; }
  /// Where the input ends (after the last token), for "unexpected end of file".
  SourceRange endOfInput() const { return SourceRange{location_.end, location_.end}; }

private:
  void* scanner_ = nullptr;
  ParseContext& ctx_;
  const char* lineStart_;
  uint32_t line_ = 1;
  SourceRange location_;
  std::string_view lastText_;
};

} // namespace ocelot::ir::detail
