#pragma once

#include "PtxGrammar.hpp"
#include "ir/SourceLocation.h"

#include <algorithm>
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

  /// `fastPath`: scan simple instructions as one token (see the STATEMENT state in PtxLexer.l).
  Lexer(char* text, size_t size, ParseContext& ctx, bool fastPath = true);
  ~Lexer();
  Lexer(const Lexer&) = delete;
  Lexer& operator=(const Lexer&) = delete;

  /// Reads the next token: returns its kind, sets its value and location.
  int next(SemanticValue& value, SourceRange& location);

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
  /// The token's text without the blanks the token rule swallowed after it.
  std::string_view tokenText(const char* text, size_t length) const;
  /// A number operand of a one-token instruction; errors are reported at `at`.
  ImmediateOperand numberLiteral(std::string_view text, SourceRange at) const;
  /// An initializer's run of integers: exempt from the token length limit (it is data).
  std::string_view runText(const char* text, size_t length) {
    lastText_ = std::string_view(text, std::min<size_t>(length, 40));
    return std::string_view(text, length);
  }
  void setNumber(SemanticValue& value, const ImmediateOperand& number) const {
    // A decimal float keeps its spelling in the IR (SemanticValue::number() copies `text`), so it
    // must be the module-interned copy: lastText_ points into the input buffer, which is freed
    // when parsing ends (emitting `1.0` from `createpolicy ... 1.0;` read freed memory).
    value.text = number.format == ImmediateOperand::Format::DecimalFloat ? number.text : lastText_;
    value.magnitude = number.magnitude;
    value.format = number.format;
    value.negative = number.negative;
    value.unsignedSuffix = number.unsignedSuffix;
  }
  ImmediateOperand integer(std::string_view text, int base, size_t prefix) const;
  ImmediateOperand floatBits(std::string_view text, ImmediateOperand::Format format) const;
  ImmediateOperand decimalFloat(std::string_view text) const;
  [[noreturn]] void fail(const std::string& message) const;
  [[noreturn]] void failUnexpectedCharacter(char c) const;
  void markCommentStart(int state) {
    commentStart_ = location_;
    stateBeforeComment_ = state;
  }
  int stateBeforeComment() const { return stateBeforeComment_; }
  bool fastPathEnabled() const { return fastPath_; }
  /// Called by the grammar when all statements so far are reduced and no lookahead is held.
  void markStatementBoundary() { statementBoundary_ = fastPath_; }
  /// The text of a one-token instruction, without trailing blanks (its length is bounded by the
  /// limit on each operand, which the parse context checks).
  std::string_view instructionText(const char* text, size_t length);
  /// Reported where the comment began, not where the input ran out.
  [[noreturn]] void failUnterminatedComment() const {
    throw PtxParser::syntax_error(commentStart_, "unterminated /* comment");
  }

  /// `.loc F L C, function_name NAME, inlined_at F L C` in one token (LOC_INLINED_LINE): taken
  /// apart into what the grammar's inlined-location rule passes to the parse context.
  void addInlinedLocLine(std::string_view text, SourceRange at);

  /// `[base]`, `[base+N]`, `[base+-N]`, `[base-N]` in one token: base in `text`, the offset's
  /// two's-complement bits in `magnitude`, `present` when an offset was written.
  void simpleAddress(std::string_view text, SemanticValue& value) const;

  // Brace depth inside an initializer (the lexer's INITIALIZER state ends with it).
  void startInitializer() { initializerDepth_ = 0; }
  void enterInitializerBrace() { ++initializerDepth_; }
  /// True when the outermost brace closed: the initializer is complete.
  bool leaveInitializerBrace() { return initializerDepth_ == 0 || --initializerDepth_ == 0; }
  unsigned initializerDepth() const { return initializerDepth_; }

  // Debug-section bodies are scanned here, item by item, straight into the parse context.
  void expectSectionBody() { sectionPending_ = true; }
  /// At '{': true when it opens the body of the `.section` just read.
  bool beginSectionBody();
  void endSectionBody();
  void sectionLabel(std::string_view text);
  void sectionWord(std::string_view text);
  /// `.b8 17`: the most common item, one token.
  void sectionDirectiveAndInteger(std::string_view text);
  void sectionSymbol(std::string_view text);
  /// `$L__end0-$L__start0`: a label difference.
  void sectionSymbolDifference(std::string_view text);
  void sectionInteger(std::string_view text, int base);
  void sectionComma();
  const SourceRange& location() const { return location_; }
  /// Where the input ends (after the last token), for "unexpected end of file".
  SourceRange endOfInput() const { return SourceRange{location_.end, location_.end}; }

private:
  ImmediateOperand classifyNumber(std::string_view text) const;

  void* scanner_ = nullptr;
  ParseContext& ctx_;
  const char* lineStart_;
  uint32_t line_ = 1;
  SourceRange location_;
  std::string_view lastText_;
  SourceRange commentStart_;
  int stateBeforeComment_ = 0;
  bool fastPath_ = true;
  bool statementBoundary_ = false;

  enum class SectionState { ExpectItem, ExpectValue, AfterValue };
  unsigned initializerDepth_ = 0;
  bool sectionPending_ = false;
  SectionState sectionState_ = SectionState::ExpectItem;
};

} // namespace ocelot::ir::detail
