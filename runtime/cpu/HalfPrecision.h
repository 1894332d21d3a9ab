#pragma once

#include <cstdint>

namespace ocelot::runtime::cpu {

/// IEEE rounding directions of PTX's .rn/.rz/.rm/.rp (and .rna, nearest with ties away).
enum class RoundingMode : uint8_t { NearestEven, TowardZero, Down, Up, NearestAway };

/// Conversions between binary32/binary64 and the 16-bit formats, exact for every input and every
/// rounding mode (done in integer arithmetic, not through the host's floating point). NaN inputs
/// give the canonical NaN the GPU produces (0x7fff for both 16-bit formats).
uint16_t floatToHalf(float value, RoundingMode mode);
uint16_t doubleToHalf(double value, RoundingMode mode);
uint16_t floatToBfloat16(float value, RoundingMode mode);
uint16_t doubleToBfloat16(double value, RoundingMode mode);
/// binary32 rounded to tf32 (10 mantissa bits), kept in a binary32 container.
uint32_t floatToTf32(float value, RoundingMode mode);
float halfToFloat(uint16_t bits);
float bfloat16ToFloat(uint16_t bits);

/// The exact value of x + error, where |error| is below half an ulp of x (the error term of an
/// exact two-sum), rounded to binary64 "to odd": an inexact result gets an odd last bit. Rounding
/// that value once more to any format with at least two bits less precision gives the correctly
/// rounded result of the exact value, whatever the rounding mode.
double roundToOdd(double x, double error);
/// a + b + c... exactly: (a * b) + c with a product that is exact in binary64 (16-bit inputs),
/// rounded to odd (see roundToOdd).
double fmaToOdd(double a, double b, double c);
double addToOdd(double a, double b);

/// The binary floating-point formats conversions produce.
enum class FloatFormat : uint8_t { Half, Bfloat16, Single, Double };

/// An integer (sign and magnitude) rounded to `format`: the bits of the result (binary16/bfloat16
/// in the low 16 bits, binary32 in the low 32).
uint64_t integerToFloatBits(bool negative, uint64_t magnitude, FloatFormat format,
                            RoundingMode mode);

/// Rounds a binary64 value to binary32 with `mode` (the host rounds to nearest only unless its
/// floating-point environment is changed; this never touches it).
float doubleToFloat(double value, RoundingMode mode);

} // namespace ocelot::runtime::cpu
