#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace ocelot::runtime::cpu {

/// PTX floating-point details the host's IEEE arithmetic does not give by itself.

/// .ftz: a subnormal input or result becomes a zero of the same sign.
inline float flushSubnormal(float value) {
  return std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(0.0f, value) : value;
}

/// The NaN every single-precision operation of the GPU produces.
inline float canonicalNan() {
  return std::bit_cast<float>(0x7fffffffu);
}

/// .sat: clamps to [0.0, 1.0]; NaN becomes 0.0.
inline float saturate(float value) {
  if (std::isnan(value))
    return 0.0f;
  return value < 0.0f ? 0.0f : (value > 1.0f ? 1.0f : value);
}
inline double saturate(double value) {
  if (std::isnan(value))
    return 0.0;
  return value < 0.0 ? 0.0 : (value > 1.0 ? 1.0 : value);
}

/// Results of single-precision arithmetic: NaNs canonicalized as on the GPU.
inline float canonical(float value) {
  return std::isnan(value) ? canonicalNan() : value;
}
inline double canonical(double value) {
  return std::isnan(value) ? std::bit_cast<double>(0x7fffffffffffffffull) : value;
}

} // namespace ocelot::runtime::cpu
