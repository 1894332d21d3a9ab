// The input rows of the instruction sweep (see SweepCases.h): deterministic, shared by the CUDA
// program that records the GPU's results and by the CPU device's test. Every row has four 64-bit
// words; an instruction with n sources reads the first n. The generators aim at what differs
// between implementations: special values, subnormals, every exponent, operands whose results
// cancel, round at a tie or overflow, and shift counts and bit positions at and past the width.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ocelot::sweep {

constexpr uint32_t kWordsPerRow = 4;

/// splitmix64: small, fast, and the same on every compiler.
class Random {
public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint32_t bound) { return static_cast<uint32_t>(next() % bound); }

private:
  uint64_t state_;
};

inline uint32_t f32Bits(uint32_t sign, uint32_t exponent, uint32_t mantissa) {
  return (sign << 31) | ((exponent & 0xff) << 23) | (mantissa & 0x7fffff);
}
inline uint64_t f64Bits(uint64_t sign, uint64_t exponent, uint64_t mantissa) {
  return (sign << 63) | ((exponent & 0x7ff) << 52) | (mantissa & 0xfffffffffffffull);
}
inline float asFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}
inline uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}
inline double asDouble(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, 8);
  return value;
}
inline uint64_t doubleBits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  return bits;
}

inline const std::vector<uint32_t>& f32Specials() {
  static const std::vector<uint32_t> values = {
      0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00400000,
      0x00800000, 0x80800000, 0x00800001, 0x3f800000, 0xbf800000, 0x3f000000, 0x40000000,
      0x3f7fffff, 0x3f800001, 0x40490fdb, 0xc0490fdb, 0x3fc90fdb, 0x7f7fffff, 0xff7fffff,
      0x7f000000, 0x7e800000, 0x7e7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
      0x7f800001, 0x7fa12345, 0xff812345, 0x7fffffff, 0x4b000000, 0x4b7fffff, 0x3effffff,
      0x3f400000, 0x42fe0000, 0xc2fc0000, 0x43000000, 0xc3160000, 0x34000000, 0x33800000,
      0x4f000000, 0xcf000000, 0x5f800000, 0x437f0000};
  return values;
}

inline const std::vector<uint64_t>& f64Specials() {
  static const std::vector<uint64_t> values = {
      0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull, 0x800fffffffffffffull,
      0x000fffffffffffffull, 0x0010000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
      0x3fe0000000000000ull, 0x3fefffffffffffffull, 0x3ff0000000000001ull, 0x400921fb54442d18ull,
      0x7fefffffffffffffull, 0xffefffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
      0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff0000000000001ull, 0x7ff4000000012345ull,
      0x47efffffe0000000ull, 0x47efffff10000000ull, 0x36a0000000000000ull, 0x3690000000000000ull,
      0x380fffffe0000000ull, 0x41dfffffffc00000ull, 0x43e0000000000000ull, 0xc3e0000000000000ull,
      0x43f0000000000000ull, 0x4330000000000000ull, 0x40f0000000000000ull, 0x3ff8000000000000ull};
  return values;
}

inline const std::vector<uint64_t>& integerEdges() {
  static const std::vector<uint64_t> values = {
      0,          1,          2,          3,          7,          8,          15,
      16,         17,         23,         24,         31,         32,         33,
      63,         64,         65,         127,        128,        255,        256,
      0x7fff,     0x8000,     0xffff,     0x10000,    0x7f7f7f7f, 0x80808080, 0x7fff8000,
      0x80007fff, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0x01ff00fe};
  return values;
}

inline const std::vector<uint64_t>& integer64Edges() {
  static const std::vector<uint64_t> values = {0,
                                               1,
                                               2,
                                               31,
                                               32,
                                               33,
                                               63,
                                               64,
                                               65,
                                               127,
                                               255,
                                               0xffffffffull,
                                               0x100000000ull,
                                               0x7fffffffffffffffull,
                                               0x8000000000000000ull,
                                               0x8000000000000001ull,
                                               0xfffffffffffffffeull,
                                               0xffffffffffffffffull,
                                               0x00000000ffffffffull,
                                               0xffffffff00000000ull,
                                               0x0123456789abcdefull,
                                               0x0020000000000000ull,
                                               0x001fffffffffffffull,
                                               0x0020000000000001ull};
  return values;
}

/// A 32-bit value made of bytes that matter to per-byte (video) operations.
inline uint32_t patternedBytes(Random& random) {
  static const uint8_t kBytes[] = {0x00, 0x01, 0x7f, 0x80, 0x81, 0xff, 0xfe, 0x40};
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) {
    const uint32_t pick = random.below(10);
    const uint32_t byte = pick < 8 ? kBytes[pick] : static_cast<uint32_t>(random.next() & 0xff);
    value |= byte << (8 * i);
  }
  return value;
}

inline uint64_t integerWord(Random& random) {
  const uint64_t high = random.next() << 32;
  switch (random.below(5)) {
  case 0:
    return high | integerEdges()[random.below(static_cast<uint32_t>(integerEdges().size()))];
  case 1:
    return high | random.below(73); // shift counts, bit positions and lengths
  case 2:
    return high | patternedBytes(random);
  default:
    return random.next();
  }
}

inline uint64_t integer64Word(Random& random) {
  switch (random.below(5)) {
  case 0:
    return integer64Edges()[random.below(static_cast<uint32_t>(integer64Edges().size()))];
  case 1:
    return random.below(140);
  case 2:
    return random.next() >> random.below(64);
  default:
    return random.next();
  }
}

/// A float near `a`: same exponent give or take `spread`, random mantissa and sign.
inline uint32_t f32Near(Random& random, uint32_t a, uint32_t spread) {
  const int exponent = static_cast<int>((a >> 23) & 0xff) +
                       static_cast<int>(random.below(2 * spread + 1)) - static_cast<int>(spread);
  const uint32_t e = exponent < 0 ? 0 : (exponent > 254 ? 254 : static_cast<uint32_t>(exponent));
  return f32Bits(static_cast<uint32_t>(random.next() & 1), e, static_cast<uint32_t>(random.next()));
}

inline std::vector<uint64_t> f32Rows() {
  const uint32_t rows = 16384;
  std::vector<uint64_t> words(size_t{rows} * kWordsPerRow);
  Random random(0x5eed0f32);
  const auto& specials = f32Specials();
  const auto specialCount = static_cast<uint32_t>(specials.size());
  // Word 0: the specials, then every exponent of both signs with edge and random mantissas.
  std::vector<uint32_t> first(specials.begin(), specials.end());
  for (uint32_t exponent = 0; exponent < 256; ++exponent)
    for (uint32_t sign = 0; sign < 2; ++sign) {
      const uint32_t edges[] = {0, 1, 0x7fffff, 0x400000};
      for (uint32_t mantissa : edges)
        first.push_back(f32Bits(sign, exponent, mantissa));
      for (int i = 0; i < 20; ++i)
        first.push_back(f32Bits(sign, exponent, static_cast<uint32_t>(random.next())));
    }
  while (first.size() < rows)
    first.push_back(static_cast<uint32_t>(random.next()));
  for (uint32_t r = 0; r < rows; ++r) {
    const uint32_t a = first[r];
    uint32_t b;
    switch (r % 8) {
    case 0:
      b = specials[random.below(specialCount)];
      break;
    case 1:
    case 2:
      b = f32Near(random, a, 3);
      break;
    case 3:
      b = static_cast<uint32_t>(random.next());
      break;
    case 4:
      b = f32Bits(static_cast<uint32_t>(random.next() & 1), 1 + random.below(254),
                  static_cast<uint32_t>(random.next()));
      break;
    case 5:
      b = f32Bits(static_cast<uint32_t>(random.next() & 1), 0,
                  static_cast<uint32_t>(random.next()));
      break;
    case 6:
      b = f32Near(random, a, 40);
      break;
    default:
      b = floatBits(static_cast<float>(random.below(512)) * 0.5f);
      break;
    }
    uint32_t c;
    switch (r % 5) {
    case 0: { // cancels a * b (nearly): -(a * b) rounded, give or take an ulp
      const double product = static_cast<double>(asFloat(a)) * static_cast<double>(asFloat(b));
      c = floatBits(-static_cast<float>(product)) + static_cast<uint32_t>(random.below(3)) - 1u;
      break;
    }
    case 1:
      c = specials[random.below(specialCount)];
      break;
    case 2: {
      const uint32_t exponent = ((a >> 23) & 0xff) + ((b >> 23) & 0xff);
      const uint32_t e = exponent > 127 + 254 ? 254 : (exponent < 127 ? 0 : exponent - 127);
      c = f32Near(random, f32Bits(0, e, 0), 2);
      break;
    }
    case 3:
      c = 0;
      break;
    default:
      c = static_cast<uint32_t>(random.next());
      break;
    }
    uint64_t* row = &words[size_t{r} * kWordsPerRow];
    row[0] = a;
    row[1] = b;
    row[2] = c;
    row[3] = random.next() & 0xffffffffu;
  }
  // The last rows: every pair of specials.
  uint32_t r = rows - specialCount * specialCount;
  for (uint32_t i = 0; i < specialCount; ++i)
    for (uint32_t j = 0; j < specialCount; ++j, ++r) {
      words[size_t{r} * kWordsPerRow] = specials[i];
      words[size_t{r} * kWordsPerRow + 1] = specials[j];
      words[size_t{r} * kWordsPerRow + 2] = specials[(i + j) % specialCount];
    }
  return words;
}

inline uint64_t f64Near(Random& random, uint64_t a, uint32_t spread) {
  const int exponent = static_cast<int>((a >> 52) & 0x7ff) +
                       static_cast<int>(random.below(2 * spread + 1)) - static_cast<int>(spread);
  const uint64_t e = exponent < 0 ? 0 : (exponent > 2046 ? 2046 : static_cast<uint64_t>(exponent));
  return f64Bits(random.next() & 1, e, random.next());
}

inline std::vector<uint64_t> f64Rows() {
  const uint32_t rows = 16384;
  std::vector<uint64_t> words(size_t{rows} * kWordsPerRow);
  Random random(0x5eed0f64);
  const auto& specials = f64Specials();
  const auto specialCount = static_cast<uint32_t>(specials.size());
  std::vector<uint64_t> first(specials.begin(), specials.end());
  for (uint64_t exponent = 0; exponent < 2048; ++exponent)
    for (uint64_t sign = 0; sign < 2; ++sign) {
      first.push_back(f64Bits(sign, exponent, 0));
      first.push_back(f64Bits(sign, exponent, random.next()));
      first.push_back(f64Bits(sign, exponent, random.next()));
    }
  while (first.size() < rows)
    first.push_back(random.next());
  for (uint32_t r = 0; r < rows; ++r) {
    const uint64_t a = first[r];
    uint64_t b;
    switch (r % 6) {
    case 0:
      b = specials[random.below(specialCount)];
      break;
    case 1:
    case 2:
      b = f64Near(random, a, 3);
      break;
    case 3:
      b = random.next();
      break;
    case 4:
      b = f64Near(random, a, 60);
      break;
    default:
      b = f64Bits(random.next() & 1, 0, random.next());
      break;
    }
    uint64_t c;
    switch (r % 4) {
    case 0: { // nearly cancels a * b: the product rounded to float precision, negated
      const double product = asDouble(a) * asDouble(b);
      c = doubleBits(-product) + random.below(3) - 1u;
      break;
    }
    case 1:
      c = specials[random.below(specialCount)];
      break;
    case 2:
      c = f64Near(random, a, 30);
      break;
    default:
      c = random.next();
      break;
    }
    uint64_t* row = &words[size_t{r} * kWordsPerRow];
    row[0] = a;
    row[1] = b;
    row[2] = c;
    row[3] = random.next();
  }
  uint32_t r = rows - specialCount * specialCount;
  for (uint32_t i = 0; i < specialCount; ++i)
    for (uint32_t j = 0; j < specialCount; ++j, ++r) {
      words[size_t{r} * kWordsPerRow] = specials[i];
      words[size_t{r} * kWordsPerRow + 1] = specials[j];
      words[size_t{r} * kWordsPerRow + 2] = specials[(i * 7 + j) % specialCount];
    }
  return words;
}

/// Word 0 is every 16-bit pattern once; words 1-3 are random patterns.
inline std::vector<uint64_t> h16Rows() {
  const uint32_t rows = 65536;
  std::vector<uint64_t> words(size_t{rows} * kWordsPerRow);
  Random random(0x5eed0f16);
  for (uint32_t r = 0; r < rows; ++r) {
    uint64_t* row = &words[size_t{r} * kWordsPerRow];
    row[0] = r;
    for (uint32_t i = 1; i < kWordsPerRow; ++i)
      row[i] = random.next() & 0xffff;
  }
  return words;
}

inline std::vector<uint64_t> i32Rows() {
  const uint32_t rows = 16384;
  std::vector<uint64_t> words(size_t{rows} * kWordsPerRow);
  Random random(0x5eed0132);
  const auto& edges = integerEdges();
  const auto edgeCount = static_cast<uint32_t>(edges.size());
  for (uint32_t r = 0; r < rows; ++r) {
    uint64_t* row = &words[size_t{r} * kWordsPerRow];
    for (uint32_t i = 0; i < kWordsPerRow; ++i)
      row[i] = integerWord(random);
    if (r < edgeCount * edgeCount) { // every pair of edges, small third and fourth words
      row[0] = (random.next() << 32) | edges[r / edgeCount];
      row[1] = (random.next() << 32) | edges[r % edgeCount];
      row[2] = random.below(40);
      row[3] = random.below(40);
    }
  }
  return words;
}

inline std::vector<uint64_t> i64Rows() {
  const uint32_t rows = 16384;
  std::vector<uint64_t> words(size_t{rows} * kWordsPerRow);
  Random random(0x5eed0164);
  const auto& edges = integer64Edges();
  const auto edgeCount = static_cast<uint32_t>(edges.size());
  for (uint32_t r = 0; r < rows; ++r) {
    uint64_t* row = &words[size_t{r} * kWordsPerRow];
    for (uint32_t i = 0; i < kWordsPerRow; ++i)
      row[i] = integer64Word(random);
    if (r < edgeCount * edgeCount) {
      row[0] = edges[r / edgeCount];
      row[1] = edges[r % edgeCount];
      row[2] = random.below(80);
      row[3] = random.below(80);
    }
  }
  return words;
}

/// The rows of a group by name ("f32", "f64", "h16", "i32", "i64"); empty for other names.
inline std::vector<uint64_t> rowsOf(const std::string& group) {
  if (group == "f32")
    return f32Rows();
  if (group == "f64")
    return f64Rows();
  if (group == "h16")
    return h16Rows();
  if (group == "i32")
    return i32Rows();
  if (group == "i64")
    return i64Rows();
  return {};
}

/// FNV-1a over the rows: the table records it, so a changed generator is detected.
inline uint64_t rowsHash(const std::vector<uint64_t>& words) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (uint64_t word : words)
    for (int i = 0; i < 8; ++i) {
      hash ^= (word >> (8 * i)) & 0xff;
      hash *= 0x100000001b3ull;
    }
  return hash;
}

} // namespace ocelot::sweep
