#include "runtime/cpu/ImmediateValues.h"

#include "runtime/cpu/HalfPrecision.h"

#include <bit>
#include <cstdlib>
#include <string>

namespace ocelot::runtime::cpu {
namespace {

/// The literal's value as a double (for float targets).
double floatValue(const ir::ImmediateOperand& immediate) {
  using Format = ir::ImmediateOperand::Format;
  double value = 0;
  switch (immediate.format) {
  case Format::Float32Bits:
    value = std::bit_cast<float>(static_cast<uint32_t>(immediate.magnitude));
    break;
  case Format::Float64Bits:
    value = std::bit_cast<double>(immediate.magnitude);
    break;
  case Format::DecimalFloat:
    value = std::strtod(std::string(immediate.text).c_str(), nullptr);
    break;
  default:
    value = static_cast<double>(immediate.magnitude);
    break;
  }
  return immediate.negative ? -value : value;
}

} // namespace

uint32_t scalarTypeBytes(ir::ScalarType type) {
  const unsigned bits = ir::scalarTypeBits(type);
  return bits <= 8 ? 1u : bits / 8;
}

std::optional<uint64_t> immediateBits(const ir::ImmediateOperand& immediate, ir::ScalarType type) {
  using Format = ir::ImmediateOperand::Format;
  using T = ir::ScalarType;
  const bool isFloatLiteral = immediate.isFloat();
  switch (type) {
  case T::F32: {
    if (immediate.format == Format::Float32Bits && !immediate.negative)
      return immediate.magnitude & 0xffffffffu;
    return std::bit_cast<uint32_t>(static_cast<float>(floatValue(immediate)));
  }
  case T::F64: {
    if (immediate.format == Format::Float64Bits && !immediate.negative)
      return immediate.magnitude;
    return std::bit_cast<uint64_t>(floatValue(immediate));
  }
  case T::F16:
  case T::BF16: {
    if (!isFloatLiteral)
      return static_cast<uint64_t>(immediate.integerValue()) & 0xffffu;
    const float value = static_cast<float>(floatValue(immediate));
    return type == T::F16 ? floatToHalf(value, RoundingMode::NearestEven)
                          : floatToBfloat16(value, RoundingMode::NearestEven);
  }
  case T::Pred:
    if (isFloatLiteral)
      return std::nullopt;
    return immediate.magnitude != 0 ? 1 : 0;
  default:
    break;
  }
  if (isFloatLiteral) {
    // `0f3F800000` given to a .b32 operand is its bit pattern.
    if (immediate.format == Format::Float32Bits || immediate.format == Format::Float64Bits)
      return immediate.negative ? uint64_t{0} - immediate.magnitude : immediate.magnitude;
    return std::nullopt;
  }
  const unsigned bits = ir::scalarTypeBits(type);
  uint64_t value = static_cast<uint64_t>(immediate.integerValue());
  if (bits < 64 && bits > 0) {
    // Keep signed values sign-extended (narrower registers are read back truncated, and signed
    // reads of the full row then see the right value).
    if (ir::isSignedIntegerType(type)) {
      const unsigned shift = 64 - bits;
      value = static_cast<uint64_t>(static_cast<int64_t>(value << shift) >> shift);
    } else {
      value &= (uint64_t{1} << bits) - 1;
    }
  }
  return value;
}

} // namespace ocelot::runtime::cpu
