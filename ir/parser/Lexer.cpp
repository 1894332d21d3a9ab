#include "ir/parser/Lexer.h"

#include "ir/parser/ParseContext.h"

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
  for (char c : digits) {
    unsigned digit = c >= 'a' ? unsigned(c - 'a' + 10) : c >= 'A' ? unsigned(c - 'A' + 10) : unsigned(c - '0');
    if (value > (UINT64_MAX - digit) / static_cast<unsigned>(base))
      fail("integer literal '" + std::string(text) + "' does not fit in 64 bits");
    value = value * static_cast<unsigned>(base) + digit;
  }
  imm.magnitude = value;
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

} // namespace ocelot::ir::detail
