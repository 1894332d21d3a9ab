// The scanner's fast path for simple instructions (see the STATEMENT state in PtxLexer.l): the
// whole one-line statement arrives as one token, already validated by the scanner's rule, and is
// taken apart here into the same calls the grammar's operand rules make. Equivalence with the
// grammar route is tested on the whole corpus and under fuzzing.

#include "ir/parser/Lexer.h"
#include "ir/parser/ParseContext.h"

#include <array>

namespace ocelot::ir::detail {

namespace {

/// Characters that end a word of a simple instruction: blanks, ',', ';', '|', '}' (and the NUL
/// after the input).
constexpr std::array<bool, 256> kWordEnd = [] {
  std::array<bool, 256> table{};
  for (unsigned char c : std::string_view(" \t\r\f\v,;|}"))
    table[c] = true;
  table[0] = true;
  return table;
}();

bool endsWord(char c) {
  return kWordEnd[static_cast<unsigned char>(c)];
}

bool isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

const char* skipBlanks(const char* p) {
  while (isBlank(*p))
    ++p;
  return p;
}

const char* wordEnd(const char* p) {
  while (!endsWord(*p))
    ++p;
  return p;
}

} // namespace

void ParseContext::addSimpleInstruction(std::string_view text, SourceRange at, const Lexer& lexer) {
  // `text` matched the scanner's rule and ends with ';': every walk below stops there at the
  // latest. Columns of the source line are at.begin.column + offset into text.
  const char* base = text.data();
  auto range = [&](const char* begin, const char* end) {
    SourceRange r;
    r.begin = SourcePosition{at.begin.line, at.begin.column + static_cast<uint32_t>(begin - base)};
    r.end = SourcePosition{at.begin.line, at.begin.column + static_cast<uint32_t>(end - base)};
    return r;
  };
  // A word of the statement; a word over the length limit is reported at [reportFrom, end).
  auto word = [&](const char* begin, const char* end, const char* reportFrom) {
    size_t length = static_cast<size_t>(end - begin);
    if (length > Lexer::kMaxTokenLength)
      fail(range(reportFrom, end), "token of " + std::to_string(length) +
                                       " characters is longer than the limit of " +
                                       std::to_string(Lexer::kMaxTokenLength));
    return std::string_view(begin, length);
  };

  const char* p = base;
  if (*p == '@') {
    bool negated = *++p == '!';
    if (negated)
      ++p;
    const char* end = wordEnd(p);
    setGuard(word(p, end, p), negated, range(p, end));
    p = skipBlanks(end);
  }
  const char* mnemonicEnd = wordEnd(p);
  std::string_view mnemonic = word(p, mnemonicEnd, p);
  p = skipBlanks(mnemonicEnd);

  // One element of `{...}`, or one operand without '|' (what the grammar's vector_element and
  // simple_operand reduce).
  auto element = [&](const char* begin, bool negated) {
    const char* end = wordEnd(begin);
    std::string_view name = word(begin, end, begin - negated);
    char c = name.front();
    if (c == '%')
      pushRegister(name, negated, range(begin - negated, end));
    else if (!negated && (c == '-' || (c >= '0' && c <= '9')))
      push(lexer.numberLiteral(name, range(begin, end)));
    else if (!negated && name.size() == 1 && c == '_')
      push(SinkOperand{});
    else
      pushIdentifier(name, negated, range(begin - negated, end));
    return end;
  };
  auto simpleOperand = [&](const char* begin) {
    if (*begin == '[') {
      const char* end = begin;
      while (*end != ']')
        ++end;
      ++end;
      SemanticValue value;
      lexer.simpleAddress(std::string_view(begin, static_cast<size_t>(end - begin)), value);
      word(value.text.data(), value.text.data() + value.text.size(), begin);
      pushSimpleAddress(value.text, value.present, static_cast<int64_t>(value.magnitude),
                        range(begin, end));
      return end;
    }
    if (*begin == '{') {
      beginList();
      const char* q = begin + 1;
      for (;;) {
        q = skipBlanks(element(skipBlanks(q), false));
        if (*q != ',')
          break;
        ++q;
      }
      endVector();
      return q + 1; // after '}'
    }
    bool negated = *begin == '!';
    return element(begin + negated, negated);
  };

  while (*p != ';') {
    p = simpleOperand(p);
    if (*p == '|') {
      const char* second = p + 1;
      p = simpleOperand(second);
      makeDual(range(second, p)); // where the grammar reports it: at the operand after '|'
    }
    p = skipBlanks(p);
    if (*p == ',')
      p = skipBlanks(p + 1);
  }
  addInstruction(mnemonic, at, at.begin.line);
}

} // namespace ocelot::ir::detail
