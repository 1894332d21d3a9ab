#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace ocelot::runtime::cpu {

/// PTX floating-point details the host's IEEE arithmetic does not give by itself. What the GPU
/// does (NaN encodings, where flushing happens, which NaN operand survives) was measured with the
/// instruction sweep (tests/cpu/sweep) on an H200; docs/cpu-backend.md summarizes it.

/// .ftz: a subnormal input or result becomes a zero of the same sign.
inline float flushSubnormal(float value) {
  return std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(0.0f, value) : value;
}
inline double flushSubnormal(double value) {
  return std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(0.0, value) : value;
}

/// The NaN every single-precision operation of the GPU produces.
inline float canonicalNan() {
  return std::bit_cast<float>(0x7fffffffu);
}

/// .sat: clamps to [+0.0, 1.0]; NaN and -0.0 become +0.0.
inline float saturate(float value) {
  return value > 0.0f ? (value > 1.0f ? 1.0f : value) : 0.0f;
}
inline double saturate(double value) {
  return value > 0.0 ? (value > 1.0 ? 1.0 : value) : 0.0;
}

/// Results of single-precision arithmetic: NaNs canonicalized as on the GPU.
inline float canonical(float value) {
  return std::isnan(value) ? canonicalNan() : value;
}

/// Double precision keeps NaN payloads: an operation with a NaN operand returns that NaN made
/// quiet (an invalid operation returns the host's default NaN, 0xfff8000000000000, as the GPU).
inline double quieted(double value) {
  return std::bit_cast<double>(std::bit_cast<uint64_t>(value) | 0x0008000000000000ull);
}

/// .ftz on a single-precision result detects tininess before rounding: a result that rounds up
/// to the smallest normal number from below is flushed too. `exact` is the result computed with
/// more precision (binary64).
inline float flushTiny(float rounded, double exact) {
  constexpr float kMin = std::numeric_limits<float>::min();
  if (std::fpclassify(rounded) == FP_SUBNORMAL ||
      (std::fabs(rounded) == kMin && std::fabs(exact) < static_cast<double>(kMin)))
    return std::copysign(0.0f, rounded);
  return rounded;
}

} // namespace ocelot::runtime::cpu
