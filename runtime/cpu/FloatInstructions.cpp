// Single and double precision: add, sub, mul, fma/mad, div, rcp, sqrt, rsqrt, sin, cos, lg2,
// ex2, tanh, abs, neg, min, max, copysign, testp.
//
// IEEE operations (.rn/.rz/.rm/.rp) use the host's arithmetic, with the rounding direction set in
// the floating-point environment around the lane loop; they match the GPU bit for bit, including
// what the host does not give by itself (measured with the instruction sweep, tests/cpu/sweep):
// single-precision NaN results are the canonical 0x7fffffff, double precision keeps the payload of
// a NaN operand (which operand wins depends on the operation), .ftz flushes results that are tiny
// before rounding, and .sat turns -0.0 into +0.0.
//
// .approx operations run on the GPU's special function unit, whose approximations are not
// documented: here they compute the exact function and round once, within the error bounds the
// PTX ISA states, with the GPU's special values and range reduction (div.approx is a * 1/b with
// 1/b flushed when subnormal; sin/cos reduce x * 1/2pi rounded toward zero; the f64 forms with
// .ftz see and give only the high 32 bits). docs/cpu-backend.md lists the remaining differences.

#include "runtime/cpu/FloatSemantics.h"
#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/LaneValues.h"

#include <cfenv>
#include <cmath>
#include <numbers>

namespace ocelot::runtime::cpu {
namespace {

enum FloatOp : uint32_t {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kDivApprox,
  kDivFull,
  kMin,
  kMax,
  kCopySign, // binary
  kRcp,
  kRcpApprox,
  kSqrt,
  kSqrtApprox,
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
  if constexpr (Ftz)
    return flushSubnormal(value);
  return value;
}

/// No more precise result is known: .ftz flushes only subnormal results.
constexpr double kNoExact = std::numeric_limits<double>::quiet_NaN();

/// The row bits of a result: `exact` is the same result with more precision (binary64), which
/// .ftz needs to see tininess before rounding.
template <class T, bool Ftz, bool Sat> uint64_t output(T value, double exact) {
  if constexpr (std::is_same_v<T, float>) {
    if constexpr (Ftz)
      value = flushTiny(value, exact);
    if constexpr (Sat)
      value = saturate(value);
    return rowBits(canonical(value));
  } else {
    (void)exact;
    if constexpr (Sat)
      value = saturate(value);
    return rowBits(value);
  }
}

/// A double-precision NaN result carries the payload of the first NaN among the operands in the
/// order the GPU checks them; without a NaN operand it is the default NaN of the invalid operation.
inline double nanFrom(double result, double first, double second) {
  if (!std::isnan(result))
    return result;
  if (std::isnan(first))
    return quieted(first);
  if (std::isnan(second))
    return quieted(second);
  return result;
}

/// min/max with the GPU's rules: a NaN operand is ignored (unless .NaN), -0.0 < +0.0; two NaNs
/// give the canonical NaN (single) or the second operand's, quieted (double).
template <class T> T minMax(T a, T b, bool isMax, uint32_t flags) {
  if (flags & kFlagXorSign) {
    const bool negative = std::signbit(a) != std::signbit(b);
    T magnitude = minMax(std::fabs(a), std::fabs(b), isMax, flags & kFlagNanPropagating);
    return std::isnan(magnitude) ? magnitude : std::copysign(magnitude, negative ? T{-1} : T{1});
  }
  const bool aNan = std::isnan(a), bNan = std::isnan(b);
  if (aNan || bNan) {
    if ((flags & kFlagNanPropagating) || (aNan && bNan)) {
      if constexpr (std::is_same_v<T, double>)
        return quieted(bNan ? b : a);
      return std::numeric_limits<T>::quiet_NaN();
    }
    return aNan ? b : a;
  }
  if (a == b) // equal values, possibly zeros of different signs
    return isMax ? (std::signbit(a) ? b : a) : (std::signbit(a) ? a : b);
  return isMax ? (a > b ? a : b) : (a < b ? a : b);
}

/// 1/b as div.approx uses it: the special function unit's reciprocal flushes subnormal results, so
/// a quotient by |b| >= 2^126 is 0 (and inf / such b is NaN).
inline float flushedReciprocal(float b) {
  return flushSubnormal(1.0f / b);
}

/// div.approx.f32: a * (1/b). Without .ftz a subnormal divisor is scaled into the normal range
/// first, as the GPU's instruction sequence does.
template <bool Ftz> float approximateQuotient(float a, float b) {
  if constexpr (!Ftz) {
    if (std::fpclassify(b) == FP_SUBNORMAL)
      return (a * flushedReciprocal(b * 0x1p24f)) * 0x1p24f;
  }
  return a * flushedReciprocal(b);
}

template <class T, bool Ftz, bool Sat>
bool executeBinary(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  uint64_t* d = c.row(in.op[0]);
  RoundingScope rounding(static_cast<RoundingMode>(in.imm));
  constexpr bool kDouble = std::is_same_v<T, double>;
  auto x = [&](uint32_t l) { return input<T, Ftz>(a, l); };
  auto y = [&](uint32_t l) { return input<T, Ftz>(b, l); };
  // The exact binary64 value (only .ftz single precision looks at it).
  auto wide = [](auto f) { return Ftz && !kDouble ? f() : kNoExact; };
  switch (in.aux) {
  case kAdd:
    writeLanes(m, d, [&](uint32_t l) {
      const T p = x(l), q = y(l);
      T r = p + q;
      if constexpr (kDouble)
        r = nanFrom(r, q, p);
      return output<T, Ftz, Sat>(r, wide([&] { return double{p} + double{q}; }));
    });
    break;
  case kSub:
    writeLanes(m, d, [&](uint32_t l) {
      const T p = x(l), q = y(l);
      T r = p - q;
      if constexpr (kDouble)
        r = nanFrom(r, q, p);
      return output<T, Ftz, Sat>(r, wide([&] { return double{p} - double{q}; }));
    });
    break;
  case kMul:
    writeLanes(m, d, [&](uint32_t l) {
      const T p = x(l), q = y(l);
      T r = p * q;
      if constexpr (kDouble)
        r = nanFrom(r, q, p);
      return output<T, Ftz, Sat>(r, wide([&] { return double{p} * double{q}; }));
    });
    break;
  case kDiv:
  case kDivFull:
    writeLanes(m, d, [&](uint32_t l) {
      const T p = x(l), q = y(l);
      T r = p / q;
      if constexpr (kDouble)
        r = nanFrom(r, p, q);
      return output<T, Ftz, Sat>(r, wide([&] { return double{p} / double{q}; }));
    });
    break;
  case kDivApprox:
    if constexpr (!kDouble) {
      writeLanes(m, d, [&](uint32_t l) {
        const float p = x(l), q = y(l);
        return output<T, Ftz, Sat>(approximateQuotient<Ftz>(p, q),
                                   wide([&] { return double{p} * flushedReciprocal(q); }));
      });
      break;
    }
    return c.fail(FaultKind::IllegalInstruction, 0);
  case kMin:
  case kMax: {
    const bool isMax = in.aux == kMax;
    writeLanes(m, d, [&](uint32_t l) {
      return output<T, Ftz, false>(minMax(x(l), y(l), isMax, in.aux2), kNoExact);
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

/// x / 2pi as sin.approx/cos.approx reduce it: one single-precision multiply rounded toward zero,
/// so large arguments lose the fraction of a turn exactly as on the GPU.
inline float turns(float x) {
  constexpr float kInverseTwoPi = 0x1.45f306p-3f;
  const double product = double{x} * double{kInverseTwoPi}; // exact
  float rounded = static_cast<float>(product);
  if (std::fabs(double{rounded}) > std::fabs(product))
    rounded = std::nextafter(rounded, 0.0f);
  return rounded;
}

template <bool Sine> float approximateSinCos(float x) {
  x = flushSubnormal(x); // the unit flushes its input with or without .ftz
  if (std::isinf(x))
    return canonicalNan();
  const float t = turns(x);
  const double fraction = double{t} - std::floor(double{t});
  const double angle = 2 * std::numbers::pi * fraction;
  if constexpr (Sine) {
    const auto s = static_cast<float>(std::sin(angle));
    return s == 0.0f ? std::copysign(0.0f, x) : s;
  } else {
    return static_cast<float>(std::cos(angle));
  }
}

/// rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64: the unit reads the high 32 bits of the operand
/// (a subnormal one as zero) and returns a result whose low 32 bits are zero.
template <bool Root> double highWordApproximation(double x) {
  const uint64_t high = std::bit_cast<uint64_t>(x) & 0xffffffff00000000ull;
  const double operand = flushSubnormal(std::bit_cast<double>(high));
  double result = Root ? 1.0 / std::sqrt(operand) : 1.0 / operand;
  if (std::isnan(result))
    return std::bit_cast<double>(0x7fffffff00000000ull);
  result = flushSubnormal(result);
  return std::bit_cast<double>(std::bit_cast<uint64_t>(result) & 0xffffffff00000000ull);
}

template <class T, bool Ftz, bool Sat>
bool executeUnary(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  uint64_t* d = c.row(in.op[0]);
  RoundingScope rounding(static_cast<RoundingMode>(in.imm));
  constexpr bool kDouble = std::is_same_v<T, double>;
  auto x = [&](uint32_t l) { return input<T, Ftz>(a, l); };
  // f(value) -> result; exact(value) -> the binary64 result .ftz looks at.
  auto unary = [&](auto&& f, auto&& exact) {
    writeLanes(m, d, [&](uint32_t l) {
      const T v = x(l);
      T r = f(v);
      if constexpr (kDouble)
        r = nanFrom(r, v, v);
      return output<T, Ftz, Sat>(r, Ftz && !kDouble ? exact(v) : kNoExact);
    });
  };
  auto none = [](T) { return kNoExact; };
  switch (in.aux) {
  case kRcp:
    unary([](T v) { return T{1} / v; }, [](T v) { return 1.0 / double{v}; });
    break;
  case kRcpApprox:
    if constexpr (kDouble) {
      writeLanes(m, d, [&](uint32_t l) {
        return rowBits(highWordApproximation<false>(laneValue<double>(a, l)));
      });
    } else {
      unary([](T v) { return T{1} / v; }, [](T v) { return 1.0 / double{v}; });
    }
    break;
  case kSqrt:
  case kSqrtApprox:
    unary([](T v) { return std::sqrt(v); }, none);
    break;
  case kRsqrt:
    if constexpr (kDouble) {
      if (in.aux2 & kFlagFtz) {
        writeLanes(m, d, [&](uint32_t l) {
          return rowBits(highWordApproximation<true>(laneValue<double>(a, l)));
        });
      } else {
        unary([](T v) { return static_cast<T>(1.0L / std::sqrt(static_cast<long double>(v))); },
              none);
      }
    } else {
      unary([](T v) { return static_cast<T>(1.0 / std::sqrt(double{v})); }, none);
    }
    break;
  case kSin:
    unary([](T v) { return static_cast<T>(approximateSinCos<true>(static_cast<float>(v))); }, none);
    break;
  case kCos:
    unary([](T v) { return static_cast<T>(approximateSinCos<false>(static_cast<float>(v))); },
          none);
    break;
  case kLg2:
    unary([](T v) { return static_cast<T>(std::log2(static_cast<double>(v))); }, none);
    break;
  case kEx2:
    unary([](T v) { return static_cast<T>(std::exp2(static_cast<double>(v))); },
          [](T v) { return std::exp2(static_cast<double>(v)); });
    break;
  case kTanh:
    unary([](T v) { return static_cast<T>(std::tanh(static_cast<double>(v))); }, none);
    break;
  case kAbs: // single precision: NaN becomes the canonical NaN; double: the NaN, quieted
    writeLanes(m, d, [&](uint32_t l) {
      const T v = x(l);
      if constexpr (kDouble)
        return rowBits(std::isnan(v) ? quieted(v) : std::fabs(v));
      else
        return rowBits(canonical(std::fabs(v)));
    });
    break;
  case kNeg:
    writeLanes(m, d, [&](uint32_t l) {
      const T v = x(l);
      if constexpr (kDouble)
        return rowBits(std::isnan(v) ? quieted(v) : -v);
      else
        return rowBits(canonical(-v));
    });
    break;
  default:
    return c.fail(FaultKind::IllegalInstruction, 0);
  }
  return true;
}

/// Signs of a contracted `s - p` / `p - s` (a template argument: plain fma pays nothing).
enum FmaSigns : uint32_t { kNegateProduct = 1, kNegateAddend = 2 };

template <class T, bool Ftz, bool Sat, uint32_t Signs = 0>
bool executeFma(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const uint64_t* addend = c.row(in.op[3]);
  RoundingScope rounding(static_cast<RoundingMode>(in.imm));
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    T p = input<T, Ftz>(a, l), s = input<T, Ftz>(addend, l);
    const T q = input<T, Ftz>(b, l);
    if constexpr ((Signs & kNegateProduct) != 0)
      p = -p;
    if constexpr ((Signs & kNegateAddend) != 0)
      s = -s;
    T r = std::fma(p, q, s);
    if constexpr (std::is_same_v<T, double>) {
      // The GPU keeps the payload of b, then c, then a.
      if (std::isnan(r))
        r = std::isnan(q) ? quieted(q) : nanFrom(r, s, p);
      return output<T, Ftz, Sat>(r, kNoExact);
    } else {
      return output<T, Ftz, Sat>(r, Ftz ? std::fma(double{p}, double{q}, double{s}) : kNoExact);
    }
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
    case kNormal: // the GPU counts zeros as normal (measured with the instruction sweep)
      return std::isnormal(value) || value == T{0};
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
template <class T, bool F, bool S> struct FmaNegatedProduct {
  static bool run(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
    return executeFma<T, F, S, kNegateProduct>(c, in, m);
  }
};
template <class T, bool F, bool S> struct FmaNegatedAddend {
  static bool run(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
    return executeFma<T, F, S, kNegateAddend>(c, in, m);
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

bool decodeContractedAdd(DecodeContext& c, const ir::Instruction& multiply, size_t productOperand) {
  const auto type = c.type();
  if (type && *type != ir::ScalarType::F32 && *type != ir::ScalarType::F64)
    return decodeContractedHalfAdd(c, multiply, productOperand);
  if (!type || c.operandCount() != 3 || multiply.operands().size() != 3)
    return c.fail("contraction of an unexpected add");
  const bool subtract = c.opcode() == ir::Opcode::Sub;
  // add d, p, s / add d, s, p: fma(a, b, s); sub d, p, s: fma(a, b, -s); sub d, s, p: fma(-a, b, s)
  c.out.aux = kFma;
  c.out.imm = static_cast<int64_t>(RoundingMode::NearestEven);
  c.out.op[0] = c.destination(0);
  c.out.op[1] = c.operands.source(multiply.operands()[1], *type);
  c.out.op[2] = c.operands.source(multiply.operands()[2], *type);
  c.out.op[3] = c.source(productOperand == 1 ? 2 : 1, *type);
  const bool ftz = c.has("ftz"), sat = c.has("sat");
  c.out.execute = !subtract             ? selectByType<Fma>(*type, ftz, sat)
                  : productOperand == 1 ? selectByType<FmaNegatedAddend>(*type, ftz, sat)
                                        : selectByType<FmaNegatedProduct>(*type, ftz, sat);
  return c.ok();
}

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
  // The approximate forms (only .approx, or .full for div) are separate operations.
  if (c.has("approx")) {
    if (*op == kRcp)
      op = kRcpApprox;
    else if (*op == kSqrt)
      op = kSqrtApprox;
    else if (*op == kDiv)
      op = kDivApprox;
  } else if (c.has("full") && *op == kDiv) {
    op = kDivFull;
  }
  if (*type == ir::ScalarType::F64 && (*op == kDivApprox || *op == kSin || *op == kCos ||
                                       *op == kLg2 || *op == kEx2 || *op == kTanh))
    return c.unsupported("approximate double-precision form");
  const bool ftz = c.has("ftz"), sat = c.has("sat");
  c.out.imm = static_cast<int64_t>(c.rounding(RoundingMode::NearestEven));
  c.out.aux = *op;
  if (*op == kMin || *op == kMax)
    c.out.aux2 = (c.has("NaN") ? kFlagNanPropagating : 0u) | (c.has("xorsign") ? kFlagXorSign : 0u);
  if (*op == kRsqrt)
    c.out.aux2 = ftz ? kFlagFtz : 0u;
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
    // The f64 approximations read their own high word: .ftz selects them, not input flushing.
    const bool flushInputs = ftz && *type != ir::ScalarType::F64;
    c.out.execute = selectByType<Unary>(*type, flushInputs, sat);
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
