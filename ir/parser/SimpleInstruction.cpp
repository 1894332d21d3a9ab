// The scanner's fast path for simple instructions (see the STATEMENT state in PtxLexer.l): the
// whole one-line statement arrives as one token, already validated by the scanner's rule, and is
// taken apart here into the same calls the grammar's operand rules make. Equivalence with the
// grammar route is tested on the whole corpus and under fuzzing.

#include "ir/parser/Lexer.h"
#include "ir/parser/ParseContext.h"

namespace ocelot::ir::detail {

namespace {

bool isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/// Walks the statement's text; positions translate into columns of the source line.
class Cursor {
public:
  Cursor(std::string_view text, SourceRange at) : text_(text), at_(at) {}

  char peek() const { return position_ < text_.size() ? text_[position_] : ';'; }
  void advance() { ++position_; }
  size_t position() const { return position_; }
  void skipBlanks() {
    while (position_ < text_.size() && isBlank(text_[position_]))
      ++position_;
  }
  /// Characters up to (not including) the next blank, ',', ';', '|' or '}'.
  std::string_view word() {
    size_t start = position_;
    while (position_ < text_.size()) {
      char c = text_[position_];
      if (isBlank(c) || c == ',' || c == ';' || c == '|' || c == '}')
        break;
      ++position_;
    }
    return text_.substr(start, position_ - start);
  }
  /// Through the next `close` character.
  std::string_view through(char close) {
    size_t start = position_;
    size_t end = text_.find(close, position_);
    position_ = end == std::string_view::npos ? text_.size() : end + 1;
    return text_.substr(start, position_ - start);
  }
  /// The source range of text[start, position).
  SourceRange range(size_t start) const {
    SourceRange r;
    r.begin = SourcePosition{at_.begin.line, at_.begin.column + static_cast<uint32_t>(start)};
    r.end = SourcePosition{at_.begin.line, at_.begin.column + static_cast<uint32_t>(position_)};
    return r;
  }

private:
  std::string_view text_;
  SourceRange at_;
  size_t position_ = 0;
};

} // namespace

void ParseContext::addSimpleInstruction(std::string_view text, SourceRange at, const Lexer& lexer) {
  Cursor cursor(text, at);
  auto checkLength = [&](std::string_view word, size_t start) {
    if (word.size() > Lexer::kMaxTokenLength)
      fail(cursor.range(start), "token of " + std::to_string(word.size()) +
                                    " characters is longer than the limit of " +
                                    std::to_string(Lexer::kMaxTokenLength));
  };

  if (cursor.peek() == '@') {
    cursor.advance();
    bool negated = cursor.peek() == '!';
    if (negated)
      cursor.advance();
    size_t start = cursor.position();
    std::string_view predicate = cursor.word();
    checkLength(predicate, start);
    setGuard(predicate, negated, cursor.range(start));
    cursor.skipBlanks();
  }
  size_t mnemonicStart = cursor.position();
  std::string_view mnemonic = cursor.word();
  checkLength(mnemonic, mnemonicStart);
  cursor.skipBlanks();

  // One operand without '|': what the grammar's simple_operand (or vector_element) reduces.
  auto simpleOperand = [&] {
    size_t start = cursor.position();
    char c = cursor.peek();
    if (c == '[') {
      std::string_view address = cursor.through(']');
      SemanticValue value;
      lexer.simpleAddress(address, value);
      checkLength(value.text, start);
      pushSimpleAddress(value.text, value.present, static_cast<int64_t>(value.magnitude),
                        cursor.range(start));
      return;
    }
    if (c == '{') {
      cursor.advance();
      beginList();
      for (;;) {
        cursor.skipBlanks();
        size_t elementStart = cursor.position();
        std::string_view element = cursor.word();
        checkLength(element, elementStart);
        if (element.front() == '%')
          pushRegister(element, false, cursor.range(elementStart));
        else if (element.front() == '-' || (element.front() >= '0' && element.front() <= '9'))
          push(lexer.numberLiteral(element, cursor.range(elementStart)));
        else if (element == "_")
          push(SinkOperand{});
        else
          pushIdentifier(element, false, cursor.range(elementStart));
        cursor.skipBlanks();
        if (cursor.peek() != ',')
          break;
        cursor.advance();
      }
      cursor.advance(); // '}'
      endVector();
      return;
    }
    bool negated = c == '!';
    if (negated)
      cursor.advance();
    std::string_view word = cursor.word();
    checkLength(word, start);
    if (word.front() == '%')
      pushRegister(word, negated, cursor.range(start));
    else if (!negated && (word.front() == '-' || (word.front() >= '0' && word.front() <= '9')))
      push(lexer.numberLiteral(word, cursor.range(start)));
    else if (!negated && word == "_")
      push(SinkOperand{});
    else
      pushIdentifier(word, negated, cursor.range(start));
  };

  while (cursor.peek() != ';') {
    size_t start = cursor.position();
    simpleOperand();
    if (cursor.peek() == '|') {
      cursor.advance();
      simpleOperand();
      makeDual(cursor.range(start));
    }
    cursor.skipBlanks();
    if (cursor.peek() == ',') {
      cursor.advance();
      cursor.skipBlanks();
    }
  }
  addInstruction(mnemonic, at, at.begin.line);
}

} // namespace ocelot::ir::detail
