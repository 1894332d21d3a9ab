// Single and double precision: add, sub, mul, fma/mad, div, rcp, sqrt, rsqrt, sin, cos, lg2,
// ex2, tanh, abs, neg, min, max, copysign, testp. IEEE operations use the host's arithmetic, with
// the rounding direction of .rz/.rm/.rp set in the floating-point environment around the lane
// loop (this file is compiled with -frounding-math so the compiler keeps the operations inside).
// .approx operations use the host's correctly rounded (or nearly) functions, which stay within the
// error bounds PTX gives.

#include "runtime/cpu/FloatSemantics.h"
#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/LaneValues.h"

#include <cfenv>
#include <cmath>

namespace ocelot::runtime::cpu {
namespace {

enum FloatOp : uint32_t {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMin,
  kMax,
  kCopySign, // binary
  kRcp,
  kSqrt,
  kRsqrt,
  kSin,
  kCos,
  kLg2,
  kEx2,
  kTanh, // unary
  kAbs,
  kNeg,
  kFma, // ternary
};

enum FloatFlags : uint32_t {
  kFlagFtz = 1u << 0,
  kFlagSat = 1u << 1,
  kFlagNanPropagating = 1u << 2, ///< min/max.NaN
  kFlagXorSign = 1u << 3,        ///< min/max.xorsign.abs
};

/// Sets the host rounding direction for the lifetime of the scope (nothing for round-to-nearest).
class RoundingScope {
public:
  explicit RoundingScope(RoundingMode mode) {
    int direction = FE_TONEAREST;
    switch (mode) {
    case RoundingMode::TowardZero:
      direction = FE_TOWARDZERO;
      break;
    case RoundingMode::Down:
      direction = FE_DOWNWARD;
      break;
    case RoundingMode::Up:
      direction = FE_UPWARD;
      break;
    default:
      return;
    }
    previous_ = std::fegetround();
    std::fesetround(direction);
    active_ = true;
  }
  ~RoundingScope() {
    if (active_)
      std::fesetround(previous_);
  }
  RoundingScope(const RoundingScope&) = delete;
  RoundingScope& operator=(const RoundingScope&) = delete;

private:
  int previous_ = FE_TONEAREST;
  bool active_ = false;
};

template <class T, bool Ftz> T input(const uint64_t* row, uint32_t lane) {
  const T value = laneValue<T>(row, lane);
  if constexpr (Ftz) {
    if (std::fpclassify(value) == FP_SUBNORMAL)
      return std::copysign(T{0}, value);
  }
  return value;
}

template <class T, bool Ftz, bool Sat> uint64_t output(T value) {
  if constexpr (Ftz) {
    if (std::fpclassify(value) == FP_SUBNORMAL)
      value = std::copysign(T{0}, value);
  }
  if constexpr (Sat)
    value = saturate(value);
  return rowBits(canonical(value));
}

/// min/max with the GPU's rules: a NaN operand is ignored (unless .NaN), -0.0 < +0.0.
template <class T> T minMax(T a, T b, bool isMax, uint32_t flags) {
  if (flags & kFlagXorSign) {
    const bool negative = std::signbit(a) != std::signbit(b);
    T magnitude = minMax(std::fabs(a), std::fabs(b), isMax, flags & kFlagNanPropagating);
    return std::isnan(magnitude) ? magnitude : std::copysign(magnitude, negative ? T{-1} : T{1});
  }
  const bool aNan = std::isnan(a), bNan = std::isnan(b);
  if (aNan || bNan) {
    if ((flags & kFlagNanPropagating) || (aNan && bNan))
      return std::numeric_limits<T>::quiet_NaN();
    return aNan ? b : a;
  }
  if (a == b) // equal values, possibly zeros of different signs
    return isMax ? (std::signbit(a) ? b : a) : (std::signbit(a) ? a : b);
  return isMax ? (a > b ? a : b) : (a < b ? a : b);
}

template <class T, bool Ftz, bool Sat>
bool executeBinary(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  uint64_t* d = c.row(in.op[0]);
  RoundingScope rounding(static_cast<RoundingMode>(in.imm));
  auto x = [&](uint32_t l) { return input<T, Ftz>(a, l); };
  auto y = [&](uint32_t l) { return input<T, Ftz>(b, l); };
  switch (in.aux) {
  case kAdd:
    writeLanes(m, d, [&](uint32_t l) { return output<T, Ftz, Sat>(x(l) + y(l)); });
    break;
  case kSub:
    writeLanes(m, d, [&](uint32_t l) { return output<T, Ftz, Sat>(x(l) - y(l)); });
    break;
  case kMul:
    writeLanes(m, d, [&](uint32_t l) { return output<T, Ftz, Sat>(x(l) * y(l)); });
    break;
  case kDiv:
    writeLanes(m, d, [&](uint32_t l) { return output<T, Ftz, Sat>(x(l) / y(l)); });
    break;
  case kMin:
  case kMax: {
    const bool isMax = in.aux == kMax;
    writeLanes(m, d, [&](uint32_t l) {
      return output<T, Ftz, false>(minMax(x(l), y(l), isMax, in.aux2));
    });
    break;
  }
  case kCopySign: // copysign d, a, b: b's magnitude with a's sign
    writeLanes(m, d, [&](uint32_t l) { return rowBits(std::copysign(y(l), x(l))); });
    break;
  default:
    return c.fail(FaultKind::IllegalInstruction, 0);
  }
  return true;
}

template <class T, bool Ftz, bool Sat>
bool executeUnary(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  uint64_t* d = c.row(in.op[0]);
  RoundingScope rounding(static_cast<RoundingMode>(in.imm));
  auto x = [&](uint32_t l) { return input<T, Ftz>(a, l); };
  auto unary = [&](auto&& f) {
    writeLanes(m, d, [&](uint32_t l) { return output<T, Ftz, Sat>(f(x(l))); });
  };
  switch (in.aux) {
  case kRcp:
    unary([](T v) { return T{1} / v; });
    break;
  case kSqrt:
    unary([](T v) { return std::sqrt(v); });
    break;
  case kRsqrt:
    unary([](T v) { return T{1} / std::sqrt(v); });
    break;
  case kSin:
    unary([](T v) { return std::sin(v); });
    break;
  case kCos:
    unary([](T v) { return std::cos(v); });
    break;
  case kLg2:
    unary([](T v) { return std::log2(v); });
    break;
  case kEx2:
    unary([](T v) { return std::exp2(v); });
    break;
  case kTanh:
    unary([](T v) { return std::tanh(v); });
    break;
  case kAbs: // bit operations: NaN payloads are kept, no canonicalization
    writeLanes(m, d, [&](uint32_t l) { return rowBits(std::fabs(x(l))); });
    break;
  case kNeg:
    writeLanes(m, d, [&](uint32_t l) { return rowBits(-x(l)); });
    break;
  default:
    return c.fail(FaultKind::IllegalInstruction, 0);
  }
  return true;
}

template <class T, bool Ftz, bool Sat>
bool executeFma(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const uint64_t* addend = c.row(in.op[3]);
  RoundingScope rounding(static_cast<RoundingMode>(in.imm));
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    return output<T, Ftz, Sat>(
        std::fma(input<T, Ftz>(a, l), input<T, Ftz>(b, l), input<T, Ftz>(addend, l)));
  });
  return true;
}

enum TestProperty : uint32_t { kFinite, kInfinite, kNumber, kNotANumber, kNormal, kSubnormal };

template <class T>
bool executeTestp(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const LaneMask result = testLanes(m, [&](uint32_t l) {
    const T value = laneValue<T>(a, l);
    switch (in.aux) {
    case kFinite:
      return std::isfinite(value);
    case kInfinite:
      return std::isinf(value);
    case kNumber:
      return !std::isnan(value);
    case kNotANumber:
      return std::isnan(value);
    case kNormal:
      return std::isnormal(value);
    default:
      return std::fpclassify(value) == FP_SUBNORMAL;
    }
  });
  writePredicate(c, in.op[0], m, result);
  return true;
}

/// The instantiation for (T, ftz, sat).
template <template <class, bool, bool> class H, class T> ExecuteFn select(bool ftz, bool sat) {
  if (ftz)
    return sat ? &H<T, true, true>::run : &H<T, true, false>::run;
  return sat ? &H<T, false, true>::run : &H<T, false, false>::run;
}

template <class T, bool F, bool S> struct Binary {
  static bool run(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
    return executeBinary<T, F, S>(c, in, m);
  }
};
template <class T, bool F, bool S> struct Unary {
  static bool run(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
    return executeUnary<T, F, S>(c, in, m);
  }
};
template <class T, bool F, bool S> struct Fma {
  static bool run(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
    return executeFma<T, F, S>(c, in, m);
  }
};

template <template <class, bool, bool> class H>
ExecuteFn selectByType(ir::ScalarType type, bool ftz, bool sat) {
  return type == ir::ScalarType::F64 ? select<H, double>(ftz, sat) : select<H, float>(ftz, sat);
}

std::optional<FloatOp> floatOp(ir::Opcode opcode) {
  using Op = ir::Opcode;
  switch (opcode) {
  case Op::Add:
    return kAdd;
  case Op::Sub:
    return kSub;
  case Op::Mul:
    return kMul;
  case Op::Div:
    return kDiv;
  case Op::Min:
    return kMin;
  case Op::Max:
    return kMax;
  case Op::Copysign:
    return kCopySign;
  case Op::Rcp:
    return kRcp;
  case Op::Sqrt:
    return kSqrt;
  case Op::Rsqrt:
    return kRsqrt;
  case Op::Sin:
    return kSin;
  case Op::Cos:
    return kCos;
  case Op::Lg2:
    return kLg2;
  case Op::Ex2:
    return kEx2;
  case Op::Tanh:
    return kTanh;
  case Op::Abs:
    return kAbs;
  case Op::Neg:
    return kNeg;
  case Op::Fma:
  case Op::Mad:
    return kFma;
  default:
    return std::nullopt;
  }
}

} // namespace

bool decodeFloatArithmetic(DecodeContext& c) {
  const auto type = c.type();
  if (!type || (*type != ir::ScalarType::F32 && *type != ir::ScalarType::F64))
    return c.unsupported("type");
  if (c.opcode() == ir::Opcode::Testp) {
    static constexpr std::pair<std::string_view, TestProperty> kProperties[] = {
        {"finite", kFinite},         {"infinite", kInfinite}, {"number", kNumber},
        {"notanumber", kNotANumber}, {"normal", kNormal},     {"subnormal", kSubnormal}};
    bool found = false;
    for (const auto& [name, property] : kProperties)
      if (c.has(name)) {
        c.out.aux = property;
        found = true;
      }
    if (!found || !c.expectOperands(2))
      return c.fail("testp needs a property and two operands");
    c.out.op[0] = c.predicateDestination(0);
    c.out.op[1] = c.source(1, *type);
    c.out.execute = *type == ir::ScalarType::F64 ? &executeTestp<double> : &executeTestp<float>;
    return c.ok();
  }

  auto op = floatOp(c.opcode());
  if (!op)
    return c.unsupported();
  const bool ftz = c.has("ftz"), sat = c.has("sat");
  c.out.imm = static_cast<int64_t>(c.rounding(RoundingMode::NearestEven));
  c.out.aux = *op;
  if (*op == kMin || *op == kMax)
    c.out.aux2 = (c.has("NaN") ? kFlagNanPropagating : 0u) | (c.has("xorsign") ? kFlagXorSign : 0u);
  if (*op == kFma) {
    if (!c.expectOperands(4))
      return false;
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, *type);
    c.out.op[2] = c.source(2, *type);
    c.out.op[3] = c.source(3, *type);
    c.out.execute = selectByType<Fma>(*type, ftz, sat);
    return c.ok();
  }
  if (*op >= kRcp) {
    if (!c.expectOperands(2))
      return false;
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, *type);
    c.out.execute = selectByType<Unary>(*type, ftz, sat);
    return c.ok();
  }
  if (c.operandCount() == 4 && (*op == kMin || *op == kMax))
    return c.unsupported("three-input min/max");
  if (!c.expectOperands(3))
    return false;
  c.out.op[0] = c.destination(0);
  c.out.op[1] = c.source(1, *type);
  c.out.op[2] = c.source(2, *type);
  c.out.execute = selectByType<Binary>(*type, ftz, sat);
  return c.ok();
}

} // namespace ocelot::runtime::cpu
