// The lexer's hand-written scanning of statements at statement boundaries (Lexer::scanStatements):
// simple instructions and `.loc` lines as the scanner's SIMPLE_INSTRUCTION, LOC_LINE and
// LOC_INLINED_LINE rules match them, labels and simple declarations as the grammar reduces them.
// What is read here goes to the parse context through the grammar's own actions, with the same
// texts and locations; anything else is left to the rules and the grammar.

#include "ir/parser/CharClass.h"
#include "ir/parser/Lexer.h"
#include "ir/parser/ParseContext.h"

#include <cstring>

namespace ocelot::ir::detail {

using namespace chars;

namespace {

// The scanner's rule for simple instructions (SIMPLEOP, OPERAND, GUARDED in PtxLexer.l) by hand.
// Each function returns the end of what it matched at `p`, or nullptr. Where the rule's
// alternatives overlap (`0x1F` is also `0` followed by `x`), only one of them can be followed by
// what must follow an operand, and that is the one taken here.

/// NUMOP: "-"?(0[fF]hex{8}|0[dD]hex{16}|0[xX]hex+U?|0[bB][01]+U?|[0-9]+U?)
const char* matchNumberOperand(const char* p) {
  if (*p == '-')
    ++p;
  if (!is(*p, kDigit))
    return nullptr;
  if (p[0] == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
    int digits = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
    p += 2;
    for (int i = 0; i < digits; ++i, ++p)
      if (!is(*p, kHexDigit))
        return nullptr;
    return p;
  }
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && is(p[2], kHexDigit)) {
    p += 2;
    while (is(*p, kHexDigit))
      ++p;
  } else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B') && (p[2] == '0' || p[2] == '1')) {
    p += 2;
    while (*p == '0' || *p == '1')
      ++p;
  } else {
    while (is(*p, kDigit))
      ++p;
  }
  return *p == 'U' ? p + 1 : p;
}

/// "%"{IDCHAR}+ or {IDSTART}{IDCHAR}*
const char* matchName(const char* p) {
  if (*p == '%') {
    if (!isIdChar(*++p))
      return nullptr;
  } else if (!is(*p, kIdStart)) {
    return nullptr;
  }
  while (isIdChar(*++p)) {
  }
  return p;
}

/// SIMPLEOP: NUMOP | WORDOP | ADDROP | VECOP
const char* matchSimpleOperand(const char* p) {
  char c = *p;
  if (c == '-' || is(c, kDigit))
    return matchNumberOperand(p);
  if (c == '[') {
    // "["{BLANK}*{ADDRBASE}{BLANK}*{ADDROFF}?"]"
    p = matchName(skipBlanks(p + 1));
    if (p == nullptr)
      return nullptr;
    p = skipBlanks(p);
    if (*p == '+' || *p == '-') {
      if (*p == '+') {
        p = skipBlanks(p + 1);
        if (*p == '-')
          ++p;
      } else {
        ++p;
      }
      p = skipBlanks(p);
      if (!is(*p, kDigit))
        return nullptr;
      while (is(*p, kDigit))
        ++p;
      p = skipBlanks(p);
    }
    return *p == ']' ? p + 1 : nullptr;
  }
  if (c == '{') {
    // "{"{BLANK}*{VECELEM}({BLANK}*","{BLANK}*{VECELEM})*{BLANK}*"}"
    p = skipBlanks(p + 1);
    for (;;) {
      if (*p == '-' || is(*p, kDigit)) {
        if (*p == '-')
          ++p;
        if (!is(*p, kDigit))
          return nullptr;
        while (is(*p, kDigit))
          ++p;
      } else {
        p = matchName(p);
        if (p == nullptr)
          return nullptr;
      }
      p = skipBlanks(p);
      if (*p == '}')
        return p + 1;
      if (*p != ',')
        return nullptr;
      p = skipBlanks(p + 1);
    }
  }
  // WORDOP: "!"?("%"{IDCHAR}+(\.[a-zA-Z][a-zA-Z0-9]*)?|{IDSTART}{IDCHAR}*)
  if (c == '!')
    ++p;
  bool special = *p == '%';
  p = matchName(p);
  if (p != nullptr && special && p[0] == '.' && isLetter(p[1])) {
    p += 2;
    while (isLetter(*p) || is(*p, kDigit))
      ++p;
  }
  return p;
}

} // namespace

bool Lexer::sinkMnemonic(const char* p) {
  if (*p == '@') {
    p = matchName(p[1] == '!' ? p + 2 : p + 1);
    p = p == nullptr ? nullptr : skipBlanks(p);
  }
  return p != nullptr && p[0] == '_' && !isIdChar(p[1]) && p[1] != '.';
}

size_t Lexer::matchSimpleInstruction(const char* start) {
  if (sinkMnemonic(start))
    return 0;
  const char* p = start;
  if (*p == '@') {
    // GUARDED: "@""!"?("%"{IDCHAR}+|{IDSTART}{IDCHAR}*){BLANK}+
    if (*++p == '!')
      ++p;
    p = matchName(p);
    if (p == nullptr || !is(*p, kBlank))
      return 0;
    p = skipBlanks(p);
  }
  // {IDSTART}{IDCHAR}*{MODIFIER}*, MODIFIER: \.[a-zA-Z0-9_]+(::[a-zA-Z0-9_]+)*
  if (!is(*p, kIdStart))
    return 0;
  while (isIdChar(*++p)) {
  }
  while (*p == '.') {
    if (!isModifierChar(*++p))
      return 0;
    for (;;) {
      while (isModifierChar(*p))
        ++p;
      if (p[0] != ':' || p[1] != ':' || !isModifierChar(p[2]))
        break;
      p += 2;
    }
  }
  // ({BLANK}+{OPERAND}({BLANK}*","{BLANK}*{OPERAND})*)?{BLANK}*";"{BLANK}*
  const char* q = skipBlanks(p);
  if (*q != ';') {
    if (q == p)
      return 0;
    for (;;) {
      // OPERAND: {SIMPLEOP}("|"{SIMPLEOP})?
      q = matchSimpleOperand(q);
      if (q != nullptr && *q == '|')
        q = matchSimpleOperand(q + 1);
      if (q == nullptr)
        return 0;
      q = skipBlanks(q);
      if (*q != ',')
        break;
      q = skipBlanks(q + 1);
    }
    if (*q != ';')
      return 0;
  }
  return static_cast<size_t>(skipBlanks(q + 1) - start);
}

size_t Lexer::matchLocLine(const char* start, bool& inlined) {
  // LOC_LINE: ".loc"{BLANK}+[0-9]+{BLANK}+[0-9]+{BLANK}+[0-9]+{BLANK}*/\n, and LOC_INLINED_LINE
  // with `, function_name NAME, inlined_at F L C` before the line end.
  const char* p = start;
  if (std::strncmp(p, ".loc", 4) != 0)
    return 0;
  p += 4;
  auto numbers = [&p](int count) {
    for (int i = 0; i < count; ++i) {
      if (!is(*p, kBlank))
        return false;
      p = skipBlanks(p);
      // At most 9 digits: the number fits, the rules' callers cannot fail on it.
      const char* digits = p;
      while (is(*p, kDigit))
        ++p;
      if (p == digits || p - digits > 9)
        return false;
    }
    return true;
  };
  auto word = [&p] {
    if (!is(*p, kIdStart))
      return false;
    while (isIdChar(*++p)) {
    }
    return true;
  };
  if (!numbers(3))
    return 0;
  p = skipBlanks(p);
  inlined = *p == ',';
  if (inlined) {
    p = skipBlanks(p + 1);
    if (!word() || !is(*p, kBlank))
      return 0;
    p = skipBlanks(p);
    if (!word())
      return 0;
    p = skipBlanks(p);
    if (*p != ',')
      return 0;
    p = skipBlanks(p + 1);
    if (!word() || !numbers(3))
      return 0;
    p = skipBlanks(p);
  }
  if (*p != '\n' || static_cast<size_t>(p - start) > kMaxTokenLength)
    return 0;
  return static_cast<size_t>(p - start);
}

namespace {

/// The word at `p` is one of the scanner's keywords (`.entry`, `.loc` ...), not a DOTWORD.
bool isKeyword(std::string_view word) {
  static constexpr std::string_view kKeywords[] = {
      ".version", ".target", ".address_size",  ".entry",         ".func",        ".file", ".loc",
      ".section", ".pragma", ".callprototype", ".branchtargets", ".calltargets", ".alias"};
  for (std::string_view keyword : kKeywords)
    if (word == keyword)
      return true;
  return false;
}

/// `0` or [1-9][0-9]{0,8} as a whole INTEGER token (not octal, hex, `U` or a float): values the
/// grammar's callers take as they are. Returns the end of the digits or nullptr.
const char* plainCount(const char* p, uint64_t& value) {
  const char* digits = p;
  value = 0;
  while (is(*p, kDigit))
    value = value * 10 + static_cast<unsigned>(*p++ - '0');
  size_t count = static_cast<size_t>(p - digits);
  if (count == 0 || count > 9 || (count > 1 && *digits == '0'))
    return nullptr;
  if (is(*p, kIdStart | kDigit) || *p == '.') // `16U`, `1e5`, `1.5`: other tokens
    return nullptr;
  return p;
}

} // namespace

size_t Lexer::matchLabel(const char* start) {
  // `IDENT ":"`, where what follows is not a .callprototype, .branchtargets or .calltargets (they
  // make the label part of another statement; the grammar decides that with its lookahead).
  if (!is(*start, kIdStart) || (start[0] == '_' && !isIdChar(start[1])))
    return 0;
  const char* p = start + 1;
  while (isIdChar(*p))
    ++p;
  if (static_cast<size_t>(p - start) > kMaxTokenLength)
    return 0;
  p = skipBlanks(p);
  if (*p != ':')
    return 0;
  const char* end = skipBlanks(p + 1);
  const char* next = end;
  for (;;) {
    next = skipBlanks(next);
    if (*next == '\n')
      ++next;
    else if (next[0] == '/' && next[1] == '/')
      next = std::strchr(next, '\n') == nullptr ? "" : std::strchr(next, '\n');
    else
      break;
  }
  for (std::string_view keyword : {".callprototype", ".branchtargets", ".calltargets"})
    if (std::strncmp(next, keyword.data(), keyword.size()) == 0)
      return 0;
  if (next[0] == '/' && next[1] == '*')
    return 0; // a comment could hide one of them
  return static_cast<size_t>(end - start);
}

bool Lexer::matchDeclaration(const char* p, Declaration& declaration) {
  // decl_words1 declarators ";" with words `.WORD` or `.WORD N`, declarators `%r`, `%r<N>`,
  // `name`, `name[N]`, `name[]`, each token with the blanks the scanner's rule swallows.
  declaration = Declaration{};
  declaration.start = p;
  while (*p == '.') {
    const char* word = p;
    if (!is(*++p, kIdStart))
      return false;
    for (;;) {
      while (isIdChar(*p))
        ++p;
      if (p[0] != ':' || p[1] != ':' || !isIdChar(p[2]))
        break;
      p += 2;
    }
    std::string_view text(word, static_cast<size_t>(p - word));
    if (isKeyword(text) || text.size() > kMaxTokenLength ||
        declaration.wordCount == declaration.words.size())
      return false;
    DeclarationWord& entry = declaration.words[declaration.wordCount++];
    entry = DeclarationWord{text, nullptr, 0};
    p = skipBlanks(p);
    if (is(*p, kDigit)) {
      entry.value = p;
      p = plainCount(p, entry.number);
      if (p == nullptr)
        return false;
      p = skipBlanks(p);
    }
  }
  if (declaration.wordCount == 0)
    return false;
  for (;;) {
    if (declaration.declaratorCount == declaration.declarators.size())
      return false;
    Declarator& d = declaration.declarators[declaration.declaratorCount++];
    d = Declarator{};
    d.name = p;
    if (*p == '%') {
      if (!isIdChar(*++p))
        return false;
      while (isIdChar(*p))
        ++p;
      d.nameLength = static_cast<size_t>(p - d.name);
      p = skipBlanks(p);
      if (*p == '<') {
        // REGISTER "<" INTEGER ">"
        d.range = skipBlanks(p + 1);
        p = plainCount(d.range, d.count);
        if (p == nullptr)
          return false;
        p = skipBlanks(p);
        if (*p != '>')
          return false;
        d.rangeEnd = ++p;
        p = skipBlanks(p);
      }
    } else {
      if (!is(*p, kIdStart) || (p[0] == '_' && !isIdChar(p[1])))
        return false;
      while (isIdChar(*++p)) {
      }
      d.nameLength = static_cast<size_t>(p - d.name);
      p = skipBlanks(p);
      while (*p == '[') {
        // dims: "[" "]" | "[" INTEGER "]"
        if (d.dimensionCount == d.dimensions.size())
          return false;
        Dimension& dim = d.dimensions[d.dimensionCount++];
        dim = Dimension{p, nullptr, 0, nullptr};
        p = skipBlanks(p + 1);
        if (is(*p, kDigit)) {
          dim.value = p;
          p = plainCount(p, dim.number);
          if (p == nullptr)
            return false;
          p = skipBlanks(p);
        }
        if (*p != ']')
          return false;
        dim.end = ++p;
        p = skipBlanks(p);
      }
    }
    if (d.nameLength > kMaxTokenLength)
      return false;
    if (*p == ';')
      break;
    if (*p != ',')
      return false;
    p = skipBlanks(p + 1);
  }
  declaration.end = skipBlanks(p + 1);
  return true;
}

void Lexer::addDeclaration(const Declaration& declaration) {
  // The grammar's actions for the same tokens, with the same locations.
  auto at = [this](const char* begin, const char* end) {
    return beginToken(begin, static_cast<size_t>(end - begin));
  };
  auto number = [](uint64_t value) {
    ImmediateOperand imm;
    imm.magnitude = value;
    return imm;
  };
  for (size_t i = 0; i < declaration.wordCount; ++i) {
    const DeclarationWord& word = declaration.words[i];
    ctx_.addWord(word.text);
    if (word.value != nullptr)
      ctx_.setWordValue(number(word.number), at(word.value, word.value + 1));
  }
  for (size_t i = 0; i < declaration.declaratorCount; ++i) {
    const Declarator& d = declaration.declarators[i];
    std::string_view name(d.name, d.nameLength);
    SourceRange nameAt = at(d.name, d.name + d.nameLength);
    if (d.range != nullptr) {
      ctx_.addRegisterRange(name, number(d.count),
                            SourceRange{nameAt.begin, at(d.rangeEnd - 1, d.rangeEnd).end});
      continue;
    }
    for (size_t k = 0; k < d.dimensionCount; ++k) {
      const Dimension& dim = d.dimensions[k];
      if (dim.value != nullptr)
        ctx_.addDimension(number(dim.number), at(dim.value, dim.value + 1));
      else // `dims "[" "]"`: from the declarator's first '['
        ctx_.addDimension(std::nullopt,
                          SourceRange{at(d.dimensions[0].open, d.dimensions[0].open + 1).begin,
                                      at(dim.end - 1, dim.end).end});
    }
    ctx_.addDeclarator(name, nameAt);
  }
  SourceRange whole = at(declaration.start, declaration.end);
  ctx_.addDeclaration(whole);
}

char* Lexer::scanStatements(char* p) {
  for (;;) {
    // What the rules skip between statements: blanks, line ends with the blanks after them,
    // `//` comments. Each skip sets location_ as the rule's match would (the end of the last one
    // is where "unexpected end of file" points).
    if (is(*p, kBlank)) {
      char* end = skipBlanks(p);
      beginToken(p, static_cast<size_t>(end - p));
      p = end;
    }
    if (*p == '\n') {
      char* end = skipBlanks(p + 1);
      beginToken(p, static_cast<size_t>(end - p));
      newLine(p + 1);
      p = end;
      continue;
    }
    if (p[0] == '/' && p[1] == '/') {
      char* end = std::strchr(p, '\n');
      if (end == nullptr)
        return p; // the comment runs into the end of the input: the rules' business
      beginToken(p, static_cast<size_t>(end - p));
      p = end;
      continue;
    }
    size_t length = 0;
    bool loc = *p == '.';
    bool inlined = false;
    if (loc) {
      length = matchLocLine(p, inlined);
      if (length == 0) {
        // `.reg .b32 %r<5>;`, `.param .b64 param0;`: most other statements that start with '.'.
        Declaration declaration;
        if (!matchDeclaration(p, declaration))
          return p;
        addDeclaration(declaration);
        p = const_cast<char*>(declaration.end);
        continue;
      }
    } else if (*p == '@' || is(*p, kIdStart)) {
      length = matchSimpleInstruction(p);
      if (length == 0 && (length = matchLabel(p)) != 0) {
        const char* nameEnd = p;
        while (isIdChar(*nameEnd))
          ++nameEnd;
        // IDENT (with its blanks) ":": the label's location is the identifier's token.
        const char* colon = skipBlanks(nameEnd);
        ctx_.addLabel(std::string_view(p, static_cast<size_t>(nameEnd - p)),
                      beginToken(p, static_cast<size_t>(colon - p)));
        beginToken(colon, length - static_cast<size_t>(colon - p));
        p += length;
        continue;
      }
    }
    if (length == 0)
      return p;
    // The token the rule would give, and what Lexer::next does with it at a statement boundary.
    SourceRange at = beginToken(p, length);
    std::string_view text = instructionText(p, length);
    if (!loc)
      ctx_.addSimpleInstruction(text, at, *this);
    else if (inlined)
      addInlinedLocLine(text, at);
    else
      ctx_.addLocNumbers(text, at);
    p += length;
  }
}

} // namespace ocelot::ir::detail
