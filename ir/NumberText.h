#pragma once

// Numbers as text, written straight into a buffer without library calls (the emitter's fast
// path: PTX is mostly registers, numbers and byte tables).

#include <array>
#include <cstdint>
#include <cstring>

namespace ocelot::ir {

/// "00" .. "99": decimal digits two at a time.
inline constexpr std::array<char, 200> kDigitPairs = [] {
  std::array<char, 200> pairs{};
  for (int i = 0; i < 100; ++i) {
    pairs[static_cast<size_t>(2 * i)] = static_cast<char>('0' + i / 10);
    pairs[static_cast<size_t>(2 * i + 1)] = static_cast<char>('0' + i % 10);
  }
  return pairs;
}();

/// "0, " .. "255, " padded to 8 bytes, and their lengths: byte tables are emitted with one 8-byte
/// copy per element.
struct ByteTexts {
  std::array<std::array<char, 8>, 256> text{};
  std::array<uint8_t, 256> length{};
};
inline constexpr ByteTexts kByteTexts = [] {
  ByteTexts texts;
  for (unsigned value = 0; value < 256; ++value) {
    auto& text = texts.text[value];
    unsigned n = 0;
    if (value >= 100)
      text[n++] = static_cast<char>('0' + value / 100);
    if (value >= 10)
      text[n++] = static_cast<char>('0' + value / 10 % 10);
    text[n++] = static_cast<char>('0' + value % 10);
    text[n++] = ',';
    text[n++] = ' ';
    texts.length[value] = static_cast<uint8_t>(n);
  }
  return texts;
}();

/// Writes `value` in decimal at `p` (room for 20 characters); returns the end.
inline char* writeDecimal(char* p, uint64_t value) {
  unsigned digits = 1;
  for (uint64_t bound = 10; digits < 20 && value >= bound; bound *= 10)
    ++digits;
  char* end = p + digits;
  char* q = end;
  while (value >= 100) {
    q -= 2;
    std::memcpy(q, &kDigitPairs[2 * (value % 100)], 2);
    value /= 100;
  }
  if (value >= 10) {
    q -= 2;
    std::memcpy(q, &kDigitPairs[2 * value], 2);
  } else {
    *--q = static_cast<char>('0' + value);
  }
  return end;
}

/// Writes `value` in hexadecimal with at least `width` digits at `p` (room for max(16, width)).
inline char* writeHexadecimal(char* p, uint64_t value, bool upper, int width) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  int length = 1;
  while (length < 16 && (value >> (4 * length)) != 0)
    ++length;
  for (int i = length; i < width; ++i)
    *p++ = '0';
  for (int i = length - 1; i >= 0; --i)
    *p++ = digits[(value >> (4 * i)) & 0xf];
  return p;
}

} // namespace ocelot::ir
