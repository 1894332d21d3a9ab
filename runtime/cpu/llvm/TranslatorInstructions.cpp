// One native instruction: the dispatch over the plan's operations.

#include "runtime/cpu/llvm/Translator.h"

#include <llvm/IR/Intrinsics.h>

namespace ocelot::runtime::cpu::native::translation {

void Translator::emitInstruction(uint32_t pc, llvm::Value* mask, llvm::Value* maskBits) {
  const Instruction& in = plan_.code[pc];
  const unsigned bits = in.type.bits;
  switch (in.op) {
  case Op::Pack: {
    // d = {s0, s1...}: element i in bits [i * width, (i + 1) * width).
    const unsigned width = in.type.bits, total = in.type2.bits;
    llvm::Value* value = llvm::Constant::getNullValue(intVector(total));
    for (unsigned i = 0; i < in.vector; ++i) {
      llvm::Value* element = b_.CreateZExt(readRow(in.s[i], width), intVector(total));
      value =
          b_.CreateOr(value, i == 0 ? element : b_.CreateShl(element, splatInt(total, i * width)));
    }
    writeRow(in.d[0], value, in.type2, mask);
    return;
  }
  case Op::Unpack: {
    const unsigned width = in.type.bits, total = in.type2.bits;
    llvm::Value* value = readRow(in.s[0], total);
    for (unsigned i = 0; i < in.vector; ++i)
      writeRow(in.d[i],
               b_.CreateTrunc(i == 0 ? value : b_.CreateLShr(value, splatInt(total, i * width)),
                              intVector(width)),
               in.type, mask);
    return;
  }
  case Op::Shuffle:
  case Op::Vote:
  case Op::Match:
  case Op::Redux:
    emitWarp(pc, mask, maskBits);
    return;
  case Op::ActiveMask:
    writeRow(in.d[0], splat(maskBits), in.type, mask);
    return;
  case Op::Nop:
    return;
  case Op::Fence:
    b_.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
    return;
  case Op::Copy:
    writeRow(in.d[0], readRow(in.s[0], bits), in.type, mask);
    return;
  case Op::PredAnd:
  case Op::PredOr:
  case Op::PredXor: {
    llvm::Value* a = readPredicate(in.s[0]);
    llvm::Value* b = readPredicate(in.s[1]);
    llvm::Value* value = in.op == Op::PredAnd  ? b_.CreateAnd(a, b)
                         : in.op == Op::PredOr ? b_.CreateOr(a, b)
                                               : b_.CreateXor(a, b);
    writePredicate(in.d[0], value, mask);
    return;
  }
  case Op::PredNot:
    writePredicate(in.d[0], b_.CreateNot(readPredicate(in.s[0])), mask);
    return;
  case Op::PredCopy:
    writePredicate(in.d[0], readPredicate(in.s[0]), mask);
    return;
  case Op::Setp: {
    llvm::Value *a, *b;
    if (in.type.kind == Kind::Float) {
      a = readFloat(in.s[0], bits);
      b = readFloat(in.s[1], bits);
      if ((in.flags & kFtz) && bits == 32) {
        a = flush(a, 32);
        b = flush(b, 32);
      }
    } else {
      a = readRow(in.s[0], bits);
      b = readRow(in.s[1], bits);
    }
    llvm::Value* t = compare(setpCompare(in.flags), a, b, in.type);
    llvm::Value* other = in.s[2] != kNoRow ? readPredicate(in.s[2]) : nullptr;
    auto combine = [&](llvm::Value* value) -> llvm::Value* {
      switch (setpCombine(in.flags)) {
      case kCombineAnd:
        return b_.CreateAnd(value, other);
      case kCombineOr:
        return b_.CreateOr(value, other);
      case kCombineXor:
        return b_.CreateXor(value, other);
      default:
        return value;
      }
    };
    writePredicate(in.d[0], combine(t), mask);
    if (in.d[1] != kNoRow)
      writePredicate(in.d[1], combine(b_.CreateNot(t)), mask);
    return;
  }
  case Op::Selp:
    writeRow(
        in.d[0],
        b_.CreateSelect(readPredicate(in.s[2]), readRow(in.s[0], bits), readRow(in.s[1], bits)),
        in.type, mask);
    return;
  case Op::FloatAdd:
  case Op::FloatSub:
  case Op::FloatMul:
  case Op::FloatDiv:
  case Op::FloatFma:
  case Op::FloatMin:
  case Op::FloatMax:
  case Op::FloatSqrt:
  case Op::FloatRcp:
  case Op::FloatAbs:
  case Op::FloatNeg: {
    auto input = [&](uint32_t row) {
      llvm::Value* value = readFloat(row, bits);
      return (in.flags & kFtz) ? flush(value, bits) : value;
    };
    const bool isDouble = bits == 64;
    llvm::Value* x = input(in.s[0]);
    llvm::Value* y = in.s[1] != kNoRow ? input(in.s[1]) : nullptr;
    // The interpreter's rules (FloatInstructions.cpp): a double-precision NaN result carries the
    // payload of the first NaN operand in the order the GPU checks them; single precision
    // detects tininess before rounding under .ftz where `exact` (binary64) is known.
    llvm::Value* result = nullptr;
    llvm::Value* exact = nullptr;
    auto wide = [&](llvm::Value* value) { return b_.CreateFPExt(value, floatVector(64)); };
    switch (in.op) {
    case Op::FloatAdd:
      result = b_.CreateFAdd(x, y);
      if (isDouble)
        result = nanFrom(result, {y, x});
      break;
    case Op::FloatSub:
      result = b_.CreateFSub(x, y);
      if (isDouble)
        result = nanFrom(result, {y, x});
      break;
    case Op::FloatMul:
      result = b_.CreateFMul(x, y);
      if (isDouble)
        result = nanFrom(result, {y, x});
      else if (in.flags & kFtz)
        exact = b_.CreateFMul(wide(x), wide(y));
      break;
    case Op::FloatDiv:
      result = b_.CreateFDiv(x, y);
      if (isDouble)
        result = nanFrom(result, {x, y});
      else if (in.flags & kFtz)
        exact = b_.CreateFDiv(wide(x), wide(y));
      break;
    case Op::FloatFma: {
      llvm::Value* z = input(in.s[2]);
      result = b_.CreateIntrinsic(llvm::Intrinsic::fma, {x->getType()}, {x, y, z});
      if (isDouble) {
        result = nanFrom(result, {y, z, x});
      } else if (in.flags & kFtz) {
        llvm::Value* wx = wide(x);
        exact = b_.CreateIntrinsic(llvm::Intrinsic::fma, {wx->getType()}, {wx, wide(y), wide(z)});
      }
      break;
    }
    case Op::FloatMin:
    case Op::FloatMax:
      // Two NaNs give the second operand's (quieted in double precision; single precision's
      // result is canonicalized below). No tininess check and no .sat here.
      result = minMax(x, y, in.op == Op::FloatMax, bits);
      if (isDouble)
        result = b_.CreateSelect(isNan(result), quiet(result, 64), result);
      writeFloat(in.d[0], isDouble ? result : floatResult(result, bits, in.flags & kFtz, nullptr),
                 bits, mask);
      return;
    case Op::FloatSqrt:
      result = b_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x);
      if (isDouble)
        result = nanFrom(result, {x});
      break;
    case Op::FloatRcp: {
      llvm::Type* element = isDouble ? b_.getDoubleTy() : b_.getFloatTy();
      result = b_.CreateFDiv(splat(llvm::ConstantFP::get(element, 1.0)), x);
      if (isDouble)
        result = nanFrom(result, {x});
      else if (in.flags & kFtz)
        exact = b_.CreateFDiv(splat(llvm::ConstantFP::get(b_.getDoubleTy(), 1.0)), wide(x));
      break;
    }
    case Op::FloatAbs:
    case Op::FloatNeg: {
      // Single precision: NaN becomes the canonical NaN; double: the NaN, quieted, sign kept.
      result = in.op == Op::FloatAbs ? b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x)
                                     : b_.CreateFNeg(x);
      result = isDouble ? b_.CreateSelect(isNan(x), quiet(x, 64), result) : canonical(result, 32);
      writeFloat(in.d[0], result, bits, mask);
      return;
    }
    default:
      break;
    }
    writeFloat(in.d[0], floatResult(result, bits, in.flags, exact), bits, mask);
    return;
  }
  case Op::Convert: {
    llvm::Value* source = readRow(in.s[0], in.type.bits);
    writeRow(in.d[0], convert(in, source), in.type2, mask);
    return;
  }
  case Op::Cvta: {
    llvm::Value* a = readRow(in.s[0], bits);
    llvm::Value* window =
        in.immRuntime ? static_cast<llvm::Value*>(b_.CreateLoad(
                            b_.getInt64Ty(), instructionPointer(pc, plan_.layout.immOffset)))
                      : static_cast<llvm::Value*>(b_.getInt64(static_cast<uint64_t>(in.imm)));
    if (bits < 64)
      window = b_.CreateTrunc(window, laneType(bits));
    llvm::Value* value =
        (in.flags & kCvtaToSpace) ? b_.CreateSub(a, splat(window)) : b_.CreateAdd(a, splat(window));
    if ((in.flags & kNarrow) && bits == 64)
      value = b_.CreateAnd(value, splatInt(64, 0xffffffffu));
    writeRow(in.d[0], value, in.type, mask);
    return;
  }
  case Op::FrameAddress: {
    llvm::Value* imm = in.immRuntime
                           ? static_cast<llvm::Value*>(b_.CreateLoad(
                                 b_.getInt64Ty(), instructionPointer(pc, plan_.layout.immOffset)))
                           : static_cast<llvm::Value*>(b_.getInt64(static_cast<uint64_t>(in.imm)));
    writeRow(in.d[0], splat(b_.CreateAdd(frameBase_, imm)), ValueType{64, Kind::Unsigned}, mask);
    return;
  }
  default: {
    llvm::Value* value = integerOp(in);
    if (value == nullptr)
      return;
    ValueType type = in.type;
    if (in.op == Op::IntMulWide)
      type.bits = static_cast<uint8_t>(bits * 2);
    if (in.op == Op::Popc || in.op == Op::Clz || in.op == Op::Bfind)
      type = ValueType{32, Kind::Unsigned};
    writeRow(in.d[0], value, type, mask);
    return;
  }
  }
}

} // namespace ocelot::runtime::cpu::native::translation
