// The semantics shared by instructions: float rounding, flushing and NaNs, comparisons,
// conversions and integer operations.

#include "runtime/cpu/llvm/Translator.h"

#include <llvm/IR/Intrinsics.h>

namespace ocelot::runtime::cpu::native::translation {

llvm::Value* Translator::flush(llvm::Value* value, unsigned bits) {
  // .ftz: a subnormal becomes a zero of the same sign.
  llvm::Type* element = bits == 64 ? b_.getDoubleTy() : b_.getFloatTy();
  const double smallest = bits == 64 ? 2.2250738585072014e-308 : 1.17549435082228750797e-38;
  llvm::Value* magnitude = b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, value);
  llvm::Value* tiny = b_.CreateFCmpOLT(magnitude, splat(llvm::ConstantFP::get(element, smallest)));
  llvm::Value* zero = b_.CreateBinaryIntrinsic(
      llvm::Intrinsic::copysign, llvm::Constant::getNullValue(value->getType()), value);
  return b_.CreateSelect(tiny, zero, value);
}

llvm::Value* Translator::saturate(llvm::Value* value, unsigned bits) {
  llvm::Type* element = bits == 64 ? b_.getDoubleTy() : b_.getFloatTy();
  llvm::Value* zero = llvm::Constant::getNullValue(value->getType());
  llvm::Value* one = splat(llvm::ConstantFP::get(element, 1.0));
  // As the interpreter's saturate(): NaN and -0.0 become +0.0 (an ordered compare is false for
  // both), which a clamp with OLT would leave as they are.
  llvm::Value* clamped = b_.CreateSelect(b_.CreateFCmpOGT(value, one), one, value);
  return b_.CreateSelect(b_.CreateFCmpOGT(value, zero), clamped, zero);
}

llvm::Value* Translator::canonical(llvm::Value* value, unsigned bits) {
  // The GPU's single-precision NaN, 0x7fffffff (double precision keeps payloads: nanFrom).
  llvm::Value* nan = bits == 64 ? splatInt(64, 0x7fffffffffffffffull) : splatInt(32, 0x7fffffffu);
  nan = b_.CreateBitCast(nan, value->getType());
  return b_.CreateSelect(isNan(value), nan, value);
}

llvm::Value* Translator::quiet(llvm::Value* value, unsigned bits) {
  // The interpreter's quieted(): the quiet bit set, sign and payload kept.
  llvm::Value* word = b_.CreateBitCast(value, intVector(bits));
  word = b_.CreateOr(word, splatInt(bits, bits == 64 ? 0x0008000000000000ull : 0x00400000u));
  return b_.CreateBitCast(word, value->getType());
}

llvm::Value* Translator::nanFrom(llvm::Value* result,
                                 std::initializer_list<llvm::Value*> operands) {
  // Double precision: a NaN result is the first NaN operand (in the given order), quieted; with
  // no NaN operand, the default NaN of an invalid operation (0xfff8000000000000, the GPU's and the
  // host's), stated here so that no host or folding rule decides it.
  llvm::Value* nan = b_.CreateBitCast(splatInt(64, 0xfff8000000000000ull), result->getType());
  for (auto it = std::rbegin(operands); it != std::rend(operands); ++it)
    nan = b_.CreateSelect(isNan(*it), quiet(*it, 64), nan);
  return b_.CreateSelect(isNan(result), nan, result);
}

llvm::Value* Translator::floatResult(llvm::Value* value, unsigned bits, uint32_t flags,
                                     llvm::Value* exact) {
  // As the interpreter's output(): double precision is only saturated; single precision is
  // flushed under .ftz (tininess before rounding where `exact` is known: a result that rounded
  // up to the smallest normal from below is flushed too), saturated, and its NaN canonicalized.
  if (bits == 64)
    return (flags & kSat) ? saturate(value, 64) : value;
  if (flags & kFtz) {
    value = flush(value, 32);
    if (exact != nullptr) {
      llvm::Value* smallest = splat(llvm::ConstantFP::get(b_.getFloatTy(), 0x1p-126));
      llvm::Value* smallestWide = splat(llvm::ConstantFP::get(b_.getDoubleTy(), 0x1p-126));
      llvm::Value* roundedUp = b_.CreateAnd(
          b_.CreateFCmpOEQ(b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, value), smallest),
          b_.CreateFCmpOLT(b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, exact), smallestWide));
      llvm::Value* zero = b_.CreateBinaryIntrinsic(
          llvm::Intrinsic::copysign, llvm::Constant::getNullValue(value->getType()), value);
      value = b_.CreateSelect(roundedUp, zero, value);
    }
  }
  if (flags & kSat)
    value = saturate(value, 32);
  return canonical(value, 32);
}

llvm::Value* Translator::minMax(llvm::Value* a, llvm::Value* b, bool isMax, unsigned bits) {
  // A NaN operand is ignored (both NaN: NaN); equal values order -0.0 below +0.0.
  llvm::Value* aNan = b_.CreateFCmpUNO(a, a);
  llvm::Value* bNan = b_.CreateFCmpUNO(b, b);
  llvm::Value* ordered = isMax ? b_.CreateSelect(b_.CreateFCmpOGT(a, b), a, b)
                               : b_.CreateSelect(b_.CreateFCmpOLT(a, b), a, b);
  llvm::Value* aBits = b_.CreateBitCast(a, intVector(bits));
  llvm::Value* aNegative = b_.CreateICmpSLT(aBits, llvm::Constant::getNullValue(aBits->getType()));
  llvm::Value* equal = isMax ? b_.CreateSelect(aNegative, b, a) : b_.CreateSelect(aNegative, a, b);
  llvm::Value* result = b_.CreateSelect(b_.CreateFCmpOEQ(a, b), equal, ordered);
  result = b_.CreateSelect(bNan, a, result);
  result = b_.CreateSelect(aNan, b, result);
  return result; // both NaN: b, a NaN, canonicalized by the caller
}

llvm::Value* Translator::compare(uint32_t compare, llvm::Value* a, llvm::Value* b, ValueType type) {
  if (type.kind == Kind::Float) {
    switch (compare) {
    case kEq:
      return b_.CreateFCmpOEQ(a, b);
    case kNe:
      return b_.CreateFCmpONE(a, b);
    case kLt:
      return b_.CreateFCmpOLT(a, b);
    case kLe:
      return b_.CreateFCmpOLE(a, b);
    case kGt:
      return b_.CreateFCmpOGT(a, b);
    case kGe:
      return b_.CreateFCmpOGE(a, b);
    case kEqu:
      return b_.CreateFCmpUEQ(a, b);
    case kNeu:
      return b_.CreateFCmpUNE(a, b);
    case kLtu:
      return b_.CreateFCmpULT(a, b);
    case kLeu:
      return b_.CreateFCmpULE(a, b);
    case kGtu:
      return b_.CreateFCmpUGT(a, b);
    case kGeu:
      return b_.CreateFCmpUGE(a, b);
    case kNum:
      return b_.CreateFCmpORD(a, b);
    default:
      return b_.CreateFCmpUNO(a, b);
    }
  }
  const bool isSigned = type.kind == Kind::Signed;
  switch (compare) {
  case kEq:
  case kEqu:
    return b_.CreateICmpEQ(a, b);
  case kNe:
  case kNeu:
    return b_.CreateICmpNE(a, b);
  case kLt:
  case kLtu:
    return isSigned ? b_.CreateICmpSLT(a, b) : b_.CreateICmpULT(a, b);
  case kLe:
  case kLeu:
    return isSigned ? b_.CreateICmpSLE(a, b) : b_.CreateICmpULE(a, b);
  case kGt:
  case kGtu:
    return isSigned ? b_.CreateICmpSGT(a, b) : b_.CreateICmpUGT(a, b);
  case kGe:
  case kGeu:
    return isSigned ? b_.CreateICmpSGE(a, b) : b_.CreateICmpUGE(a, b);
  case kNum:
    return allTrue();
  default:
    return llvm::Constant::getNullValue(maskType());
  }
}

llvm::Value* Translator::convert(const Instruction& in, llvm::Value* source) {
  const ValueType from = in.type, to = in.type2;
  const uint32_t mode = rounding(in.flags);
  auto roundIntegral = [&](llvm::Value* value) -> llvm::Value* {
    switch (mode) {
    case kTowardZero:
      return b_.CreateUnaryIntrinsic(llvm::Intrinsic::trunc, value);
    case kDown:
      return b_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, value);
    case kUp:
      return b_.CreateUnaryIntrinsic(llvm::Intrinsic::ceil, value);
    default:
      return b_.CreateUnaryIntrinsic(llvm::Intrinsic::rint, value);
    }
  };
  if (from.kind != Kind::Float && to.kind != Kind::Float) {
    // Read with the source's signedness, then truncate (writeRow extends by the destination's).
    llvm::Value* value = source;
    if (to.bits > from.bits)
      value = from.kind == Kind::Signed ? b_.CreateSExt(value, intVector(to.bits))
                                        : b_.CreateZExt(value, intVector(to.bits));
    else if (to.bits < from.bits)
      value = b_.CreateTrunc(value, intVector(to.bits));
    return value;
  }
  if (from.kind == Kind::Float && to.kind != Kind::Float) {
    llvm::Value* value = b_.CreateBitCast(source, floatVector(from.bits));
    if (from.bits == 32 && (in.flags & kFtz))
      value = flush(value, 32);
    if (from.bits == 32)
      value = b_.CreateFPExt(value, floatVector(64));
    value = roundIntegral(value);
    // Saturating conversion: out-of-range values give the nearest limit, as PTX says. NaN gives
    // 0, except (as the interpreter, measured on the GPU) into 64-bit integers, from binary64 into
    // 32-bit ones, and cvt.rni.s16.f64: there the most negative signed value's bit pattern.
    llvm::Value* integer = b_.CreateIntrinsic(to.kind == Kind::Signed ? llvm::Intrinsic::fptosi_sat
                                                                      : llvm::Intrinsic::fptoui_sat,
                                              {intVector(to.bits), value->getType()}, {value});
    const bool nanIsMinimum =
        to.bits == 64 || (to.bits == 32 && from.bits == 64) ||
        (to.bits == 16 && to.kind == Kind::Signed && from.bits == 64 && mode == kNearestEven);
    if (nanIsMinimum)
      integer =
          b_.CreateSelect(isNan(value), splatInt(to.bits, uint64_t{1} << (to.bits - 1)), integer);
    return integer;
  }
  if (from.kind != Kind::Float) {
    llvm::Value* value = from.kind == Kind::Signed ? b_.CreateSIToFP(source, floatVector(to.bits))
                                                   : b_.CreateUIToFP(source, floatVector(to.bits));
    return b_.CreateBitCast(value, intVector(to.bits));
  }
  // Float to float.
  llvm::Value* input = b_.CreateBitCast(source, floatVector(from.bits));
  llvm::Value* value = input;
  if (from.bits == 32 && (in.flags & kFtz))
    value = flush(value, 32);
  if (in.flags & kIntRounding)
    value = roundIntegral(value);
  if (from.bits == 64 && (in.flags & kSat))
    value = saturate(value, 64);
  if (to.bits > from.bits)
    value = b_.CreateFPExt(value, floatVector(to.bits));
  else if (to.bits < from.bits)
    value = b_.CreateFPTrunc(value, floatVector(to.bits));
  if (from.bits != 64 && (in.flags & kSat))
    value = saturate(value, to.bits); // NaN becomes +0.0
  if (to.bits == 32 && (in.flags & kFtz))
    value = flush(value, 32);
  llvm::Value* bits = b_.CreateBitCast(value, intVector(to.bits));
  if (in.flags & kSat)
    return bits;
  // A NaN, as the interpreter converts it (measured on the GPU): binary32 to binary64 keeps sign
  // and payload, quieted (.ftz: the canonical NaN, widened); binary64 to binary32 keeps the sign
  // and the payload's leading bits, quieted; binary64 to binary64 quiets; binary32 to binary32
  // gives the canonical NaN.
  llvm::Value* word = b_.CreateBitCast(input, intVector(from.bits));
  llvm::Value* nan = nullptr;
  if (from.bits == 32 && to.bits == 64) {
    if (in.flags & kFtz) {
      nan = splatInt(64, 0x7fffffffe0000000ull);
    } else {
      llvm::Value* wide = b_.CreateZExt(word, intVector(64));
      llvm::Value* sign = b_.CreateShl(b_.CreateLShr(wide, splatInt(64, 31)), splatInt(64, 63));
      llvm::Value* payload =
          b_.CreateShl(b_.CreateAnd(wide, splatInt(64, 0x7fffff)), splatInt(64, 29));
      nan = b_.CreateOr(b_.CreateOr(sign, payload), splatInt(64, 0x7ff8000000000000ull));
    }
  } else if (from.bits == 64 && to.bits == 32) {
    llvm::Value* sign = b_.CreateShl(b_.CreateLShr(word, splatInt(64, 63)), splatInt(64, 31));
    llvm::Value* payload =
        b_.CreateLShr(b_.CreateAnd(word, splatInt(64, 0xfffffffffffffull)), splatInt(64, 29));
    nan = b_.CreateTrunc(b_.CreateOr(b_.CreateOr(sign, payload), splatInt(64, 0x7fc00000u)),
                         intVector(32));
  } else if (from.bits == 64) {
    nan = b_.CreateOr(word, splatInt(64, 0x0008000000000000ull));
  } else {
    nan = splatInt(32, 0x7fffffffu);
  }
  return b_.CreateSelect(isNan(input), nan, bits);
}

llvm::Value* Translator::integerOp(const Instruction& in) {
  const unsigned bits = in.type.bits;
  const bool isSigned = in.type.kind == Kind::Signed;
  auto a = [&] { return readRow(in.s[0], bits); };
  auto bValue = [&] { return readRow(in.s[1], bits); };
  auto extend = [&](llvm::Value* value, unsigned width) {
    return isSigned ? b_.CreateSExt(value, intVector(width))
                    : b_.CreateZExt(value, intVector(width));
  };
  switch (in.op) {
  case Op::IntAdd:
    return b_.CreateAdd(a(), bValue());
  case Op::IntSub:
    return b_.CreateSub(a(), bValue());
  case Op::IntMulLo: {
    llvm::Value* product = b_.CreateMul(a(), bValue());
    return in.s[2] != kNoRow ? b_.CreateAdd(product, readRow(in.s[2], bits)) : product;
  }
  case Op::IntMulHi: {
    llvm::Value* product = b_.CreateMul(extend(a(), bits * 2), extend(bValue(), bits * 2));
    llvm::Value* high =
        b_.CreateTrunc(b_.CreateLShr(product, splatInt(bits * 2, bits)), intVector(bits));
    return in.s[2] != kNoRow ? b_.CreateAdd(high, readRow(in.s[2], bits)) : high;
  }
  case Op::IntMulWide: {
    llvm::Value* product = b_.CreateMul(extend(a(), bits * 2), extend(bValue(), bits * 2));
    return in.s[2] != kNoRow ? b_.CreateAdd(product, readRow(in.s[2], bits * 2)) : product;
  }
  case Op::IntMin:
    return b_.CreateBinaryIntrinsic(isSigned ? llvm::Intrinsic::smin : llvm::Intrinsic::umin, a(),
                                    bValue());
  case Op::IntMax:
    return b_.CreateBinaryIntrinsic(isSigned ? llvm::Intrinsic::smax : llvm::Intrinsic::umax, a(),
                                    bValue());
  case Op::IntAbs:
    return b_.CreateBinaryIntrinsic(llvm::Intrinsic::abs, a(), b_.getFalse());
  case Op::IntNeg:
    return b_.CreateNeg(a());
  case Op::IntDiv:
  case Op::IntRem: {
    // Division by zero: all ones (div and rem), as the GPU; MIN / -1 wraps, x rem -1 is 0.
    llvm::Value* x = a();
    llvm::Value* y = bValue();
    llvm::Value* zero = llvm::Constant::getNullValue(y->getType());
    llvm::Value* byZero = b_.CreateICmpEQ(y, zero);
    llvm::Value* overflow = llvm::Constant::getNullValue(maskType());
    if (isSigned)
      overflow = b_.CreateAnd(b_.CreateICmpEQ(x, splatInt(bits, uint64_t{1} << (bits - 1))),
                              b_.CreateICmpEQ(y, llvm::Constant::getAllOnesValue(y->getType())));
    llvm::Value* safe = b_.CreateSelect(b_.CreateOr(byZero, overflow), splatInt(bits, 1), y);
    if (in.op == Op::IntDiv) {
      llvm::Value* q = isSigned ? b_.CreateSDiv(x, safe) : b_.CreateUDiv(x, safe);
      q = b_.CreateSelect(overflow, x, q);
      return b_.CreateSelect(byZero, llvm::Constant::getAllOnesValue(y->getType()), q);
    }
    llvm::Value* r = isSigned ? b_.CreateSRem(x, safe) : b_.CreateURem(x, safe);
    if (isSigned)
      r = b_.CreateSelect(b_.CreateICmpEQ(y, llvm::Constant::getAllOnesValue(y->getType())), zero,
                          r);
    return b_.CreateSelect(byZero, llvm::Constant::getAllOnesValue(y->getType()), r);
  }
  case Op::And:
    return b_.CreateAnd(a(), bValue());
  case Op::Or:
    return b_.CreateOr(a(), bValue());
  case Op::Xor:
    return b_.CreateXor(a(), bValue());
  case Op::Not:
    return b_.CreateNot(a());
  case Op::Shl:
  case Op::Shr: {
    llvm::Value* x = a();
    llvm::Value* n = readRow(in.s[1], 32);
    llvm::Value* limit = splatInt(32, bits - 1);
    llvm::Value* tooFar = b_.CreateICmpUGT(n, limit);
    llvm::Value* clamped = b_.CreateSelect(tooFar, limit, n);
    if (bits > 32)
      clamped = b_.CreateZExt(clamped, intVector(bits));
    else if (bits < 32)
      clamped = b_.CreateTrunc(clamped, intVector(bits));
    llvm::Value* zero = llvm::Constant::getNullValue(x->getType());
    if (in.op == Op::Shl)
      return b_.CreateSelect(tooFar, zero, b_.CreateShl(x, clamped));
    if (isSigned)
      return b_.CreateAShr(x, clamped); // clamping keeps the sign fill
    return b_.CreateSelect(tooFar, zero, b_.CreateLShr(x, clamped));
  }
  case Op::Brev:
    return b_.CreateUnaryIntrinsic(llvm::Intrinsic::bitreverse, a());
  case Op::Bfind: {
    // The interpreter's executeBfind: a negative signed value looks for its top zero bit.
    llvm::Value* x = a();
    if (in.type.kind == Kind::Signed) {
      llvm::Value* negative = b_.CreateICmpSLT(x, llvm::Constant::getNullValue(x->getType()));
      x = b_.CreateSelect(negative, b_.CreateNot(x), x);
    }
    llvm::Value* leading = b_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, x, b_.getFalse());
    llvm::Value* result =
        (in.flags & kBfindShiftAmount) ? leading : b_.CreateSub(splatInt(bits, bits - 1), leading);
    if (bits > 32)
      result = b_.CreateTrunc(result, intVector(32));
    llvm::Value* none = b_.CreateICmpEQ(x, llvm::Constant::getNullValue(x->getType()));
    return b_.CreateSelect(none, splatInt(32, 0xffffffffu), result);
  }
  case Op::Popc:
  case Op::Clz: {
    llvm::Value* x = a();
    llvm::Value* count = in.op == Op::Popc
                             ? b_.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, x)
                             : b_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, x, b_.getFalse());
    if (bits > 32)
      return b_.CreateTrunc(count, intVector(32));
    return count;
  }
  default:
    return nullptr;
  }
}

} // namespace ocelot::runtime::cpu::native::translation
