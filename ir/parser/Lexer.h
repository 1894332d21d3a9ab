#pragma once

#include "PtxGrammar.hpp"
#include "ir/Parser.h"
#include "ir/SourceLocation.h"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

namespace ocelot::ir::detail {

class ParseContext;

/// Wraps the reentrant Flex scanner: one per parse, no global state. Scans `text` in place (the
/// caller guarantees two NUL bytes after it), so token texts are views into the input.
class Lexer {
public:
  /// Tokens longer than this are rejected (see kMaxPtxTokenLength).
  static constexpr size_t kMaxTokenLength = kMaxPtxTokenLength;

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
  /// INTEGER_RUN: the scanner matched two plain decimal integers from `text` to `end` (the
  /// blanks after the second included); reads on by hand while `, N` follows, with N as the
  /// scanner's rule would take it, into the parse context's pending run. Sets the token's text
  /// and end column; returns where scanning goes on. Runs are data: no token length limit.
  char* integerRun(char* text, char* end, SemanticValue& value, SourceRange& location);
  /// FLOAT_RUN: the same for `0f`/`0d` literals.
  char* floatRun(char* text, char* end, SemanticValue& value, SourceRange& location);
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
  void setLastToken(int token) { lastToken_ = token; }
  /// An initializer element may start here (after '{' or ','): numbers that follow other tokens
  /// (`-0`, `sym+4`) belong to them and cannot start a run.
  bool runMayStart() const {
    return lastToken_ == PtxParser::token::LBRACE || lastToken_ == PtxParser::token::COMMA;
  }
  /// Called by the grammar when all statements so far are reduced and no lookahead is held.
  void markStatementBoundary() { statementBoundary_ = fastPath_; }
  /// Called by the grammar when a function body has ended (and no lookahead is held): module
  /// items follow, not statements, so the scanner leaves the STATEMENT state.
  void endStatements();
  /// At a statement boundary, with the scanner in STATEMENT: appends the statements from `p` on
  /// that are read by hand, exactly as the scanner's rules and the grammar's actions would take
  /// them: simple instructions and `.loc` lines (the SIMPLE_INSTRUCTION, LOC_LINE and
  /// LOC_INLINED_LINE tokens), labels and simple declarations. Stops before anything else, which
  /// the rules and the grammar then read; returns where scanning goes on.
  char* scanStatements(char* p);
  /// The length of the SIMPLE_INSTRUCTION token at `p` (through the blanks after its ';'), or 0.
  static size_t matchSimpleInstruction(const char* p);
  /// The SIMPLE_INSTRUCTION text at `p` has the mnemonic `_` (the sink token, not an opcode).
  static bool sinkMnemonic(const char* p);
  /// The length of the LOC_LINE or LOC_INLINED_LINE token at `p` (whose numbers fit in 32 bits),
  /// or 0.
  static size_t matchLocLine(const char* p, bool& inlined);
  /// The length of a label `name:` at `p` (with the blanks after it) when nothing that follows
  /// makes it part of another statement, or 0.
  static size_t matchLabel(const char* p);
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
  /// At the start of a line of a section body (its leading blanks skipped): appends that line and
  /// those after it to the section while each is a complete line of a common shape (a label; a
  /// directive with values). Stops at the first other line, without consuming any of it, so the
  /// scanner's rules handle it (and report its errors) as before. Returns where scanning goes on.
  char* scanSectionLines(char* line);
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
  /// A declaration statement as scanStatements reads it: where each token is, so that the
  /// grammar's actions can be replayed with the grammar's locations.
  struct DeclarationWord {
    std::string_view text;
    const char* value = nullptr; ///< `.align 16`: where 16 is
    uint64_t number = 0;
  };
  struct Dimension {
    const char* open = nullptr;  ///< '['
    const char* value = nullptr; ///< N of `[N]`, nullptr for `[]`
    uint64_t number = 0;
    const char* end = nullptr; ///< after ']'
  };
  struct Declarator {
    const char* name = nullptr;
    size_t nameLength = 0;
    const char* range = nullptr;    ///< N of `%r<N>`
    const char* rangeEnd = nullptr; ///< after '>'
    uint64_t count = 0;
    std::array<Dimension, 4> dimensions{};
    size_t dimensionCount = 0;
  };
  struct Declaration {
    const char* start = nullptr;
    const char* end = nullptr; ///< after ';' and its blanks
    std::array<DeclarationWord, 8> words{};
    size_t wordCount = 0;
    std::array<Declarator, 8> declarators{};
    size_t declaratorCount = 0;
  };
  /// `.reg .b32 %r<5>, %p;`-like declarations (see matchDeclaration in Lexer.cpp); false for
  /// anything else (initializers, `.attribute(...)`, other numbers ...).
  static bool matchDeclaration(const char* p, Declaration& declaration);
  void addDeclaration(const Declaration& declaration);

  ImmediateOperand classifyNumber(std::string_view text) const;
  /// Adds the value of a section line at `p` to the section; nullptr when it is not one of the
  /// common shapes.
  char* sectionValue(char* p);
  /// Ends a run token at `end` (runs never span lines).
  void endRun(const char* text, const char* end, SemanticValue& value, SourceRange& location);

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
  int lastToken_ = 0;

  enum class SectionState { ExpectItem, ExpectValue, AfterValue };
  unsigned initializerDepth_ = 0;
  bool sectionPending_ = false;
  bool sectionSized_ = false; ///< the section's items are reserved (see scanSectionLines)
  SectionState sectionState_ = SectionState::ExpectItem;
};

} // namespace ocelot::ir::detail
