// cvt between every pair of integer and floating-point types (f16, bf16, f32, f64), with the
// rounding modes, .ftz and .sat, and the packing forms cvt.rn{.relu}.{f16x2,bf16x2}.f32 d, a, b.
// One handler per (destination, source) pair, so the common integer widenings are plain loops.

#include "runtime/cpu/FloatSemantics.h"
#include "runtime/cpu/HalfPrecision.h"
#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/LaneValues.h"

#include <cmath>
#include <limits>

namespace ocelot::runtime::cpu {
namespace {

enum class Kind : uint8_t { S8, U8, S16, U16, S32, U32, S64, U64, F16, BF16, F32, F64 };

constexpr bool isFloat(Kind k) {
  return k >= Kind::F16;
}
constexpr bool isSigned(Kind k) {
  return k == Kind::S8 || k == Kind::S16 || k == Kind::S32 || k == Kind::S64;
}
constexpr uint32_t bits(Kind k) {
  switch (k) {
  case Kind::S8:
  case Kind::U8:
    return 8;
  case Kind::S16:
  case Kind::U16:
  case Kind::F16:
  case Kind::BF16:
    return 16;
  case Kind::S32:
  case Kind::U32:
  case Kind::F32:
    return 32;
  default:
    return 64;
  }
}

enum ConversionFlags : uint32_t { kSat = 1, kFtz = 2, kIntegerRounding = 4, kRelu = 8 };

/// A source float as double (exact for every source format).
template <Kind K> double readFloat(uint64_t row, bool ftz) {
  if constexpr (K == Kind::F16)
    return halfToFloat(static_cast<uint16_t>(row));
  else if constexpr (K == Kind::BF16)
    return bfloat16ToFloat(static_cast<uint16_t>(row));
  else if constexpr (K == Kind::F32) {
    float value = std::bit_cast<float>(static_cast<uint32_t>(row));
    return ftz ? flushSubnormal(value) : value;
  } else
    return std::bit_cast<double>(row);
}

double roundIntegral(double value, RoundingMode mode) {
  switch (mode) {
  case RoundingMode::TowardZero:
    return std::trunc(value);
  case RoundingMode::Down:
    return std::floor(value);
  case RoundingMode::Up:
    return std::ceil(value);
  case RoundingMode::NearestAway:
    return std::round(value);
  default:
    return std::nearbyint(value); // the default environment rounds to nearest even
  }
}

template <Kind K> uint64_t writeFloat(double value, RoundingMode mode, uint32_t flags) {
  if (flags & kSat)
    value = saturate(value);
  if ((flags & kRelu) && !(value > 0.0)) // -0.0 becomes +0.0 too
    value = std::isnan(value) ? value : 0.0;
  if constexpr (K == Kind::F16)
    return doubleToHalf(value, mode);
  else if constexpr (K == Kind::BF16)
    return doubleToBfloat16(value, mode);
  else if constexpr (K == Kind::F32) {
    float result = canonical(doubleToFloat(value, mode));
    if (flags & kFtz)
      result = flushSubnormal(result);
    return std::bit_cast<uint32_t>(result);
  } else
    return std::bit_cast<uint64_t>(std::isnan(value) ? quieted(value) : value);
}

/// A NaN converted between floating-point formats, as the GPU does it: from binary64 the sign and
/// the leading payload bits survive (made quiet); bfloat16 widens by a plain shift; binary32 to
/// binary64 keeps the payload, quieted (with .ftz: the canonical NaN, widened); every other
/// conversion gives the canonical NaN.
template <Kind D, Kind S> uint64_t convertNan(uint64_t row, uint32_t flags) {
  if constexpr (D == Kind::F64 && S == Kind::F32) {
    if (flags & kFtz) // the flushing form canonicalizes first
      return 0x7fffffffe0000000ull;
  }
  if constexpr (S == Kind::F64 && D != Kind::F64) {
    const uint64_t sign = row >> 63, payload = row & 0xfffffffffffffull;
    if constexpr (D == Kind::F32)
      return (sign << 31) | 0x7fc00000u | (payload >> 29);
    else if constexpr (D == Kind::F16)
      return (sign << 15) | 0x7e00u | (payload >> 42);
    else
      return (sign << 15) | 0x7fc0u | (payload >> 45);
  } else if constexpr (S == Kind::BF16 && D == Kind::F32) {
    return (row & 0xffff) << 16;
  } else if constexpr (D == Kind::F64) {
    return std::bit_cast<uint64_t>(quieted(readFloat<S>(row, false)));
  } else if constexpr (D == Kind::F32) {
    return 0x7fffffffu;
  } else {
    return 0x7fffu;
  }
}

template <Kind K> int64_t minOf() {
  // From the unsigned all-ones: negating 2^63 overflows int64_t for the 64-bit kinds.
  return isSigned(K) ? static_cast<int64_t>(~uint64_t{0} << (bits(K) - 1)) : 0;
}
template <Kind K> uint64_t maxOf() {
  if constexpr (isSigned(K))
    return (uint64_t{1} << (bits(K) - 1)) - 1;
  else
    return bits(K) == 64 ? ~uint64_t{0} : (uint64_t{1} << bits(K)) - 1;
}

/// Row bits of an integer of kind K from a (sign-extended or zero-extended) 64-bit value.
template <Kind K> uint64_t integerRow(uint64_t value) {
  if constexpr (bits(K) == 64)
    return value;
  else if constexpr (isSigned(K)) {
    const uint32_t shift = 64 - bits(K);
    return static_cast<uint64_t>(static_cast<int64_t>(value << shift) >> shift);
  } else
    return value & ((uint64_t{1} << bits(K)) - 1);
}

template <Kind D, Kind S> uint64_t convert(uint64_t row, RoundingMode mode, uint32_t flags) {
  if constexpr (!isFloat(S) && !isFloat(D)) {
    // Integer to integer: read the source with its signedness, then truncate or clamp.
    const uint64_t source = integerRow<S>(row);
    if (flags & kSat) {
      if constexpr (isSigned(S)) {
        const auto v = static_cast<int64_t>(source);
        if (v < minOf<D>())
          return integerRow<D>(static_cast<uint64_t>(minOf<D>()));
        if (v > 0 && static_cast<uint64_t>(v) > maxOf<D>())
          return integerRow<D>(maxOf<D>());
      } else if (source > maxOf<D>()) {
        return integerRow<D>(maxOf<D>());
      }
    }
    return integerRow<D>(source);
  } else if constexpr (isFloat(S) && !isFloat(D)) {
    // Float to integer: round, out of range saturates (always, in PTX). NaN gives 0, except
    // into 64-bit integers and from binary64 into 32-bit ones, where the GPU gives the most
    // negative signed value's bit pattern; and cvt.rni.s16.f64, which the H200 sweep shows giving
    // 0x8000 where the other roundings into s16 give 0.
    const double value = roundIntegral(readFloat<S>(row, flags & kFtz), mode);
    if (std::isnan(value)) {
      if constexpr (bits(D) == 64 || (bits(D) == 32 && S == Kind::F64))
        return integerRow<D>(uint64_t{1} << (bits(D) - 1));
      if constexpr (D == Kind::S16 && S == Kind::F64)
        if (mode == RoundingMode::NearestEven)
          return integerRow<D>(uint64_t{1} << 15);
      return 0;
    }
    if (value <= static_cast<double>(minOf<D>()))
      return integerRow<D>(static_cast<uint64_t>(minOf<D>()));
    if (value >= static_cast<double>(maxOf<D>()))
      return integerRow<D>(maxOf<D>());
    if constexpr (isSigned(D))
      return integerRow<D>(static_cast<uint64_t>(static_cast<int64_t>(value)));
    else
      return integerRow<D>(static_cast<uint64_t>(value));
  } else if constexpr (!isFloat(S) && isFloat(D)) {
    const uint64_t source = integerRow<S>(row);
    bool negative = false;
    uint64_t magnitude = source;
    if constexpr (isSigned(S)) {
      negative = static_cast<int64_t>(source) < 0;
      magnitude = negative ? 0 - source : source;
    }
    constexpr FloatFormat format = D == Kind::F16    ? FloatFormat::Half
                                   : D == Kind::BF16 ? FloatFormat::Bfloat16
                                   : D == Kind::F32  ? FloatFormat::Single
                                                     : FloatFormat::Double;
    uint64_t result = integerToFloatBits(negative, magnitude, format, mode);
    if (flags & kSat) {
      const double value = readFloat<D>(result, false);
      result = writeFloat<D>(saturate(value), RoundingMode::NearestEven, 0);
    }
    return result;
  } else {
    double value = readFloat<S>(row, flags & kFtz);
    if (std::isnan(value) && !(flags & kSat))
      return convertNan<D, S>(row, flags);
    if (flags & kIntegerRounding)
      value = roundIntegral(value, mode);
    return writeFloat<D>(value, mode, flags);
  }
}

template <Kind D, Kind S>
bool executeConvert(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const auto mode = static_cast<RoundingMode>(in.aux);
  const uint32_t flags = in.aux2;
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) { return convert<D, S>(a[l], mode, flags); });
  return true;
}

/// cvt.rn{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a goes to the upper half.
template <Kind D>
bool executePackPair(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const auto mode = static_cast<RoundingMode>(in.aux);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    const uint64_t high = writeFloat<D>(readFloat<Kind::F32>(a[l], false), mode, in.aux2);
    const uint64_t low = writeFloat<D>(readFloat<Kind::F32>(b[l], false), mode, in.aux2);
    return (high << 16) | low;
  });
  return true;
}

/// cvt.{rn,rna,rz}{.satfinite}.tf32.f32: binary32 rounded to tf32's 10 mantissa bits, kept in a
/// binary32 container (what wmma/mma read as tf32).
bool executeToTf32(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const auto mode = static_cast<RoundingMode>(in.aux);
  const bool satfinite = (in.aux2 & kSat) != 0;
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) -> uint64_t {
    float value = std::bit_cast<float>(static_cast<uint32_t>(a[l]));
    // .rna keeps a NaN's sign and payload, cut to tf32's bits (0x7f800001 becomes 0x7f800000), as
    // the H200 sweep shows; the other roundings give the canonical NaN.
    if (std::isnan(value))
      return mode == RoundingMode::NearestAway && !satfinite ? (a[l] & 0xffffe000u) : 0x7fffffffu;
    uint32_t bits = floatToTf32(value, mode);
    if (satfinite && std::isinf(std::bit_cast<float>(bits)))
      bits = (bits & 0x80000000u) | 0x7f7fe000u; // the largest finite tf32
    return bits;
  });
  return true;
}

std::optional<Kind> kindOf(ir::ScalarType type) {
  using T = ir::ScalarType;
  switch (type) {
  case T::S8:
    return Kind::S8;
  case T::U8:
  case T::B8:
    return Kind::U8;
  case T::S16:
    return Kind::S16;
  case T::U16:
  case T::B16:
    return Kind::U16;
  case T::S32:
    return Kind::S32;
  case T::U32:
  case T::B32:
    return Kind::U32;
  case T::S64:
    return Kind::S64;
  case T::U64:
  case T::B64:
    return Kind::U64;
  case T::F16:
    return Kind::F16;
  case T::BF16:
    return Kind::BF16;
  case T::F32:
    return Kind::F32;
  case T::F64:
    return Kind::F64;
  default:
    return std::nullopt;
  }
}

template <Kind D> ExecuteFn bySource(Kind s) {
  switch (s) {
  case Kind::S8:
    return &executeConvert<D, Kind::S8>;
  case Kind::U8:
    return &executeConvert<D, Kind::U8>;
  case Kind::S16:
    return &executeConvert<D, Kind::S16>;
  case Kind::U16:
    return &executeConvert<D, Kind::U16>;
  case Kind::S32:
    return &executeConvert<D, Kind::S32>;
  case Kind::U32:
    return &executeConvert<D, Kind::U32>;
  case Kind::S64:
    return &executeConvert<D, Kind::S64>;
  case Kind::U64:
    return &executeConvert<D, Kind::U64>;
  case Kind::F16:
    return &executeConvert<D, Kind::F16>;
  case Kind::BF16:
    return &executeConvert<D, Kind::BF16>;
  case Kind::F32:
    return &executeConvert<D, Kind::F32>;
  case Kind::F64:
    return &executeConvert<D, Kind::F64>;
  }
  return nullptr;
}

ExecuteFn select(Kind d, Kind s) {
  switch (d) {
  case Kind::S8:
    return bySource<Kind::S8>(s);
  case Kind::U8:
    return bySource<Kind::U8>(s);
  case Kind::S16:
    return bySource<Kind::S16>(s);
  case Kind::U16:
    return bySource<Kind::U16>(s);
  case Kind::S32:
    return bySource<Kind::S32>(s);
  case Kind::U32:
    return bySource<Kind::U32>(s);
  case Kind::S64:
    return bySource<Kind::S64>(s);
  case Kind::U64:
    return bySource<Kind::U64>(s);
  case Kind::F16:
    return bySource<Kind::F16>(s);
  case Kind::BF16:
    return bySource<Kind::BF16>(s);
  case Kind::F32:
    return bySource<Kind::F32>(s);
  case Kind::F64:
    return bySource<Kind::F64>(s);
  }
  return nullptr;
}

} // namespace

bool decodeConversion(DecodeContext& c) {
  const auto destinationType = c.firstType();
  const auto sourceType = c.type();
  if (!destinationType || !sourceType)
    return c.fail("cvt needs two types");
  uint32_t flags = 0;
  if (c.has("sat") || c.has("satfinite"))
    flags |= kSat;
  if (c.has("ftz"))
    flags |= kFtz;
  if (c.hasIntegerRounding())
    flags |= kIntegerRounding;
  if (c.has("relu"))
    flags |= kRelu;
  c.out.aux = static_cast<uint32_t>(c.rounding(RoundingMode::NearestEven));
  if (*destinationType == ir::ScalarType::F16x2 || *destinationType == ir::ScalarType::BF16x2) {
    if (*sourceType != ir::ScalarType::F32 || !c.expectOperands(3))
      return c.unsupported("packing conversion");
    // satfinite on packing forms clamps to the finite range, not [0, 1].
    c.out.aux2 = flags & (kRelu | kFtz);
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, ir::ScalarType::F32);
    c.out.op[2] = c.source(2, ir::ScalarType::F32);
    c.out.execute = *destinationType == ir::ScalarType::F16x2 ? &executePackPair<Kind::F16>
                                                              : &executePackPair<Kind::BF16>;
    return c.ok();
  }
  if (*destinationType == ir::ScalarType::TF32) {
    if (*sourceType != ir::ScalarType::F32 || !c.expectOperands(2))
      return c.unsupported("conversion to tf32 from a type other than f32");
    c.out.aux2 = flags & kSat;
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, ir::ScalarType::B32);
    c.out.execute = &executeToTf32;
    return c.ok();
  }
  const auto d = kindOf(*destinationType), s = kindOf(*sourceType);
  if (!d || !s)
    return c.unsupported("conversion types");
  if (!c.expectOperands(2))
    return false;
  // cvt.f32.f32 without a rounding modifier only flushes/saturates; .rni etc. round to integers.
  if (isFloat(*d) && isFloat(*s) && !c.hasRounding())
    c.out.aux = static_cast<uint32_t>(RoundingMode::NearestEven);
  c.out.aux2 = flags;
  c.out.op[0] = c.destination(0);
  c.out.op[1] = c.source(1, *sourceType);
  c.out.execute = select(*d, *s);
  return c.ok();
}

} // namespace ocelot::runtime::cpu
