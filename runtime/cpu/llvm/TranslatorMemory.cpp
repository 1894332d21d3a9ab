// Loads, stores and atomics: address checks, contiguous ranges, gathers and load patterns.

#include "runtime/cpu/llvm/Translator.h"

#include <cstddef>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <vector>

namespace ocelot::runtime::cpu::native::translation {

namespace {

/// Bytes a load's lanes may span to be served by two vector loads and a permutation.
constexpr uint64_t kWindow = 128;

} // namespace

/// Where a contiguous range of `bytes` at `address` (a scalar in the instruction's state space)
/// lives: the host pointer and whether the whole range is valid there (the interpreter's checks:
/// bounds of the space, element alignment, the memory checker's exact bounds through the
/// handler). Local memory is per lane and never contiguous.
std::pair<llvm::Value*, llvm::Value*>
Translator::scalarRange(Space space, llvm::Value* address, uint64_t bytes, uint64_t elementBytes) {
  llvm::Value* aligned =
      elementBytes > 1
          ? b_.CreateICmpEQ(b_.CreateAnd(address, b_.getInt64(elementBytes - 1)), b_.getInt64(0))
          : b_.getTrue();
  auto within = [&](llvm::Value* offset, llvm::Value* size) {
    return b_.CreateAnd(b_.CreateICmpULT(offset, size),
                        b_.CreateICmpULE(b_.CreateAdd(offset, b_.getInt64(bytes)), size));
  };
  auto global = [&] {
    return b_.CreateAnd(within(b_.CreateSub(address, arenaBase_), arenaSize_),
                        b_.CreateNot(checked_));
  };
  switch (space) {
  case Space::Global:
    return {b_.CreateIntToPtr(address, b_.getPtrTy()), b_.CreateAnd(global(), aligned)};
  case Space::Shared:
    return {b_.CreateGEP(b_.getInt8Ty(), shared_, address),
            b_.CreateAnd(within(address, sharedSize_), aligned)};
  case Space::Generic: {
    const uint64_t window = plan_.layout.windowSize;
    llvm::Value* offset = b_.CreateSub(address, sharedWindow_);
    llvm::Value* inShared = b_.CreateICmpULT(offset, b_.getInt64(window));
    llvm::Value* inLocal =
        b_.CreateICmpULT(b_.CreateSub(address, localWindow_), b_.getInt64(window));
    llvm::Value* sharedOk = b_.CreateAnd(inShared, within(offset, sharedSize_));
    llvm::Value* globalOk = b_.CreateAnd(b_.CreateNot(b_.CreateOr(inShared, inLocal)), global());
    llvm::Value* pointer = b_.CreateSelect(inShared, b_.CreateGEP(b_.getInt8Ty(), shared_, offset),
                                           b_.CreateIntToPtr(address, b_.getPtrTy()));
    return {pointer, b_.CreateAnd(b_.CreateOr(sharedOk, globalOk), aligned)};
  }
  case Space::Local:
    break;
  }
  return {llvm::ConstantPointerNull::get(b_.getPtrTy()), b_.getFalse()};
}

/// atom/red of 32- and 64-bit integers: one host atomic per active lane, in ascending lane order
/// as the handler does. Every active lane's address is checked first; when any is not plain
/// memory (a fault, the memory checker, misalignment, local memory) the handler runs the whole
/// instruction, so that no lane has acted before it reports.
void Translator::emitAtomic(uint32_t pc, llvm::Value* mask, llvm::Value* maskBits) {
  const Instruction& in = plan_.code[pc];
  const unsigned bits = in.type.bits;
  const uint64_t bytes = bits / 8;
  llvm::Type* i64 = b_.getInt64Ty();
  llvm::Value* imm = in.immRuntime
                         ? static_cast<llvm::Value*>(
                               b_.CreateLoad(i64, instructionPointer(pc, plan_.layout.immOffset)))
                         : static_cast<llvm::Value*>(b_.getInt64(static_cast<uint64_t>(in.imm)));
  if (in.flags & kFrameRelative)
    imm = b_.CreateAdd(imm, frameBase_);
  llvm::Value* address = readRowAtOwnWidth(in.s[0]);
  if (address->getType() != intVector(64))
    address = b_.CreateZExt(address, intVector(64));
  address = b_.CreateAdd(address, splat(imm));
  llvm::Value* operand = readRow(in.s[1], bits);

  llvm::BasicBlock* done = newBlock("atomic.done." + llvm::Twine(pc));
  llvm::BasicBlock* slow = newBlock("atomic.slow." + llvm::Twine(pc));
  llvm::BasicBlock* checkHead = newBlock("atomic.check." + llvm::Twine(pc));
  llvm::BasicBlock* checkLane = newBlock("atomic.check.lane." + llvm::Twine(pc));
  llvm::BasicBlock* checkNext = newBlock("atomic.check.next." + llvm::Twine(pc));
  llvm::BasicBlock* runHead = newBlock("atomic.run." + llvm::Twine(pc));
  llvm::BasicBlock* runLane = newBlock("atomic.run.lane." + llvm::Twine(pc));
  llvm::BasicBlock* runNext = newBlock("atomic.run.next." + llvm::Twine(pc));
  llvm::BasicBlock* runEnd = newBlock("atomic.run.end." + llvm::Twine(pc));
  llvm::BasicBlock* entry = b_.GetInsertBlock();
  b_.CreateCondBr(b_.CreateICmpEQ(maskBits, b_.getInt32(0)), done, checkHead);
  auto active = [&](llvm::Value* lane) {
    return b_.CreateICmpNE(b_.CreateAnd(b_.CreateLShr(maskBits, lane), b_.getInt32(1)),
                           b_.getInt32(0));
  };

  // Every active lane's address.
  b_.SetInsertPoint(checkHead);
  llvm::PHINode* checked = b_.CreatePHI(b_.getInt32Ty(), 2);
  checked->addIncoming(b_.getInt32(0), entry);
  b_.CreateCondBr(active(checked), checkLane, checkNext);
  b_.SetInsertPoint(checkLane);
  auto [unused, ok] =
      scalarRange(in.space, b_.CreateExtractElement(address, checked), bytes, bytes);
  (void)unused;
  b_.CreateCondBr(ok, checkNext, slow);
  b_.SetInsertPoint(checkNext);
  llvm::Value* nextChecked = b_.CreateAdd(checked, b_.getInt32(1));
  checked->addIncoming(nextChecked, checkNext);
  b_.CreateCondBr(b_.CreateICmpEQ(nextChecked, b_.getInt32(kLanes)), runHead, checkHead);

  // The lanes in order, each old value into its lane of the result.
  b_.SetInsertPoint(runHead);
  llvm::PHINode* lane = b_.CreatePHI(b_.getInt32Ty(), 2);
  llvm::PHINode* result = b_.CreatePHI(intVector(bits), 2);
  lane->addIncoming(b_.getInt32(0), checkNext);
  result->addIncoming(llvm::Constant::getNullValue(intVector(bits)), checkNext);
  b_.CreateCondBr(active(lane), runLane, runNext);
  b_.SetInsertPoint(runLane);
  auto [pointer, valid] =
      scalarRange(in.space, b_.CreateExtractElement(address, lane), bytes, bytes);
  (void)valid;
  llvm::AtomicRMWInst::BinOp binOp = llvm::AtomicRMWInst::Add;
  const bool isSigned = in.type.kind == Kind::Signed;
  switch (atomicKind(in.flags)) {
  case kAtomicAnd:
    binOp = llvm::AtomicRMWInst::And;
    break;
  case kAtomicOr:
    binOp = llvm::AtomicRMWInst::Or;
    break;
  case kAtomicXor:
    binOp = llvm::AtomicRMWInst::Xor;
    break;
  case kAtomicExchange:
    binOp = llvm::AtomicRMWInst::Xchg;
    break;
  case kAtomicMin:
    binOp = isSigned ? llvm::AtomicRMWInst::Min : llvm::AtomicRMWInst::UMin;
    break;
  case kAtomicMax:
    binOp = isSigned ? llvm::AtomicRMWInst::Max : llvm::AtomicRMWInst::UMax;
    break;
  default:
    break;
  }
  llvm::Value* old =
      b_.CreateAtomicRMW(binOp, pointer, b_.CreateExtractElement(operand, lane),
                         llvm::MaybeAlign(bytes), llvm::AtomicOrdering::SequentiallyConsistent);
  llvm::Value* updated = b_.CreateInsertElement(result, old, lane);
  b_.CreateBr(runNext);
  b_.SetInsertPoint(runNext);
  llvm::PHINode* merged = b_.CreatePHI(intVector(bits), 2);
  merged->addIncoming(result, runHead);
  merged->addIncoming(updated, runLane);
  llvm::Value* nextLane = b_.CreateAdd(lane, b_.getInt32(1));
  lane->addIncoming(nextLane, runNext);
  result->addIncoming(merged, runNext);
  b_.CreateCondBr(b_.CreateICmpEQ(nextLane, b_.getInt32(kLanes)), runEnd, runHead);
  b_.SetInsertPoint(runEnd);
  writeRow(in.d[0], merged, in.type, mask);
  b_.CreateBr(done);

  b_.SetInsertPoint(slow);
  std::vector<uint32_t> writes{in.d[0]};
  emitHandler(pc, mask, maskBits, &writes);
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
}

void Translator::emitMemory(uint32_t pc, llvm::Value* mask, llvm::Value* maskBits) {
  const Instruction& in = plan_.code[pc];
  const bool store = in.op == Op::Store;
  const unsigned bits = in.type.bits;
  const uint64_t elementBytes = bits / 8;
  const unsigned count = in.vector;
  const uint64_t total = elementBytes * count;
  const bool isVolatile = (in.flags & kVolatile) != 0;
  llvm::Type* i64 = b_.getInt64Ty();
  llvm::Type* i64v = intVector(64);
  llvm::Type* element = laneType(bits);
  const llvm::Align align(elementBytes);

  llvm::Value* imm = in.immRuntime
                         ? static_cast<llvm::Value*>(
                               b_.CreateLoad(i64, instructionPointer(pc, plan_.layout.immOffset)))
                         : static_cast<llvm::Value*>(b_.getInt64(static_cast<uint64_t>(in.imm)));
  if (in.flags & kFrameRelative)
    imm = b_.CreateAdd(imm, frameBase_);

  llvm::BasicBlock* done = newBlock("accessed." + llvm::Twine(pc));
  llvm::BasicBlock* slow = newBlock("slow." + llvm::Twine(pc));
  auto fence = [&] {
    if (isVolatile)
      b_.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent, llvm::SyncScope::SingleThread);
  };

  const RowKind baseKind = plan_.rows[in.s[0]].kind;
  if ((baseKind == RowKind::Uniform || baseKind == RowKind::Constant) && in.space != Space::Local) {
    // Every lane accesses the same address (kernel parameters, variables): one scalar access.
    llvm::BasicBlock* any = newBlock("uniform." + llvm::Twine(pc));
    b_.CreateCondBr(b_.CreateICmpEQ(maskBits, b_.getInt32(0)), done, any);
    b_.SetInsertPoint(any);
    llvm::Value* address =
        b_.CreateAdd(b_.CreateExtractElement(readRow(in.s[0], 64), uint64_t{0}), imm);
    auto [pointer, ok] = scalarRange(in.space, address, total, elementBytes);
    llvm::BasicBlock* go = newBlock("uniform.go." + llvm::Twine(pc));
    b_.CreateCondBr(ok, go, slow);
    b_.SetInsertPoint(go);
    fence();
    for (unsigned i = 0; i < count; ++i) {
      llvm::Value* at = b_.CreateConstGEP1_64(b_.getInt8Ty(), pointer, i * elementBytes);
      if (store) {
        // The highest active lane's value lands last, as in the interpreter's lane order.
        llvm::Value* last =
            b_.CreateSub(b_.getInt32(31),
                         b_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, maskBits, b_.getTrue()));
        b_.CreateAlignedStore(b_.CreateExtractElement(readRow(in.s[1 + i], bits), last), at, align);
      } else {
        writeRow(in.d[i], splat(b_.CreateAlignedLoad(element, at, align)), in.type, mask);
      }
    }
    fence();
    b_.CreateBr(done);
  } else {
    llvm::Value* address = readRowAtOwnWidth(in.s[0]);
    if (address->getType() != i64v)
      address = b_.CreateZExt(address, i64v);
    llvm::BasicBlock* any = newBlock("lanes." + llvm::Twine(pc));
    b_.CreateCondBr(b_.CreateICmpEQ(maskBits, b_.getInt32(0)), done, any);
    b_.SetInsertPoint(any);
    const bool maybeFull = mask == nullptr || (single_ && in.guard == kNoRow);
    if (maybeFull && in.space != Space::Local) {
      // A full warp at consecutive addresses (the common case): one check of the range they
      // cover, then one vector access. (With one version per block, whether the warp is full is
      // seen here.)
      if (mask != nullptr) {
        llvm::BasicBlock* full = newBlock("full.warp." + llvm::Twine(pc));
        llvm::BasicBlock* partial = newBlock("partial.warp." + llvm::Twine(pc));
        b_.CreateCondBr(b_.CreateICmpEQ(maskBits, b_.getInt32(kAllLanes)), full, partial);
        b_.SetInsertPoint(full);
        fullWarpAt_ = partial;
      }
      std::vector<llvm::Constant*> steps;
      for (unsigned lane = 0; lane < kLanes; ++lane)
        steps.push_back(llvm::ConstantInt::get(i64, lane * total));
      llvm::Value* base = b_.CreateExtractElement(address, uint64_t{0});
      llvm::Value* consecutive = b_.CreateAndReduce(
          b_.CreateICmpEQ(address, b_.CreateAdd(splat(base), llvm::ConstantVector::get(steps))));
      llvm::BasicBlock* range = newBlock("consecutive." + llvm::Twine(pc));
      llvm::BasicBlock* general = newBlock("general." + llvm::Twine(pc));
      b_.CreateCondBr(consecutive, range, general);
      b_.SetInsertPoint(range);
      auto [host, valid] =
          scalarRange(in.space, b_.CreateAdd(base, imm), total * kLanes, elementBytes);
      llvm::BasicBlock* vector = newBlock("vector." + llvm::Twine(pc));
      b_.CreateCondBr(valid, vector, slow);
      b_.SetInsertPoint(vector);
      fence();
      auto* wide = llvm::FixedVectorType::get(element, kLanes * count);
      if (store) {
        std::vector<llvm::Value*> parts;
        for (unsigned i = 0; i < count; ++i)
          parts.push_back(readRow(in.s[1 + i], bits));
        while (parts.size() > 1) {
          std::vector<llvm::Value*> next;
          for (size_t i = 0; i < parts.size(); i += 2) {
            const unsigned width =
                llvm::cast<llvm::FixedVectorType>(parts[i]->getType())->getNumElements();
            std::vector<int> concat;
            for (unsigned e = 0; e < 2 * width; ++e)
              concat.push_back(static_cast<int>(e));
            next.push_back(b_.CreateShuffleVector(parts[i], parts[i + 1], concat));
          }
          parts = std::move(next);
        }
        llvm::Value* interleaved = parts[0];
        if (count > 1) {
          // Lane l's element i goes to l * count + i.
          std::vector<int> order;
          for (unsigned lane = 0; lane < kLanes; ++lane)
            for (unsigned i = 0; i < count; ++i)
              order.push_back(static_cast<int>(i * kLanes + lane));
          interleaved = b_.CreateShuffleVector(parts[0], order);
        }
        b_.CreateAlignedStore(interleaved, host, align);
      } else {
        llvm::Value* loaded = b_.CreateAlignedLoad(wide, host, align);
        for (unsigned i = 0; i < count; ++i) {
          llvm::Value* part = loaded;
          if (count > 1) {
            std::vector<int> select;
            for (unsigned lane = 0; lane < kLanes; ++lane)
              select.push_back(static_cast<int>(lane * count + i));
            part = b_.CreateShuffleVector(loaded, select);
          }
          writeRow(in.d[i], part, in.type, nullptr);
        }
      }
      fence();
      b_.CreateBr(done);
      b_.SetInsertPoint(general);
      if (fullWarpAt_ != nullptr) {
        b_.CreateBr(fullWarpAt_);
        b_.SetInsertPoint(fullWarpAt_);
        fullWarpAt_ = nullptr;
      }
    }
    // Every active lane's bounds, alignment and state space at once, from the extremes of the
    // address register over the active lanes (computed once for all the accesses through one
    // register: LLVM shares them), then one scalar check of the range they span.
    auto reduce = [&](llvm::Intrinsic::ID id, llvm::Value* value, uint64_t neutral) {
      if (mask != nullptr)
        value = b_.CreateSelect(mask, value, splatInt(64, neutral));
      return b_.CreateUnaryIntrinsic(id, value);
    };
    llvm::Value* minBase = reduce(llvm::Intrinsic::vector_reduce_umin, address, ~uint64_t{0});
    llvm::Value* maxBase = reduce(llvm::Intrinsic::vector_reduce_umax, address, 0);
    llvm::Value* first = b_.CreateAdd(minBase, imm);
    llvm::Value* last = b_.CreateAdd(maxBase, imm);
    // No lane's address wraps around (then the lanes keep their order).
    llvm::Value* ok =
        b_.CreateSelect(b_.CreateICmpSGE(imm, b_.getInt64(0)), b_.CreateICmpUGE(last, maxBase),
                        b_.CreateICmpULE(first, minBase));
    if (elementBytes > 1) {
      // Aligned lanes: all have the same low bits, which imm completes to a multiple.
      llvm::Value* low = b_.CreateAnd(address, splatInt(64, elementBytes - 1));
      llvm::Value* lowOr = reduce(llvm::Intrinsic::vector_reduce_or, low, 0);
      llvm::Value* lowAnd = reduce(llvm::Intrinsic::vector_reduce_and, low, elementBytes - 1);
      ok = b_.CreateAnd(ok, b_.CreateICmpEQ(lowOr, lowAnd));
      ok = b_.CreateAnd(ok, b_.CreateICmpEQ(b_.CreateAnd(b_.CreateAdd(lowAnd, imm),
                                                         b_.getInt64(elementBytes - 1)),
                                            b_.getInt64(0)));
    }
    // Lanes farther apart than 2 GiB go through the handler (gathers use 32-bit offsets).
    llvm::Value* span = b_.CreateSub(last, first);
    ok = b_.CreateAnd(ok, b_.CreateICmpULT(span, b_.getInt64(uint64_t{1} << 31)));
    auto within = [&](llvm::Value* low, llvm::Value* high, llvm::Value* size) {
      return b_.CreateAnd(b_.CreateICmpULT(low, size),
                          b_.CreateICmpULE(b_.CreateAdd(high, b_.getInt64(total)), size));
    };
    llvm::Value* host = nullptr; // the host address of `first`
    // Whether kWindow bytes from `first` can be read (they lie in the same memory).
    llvm::Value* windowFits = b_.getFalse();
    auto fits = [&](llvm::Value* offset, llvm::Value* size) {
      return b_.CreateICmpULE(b_.CreateAdd(offset, b_.getInt64(kWindow)), size);
    };
    switch (in.space) {
    case Space::Global:
      ok = b_.CreateAnd(
          ok, within(b_.CreateSub(first, arenaBase_), b_.CreateSub(last, arenaBase_), arenaSize_));
      ok = b_.CreateAnd(ok, b_.CreateNot(checked_));
      host = b_.CreateIntToPtr(first, b_.getPtrTy());
      windowFits = fits(b_.CreateSub(first, arenaBase_), arenaSize_);
      break;
    case Space::Shared:
      ok = b_.CreateAnd(ok, within(first, last, sharedSize_));
      host = b_.CreateGEP(b_.getInt8Ty(), shared_, first);
      windowFits = fits(first, sharedSize_);
      break;
    case Space::Local:
      ok = b_.CreateAnd(ok, within(first, last, localSize_));
      break;
    case Space::Generic: {
      const uint64_t window = plan_.layout.windowSize;
      auto inWindow = [&](llvm::Value* value, llvm::Value* base) {
        return b_.CreateICmpULT(b_.CreateSub(value, base), b_.getInt64(window));
      };
      llvm::Value* sharedFirst = b_.CreateSub(first, sharedWindow_);
      llvm::Value* allShared =
          b_.CreateAnd(inWindow(first, sharedWindow_), inWindow(last, sharedWindow_));
      llvm::Value* sharedOk = b_.CreateAnd(
          allShared, within(sharedFirst, b_.CreateSub(last, sharedWindow_), sharedSize_));
      // Both ends in the arena: every lane is (the windows lie outside it).
      llvm::Value* globalOk = b_.CreateAnd(
          within(b_.CreateSub(first, arenaBase_), b_.CreateSub(last, arenaBase_), arenaSize_),
          b_.CreateNot(checked_));
      ok = b_.CreateAnd(ok, b_.CreateOr(sharedOk, globalOk));
      host = b_.CreateSelect(allShared, b_.CreateGEP(b_.getInt8Ty(), shared_, sharedFirst),
                             b_.CreateIntToPtr(first, b_.getPtrTy()));
      windowFits = b_.CreateSelect(allShared, fits(sharedFirst, sharedSize_),
                                   fits(b_.CreateSub(first, arenaBase_), arenaSize_));
      break;
    }
    }
    llvm::BasicBlock* fast = newBlock("fast." + llvm::Twine(pc));
    b_.CreateCondBr(ok, fast, slow);
    b_.SetInsertPoint(fast);

    llvm::BasicBlock* lanes = newBlock("gather." + llvm::Twine(pc));
    llvm::BasicBlock* patterns = newBlock("patterns." + llvm::Twine(pc));
    // Loads at one address are the window pattern's too (where it exists).
    const bool windowLoads = target_.avx512 && !store && count == 1 && (bits == 32 || bits == 64);
    if (in.space != Space::Local && !windowLoads) {
      // Every active lane at one address: one scalar access.
      llvm::BasicBlock* one = newBlock("same." + llvm::Twine(pc));
      llvm::BasicBlock* several = newBlock("several." + llvm::Twine(pc));
      b_.CreateCondBr(b_.CreateICmpEQ(first, last), one, several);
      b_.SetInsertPoint(one);
      fence();
      for (unsigned i = 0; i < count; ++i) {
        llvm::Value* at = b_.CreateConstGEP1_64(b_.getInt8Ty(), host, i * elementBytes);
        if (store) {
          llvm::Value* lane =
              b_.CreateSub(b_.getInt32(31),
                           b_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, maskBits, b_.getTrue()));
          b_.CreateAlignedStore(b_.CreateExtractElement(readRow(in.s[1 + i], bits), lane), at,
                                align);
        } else {
          writeRow(in.d[i], splat(b_.CreateAlignedLoad(element, at, align)), in.type, mask);
        }
      }
      fence();
      b_.CreateBr(done);
      b_.SetInsertPoint(several);
      // (A full warp at consecutive addresses took the vector path already.)
      b_.CreateBr(patterns);
      b_.SetInsertPoint(patterns);
      emitLoadPatterns(pc, mask, address, minBase, span, host, windowFits, done, lanes);
    } else if (in.space != Space::Local) {
      b_.CreateBr(patterns);
      b_.SetInsertPoint(patterns);
      emitLoadPatterns(pc, mask, address, minBase, span, host, windowFits, done, lanes);
    } else {
      b_.CreateBr(lanes);
      patterns->eraseFromParent(); // local memory has no patterns (lanes have their own)
    }

    // Lane by lane: a gather or scatter.
    b_.SetInsertPoint(lanes);
    llvm::Value* active = mask != nullptr ? mask : allTrue();
    llvm::Value* pointers = nullptr;
    if (in.space == Space::Local) {
      std::vector<llvm::Constant*> laneIndices;
      for (unsigned lane = 0; lane < kLanes; ++lane)
        laneIndices.push_back(llvm::ConstantInt::get(i64, lane));
      llvm::Value* laneBase =
          b_.CreateMul(llvm::ConstantVector::get(laneIndices), splat(localStride_));
      pointers = b_.CreateGEP(b_.getInt8Ty(), local_,
                              b_.CreateAdd(laneBase, b_.CreateAdd(address, splat(imm))));
    } else {
      // Offsets from the lowest address fit 32 bits (checked above).
      // (frozen, so that the 32-bit index survives to instruction selection: dword gathers).
      llvm::Value* offsets =
          b_.CreateFreeze(b_.CreateTrunc(b_.CreateSub(address, splat(minBase)), intVector(32)));
      pointers = b_.CreateGEP(b_.getInt8Ty(), host, b_.CreateSExt(offsets, i64v));
    }
    fence();
    for (unsigned i = 0; i < count; ++i) {
      llvm::Value* lanePointers =
          i == 0 ? pointers : b_.CreateGEP(b_.getInt8Ty(), pointers, b_.getInt64(i * elementBytes));
      if (store) {
        b_.CreateMaskedScatter(readRow(in.s[1 + i], bits), lanePointers, align, active);
      } else {
        llvm::Value* loaded = b_.CreateMaskedGather(intVector(bits), lanePointers, align, active,
                                                    llvm::PoisonValue::get(intVector(bits)));
        writeRow(in.d[i], loaded, in.type, mask);
      }
    }
    fence();
    b_.CreateBr(done);
  }
  b_.SetInsertPoint(slow);
  // Anything else (other memory, faults, the memory checker) is the handler's, which writes only
  // the loaded registers.
  std::vector<uint32_t> writes;
  if (!store)
    writes.assign(in.d, in.d + count);
  emitHandler(pc, mask, maskBits, &writes);
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
}

/// Loads whose lanes' addresses follow a pattern cheaper than a gather: all within one
/// kWindow-byte window (two vector loads and a permutation, AVX-512), or, for a full warp, two
/// runs of 16 consecutive elements (two vector loads). Branches to `done`, else to `lanes`.
void Translator::emitLoadPatterns(uint32_t pc, llvm::Value* mask, llvm::Value* address,
                                  llvm::Value* minBase, llvm::Value* span, llvm::Value* host,
                                  llvm::Value* windowFits, llvm::BasicBlock* done,
                                  llvm::BasicBlock* lanes) {
  const Instruction& in = plan_.code[pc];
  const unsigned bits = in.type.bits;
  const uint64_t elementBytes = bits / 8;
  const bool volatileAccess = (in.flags & kVolatile) != 0;
  if (in.op != Op::Load || in.vector != 1 || (bits != 32 && bits != 64) || volatileAccess) {
    b_.CreateBr(lanes);
    return;
  }
  llvm::Type* element = laneType(bits);
  const unsigned perVector = 512 / bits; // elements of one 64-byte load
  auto* half = llvm::FixedVectorType::get(element, perVector);
  if (target_.avx512) {
    llvm::BasicBlock* window = newBlock("window." + llvm::Twine(pc));
    llvm::BasicBlock* next = newBlock("runs." + llvm::Twine(pc));
    b_.CreateCondBr(
        b_.CreateAnd(windowFits, b_.CreateICmpULT(span, b_.getInt64(kWindow - elementBytes + 1))),
        window, next);
    b_.SetInsertPoint(window);
    llvm::Value* low = b_.CreateAlignedLoad(half, host, llvm::Align(elementBytes));
    llvm::Value* high = b_.CreateAlignedLoad(half, b_.CreateConstGEP1_64(b_.getInt8Ty(), host, 64),
                                             llvm::Align(elementBytes));
    // Each lane's element index in the window (inactive lanes: anything; the low bits select).
    llvm::Value* index =
        b_.CreateLShr(b_.CreateSub(address, splat(minBase)), splatInt(64, bits == 32 ? 2 : 3));
    if (bits == 32)
      index = b_.CreateTrunc(index, intVector(32));
    const auto permute = bits == 32 ? llvm::Intrinsic::x86_avx512_vpermi2var_d_512
                                    : llvm::Intrinsic::x86_avx512_vpermi2var_q_512;
    std::vector<llvm::Value*> parts;
    for (unsigned first = 0; first < kLanes; first += perVector) {
      std::vector<int> select;
      for (unsigned i = 0; i < perVector; ++i)
        select.push_back(static_cast<int>(first + i));
      parts.push_back(
          b_.CreateIntrinsic(permute, {}, {low, b_.CreateShuffleVector(index, select), high}));
    }
    writeRow(in.d[0], concatenate(parts), in.type, mask);
    b_.CreateBr(done);
    b_.SetInsertPoint(next);
  }
  if (mask != nullptr) {
    b_.CreateBr(lanes);
    return;
  }
  // Two half-warps of consecutive elements each (a 16-wide block row, two rows per warp).
  std::vector<llvm::Constant*> steps;
  for (unsigned lane = 0; lane < kLanes; ++lane)
    steps.push_back(b_.getInt64((lane % 16) * elementBytes));
  std::vector<int> starts;
  for (unsigned lane = 0; lane < kLanes; ++lane)
    starts.push_back(lane < 16 ? 0 : 16);
  llvm::Value* bases = b_.CreateShuffleVector(address, starts);
  llvm::Value* runs = b_.CreateAndReduce(
      b_.CreateICmpEQ(address, b_.CreateAdd(bases, llvm::ConstantVector::get(steps))));
  llvm::BasicBlock* two = newBlock("two.runs." + llvm::Twine(pc));
  b_.CreateCondBr(runs, two, lanes);
  b_.SetInsertPoint(two);
  auto* run = llvm::FixedVectorType::get(element, 16);
  std::vector<llvm::Value*> parts;
  for (uint64_t lane : {0, 16}) {
    llvm::Value* offset = b_.CreateSub(b_.CreateExtractElement(address, lane), minBase);
    parts.push_back(b_.CreateAlignedLoad(run, b_.CreateGEP(b_.getInt8Ty(), host, offset),
                                         llvm::Align(elementBytes)));
  }
  writeRow(in.d[0], concatenate(parts), in.type, nullptr);
  b_.CreateBr(done);
}

llvm::Value* Translator::concatenate(std::vector<llvm::Value*> parts) {
  while (parts.size() > 1) {
    std::vector<llvm::Value*> next;
    for (size_t i = 0; i < parts.size(); i += 2) {
      const unsigned width =
          llvm::cast<llvm::FixedVectorType>(parts[i]->getType())->getNumElements();
      std::vector<int> both;
      for (unsigned e = 0; e < 2 * width; ++e)
        both.push_back(static_cast<int>(e));
      next.push_back(b_.CreateShuffleVector(parts[i], parts[i + 1], both));
    }
    parts = std::move(next);
  }
  return parts[0];
}

} // namespace ocelot::runtime::cpu::native::translation
