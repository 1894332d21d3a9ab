// Warp-wide operations as vector code: shfl, vote, match and redux. Each follows the interpreter's
// handler (runtime/cpu/WarpInstructions.cpp): shfl reads its source lane whatever the member mask
// says; vote, match and redux combine, for each lane, the executing lanes its member mask names,
// itself always included. Probe code passes __activemask() or a match result as the member mask,
// so a mask in a register is the common case there, not an exception.

#include "runtime/cpu/llvm/Translator.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Metadata.h>

namespace ocelot::runtime::cpu::native::translation {
namespace {

/// The interpreter's lane arithmetic of shfl for one lane: the source lane, and whether it lies
/// inside the lane's segment (else the lane reads itself and its predicate is false).
std::pair<uint32_t, bool> shuffleSource(uint32_t mode, uint32_t lane, uint32_t b, uint32_t c) {
  const uint32_t bval = b & 31, cval = c & 31, segment = (c >> 8) & 31;
  const uint32_t maxLane = (lane & segment) | (cval & ~segment);
  const uint32_t minLane = lane & segment;
  int32_t j = 0;
  bool ok = false;
  switch (mode) {
  case kShuffleUp:
    j = static_cast<int32_t>(lane) - static_cast<int32_t>(bval);
    ok = j >= static_cast<int32_t>(maxLane);
    break;
  case kShuffleDown:
    j = static_cast<int32_t>(lane + bval);
    ok = j <= static_cast<int32_t>(maxLane);
    break;
  case kShuffleButterfly:
    j = static_cast<int32_t>(lane ^ bval);
    ok = j <= static_cast<int32_t>(maxLane);
    break;
  default:
    j = static_cast<int32_t>(minLane | (bval & ~segment));
    ok = j <= static_cast<int32_t>(maxLane);
    break;
  }
  return {static_cast<uint32_t>(ok ? j : static_cast<int32_t>(lane)) & 31, ok};
}

} // namespace

llvm::Value* Translator::shuffleSources(const Instruction& in, llvm::Value** valid) {
  if (!(in.flags & kLaneRows)) {
    // A constant lane pattern: a constant permutation, computed here once.
    const auto b = static_cast<uint32_t>(static_cast<uint64_t>(in.imm));
    const auto c = static_cast<uint32_t>(static_cast<uint64_t>(in.imm) >> 32);
    uint32_t sources[kLanes];
    std::vector<llvm::Constant*> inside;
    for (uint32_t lane = 0; lane < kLanes; ++lane) {
      const auto [source, ok] = shuffleSource(mode(in.flags), lane, b, c);
      sources[lane] = source;
      inside.push_back(ok ? b_.getTrue() : b_.getFalse());
    }
    *valid = llvm::ConstantVector::get(inside);
    return llvm::ConstantDataVector::get(context_, llvm::ArrayRef<uint32_t>(sources));
  }
  // The same arithmetic on vectors of each lane's b and c.
  llvm::Value* lane = laneNumbers();
  llvm::Value* b = b_.CreateAnd(readRow(in.s[1], 32), splatInt(32, 31));
  llvm::Value* c = readRow(in.s[2], 32);
  llvm::Value* segment = b_.CreateAnd(b_.CreateLShr(c, splatInt(32, 8)), splatInt(32, 31));
  llvm::Value* outside = b_.CreateXor(segment, splatInt(32, 31));
  llvm::Value* maxLane =
      b_.CreateOr(b_.CreateAnd(lane, segment), b_.CreateAnd(b_.CreateAnd(c, splatInt(32, 31)),
                                                            outside));
  llvm::Value* j = nullptr;
  llvm::Value* ok = nullptr;
  switch (mode(in.flags)) {
  case kShuffleUp:
    j = b_.CreateSub(lane, b);
    ok = b_.CreateICmpSGE(j, maxLane);
    break;
  case kShuffleDown:
    j = b_.CreateAdd(lane, b);
    ok = b_.CreateICmpSLE(j, maxLane);
    break;
  case kShuffleButterfly:
    j = b_.CreateXor(lane, b);
    ok = b_.CreateICmpSLE(j, maxLane);
    break;
  default:
    j = b_.CreateOr(b_.CreateAnd(lane, segment), b_.CreateAnd(b, outside));
    ok = b_.CreateICmpSLE(j, maxLane);
    break;
  }
  *valid = ok;
  return b_.CreateAnd(b_.CreateSelect(ok, j, lane), splatInt(32, 31));
}

llvm::Value* Translator::memberGroups(const Instruction& in, llvm::Value* maskBits) {
  llvm::Value* executing = splat(maskBits);
  if (!(in.flags & kMemberMaskRow))
    return executing;
  return b_.CreateOr(b_.CreateAnd(readRow(in.s[1], 32), executing), laneBits());
}

llvm::Value* Translator::callGroupHelper(const std::string& name, llvm::Value* values,
                                         llvm::Value* groups, llvm::Value* lanes, uint32_t initial,
                                         const GroupStep& step) {
  // Out of line, once per module: inlined, the loop of every match and redux would make
  // probe-instrumented kernels (a few per probe site) too large for the register allocator.
  llvm::Function* helper = module_.getFunction(name);
  if (helper == nullptr) {
    auto* type = llvm::FunctionType::get(intVector(32),
                                         {values->getType(), intVector(32), b_.getInt32Ty()}, false);
    helper = llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage, name, module_);
    helper->addFnAttr(llvm::Attribute::NoInline);
    helper->addFnAttr(llvm::Attribute::NoUnwind);
    helper->addFnAttr("min-legal-vector-width", "2048");
    llvm::IRBuilderBase::InsertPointGuard keep(b_);
    llvm::Function* kernel = function_;
    function_ = helper;
    // A loop over the set bits of `lanes` (lowest first), kept rolled: unrolled, each call site's
    // kernel would not grow, but this function would by 32 times for no gain.
    llvm::BasicBlock* entry = newBlock("entry");
    llvm::BasicBlock* loop = newBlock("lanes");
    llvm::BasicBlock* done = newBlock("done");
    llvm::Value* helperValues = helper->getArg(0);
    llvm::Value* helperGroups = helper->getArg(1);
    llvm::Value* helperLanes = helper->getArg(2);
    b_.SetInsertPoint(entry);
    llvm::Value* initialValue = splatInt(32, initial);
    b_.CreateCondBr(b_.CreateICmpEQ(helperLanes, b_.getInt32(0)), done, loop);
    b_.SetInsertPoint(loop);
    llvm::PHINode* rest = b_.CreatePHI(b_.getInt32Ty(), 2);
    llvm::PHINode* acc = b_.CreatePHI(intVector(32), 2);
    rest->addIncoming(helperLanes, entry);
    acc->addIncoming(initialValue, entry);
    llvm::Value* lane = b_.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, rest, b_.getTrue());
    llvm::Value* next = step(helperValues, helperGroups, lane, acc);
    llvm::Value* remaining = b_.CreateAnd(rest, b_.CreateSub(rest, b_.getInt32(1)));
    llvm::BasicBlock* latch = b_.GetInsertBlock();
    rest->addIncoming(remaining, latch);
    acc->addIncoming(next, latch);
    llvm::BranchInst* back =
        b_.CreateCondBr(b_.CreateICmpEQ(remaining, b_.getInt32(0)), done, loop);
    llvm::MDNode* noUnroll =
        llvm::MDNode::get(context_, {llvm::MDString::get(context_, "llvm.loop.unroll.disable")});
    llvm::MDNode* loopId = llvm::MDNode::getDistinct(context_, {nullptr, noUnroll});
    loopId->replaceOperandWith(0, loopId);
    back->setMetadata(llvm::LLVMContext::MD_loop, loopId);
    b_.SetInsertPoint(done);
    llvm::PHINode* result = b_.CreatePHI(intVector(32), 2);
    result->addIncoming(initialValue, entry);
    result->addIncoming(next, latch);
    b_.CreateRet(result);
    function_ = kernel;
  }
  return b_.CreateCall(helper, {values, groups, lanes});
}

void Translator::emitWarp(uint32_t pc, llvm::Value* mask, llvm::Value* maskBits) {
  const Instruction& in = plan_.code[pc];
  switch (in.op) {
  case Op::Shuffle: {
    // Reached for whole warps only (emitBody): a source lane may be one that is not executing,
    // whose value only the row in memory holds in a partial warp.
    llvm::Value* valid = nullptr;
    llvm::Value* sources = shuffleSources(in, &valid);
    llvm::Value* value = readRow(in.s[0], 32);
    llvm::Value* shuffled = nullptr;
    if (auto* constant = llvm::dyn_cast<llvm::Constant>(sources)) {
      std::vector<int> order;
      for (uint32_t lane = 0; lane < kLanes; ++lane)
        order.push_back(static_cast<int>(
            llvm::cast<llvm::ConstantInt>(constant->getAggregateElement(lane))->getZExtValue()));
      shuffled = b_.CreateShuffleVector(value, order);
    } else {
      if (shuffleSlot_ == nullptr) {
        llvm::IRBuilder<> entry(entryBlock_, entryBlock_->begin());
        shuffleSlot_ = entry.CreateAlloca(intVector(32), nullptr, "shuffle.lanes");
      }
      b_.CreateStore(value, shuffleSlot_);
      llvm::Value* addresses = b_.CreateGEP(b_.getInt32Ty(), shuffleSlot_, sources);
      shuffled = b_.CreateMaskedGather(intVector(32), addresses, llvm::Align(4), allTrue());
    }
    writeRow(in.d[0], shuffled, in.type, mask);
    if (in.d[1] != kNoRow)
      writePredicate(in.d[1], valid, mask);
    return;
  }
  case Op::Vote: {
    llvm::Value* p = readPredicate(in.s[0]);
    if (in.flags & kNegate)
      p = b_.CreateNot(p);
    llvm::Value* votes = b_.CreateAnd(b_.CreateBitCast(p, b_.getInt32Ty()), maskBits);
    llvm::Value* group = memberGroups(in, maskBits);
    llvm::Value* inGroup = b_.CreateAnd(splat(votes), group);
    if (mode(in.flags) == kVoteBallot) {
      writeRow(in.d[0], inGroup, in.type, mask);
      return;
    }
    llvm::Value* none = b_.CreateICmpEQ(inGroup, splatInt(32, 0));
    llvm::Value* all = b_.CreateICmpEQ(inGroup, group);
    llvm::Value* result = mode(in.flags) == kVoteAll   ? all
                          : mode(in.flags) == kVoteAny ? b_.CreateNot(none)
                                                       : b_.CreateOr(none, all);
    writePredicate(in.d[0], result, mask);
    return;
  }
  case Op::Match: {
    // Each lane's result: the lanes of its group whose value equals its own.
    const unsigned bits = in.type.bits;
    llvm::Value* value = readRow(in.s[0], bits);
    llvm::Value* group = memberGroups(in, maskBits);
    llvm::Value* same = callGroupHelper(
        bits == 64 ? "ocelot.match.b64" : "ocelot.match.b32", value, group, maskBits, 0,
        [&](llvm::Value* values, llvm::Value* groups, llvm::Value* lane, llvm::Value* acc) {
          llvm::Value* equal =
              b_.CreateICmpEQ(values, splat(b_.CreateExtractElement(values, lane)));
          llvm::Value* bit = b_.CreateShl(b_.getInt32(1), lane);
          llvm::Value* member = b_.CreateICmpNE(b_.CreateAnd(groups, splat(bit)), splatInt(32, 0));
          return b_.CreateOr(
              acc, b_.CreateSelect(b_.CreateAnd(equal, member), splat(bit), splatInt(32, 0)));
        });
    if (!(in.flags & kMatchAll)) {
      writeRow(in.d[0], same, in.type, mask);
      return;
    }
    llvm::Value* allEqual = b_.CreateICmpEQ(same, group);
    writeRow(in.d[0], b_.CreateSelect(allEqual, group, splatInt(32, 0)), in.type, mask);
    if (in.d[1] != kNoRow)
      writePredicate(in.d[1], allEqual, mask);
    return;
  }
  case Op::Redux: {
    const bool isSigned = in.type.kind == Kind::Signed;
    const uint32_t kind = atomicKind(in.flags);
    uint32_t identity = 0;
    if (kind == kAtomicAnd || (kind == kAtomicMin && !isSigned))
      identity = 0xffffffffu;
    else if (kind == kAtomicMin)
      identity = 0x7fffffffu;
    else if (kind == kAtomicMax && isSigned)
      identity = 0x80000000u;
    auto combine = [&](llvm::Value* a, llvm::Value* b) -> llvm::Value* {
      switch (kind) {
      case kAtomicAdd:
        return b_.CreateAdd(a, b);
      case kAtomicAnd:
        return b_.CreateAnd(a, b);
      case kAtomicOr:
        return b_.CreateOr(a, b);
      case kAtomicXor:
        return b_.CreateXor(a, b);
      case kAtomicMin:
        return b_.CreateBinaryIntrinsic(isSigned ? llvm::Intrinsic::smin : llvm::Intrinsic::umin, a,
                                        b);
      default:
        return b_.CreateBinaryIntrinsic(isSigned ? llvm::Intrinsic::smax : llvm::Intrinsic::umax, a,
                                        b);
      }
    };
    llvm::Value* value = readRow(in.s[0], 32);
    if (!(in.flags & kMemberMaskRow)) {
      // One group, the executing lanes: a horizontal reduction.
      llvm::Value* lanes = b_.CreateSelect(mask != nullptr ? mask : allTrue(), value,
                                           splatInt(32, identity));
      const llvm::Intrinsic::ID reduce =
          kind == kAtomicAdd   ? llvm::Intrinsic::vector_reduce_add
          : kind == kAtomicAnd ? llvm::Intrinsic::vector_reduce_and
          : kind == kAtomicOr  ? llvm::Intrinsic::vector_reduce_or
          : kind == kAtomicXor ? llvm::Intrinsic::vector_reduce_xor
          : kind == kAtomicMin ? (isSigned ? llvm::Intrinsic::vector_reduce_smin
                                           : llvm::Intrinsic::vector_reduce_umin)
                               : (isSigned ? llvm::Intrinsic::vector_reduce_smax
                                           : llvm::Intrinsic::vector_reduce_umax);
      writeRow(in.d[0], splat(b_.CreateUnaryIntrinsic(reduce, lanes)), in.type, mask);
      return;
    }
    llvm::Value* group = memberGroups(in, maskBits);
    static constexpr const char* kNames[] = {"add", "and", "or", "xor", "exch", "min", "max"};
    llvm::Value* total = callGroupHelper(
        std::string("ocelot.redux.") + kNames[kind] + (isSigned ? ".s32" : ".u32"), value, group,
        maskBits, identity,
        [&](llvm::Value* values, llvm::Value* groups, llvm::Value* lane, llvm::Value* acc) {
          llvm::Value* bit = b_.CreateShl(b_.getInt32(1), lane);
          llvm::Value* member = b_.CreateICmpNE(b_.CreateAnd(groups, splat(bit)), splatInt(32, 0));
          llvm::Value* other = splat(b_.CreateExtractElement(values, lane));
          return b_.CreateSelect(member, combine(acc, other), acc);
        });
    writeRow(in.d[0], total, in.type, mask);
    return;
  }
  default:
    return;
  }
}

} // namespace ocelot::runtime::cpu::native::translation
