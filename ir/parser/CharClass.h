#pragma once

// Character classes of the lexer's hand-written scanning (Scan*.cpp): the scanner's BLANK,
// IDSTART and IDCHAR classes, one table lookup each. Every loop over the input stops at the NUL
// bytes after it, which belong to no class.

#include <array>
#include <cstdint>
#include <string_view>

namespace ocelot::ir::detail::chars {

enum : uint8_t { kBlank = 1, kDigit = 2, kIdStart = 4, kHexDigit = 8 };

inline constexpr std::array<uint8_t, 256> kCharClass = [] {
  std::array<uint8_t, 256> table{};
  for (unsigned char c : std::string_view(" \t\r\f\v"))
    table[c] = kBlank;
  for (int c = '0'; c <= '9'; ++c)
    table[static_cast<size_t>(c)] = kDigit | kHexDigit;
  for (int c = 'a'; c <= 'z'; ++c)
    table[static_cast<size_t>(c)] = kIdStart;
  for (int c = 'A'; c <= 'Z'; ++c)
    table[static_cast<size_t>(c)] = kIdStart;
  for (int c : {'a', 'b', 'c', 'd', 'e', 'f', 'A', 'B', 'C', 'D', 'E', 'F'})
    table[static_cast<size_t>(c)] |= kHexDigit;
  table['_'] = kIdStart;
  table['$'] = kIdStart;
  return table;
}();

inline bool is(char c, uint8_t classes) {
  return (kCharClass[static_cast<unsigned char>(c)] & classes) != 0;
}

inline bool isIdChar(char c) {
  return is(c, kIdStart | kDigit);
}

/// `[a-zA-Z0-9_]`: the characters of a modifier (no '$').
inline bool isModifierChar(char c) {
  return c != '$' && isIdChar(c);
}

inline bool isLetter(char c) {
  return c != '$' && c != '_' && is(c, kIdStart);
}

inline char* skipBlanks(char* p) {
  while (is(*p, kBlank))
    ++p;
  return p;
}

inline const char* skipBlanks(const char* p) {
  while (is(*p, kBlank))
    ++p;
  return p;
}

} // namespace ocelot::ir::detail::chars
