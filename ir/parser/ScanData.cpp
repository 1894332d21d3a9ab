// The lexer's hand-written scanning of numeric data (see PtxLexer.l): runs of initializer
// elements (`1, 2, 3, ...`, `0f3F800000, ...`) after the two the scanner's rule matched, and whole
// lines of debug-section bodies. Both read exactly what the scanner's rules would and leave
// anything else to them; the grammar-only route (fast path off) compares.

#include "ir/parser/CharClass.h"
#include "ir/parser/Lexer.h"
#include "ir/parser/ParseContext.h"

#include <cstring>

namespace ocelot::ir::detail {

using namespace chars;

namespace {

/// True when the blanks at `p` end in ',', '}' or a line end: the trailing context
/// `{BLANK}*/[,}\n\r]` of the run rules ('\r' is a blank too). Sets `p` past the blanks.
bool endsElement(char*& p) {
  char c = *p;
  if (c == ',' || c == '}' || c == '\n')
    return true;
  bool carriageReturn = false;
  while (is(c, kBlank)) {
    carriageReturn |= c == '\r';
    c = *++p;
  }
  return carriageReturn || c == ',' || c == '}' || c == '\n';
}

/// `0` or `-`?[1-9][0-9]{0,17} (a value that fits in int64_t), followed by blanks and ',', '}' or
/// a line end: an element of an INTEGER_RUN as the scanner's rule takes it. Returns the position
/// after the blanks that follow it, or nullptr. Byte values, the common case, take few steps.
char* plainInteger(char* p, int64_t& value) {
  unsigned digit = static_cast<unsigned char>(*p) - '0';
  uint64_t magnitude = digit;
  char* q = p + 1;
  if (digit == 0) {
    // `0` alone
  } else if (digit <= 9) {
    unsigned next = static_cast<unsigned char>(*q) - '0';
    if (next <= 9) {
      magnitude = magnitude * 10 + next;
      ++q;
      char* limit = p + 18;
      while ((next = static_cast<unsigned char>(*q) - '0') <= 9 && q < limit) {
        magnitude = magnitude * 10 + next;
        ++q;
      }
    }
  } else {
    if (*p != '-' || q[0] < '1' || q[0] > '9')
      return nullptr;
    int64_t positive = 0;
    q = plainInteger(q, positive);
    if (q != nullptr)
      value = -positive;
    return q;
  }
  if (!endsElement(q))
    return nullptr;
  value = static_cast<int64_t>(magnitude);
  return q;
}

/// `0f` + 8 or `0d` + 16 hex digits with the same trailing context.
char* floatLiteral(char* p, ImmediateOperand& value) {
  if (p[0] != '0')
    return nullptr;
  size_t digits = 0;
  if (p[1] == 'f' || p[1] == 'F') {
    digits = 8;
    value.format = ImmediateOperand::Format::Float32Bits;
  } else if (p[1] == 'd' || p[1] == 'D') {
    digits = 16;
    value.format = ImmediateOperand::Format::Float64Bits;
  } else {
    return nullptr;
  }
  uint64_t bits = 0;
  char* q = p + 2;
  for (size_t i = 0; i < digits; ++i, ++q) {
    char c = *q;
    if (!is(c, kHexDigit))
      return nullptr;
    bits = bits * 16 + static_cast<unsigned>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
  }
  if (!endsElement(q))
    return nullptr;
  value.magnitude = bits;
  return q;
}

} // namespace

char* Lexer::integerRun(char* text, char* end, SemanticValue& value, SourceRange& location) {
  IntegerValues& run = ctx_.pendingIntegers();
  // The two integers the rule matched: "A <blanks> , <blanks> B <blanks>".
  int64_t number = 0;
  char* p = plainInteger(text, number);
  run.push_back(number);
  p = plainInteger(skipBlanks(p + 1), number);
  run.push_back(number);
  if (!fastPath_) { // the grammar-only route keeps the rule's two-element runs (tests compare)
    endRun(text, end, value, location);
    return end;
  }
  // Read on while `, N` follows. p is after the blanks that follow the last element taken.
  char* resume = end;
  // Byte values collect here and join the run a block at a time.
  std::array<uint8_t, 512> bytes;
  size_t count = 0;
  while (*p == ',') {
    char* next = p + 1;
    if (*next == ' ')
      ++next;
    // The common element: 0..255 right before the next ',' (every byte of a table but the last).
    unsigned digit = static_cast<unsigned char>(*next) - '0';
    if (digit <= 9) {
      unsigned byte = digit;
      char* q = next + 1;
      if (digit != 0 && (digit = static_cast<unsigned char>(*q) - '0') <= 9) {
        byte = byte * 10 + digit;
        ++q;
        if ((digit = static_cast<unsigned char>(*q) - '0') <= 9) {
          byte = byte * 10 + digit;
          ++q;
        }
      }
      if (*q == ',' && byte <= 0xff) {
        bytes[count++] = static_cast<uint8_t>(byte);
        if (count == bytes.size()) {
          run.appendBytes(bytes.data(), count);
          count = 0;
        }
        p = resume = q;
        continue;
      }
    }
    run.appendBytes(bytes.data(), count);
    count = 0;
    char* q = plainInteger(skipBlanks(next), number);
    if (q == nullptr)
      break; // the ',' and what follows go back to the scanner's rules
    run.push_back(number);
    p = resume = q;
  }
  run.appendBytes(bytes.data(), count);
  endRun(text, resume, value, location);
  return resume;
}

char* Lexer::floatRun(char* text, char* end, SemanticValue& value, SourceRange& location) {
  std::vector<Initializer>& run = ctx_.pendingScalars();
  ImmediateOperand number;
  char* p = floatLiteral(text, number);
  run.push_back(Initializer::value(number));
  p = floatLiteral(skipBlanks(p + 1), number);
  run.push_back(Initializer::value(number));
  if (!fastPath_) {
    endRun(text, end, value, location);
    return end;
  }
  char* resume = end;
  while (*p == ',') {
    char* q = floatLiteral(skipBlanks(p + 1), number);
    if (q == nullptr)
      break;
    run.push_back(Initializer::value(number));
    p = resume = q;
  }
  endRun(text, resume, value, location);
  return resume;
}

void Lexer::endRun(const char* text, const char* end, SemanticValue& value, SourceRange& location) {
  size_t length = static_cast<size_t>(end - text);
  while (length > 0 && is(text[length - 1], kBlank))
    --length;
  value.text = std::string_view(text, length);
  lastText_ = value.text.substr(0, 40);
  location.end.column = location.begin.column + static_cast<uint32_t>(end - text);
  location_ = location;
}

char* Lexer::sectionValue(char* p) {
  struct {
    uint64_t value = 0;
    std::string_view symbol;
    std::string_view subtrahend;
    bool negative = false;
    bool hexadecimal = false;
  } value;
  char c = *p;
  if (c == '-' || is(c, kDigit)) {
    value.negative = c == '-';
    char* digits = p + (value.negative ? 1 : 0);
    char* q = digits;
    if (!is(*q, kDigit))
      return nullptr;
    if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X') && is(q[2], kHexDigit)) {
      q += 2;
      char* hex = q;
      while (is(*q, kHexDigit)) {
        char h = *q++;
        value.value =
            value.value * 16 + static_cast<unsigned>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
      }
      if (q - hex > 16)
        return nullptr; // may not fit: the scanner's rules say so
      value.hexadecimal = true;
    } else {
      while (is(*q, kDigit))
        value.value = value.value * 10 + static_cast<unsigned>(*q++ - '0');
      if (q - digits > 19)
        return nullptr;
    }
    ctx_.addSectionIntegerValue(value.value, value.negative, value.hexadecimal);
    return q;
  }
  if (c != '.' && !is(c, kIdStart))
    return nullptr;
  char* q = p + 1;
  if (c == '.' && !is(*q++, kIdStart))
    return nullptr;
  while (is(*q, kIdStart | kDigit))
    ++q;
  value.symbol = std::string_view(p, static_cast<size_t>(q - p));
  if (value.symbol.size() > kMaxTokenLength)
    return nullptr;
  char* after = skipBlanks(q);
  if (*after == '+') {
    // `sym+N`, `.debug_loc+1021`
    char* digits = skipBlanks(after + 1);
    q = digits;
    while (is(*q, kDigit))
      value.value = value.value * 10 + static_cast<unsigned>(*q++ - '0');
    if (q == digits || q - digits > 19)
      return nullptr;
  } else if (*after == '-' && c != '.') {
    // `$L__end0-$L__start0`
    char* subtrahend = skipBlanks(after + 1);
    if (!is(*subtrahend, kIdStart))
      return nullptr;
    q = subtrahend + 1;
    while (is(*q, kIdStart | kDigit))
      ++q;
    value.subtrahend = std::string_view(subtrahend, static_cast<size_t>(q - subtrahend));
    if (value.subtrahend.size() > kMaxTokenLength)
      return nullptr;
    ctx_.addSectionSymbolDifference(value.symbol, value.subtrahend);
    return q;
  }
  ctx_.addSectionSymbolValue(value.symbol, value.value);
  return q;
}

char* Lexer::scanSectionLines(char* p) {
  if (!fastPath_) // the grammar-only route scans item by item (tests compare the two)
    return p;
  if (!sectionSized_) {
    // Room for the items up to the body's '}' (an item takes at least 4 bytes of text, `.b8 `
    // or `NN, `): a megabyte section then never moves its items while growing.
    sectionSized_ = true;
    if (const char* close = std::strchr(p, '}'))
      ctx_.reserveSectionItems(static_cast<size_t>(close - p) / 4);
  }
  for (;;) {
    // A line that starts in the middle of a list (`.b8 1,` above) is left to the rules.
    if (sectionState_ == SectionState::ExpectValue)
      return p;
    char* line = p;
    char* q = p;
    if (*q == '\n') { // an empty line
      newLine(q + 1);
      p = skipBlanks(q + 1);
      continue;
    }
    if (*q == '.') {
      // `.b8 1, 2`, `.b32 .debug_abbrev`, `.b64 $L__func_begin0+4`: a directive and its values.
      ++q;
      if (!is(*q++, kIdStart))
        return line;
      while (is(*q, kIdStart | kDigit))
        ++q;
      std::string_view directive(p, static_cast<size_t>(q - p));
      if (directive.size() > kMaxTokenLength || !is(*q, kBlank))
        return line;
      q = skipBlanks(q);
      // `.b8 17` alone on its line: most lines of -G modules.
      if (is(*q, kDigit)) {
        uint64_t number = 0;
        char* r = q;
        while (is(*r, kDigit) && r - q < 19)
          number = number * 10 + static_cast<unsigned>(*r++ - '0');
        if (*r == '\n') {
          ctx_.setSectionDirective(directive);
          ctx_.addSectionIntegerValue(number, false, false);
          sectionState_ = SectionState::AfterValue;
          newLine(r + 1);
          p = skipBlanks(r + 1);
          continue;
        }
      }
      // Values go to the section as they are read; a line that turns out to be of another shape
      // is taken back and left to the rules.
      ParseContext::SectionMark mark = ctx_.sectionMark();
      ctx_.setSectionDirective(directive);
      for (;;) {
        q = sectionValue(q);
        if (q == nullptr)
          break;
        q = skipBlanks(q);
        if (*q != ',')
          break;
        q = skipBlanks(q + 1);
      }
      if (q == nullptr || *q != '\n') {
        ctx_.rewindSection(mark);
        return line;
      }
      sectionState_ = SectionState::AfterValue;
    } else if (is(*q, kIdStart)) {
      // `$L__info_string0:` alone on its line.
      while (is(*q, kIdStart | kDigit))
        ++q;
      std::string_view label(p, static_cast<size_t>(q - p));
      q = skipBlanks(q);
      if (*q != ':')
        return line;
      q = skipBlanks(q + 1);
      if (*q != '\n' || label.size() > kMaxTokenLength)
        return line;
      ctx_.addSectionLabel(label);
      sectionState_ = SectionState::ExpectItem;
    } else {
      return line; // '}', a comment, an error: the rules take it from here
    }
    newLine(q + 1);
    p = skipBlanks(q + 1);
  }
}

} // namespace ocelot::ir::detail
