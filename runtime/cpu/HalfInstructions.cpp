// Half precision (.f16, .f16x2) and bfloat16 (.bf16, .bf16x2): add, sub, mul, fma, neg, abs, min,
// max, ex2.approx, tanh.approx. Every result is the exact value rounded once: sums and products of
// 16-bit values are computed in binary64 with an exact error term and rounded to odd, which makes
// the final rounding to 16 bits correct (see roundToOdd).

#include "runtime/cpu/HalfPrecision.h"
#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/LaneValues.h"

#include <cmath>

namespace ocelot::runtime::cpu {
namespace {

enum HalfOp : uint32_t { kAdd, kSub, kMul, kFma, kNeg, kAbs, kMin, kMax, kEx2, kTanh };
enum HalfFlags : uint32_t {
  kFtz = 1,
  kSat = 2,
  kNan = 4,
  kNegateProduct = 8, ///< a contracted `s - p`: fma(-a, b, s)
  kNegateAddend = 16, ///< a contracted `p - s`: fma(a, b, -s)
};

template <bool Bf16> double widen(uint16_t bits) {
  return Bf16 ? bfloat16ToFloat(bits) : halfToFloat(bits);
}

template <bool Bf16> uint16_t narrow(double value, RoundingMode mode) {
  return Bf16 ? doubleToBfloat16(value, mode) : doubleToHalf(value, mode);
}

template <bool Bf16> bool isSubnormal(uint16_t bits) {
  const uint16_t exponentMask = Bf16 ? 0x7f80 : 0x7c00;
  return (bits & exponentMask) == 0 && (bits & ~exponentMask & 0x7fff) != 0;
}

template <bool Bf16> bool isNan(uint16_t bits) {
  const uint16_t exponentMask = Bf16 ? 0x7f80 : 0x7c00;
  return (bits & exponentMask) == exponentMask && (bits & ~exponentMask & 0x7fff) != 0;
}

/// One 16-bit lane of the operation.
template <bool Bf16>
uint16_t apply(uint32_t op, uint32_t flags, RoundingMode mode, uint16_t a, uint16_t b, uint16_t c) {
  if (flags & kFtz) {
    auto flush = [](uint16_t v) { return isSubnormal<Bf16>(v) ? uint16_t(v & 0x8000) : v; };
    a = flush(a);
    b = flush(b);
    c = flush(c);
  }
  uint16_t result = 0;
  switch (op) {
  case kNeg: // a NaN becomes the canonical NaN (measured on the GPU for neg.f16)
    return isNan<Bf16>(a) ? uint16_t{0x7fff} : static_cast<uint16_t>(a ^ 0x8000);
  case kAbs:
    return isNan<Bf16>(a) ? uint16_t{0x7fff} : static_cast<uint16_t>(a & 0x7fff);
  case kMin:
  case kMax: {
    const bool aNan = isNan<Bf16>(a), bNan = isNan<Bf16>(b);
    if (aNan || bNan) {
      if ((flags & kNan) || (aNan && bNan))
        return 0x7fff;
      return aNan ? b : a;
    }
    const double x = widen<Bf16>(a), y = widen<Bf16>(b);
    if (x == y) // zeros of either sign: -0 is the smaller
      result = (op == kMax) == static_cast<bool>(a & 0x8000) ? b : a;
    else
      result = (op == kMax) == (x > y) ? a : b;
    return result;
  }
  case kAdd:
    result = narrow<Bf16>(addToOdd(widen<Bf16>(a), widen<Bf16>(b)), mode);
    break;
  case kSub:
    result = narrow<Bf16>(addToOdd(widen<Bf16>(a), -widen<Bf16>(b)), mode);
    break;
  case kMul:
    result = narrow<Bf16>(widen<Bf16>(a) * widen<Bf16>(b), mode); // exact in binary64
    break;
  case kFma: {
    const double product = (flags & kNegateProduct) ? -widen<Bf16>(a) : widen<Bf16>(a);
    const double addend = (flags & kNegateAddend) ? -widen<Bf16>(c) : widen<Bf16>(c);
    result = narrow<Bf16>(fmaToOdd(product, widen<Bf16>(b), addend), mode);
    break;
  } break;
  case kEx2:
    result = narrow<Bf16>(std::exp2(static_cast<float>(widen<Bf16>(a))), RoundingMode::NearestEven);
    break;
  case kTanh:
    result = narrow<Bf16>(std::tanh(static_cast<float>(widen<Bf16>(a))), RoundingMode::NearestEven);
    break;
  default:
    break;
  }
  if (flags & kFtz)
    if (isSubnormal<Bf16>(result))
      result &= 0x8000;
  if (flags & kSat) {
    if (isNan<Bf16>(result) || (result & 0x8000))
      result = 0; // NaN and negative values (and -0.0) become +0.0
    else if (widen<Bf16>(result) > 1.0)
      result = Bf16 ? 0x3f80 : 0x3c00;
  }
  return result;
}

template <bool Bf16, bool Pair>
bool executeHalf(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = in.op[2] != kNone ? c.row(in.op[2]) : a;
  const uint64_t* cc = in.op[3] != kNone ? c.row(in.op[3]) : a;
  const auto mode = static_cast<RoundingMode>(in.imm);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) -> uint64_t {
    const uint64_t low = apply<Bf16>(in.aux, in.aux2, mode, static_cast<uint16_t>(a[l]),
                                     static_cast<uint16_t>(b[l]), static_cast<uint16_t>(cc[l]));
    if constexpr (!Pair)
      return low;
    const uint64_t high =
        apply<Bf16>(in.aux, in.aux2, mode, static_cast<uint16_t>(a[l] >> 16),
                    static_cast<uint16_t>(b[l] >> 16), static_cast<uint16_t>(cc[l] >> 16));
    return low | (high << 16);
  });
  return true;
}

using HalfExecute = bool (*)(ExecutionContext&, const DecodedInstruction&, LaneMask);

HalfExecute halfExecutor(ir::ScalarType type) {
  using T = ir::ScalarType;
  const bool bf16 = type == T::BF16 || type == T::BF16x2;
  const bool pair = type == T::F16x2 || type == T::BF16x2;
  return bf16 ? (pair ? &executeHalf<true, true> : &executeHalf<true, false>)
              : (pair ? &executeHalf<false, true> : &executeHalf<false, false>);
}

std::optional<HalfOp> halfOp(ir::Opcode opcode) {
  using Op = ir::Opcode;
  switch (opcode) {
  case Op::Add:
    return kAdd;
  case Op::Sub:
    return kSub;
  case Op::Mul:
    return kMul;
  case Op::Fma:
  case Op::Mad:
    return kFma;
  case Op::Neg:
    return kNeg;
  case Op::Abs:
    return kAbs;
  case Op::Min:
    return kMin;
  case Op::Max:
    return kMax;
  case Op::Ex2:
    return kEx2;
  case Op::Tanh:
    return kTanh;
  default:
    return std::nullopt;
  }
}

} // namespace

bool decodeContractedHalfAdd(DecodeContext& c, const ir::Instruction& multiply,
                             size_t productOperand) {
  const auto type = c.type();
  if (!type || c.operandCount() != 3 || multiply.operands().size() != 3)
    return c.fail("contraction of an unexpected add");
  using T = ir::ScalarType;
  const T registerType = *type == T::F16x2 || *type == T::BF16x2 ? T::B32 : T::B16;
  c.out.aux = kFma;
  const bool subtract = c.opcode() == ir::Opcode::Sub;
  c.out.aux2 = (c.has("ftz") ? kFtz : 0u) | (c.has("sat") ? kSat : 0u) |
               (subtract ? (productOperand == 1 ? kNegateAddend : kNegateProduct) : 0u);
  c.out.imm = static_cast<int64_t>(RoundingMode::NearestEven);
  c.out.op[0] = c.destination(0);
  c.out.op[1] = c.operands.source(multiply.operands()[1], registerType);
  c.out.op[2] = c.operands.source(multiply.operands()[2], registerType);
  c.out.op[3] = c.source(productOperand == 1 ? 2 : 1, registerType);
  c.out.execute = halfExecutor(*type);
  return c.ok();
}

bool decodeHalfArithmetic(DecodeContext& c) {
  const auto type = c.type();
  using T = ir::ScalarType;
  if (!type)
    return c.fail("no type");
  const bool pair = *type == T::F16x2 || *type == T::BF16x2;
  const auto op = halfOp(c.opcode());
  if (!op)
    return c.unsupported();
  c.out.aux = *op;
  if (c.has("relu") || c.has("xorsign"))
    return c.unsupported(".relu/.xorsign on 16-bit floats");
  const T registerType = pair ? T::B32 : T::B16;
  c.out.aux2 = (c.has("ftz") ? kFtz : 0u) | (c.has("sat") ? kSat : 0u) | (c.has("NaN") ? kNan : 0u);
  c.out.imm = static_cast<int64_t>(c.rounding(RoundingMode::NearestEven));
  const size_t sources = c.out.aux == kFma                                               ? 3
                         : (c.out.aux >= kNeg && c.out.aux != kMin && c.out.aux != kMax) ? 1
                                                                                         : 2;
  if (!c.expectOperands(sources + 1))
    return false;
  c.out.op[0] = c.destination(0);
  for (size_t i = 1; i <= sources; ++i)
    c.out.op[i] = c.source(i, registerType);
  c.out.execute = halfExecutor(*type);
  return c.ok();
}

} // namespace ocelot::runtime::cpu
