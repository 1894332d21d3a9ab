#include "ir/parser/Lexer.h"

#include "ir/parser/CharClass.h"
#include "ir/parser/ParseContext.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ocelot::ir::detail {

SourceRange Lexer::beginToken(const char* text, size_t length) {
  uint32_t column = static_cast<uint32_t>(text - lineStart_) + 1;
  location_.begin = SourcePosition{line_, column};
  location_.end = SourcePosition{line_, column + static_cast<uint32_t>(length)};
  return location_;
}

std::string_view Lexer::tokenText(const char* text, size_t length) const {
  // Token rules swallow the blanks after the token; most tokens have none or one.
  while (length > 0 && static_cast<unsigned char>(text[length - 1]) <= ' ' &&
         (text[length - 1] == ' ' || text[length - 1] == '\t' || text[length - 1] == '\r' ||
          text[length - 1] == '\f' || text[length - 1] == '\v'))
    --length;
  if (length > kMaxTokenLength)
    fail("token of " + std::to_string(length) + " characters is longer than the limit of " +
         std::to_string(kMaxTokenLength));
  std::string_view view(text, length);
  const_cast<Lexer*>(this)->lastText_ = view;
  return view;
}

void Lexer::fail(const std::string& message) const {
  throw PtxParser::syntax_error(location_, message);
}

void Lexer::failUnexpectedCharacter(char c) const {
  unsigned char byte = static_cast<unsigned char>(c);
  char buffer[48];
  if (byte >= 0x20 && byte < 0x7f)
    std::snprintf(buffer, sizeof buffer, "unexpected character '%c'", byte);
  else
    std::snprintf(buffer, sizeof buffer, "unexpected byte 0x%02x (not PTX text)", byte);
  fail(buffer);
}

namespace {

bool isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trimBlanks(std::string_view text) {
  while (!text.empty() && isBlank(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && isBlank(text.back()))
    text.remove_suffix(1);
  return text;
}

/// Splits "name + 12" into {"name", "12"}; no '+' gives an empty number.
std::pair<std::string_view, std::string_view> splitPlus(std::string_view text) {
  size_t plus = text.find('+');
  if (plus == std::string_view::npos)
    return {trimBlanks(text), {}};
  return {trimBlanks(text.substr(0, plus)), trimBlanks(text.substr(plus + 1))};
}

} // namespace

void Lexer::simpleAddress(std::string_view text, SemanticValue& value) const {
  // text is "[ base <blanks> (+ -N | -N | +N)? ]" as matched by the scanner rule.
  text = trimBlanks(text.substr(1, text.find(']') - 1));
  size_t baseEnd = 0;
  while (baseEnd < text.size() && !isBlank(text[baseEnd]) && text[baseEnd] != '+' &&
         text[baseEnd] != '-')
    ++baseEnd;
  value.text = text.substr(0, baseEnd);
  std::string_view rest = trimBlanks(text.substr(baseEnd));
  value.present = !rest.empty();
  value.magnitude = 0;
  if (!value.present)
    return;
  bool negative = false;
  if (rest.front() == '+')
    rest = trimBlanks(rest.substr(1));
  if (!rest.empty() && rest.front() == '-') {
    negative = true;
    rest = trimBlanks(rest.substr(1));
  }
  ImmediateOperand offset = integer(rest, 10, 0);
  if (offset.magnitude > static_cast<uint64_t>(INT64_MAX))
    fail("address offset '" + std::string(rest) + "' does not fit in 64 bits");
  int64_t signedOffset = static_cast<int64_t>(offset.magnitude);
  value.magnitude = static_cast<uint64_t>(negative ? -signedOffset : signedOffset);
}

bool Lexer::beginSectionBody() {
  if (!sectionPending_)
    return false;
  sectionPending_ = false;
  sectionSized_ = false;
  sectionState_ = SectionState::ExpectItem;
  return true;
}

void Lexer::endSectionBody() {
  if (sectionState_ == SectionState::ExpectValue)
    fail("expected a value before '}'");
}

void Lexer::sectionLabel(std::string_view text) {
  if (sectionState_ == SectionState::ExpectValue)
    fail("expected a value, found label '" + std::string(text) + "'");
  text = trimBlanks(text.substr(0, text.size() - 1)); // without ':'
  if (text.size() > kMaxTokenLength)
    fail("label longer than " + std::to_string(kMaxTokenLength) + " characters");
  ctx_.addSectionLabel(text);
  sectionState_ = SectionState::ExpectItem;
}

void Lexer::sectionWord(std::string_view text) {
  auto [word, offset] = splitPlus(text);
  if (word.size() > kMaxTokenLength)
    fail("word longer than " + std::to_string(kMaxTokenLength) + " characters");
  if (sectionState_ == SectionState::ExpectValue) {
    // A section-relative value: `.b32 .debug_loc+1021`.
    std::optional<ImmediateOperand> number;
    if (!offset.empty())
      number = integer(offset, 10, 0);
    ctx_.addSectionSymbol(word, number, location_);
    sectionState_ = SectionState::AfterValue;
    return;
  }
  if (!offset.empty())
    fail("expected a data directive such as .b8, found '" + std::string(text) + "'");
  ctx_.setSectionDirective(word);
  sectionState_ = SectionState::ExpectValue;
}

void Lexer::sectionDirectiveAndInteger(std::string_view text) {
  size_t blank = 0;
  while (!isBlank(text[blank]))
    ++blank;
  sectionWord(text.substr(0, blank));
  std::string_view value = trimBlanks(text.substr(blank));
  bool hexadecimal = value.find_first_of("xX") != std::string_view::npos;
  sectionInteger(value, hexadecimal ? 16 : 10);
}

void Lexer::sectionSymbol(std::string_view text) {
  auto [symbol, offset] = splitPlus(text);
  if (sectionState_ != SectionState::ExpectValue)
    fail(sectionState_ == SectionState::AfterValue
             ? "expected ',' or a new directive before '" + std::string(symbol) + "'"
             : "expected a data directive such as .b8 or a label, found '" + std::string(symbol) +
                   "'");
  if (symbol.size() > kMaxTokenLength)
    fail("symbol longer than " + std::to_string(kMaxTokenLength) + " characters");
  std::optional<ImmediateOperand> number;
  if (!offset.empty())
    number = integer(offset, 10, 0);
  ctx_.addSectionSymbol(symbol, number, location_);
  sectionState_ = SectionState::AfterValue;
}

void Lexer::sectionSymbolDifference(std::string_view text) {
  size_t minus = text.find('-');
  std::string_view symbol = trimBlanks(text.substr(0, minus));
  std::string_view subtrahend = trimBlanks(text.substr(minus + 1));
  if (sectionState_ != SectionState::ExpectValue)
    fail(sectionState_ == SectionState::AfterValue
             ? "expected ',' or a new directive before '" + std::string(symbol) + "'"
             : "expected a data directive such as .b8 or a label, found '" + std::string(symbol) +
                   "'");
  if (symbol.size() > kMaxTokenLength || subtrahend.size() > kMaxTokenLength)
    fail("symbol longer than " + std::to_string(kMaxTokenLength) + " characters");
  ctx_.addSectionSymbolDifference(symbol, subtrahend);
  sectionState_ = SectionState::AfterValue;
}

void Lexer::sectionInteger(std::string_view text, int base) {
  if (sectionState_ != SectionState::ExpectValue)
    fail(sectionState_ == SectionState::AfterValue
             ? "expected ',' or a new directive before '" + std::string(text) + "'"
             : "expected a data directive such as .b8 before '" + std::string(text) + "'");
  bool negative = text.front() == '-';
  if (negative)
    text.remove_prefix(1);
  lastText_ = text;
  ImmediateOperand value = integer(text, base, base == 16 ? 2 : 0);
  ctx_.addSectionInteger(value, negative, location_);
  sectionState_ = SectionState::AfterValue;
}

void Lexer::sectionComma() {
  if (sectionState_ != SectionState::AfterValue)
    fail("unexpected ',' in .section");
  sectionState_ = SectionState::ExpectValue;
}

ImmediateOperand Lexer::integer(std::string_view text, int base, size_t prefix) const {
  ImmediateOperand imm;
  imm.format = base == 16  ? ImmediateOperand::Format::Hexadecimal
               : base == 8 ? ImmediateOperand::Format::Octal
               : base == 2 ? ImmediateOperand::Format::Binary
                           : ImmediateOperand::Format::Decimal;
  std::string_view digits = text.substr(prefix);
  if (!digits.empty() && digits.back() == 'U') {
    imm.unsignedSuffix = true;
    digits.remove_suffix(1);
  }
  uint64_t value = 0;
  if (base == 10 && digits.size() <= 19) {
    // Up to 19 decimal digits cannot overflow 64 bits: the common, fast case.
    for (char c : digits)
      value = value * 10 + static_cast<unsigned>(c - '0');
    imm.magnitude = value;
    return imm;
  }
  for (char c : digits) {
    unsigned digit = c >= 'a'   ? unsigned(c - 'a' + 10)
                     : c >= 'A' ? unsigned(c - 'A' + 10)
                                : unsigned(c - '0');
    if (__builtin_mul_overflow(value, static_cast<uint64_t>(base), &value) ||
        __builtin_add_overflow(value, digit, &value))
      fail("integer literal '" + std::string(text) + "' does not fit in 64 bits");
  }
  imm.magnitude = value;
  return imm;
}

std::string_view Lexer::instructionText(const char* text, size_t length) {
  while (length > 0 &&
         (text[length - 1] == ' ' || text[length - 1] == '\t' || text[length - 1] == '\r' ||
          text[length - 1] == '\f' || text[length - 1] == '\v'))
    --length;
  lastText_ = std::string_view(text, length);
  return lastText_;
}

/// A number operand of a one-token instruction, classified exactly as the scanner's own number
/// rules do (`017` is octal, `0178` decimal, `0f`/`0d` bit patterns, a leading '-' negates).
ImmediateOperand Lexer::numberLiteral(std::string_view text, SourceRange at) const {
  try {
    return classifyNumber(text);
  } catch (const PtxParser::syntax_error& error) {
    throw PtxParser::syntax_error(at, error.what()); // at the operand, not the statement
  }
}

namespace {
/// The grammar's octal literal, `0[0-7]+U?`: at least one digit after the 0, then at most a
/// trailing U. (`0U` is decimal zero; the fuzzer found the fast path reading it as octal.)
bool isOctal(std::string_view text) {
  if (!text.empty() && text.back() == 'U')
    text.remove_suffix(1);
  return text.size() > 1 && text[0] == '0' &&
         std::all_of(text.begin() + 1, text.end(), [](char c) { return c >= '0' && c <= '7'; });
}
} // namespace

ImmediateOperand Lexer::classifyNumber(std::string_view text) const {
  bool negative = !text.empty() && text.front() == '-';
  if (negative)
    text.remove_prefix(1);
  ImmediateOperand imm;
  auto startsWith = [&](char a, char b) {
    return text.size() > 1 && text[0] == '0' && (text[1] == a || text[1] == b);
  };
  if (startsWith('f', 'F'))
    imm = floatBits(text, ImmediateOperand::Format::Float32Bits);
  else if (startsWith('d', 'D'))
    imm = floatBits(text, ImmediateOperand::Format::Float64Bits);
  else if (startsWith('x', 'X'))
    imm = integer(text, 16, 2);
  else if (startsWith('b', 'B'))
    imm = integer(text, 2, 2);
  else if (isOctal(text))
    imm = integer(text, 8, 1);
  else
    imm = integer(text, 10, 0);
  imm.negative = negative;
  return imm;
}

ImmediateOperand Lexer::floatBits(std::string_view text, ImmediateOperand::Format format) const {
  ImmediateOperand imm = integer(text, 16, 2);
  imm.format = format;
  return imm;
}

ImmediateOperand Lexer::decimalFloat(std::string_view text) const {
  ImmediateOperand imm;
  imm.format = ImmediateOperand::Format::DecimalFloat;
  imm.text = ctx_.intern(text);
  double value = std::strtod(std::string(text).c_str(), nullptr);
  std::memcpy(&imm.magnitude, &value, sizeof value);
  return imm;
}

std::string Lexer::tokenName(const char* bisonName) {
  std::string name(bisonName);
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"')
    name = name.substr(1, name.size() - 2);
  // Punctuation and keywords read better quoted: expected ';' or '}'.
  if (!name.empty() && (name.size() == 1 || name.front() == '.'))
    name = "'" + name + "'";
  return name;
}

std::string Lexer::describe(PtxParser::symbol_kind_type kind, const char* bisonName) const {
  std::string name = tokenName(bisonName);
  using K = PtxParser::symbol_kind;
  if (kind == K::S_SIMPLE_INSTRUCTION) {
    // Named by its first token, as the grammar-only route (which has no such token) names it.
    if (lastText_.front() == '@')
      return "'@'";
    size_t end = 1;
    while (end < lastText_.size() &&
           (chars::isIdChar(lastText_[end]) || lastText_[end] == '.' || lastText_[end] == ':'))
      ++end;
    std::string_view mnemonic = lastText_.substr(0, end);
    bool modifiers = mnemonic.find('.') != std::string_view::npos;
    return std::string(modifiers ? "instruction '" : "identifier '") +
           std::string(mnemonic.substr(0, 40)) + (mnemonic.size() > 40 ? "...'" : "'");
  }
  switch (kind) {
  case K::S_IDENT:
  case K::S_MNEMONIC:
  case K::S_REGISTER:
  case K::S_DOTWORD:
  case K::S_INTEGER:
  case K::S_FLOAT:
  case K::S_STRING: {
    std::string text;
    for (char c : lastText_.substr(0, 40))
      text += (c >= 0x20 && c < 0x7f) ? c : '?';
    return name + " '" + text + (lastText_.size() > 40 ? "...'" : "'");
  }
  default:
    return name;
  }
}

void Lexer::addInlinedLocLine(std::string_view text, SourceRange at) {
  // The scanner's rule guarantees the shape: ".loc" F L C "," KEYWORD NAME "," KEYWORD F L C.
  std::array<std::string_view, 10> words;
  size_t count = 0;
  size_t position = 0;
  size_t locEnd = 0;
  while (position < text.size() && count < words.size()) {
    char c = text[position];
    if (isBlank(c) || c == ',') {
      if (c == ',' && locEnd == 0)
        locEnd = position;
      ++position;
      continue;
    }
    size_t start = position;
    while (position < text.size() && !isBlank(text[position]) && text[position] != ',')
      ++position;
    words[count++] = text.substr(start, position - start);
  }
  for (size_t i = 0; i < count; ++i)
    if (words[i].size() > kMaxTokenLength)
      fail("token of " + std::to_string(words[i].size()) +
           " characters is longer than the limit of " + std::to_string(kMaxTokenLength));
  std::string_view loc = trimBlanks(text.substr(0, locEnd));
  ctx_.addInlinedLocNumbers(loc, words[4], words[5], words[6], numberLiteral(words[7], at),
                            numberLiteral(words[8], at), numberLiteral(words[9], at), at);
}

} // namespace ocelot::ir::detail
