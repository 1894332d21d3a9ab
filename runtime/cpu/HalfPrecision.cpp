#include "runtime/cpu/HalfPrecision.h"

#include <bit>
#include <cmath>

namespace ocelot::runtime::cpu {
namespace {

/// A binary floating-point format with an implicit leading bit.
struct Format {
  int mantissaBits;
  int exponentBits;
  int bias() const { return (1 << (exponentBits - 1)) - 1; }
  int minExponent() const { return 1 - bias(); }
  int maxBiased() const { return (1 << exponentBits) - 1; }
};

constexpr Format kHalf{10, 5};
constexpr Format kBfloat16{7, 8};
constexpr Format kFloat{23, 8};
constexpr Format kDouble{52, 11};

/// The bits (without sign) of sign * significand * 2^exponent rounded to `format`. The significand
/// is any non-zero integer; the rounding is exact (one step, from the exact value).
uint64_t roundMagnitude(bool negative, uint64_t significand, int exponent, Format format,
                        RoundingMode mode) {
  const int length = 64 - std::countl_zero(significand);
  const int leading = exponent + length - 1; // floor(log2(value))
  // The weight of the last mantissa bit: normal numbers keep mantissaBits bits after the leading
  // one; below the normal range the weight stops at the subnormal quantum.
  const int quantum =
      std::max(leading - format.mantissaBits, format.minExponent() - format.mantissaBits);
  const int shift = quantum - exponent;
  uint64_t rounded = 0;
  if (shift <= 0) {
    rounded = significand << -shift; // exact (shift is small here: the value has few bits)
  } else {
    uint64_t kept = shift >= 64 ? 0 : significand >> shift;
    const uint64_t remainder =
        shift >= 64 ? significand : significand & ((uint64_t{1} << shift) - 1);
    const bool inexact = remainder != 0;
    bool roundUp = false;
    if (inexact) {
      // remainder compared with half a unit of the kept part.
      int comparison = 0;
      if (shift > 64) {
        comparison = -1;
      } else {
        const uint64_t half = uint64_t{1} << (shift - 1);
        comparison = remainder > half ? 1 : (remainder == half ? 0 : -1);
      }
      switch (mode) {
      case RoundingMode::NearestEven:
        roundUp = comparison > 0 || (comparison == 0 && (kept & 1) != 0);
        break;
      case RoundingMode::NearestAway:
        roundUp = comparison >= 0;
        break;
      case RoundingMode::TowardZero:
        break;
      case RoundingMode::Up:
        roundUp = !negative;
        break;
      case RoundingMode::Down:
        roundUp = negative;
        break;
      }
    }
    rounded = kept + (roundUp ? 1 : 0);
  }
  const uint64_t implicit = uint64_t{1} << format.mantissaBits;
  const uint64_t infinity = static_cast<uint64_t>(format.maxBiased()) << format.mantissaBits;
  const uint64_t maxFinite = infinity - 1;
  if (rounded < implicit)
    return rounded; // subnormal (or zero)
  int biased = quantum + format.mantissaBits + format.bias();
  if (rounded >= 2 * implicit) { // rounding carried into the next binade
    rounded >>= 1;
    ++biased;
  }
  if (biased >= format.maxBiased()) {
    // Overflow: to infinity unless the direction rounds toward zero for this sign.
    const bool toInfinity =
        mode == RoundingMode::NearestEven || mode == RoundingMode::NearestAway ||
        (mode == RoundingMode::Up && !negative) || (mode == RoundingMode::Down && negative);
    return toInfinity ? infinity : maxFinite;
  }
  return (static_cast<uint64_t>(biased) << format.mantissaBits) | (rounded - implicit);
}

template <int SourceMantissa, int SourceBias>
uint64_t convert(uint64_t bits, int sourceExponentBits, Format format, RoundingMode mode,
                 uint64_t canonicalNan) {
  const int totalBits = 1 + sourceExponentBits + SourceMantissa;
  const bool negative = (bits >> (totalBits - 1)) & 1;
  const uint64_t signBit = uint64_t{negative}
                           << (1 + format.exponentBits + format.mantissaBits - 1);
  const uint64_t exponentField =
      (bits >> SourceMantissa) & ((uint64_t{1} << sourceExponentBits) - 1);
  const uint64_t mantissa = bits & ((uint64_t{1} << SourceMantissa) - 1);
  const uint64_t infinity = static_cast<uint64_t>(format.maxBiased()) << format.mantissaBits;
  if (exponentField == (uint64_t{1} << sourceExponentBits) - 1)
    return mantissa != 0 ? canonicalNan : (signBit | infinity);
  if (exponentField == 0 && mantissa == 0)
    return signBit;
  const uint64_t significand =
      exponentField == 0 ? mantissa : (mantissa | (uint64_t{1} << SourceMantissa));
  const int exponent =
      (exponentField == 0 ? 1 : static_cast<int>(exponentField)) - SourceBias - SourceMantissa;
  return signBit | roundMagnitude(negative, significand, exponent, format, mode);
}

uint64_t fromFloat(float value, Format format, RoundingMode mode, uint64_t nan) {
  return convert<23, 127>(std::bit_cast<uint32_t>(value), 8, format, mode, nan);
}

uint64_t fromDouble(double value, Format format, RoundingMode mode, uint64_t nan) {
  return convert<52, 1023>(std::bit_cast<uint64_t>(value), 11, format, mode, nan);
}

} // namespace

uint16_t floatToHalf(float value, RoundingMode mode) {
  return static_cast<uint16_t>(fromFloat(value, kHalf, mode, 0x7fff));
}

uint16_t doubleToHalf(double value, RoundingMode mode) {
  return static_cast<uint16_t>(fromDouble(value, kHalf, mode, 0x7fff));
}

uint16_t floatToBfloat16(float value, RoundingMode mode) {
  return static_cast<uint16_t>(fromFloat(value, kBfloat16, mode, 0x7fff));
}

uint16_t doubleToBfloat16(double value, RoundingMode mode) {
  return static_cast<uint16_t>(fromDouble(value, kBfloat16, mode, 0x7fff));
}

uint32_t floatToTf32(float value, RoundingMode mode) {
  // tf32 has binary32's exponent range and 10 mantissa bits: round, then widen back.
  constexpr Format kTf32{10, 8};
  const uint64_t bits = fromFloat(value, kTf32, mode, 0x7ffff);
  return static_cast<uint32_t>(bits << 13);
}

float doubleToFloat(double value, RoundingMode mode) {
  if (mode == RoundingMode::NearestEven)
    return static_cast<float>(value);
  return std::bit_cast<float>(static_cast<uint32_t>(fromDouble(value, kFloat, mode, 0x7fffffff)));
}

double roundToOdd(double x, double error) {
  if (error == 0 || !std::isfinite(x))
    return x;
  // The exact value lies strictly between x and its neighbour toward `error`. Truncation (toward
  // zero) picks the neighbour of smaller magnitude; of the two, the odd one is the answer.
  uint64_t bits = std::bit_cast<uint64_t>(x);
  const bool towardZero =
      std::signbit(error) != std::signbit(x);        // exact value smaller in magnitude
  uint64_t truncated = towardZero ? bits - 1 : bits; // magnitude order follows the bit pattern
  if ((truncated & 1) == 0)
    truncated += 1; // the other neighbour (one ulp larger in magnitude) is odd
  return std::bit_cast<double>(truncated);
}

namespace {

/// Knuth's two-sum: s + e == a + b exactly (round-to-nearest arithmetic).
double twoSum(double a, double b, double* error) {
  const double s = a + b;
  const double bVirtual = s - a;
  const double aVirtual = s - bVirtual;
  *error = (a - aVirtual) + (b - bVirtual);
  return s;
}

} // namespace

double addToOdd(double a, double b) {
  double error = 0;
  const double sum = twoSum(a, b, &error);
  return roundToOdd(sum, error);
}

double fmaToOdd(double a, double b, double c) {
  return addToOdd(a * b, c);
}

uint64_t integerToFloatBits(bool negative, uint64_t magnitude, FloatFormat format,
                            RoundingMode mode) {
  const Format formats[] = {kHalf, kBfloat16, kFloat, kDouble};
  const Format& target = formats[static_cast<int>(format)];
  const uint64_t signBit = uint64_t{negative} << (target.exponentBits + target.mantissaBits);
  if (magnitude == 0)
    return 0; // +0.0 (integer zero has no sign)
  return signBit | roundMagnitude(negative, magnitude, 0, target, mode);
}

float halfToFloat(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0x1f)
    return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    if (mantissa == 0)
      return std::bit_cast<float>(sign);
    // Subnormal half: normalize into a binary32 normal number.
    int shift = std::countl_zero(mantissa) - 21; // bring the leading one to bit 10
    mantissa = (mantissa << shift) & 0x3ff;
    const uint32_t floatExponent = static_cast<uint32_t>(127 - 15 + 1 - shift);
    return std::bit_cast<float>(sign | (floatExponent << 23) | (mantissa << 13));
  }
  return std::bit_cast<float>(sign | ((exponent + 127 - 15) << 23) | (mantissa << 13));
}

float bfloat16ToFloat(uint16_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

} // namespace ocelot::runtime::cpu
