// Control flow: blocks, branches and the SIMT stack, the ways into and out of native code.

#include "runtime/cpu/llvm/Translator.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace ocelot::runtime::cpu::native::translation {

/// Arriving at a block: the time slice is checked (where loops close), then the full-warp or the
/// masked version runs.
llvm::BasicBlock* Translator::arriveBlock(uint32_t pc) {
  auto it = arrive_.find(pc);
  if (it != arrive_.end())
    return it->second;
  llvm::BasicBlock* block = newBlock("arrive." + llvm::Twine(pc));
  arrive_[pc] = block;
  llvm::IRBuilderBase::InsertPointGuard guard(b_);
  b_.SetInsertPoint(block);
  if (yieldAt_.count(pc) != 0) {
    llvm::Value* budget = b_.CreateLoad(b_.getInt64Ty(), budget_);
    llvm::BasicBlock* run = newBlock("run." + llvm::Twine(pc));
    b_.CreateCondBr(b_.CreateICmpSLE(budget, b_.getInt64(0)), exitBlock(pc, NativeExit::Yield),
                    run);
    b_.SetInsertPoint(run);
  }
  if (single_) {
    b_.CreateBr(masked_.at(pc));
    return block;
  }
  llvm::Value* mask = b_.CreateLoad(b_.getInt32Ty(), mask_);
  b_.CreateCondBr(b_.CreateICmpEQ(mask, b_.getInt32(kAllLanes)), full_.at(pc), masked_.at(pc));
  return block;
}

/// Going to `pc` with the current entry: pops when pc is the entry's reconvergence point (only
/// pcs some branch reconverges at can be).
llvm::BasicBlock* Translator::checkBlock(uint32_t pc) {
  if (full_.count(pc) == 0)
    return exitBlock(pc, NativeExit::Interpret);
  if (reconvergePcs_.count(pc) == 0)
    return arriveBlock(pc);
  auto it = check_.find(pc);
  if (it != check_.end())
    return it->second;
  llvm::BasicBlock* block = newBlock("goto." + llvm::Twine(pc));
  check_[pc] = block;
  llvm::IRBuilderBase::InsertPointGuard guard(b_);
  b_.SetInsertPoint(block);
  llvm::Value* reconverge = b_.CreateLoad(b_.getInt32Ty(), reconverge_);
  llvm::BasicBlock* pop = newBlock("pop." + llvm::Twine(pc));
  b_.CreateCondBr(b_.CreateICmpEQ(reconverge, b_.getInt32(pc)), pop, arriveBlock(pc));
  b_.SetInsertPoint(pop);
  llvm::Value* depth = b_.CreateLoad(b_.getInt32Ty(), depth_);
  // The lanes that arrived wait here in memory; the popped entry's lanes resume from memory.
  VarSet arrived = liveIn_[pc];
  arrived.intersect(written_);
  b_.CreateCondBr(b_.CreateICmpEQ(depth, b_.getInt32(0)), exitBlock(pc, NativeExit::Pop),
                  ssaPops_ ? dynamicPopBlock() : storeBlock(arrived, true));
  return block;
}

/// Leaves native code at `pc` for the interpreter: the top entry and the registers the
/// interpreter (or later native entries) may read go back to the warp. Exits with the same live
/// registers share their stores.
llvm::BasicBlock* Translator::exitBlock(uint32_t pc, NativeExit exit) {
  const auto key = std::make_pair(pc, static_cast<uint32_t>(exit));
  auto it = exits_.find(key);
  if (it != exits_.end())
    return it->second;
  llvm::BasicBlock* block = newBlock("exit." + llvm::Twine(pc));
  exits_[key] = block;
  llvm::IRBuilderBase::InsertPointGuard guard(b_);
  b_.SetInsertPoint(block);
  b_.CreateStore(b_.getInt32(pc), exitPc_);
  b_.CreateStore(b_.getInt32(static_cast<uint32_t>(exit)), exitStatus_);
  if (exit == NativeExit::Fault) {
    b_.CreateBr(commonExit());
    return block;
  }
  VarSet live(plan_.rows.size(), plan_.predicateCount);
  if (pc < liveIn_.size())
    live = liveIn_[pc];
  live.intersect(written_);
  b_.CreateBr(storeBlock(live, false));
  return block;
}

/// Stores `set` (written registers, for the lanes native code holds), then leaves native code
/// (or pops the stack). Shared by every exit with that set: register values end there.
llvm::BasicBlock* Translator::storeBlock(const VarSet& set, bool pop) {
  std::string key = pop ? "pop:" : "exit:";
  set.rows.forEach([&](size_t row) { key += std::to_string(row) + ","; });
  key += "|";
  set.predicates.forEach([&](size_t p) { key += std::to_string(p) + ","; });
  auto it = stores_.find(key);
  if (it != stores_.end())
    return it->second;
  llvm::BasicBlock* block = newBlock(pop ? "store.pop" : "store");
  stores_[key] = block;
  llvm::IRBuilderBase::InsertPointGuard guard(b_);
  b_.SetInsertPoint(block);
  storeVariables(set);
  b_.CreateBr(pop ? dynamicPopBlock() : commonExit());
  return block;
}

/// The end of every exit: the top entry, the time slice and the counts go back to the state.
llvm::BasicBlock* Translator::commonExit() {
  if (leave_ != nullptr)
    return leave_;
  leave_ = newBlock("leave");
  llvm::IRBuilderBase::InsertPointGuard guard(b_);
  b_.SetInsertPoint(leave_);
  storeField(b_.CreateLoad(b_.getInt32Ty(), exitPc_), offsetof(NativeWarpState, pc));
  storeField(b_.CreateLoad(b_.getInt32Ty(), reconverge_), offsetof(NativeWarpState, reconverge));
  storeField(b_.CreateLoad(b_.getInt32Ty(), mask_), offsetof(NativeWarpState, mask));
  storeField(b_.CreateLoad(b_.getInt32Ty(), depth_), offsetof(NativeWarpState, depth));
  storeField(b_.CreateLoad(b_.getInt64Ty(), budget_), offsetof(NativeWarpState, budget));
  storeField(b_.CreateLoad(b_.getInt64Ty(), executed_), offsetof(NativeWarpState, executed));
  if (ssaPops_) {
    // Lanes parked by native code resume at pushed pcs: what they read there goes to memory.
    VarSet parked = pushLive_;
    parked.intersect(written_);
    llvm::BasicBlock* store = newBlock("park");
    llvm::BasicBlock* done = newBlock("parked");
    b_.CreateCondBr(b_.CreateICmpNE(b_.CreateLoad(b_.getInt32Ty(), depth_), b_.getInt32(0)), store,
                    done);
    b_.SetInsertPoint(store);
    storeVariables(parked);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }
  b_.CreateRet(b_.CreateLoad(b_.getInt32Ty(), exitStatus_));
  return leave_;
}

/// Pops an entry native code pushed and continues at its pc.
llvm::BasicBlock* Translator::dynamicPopBlock() {
  if (dynamicPop_ != nullptr)
    return dynamicPop_;
  dynamicPop_ = newBlock("dynamic.pop");
  llvm::IRBuilderBase::InsertPointGuard guard(b_);
  b_.SetInsertPoint(dynamicPop_);
  // Registers go through memory here: the popped entry's lanes resume with what they read
  // reloaded (resumeBlock), so no register value flows through this dispatch (which would tie
  // every register of every pop site to every pushed pc).
  llvm::Value* depth = b_.CreateSub(b_.CreateLoad(b_.getInt32Ty(), depth_), b_.getInt32(1));
  b_.CreateStore(depth, depth_);
  llvm::Value* entry = b_.CreateInBoundsGEP(
      b_.getInt8Ty(), fieldPointer(offsetof(NativeWarpState, stack)),
      b_.CreateMul(b_.CreateZExt(depth, b_.getInt64Ty()), b_.getInt64(sizeof(SimtEntry))));
  llvm::Value* pc = b_.CreateLoad(b_.getInt32Ty(), entry);
  llvm::Value* reconverge = b_.CreateLoad(
      b_.getInt32Ty(),
      b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), entry, offsetof(SimtEntry, reconverge)));
  llvm::Value* mask =
      b_.CreateLoad(b_.getInt32Ty(), b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), entry,
                                                                   offsetof(SimtEntry, mask)));
  b_.CreateStore(reconverge, reconverge_);
  b_.CreateStore(mask, mask_);
  // A pc no native block starts at (the "at exit" join): the interpreter takes the entry as is.
  llvm::BasicBlock* other = newBlock("dynamic.other");
  auto* dispatch = b_.CreateSwitch(pc, other, static_cast<unsigned>(pushTargets_.size()));
  for (uint32_t target : pushTargets_)
    dispatch->addCase(b_.getInt32(target), ssaPops_ ? checkBlock(target) : resumeBlock(target));
  b_.SetInsertPoint(other);
  b_.CreateStore(pc, exitPc_);
  b_.CreateStore(b_.getInt32(static_cast<uint32_t>(NativeExit::Pop)), exitStatus_);
  // Everything the warp needs is in memory already (stored where the lanes arrived or parked).
  b_.CreateBr(storeBlock(VarSet(plan_.rows.size(), plan_.predicateCount), false));
  return dynamicPop_;
}

/// Lanes popped from the stack resume at `pc`: what they read comes from memory.
llvm::BasicBlock* Translator::resumeBlock(uint32_t pc) {
  llvm::BasicBlock* block = newBlock("resume." + llvm::Twine(pc));
  llvm::IRBuilderBase::InsertPointGuard guard(b_);
  b_.SetInsertPoint(block);
  VarSet load = liveIn_[pc];
  load.intersect(tracked_);
  load.rows.forEach([&](size_t row) { loadRowFromMemory(static_cast<uint32_t>(row)); });
  load.predicates.forEach([&](size_t p) { loadPredicateFromMemory(static_cast<uint32_t>(p)); });
  // Other registers hold nothing native code must store again (memory has them).
  written_.rows.forEach([&](size_t row) {
    if (!load.rows.test(row))
      b_.CreateStore(b_.getInt32(0), rowDefined_[row]);
  });
  written_.predicates.forEach([&](size_t p) {
    if (!load.predicates.test(p))
      b_.CreateStore(b_.getInt32(0), predicateDefined_[p]);
  });
  b_.CreateBr(checkBlock(pc));
  return block;
}

void Translator::emitPrologue() {
  entryBlock_ = llvm::BasicBlock::Create(context_, "entry", function_, &function_->front());
  b_.SetInsertPoint(entryBlock_);
  llvm::Type* ptr = b_.getPtrTy();
  llvm::Type* i64 = b_.getInt64Ty();
  llvm::Value* rows = loadField(ptr, offsetof(NativeWarpState, rows));
  llvm::Value* predicates = loadField(ptr, offsetof(NativeWarpState, predicates));
  executionContext_ = loadField(ptr, offsetof(NativeWarpState, context));
  code_ = loadField(ptr, offsetof(NativeWarpState, code));
  shared_ = loadField(ptr, offsetof(NativeWarpState, shared));
  sharedSize_ = loadField(i64, offsetof(NativeWarpState, sharedSize));
  llvm::Value* local = loadField(ptr, offsetof(NativeWarpState, local));
  localStride_ = loadField(i64, offsetof(NativeWarpState, localStride));
  localSize_ = loadField(i64, offsetof(NativeWarpState, localSize));
  llvm::Value* frameBase = loadField(i64, offsetof(NativeWarpState, frameBase));
  arenaBase_ = loadField(i64, offsetof(NativeWarpState, arenaBase));
  arenaSize_ = loadField(i64, offsetof(NativeWarpState, arenaSize));
  sharedWindow_ = loadField(i64, offsetof(NativeWarpState, sharedWindow));
  localWindow_ = loadField(i64, offsetof(NativeWarpState, localWindow));
  checked_ = b_.CreateICmpNE(loadField(b_.getInt32Ty(), offsetof(NativeWarpState, checked)),
                             b_.getInt32(0));
  llvm::Value* live = loadField(b_.getInt32Ty(), offsetof(NativeWarpState, live));
  reconverge_ = b_.CreateAlloca(b_.getInt32Ty(), nullptr, "reconverge");
  mask_ = b_.CreateAlloca(b_.getInt32Ty(), nullptr, "mask");
  depth_ = b_.CreateAlloca(b_.getInt32Ty(), nullptr, "depth");
  budget_ = b_.CreateAlloca(i64, nullptr, "budget");
  exitPc_ = b_.CreateAlloca(b_.getInt32Ty(), nullptr, "exit.pc");
  exitStatus_ = b_.CreateAlloca(b_.getInt32Ty(), nullptr, "exit.status");
  executed_ = b_.CreateAlloca(i64, nullptr, "executed");
  rowSlots_.assign(plan_.rows.size(), nullptr);
  tracked_.rows.forEach([&](size_t row) {
    rowSlots_[row] = b_.CreateAlloca(intVector(rowBits(static_cast<uint32_t>(row))), nullptr,
                                     "r" + llvm::Twine(row));
  });
  predicateSlots_.assign(plan_.predicateCount, nullptr);
  tracked_.predicates.forEach([&](size_t p) {
    predicateSlots_[p] = b_.CreateAlloca(maskType(), nullptr, "p" + llvm::Twine(p));
  });
  rowDefined_.assign(plan_.rows.size(), nullptr);
  predicateDefined_.assign(plan_.predicateCount, nullptr);
  written_.rows.forEach([&](size_t row) {
    rowDefined_[row] = b_.CreateAlloca(b_.getInt32Ty(), nullptr, "defined.r" + llvm::Twine(row));
    b_.CreateStore(b_.getInt32(0), rowDefined_[row]);
  });
  written_.predicates.forEach([&](size_t p) {
    predicateDefined_[p] = b_.CreateAlloca(b_.getInt32Ty(), nullptr, "defined.p" + llvm::Twine(p));
    b_.CreateStore(b_.getInt32(0), predicateDefined_[p]);
  });
  llvm::Value* pc = loadField(b_.getInt32Ty(), offsetof(NativeWarpState, pc));
  b_.CreateStore(loadField(b_.getInt32Ty(), offsetof(NativeWarpState, reconverge)), reconverge_);
  b_.CreateStore(loadField(b_.getInt32Ty(), offsetof(NativeWarpState, mask)), mask_);
  b_.CreateStore(b_.getInt32(0), depth_);
  b_.CreateStore(loadField(i64, offsetof(NativeWarpState, budget)), budget_);
  b_.CreateStore(b_.getInt64(0), executed_);
  // The warp's own fields come through `dispatch`, which native code enters again with the next
  // warp of the CTA at a barrier (emitNextWarp): everything after it sees that warp's.
  llvm::BasicBlock* dispatchBlock = newBlock("dispatch");
  llvm::BasicBlock* start = b_.GetInsertBlock();
  b_.CreateBr(dispatchBlock);
  b_.SetInsertPoint(dispatchBlock);
  auto phi = [&](llvm::Value* initial, const char* name) {
    llvm::PHINode* node = b_.CreatePHI(initial->getType(), 2, name);
    node->addIncoming(initial, start);
    return node;
  };
  rowsPhi_ = phi(rows, "rows");
  predicatesPhi_ = phi(predicates, "predicates");
  localPhi_ = phi(local, "local");
  frameBasePhi_ = phi(frameBase, "frame.base");
  livePhi_ = phi(live, "live");
  pcPhi_ = phi(pc, "pc");
  rows_ = rowsPhi_;
  predicates_ = predicatesPhi_;
  local_ = localPhi_;
  frameBase_ = frameBasePhi_;
  live_ = livePhi_;
  dispatch_ = dispatchBlock;
  llvm::BasicBlock* unknown = newBlock("not.an.entry");
  auto* dispatch = b_.CreateSwitch(pcPhi_, unknown, static_cast<unsigned>(blocks_.size()));
  for (const Block& block : blocks_) {
    llvm::BasicBlock* entry = newBlock("entry." + llvm::Twine(block.start));
    dispatch->addCase(b_.getInt32(block.start), entry);
    llvm::IRBuilderBase::InsertPointGuard guard(b_);
    b_.SetInsertPoint(entry);
    VarSet load = liveIn_[block.start];
    load.intersect(tracked_);
    load.rows.forEach([&](size_t row) { loadRowFromMemory(static_cast<uint32_t>(row)); });
    load.predicates.forEach([&](size_t p) { loadPredicateFromMemory(static_cast<uint32_t>(p)); });
    b_.CreateBr(arriveBlock(block.start));
  }
  b_.SetInsertPoint(unknown);
  b_.CreateRet(b_.getInt32(static_cast<uint32_t>(NativeExit::Interpret)));
}

void Translator::emitBody(const Block& block, bool full) {
  b_.SetInsertPoint(full ? full_.at(block.start) : masked_.at(block.start));
  llvm::Value* maskBits = full ? static_cast<llvm::Value*>(b_.getInt32(kAllLanes))
                               : b_.CreateLoad(b_.getInt32Ty(), mask_);
  llvm::Value* mask = full ? nullptr : b_.CreateBitCast(maskBits, maskType());
  for (uint32_t pc = block.start; pc < block.end; ++pc) {
    const Instruction& in = plan_.code[pc];
    guardedWrite_ = in.guard != kNoRow;
    llvm::Value* active = mask;
    llvm::Value* activeBits = maskBits;
    if (in.guard != kNoRow) {
      llvm::Value* guard = readPredicate(in.guard);
      if (in.guardNegated)
        guard = b_.CreateNot(guard);
      active = mask != nullptr ? b_.CreateAnd(mask, guard) : guard;
      activeBits = b_.CreateBitCast(active, b_.getInt32Ty());
    }
    llvm::Value* count =
        b_.CreateZExt(b_.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, activeBits), b_.getInt64Ty());
    if (in.op == Op::Branch) {
      emitBranch(pc, full ? nullptr : maskBits, in.guard != kNoRow ? activeBits : nullptr, count);
      return;
    }
    if (in.op == Op::Barrier || in.op == Op::Exit) {
      // Always the block's last instruction (the warp resumes after it, from memory).
      b_.CreateStore(b_.CreateAdd(b_.CreateLoad(b_.getInt64Ty(), executed_), count), executed_);
      b_.CreateStore(b_.CreateSub(b_.CreateLoad(b_.getInt64Ty(), budget_), b_.getInt64(1)),
                     budget_);
      emitWarpControl(pc, activeBits);
      return;
    }
    b_.CreateStore(b_.CreateAdd(b_.CreateLoad(b_.getInt64Ty(), executed_), count), executed_);
    b_.CreateStore(b_.CreateSub(b_.CreateLoad(b_.getInt64Ty(), budget_), b_.getInt64(1)), budget_);
    if (in.op == Op::Handler)
      emitHandler(pc, active, activeBits);
    else if (in.op == Op::Load || in.op == Op::Store)
      emitMemory(pc, active, activeBits);
    else if (in.op == Op::Atomic)
      emitAtomic(pc, active, activeBits);
    else if (in.op == Op::Shuffle && active != nullptr)
      emitHandler(pc, active, activeBits); // the constant permutation is for whole warps
    else
      emitInstruction(pc, active, activeBits);
  }
  switch (block.exit) {
  case Block::Exit::Interpret:
    b_.CreateBr(exitBlock(block.end, NativeExit::Interpret));
    break;
  case Block::Exit::Fall:
    b_.CreateBr(checkBlock(block.end));
    break;
  case Block::Exit::Branch:
    break; // emitted above
  }
}

void Translator::emitBranch(uint32_t pc, llvm::Value* maskBits, llvm::Value* taken,
                            llvm::Value* count) {
  const Instruction& in = plan_.code[pc];
  auto account = [&] {
    b_.CreateStore(b_.CreateAdd(b_.CreateLoad(b_.getInt64Ty(), executed_), count), executed_);
    b_.CreateStore(b_.CreateSub(b_.CreateLoad(b_.getInt64Ty(), budget_), b_.getInt64(1)), budget_);
  };
  if (taken == nullptr) {
    account();
    b_.CreateBr(checkBlock(in.target));
    return;
  }
  llvm::Value* current = maskBits != nullptr ? maskBits : b_.getInt32(kAllLanes);
  llvm::BasicBlock* all = newBlock("taken." + llvm::Twine(pc));
  llvm::BasicBlock* some = newBlock("some." + llvm::Twine(pc));
  llvm::BasicBlock* none = newBlock("fallthrough." + llvm::Twine(pc));
  llvm::BasicBlock* diverge = newBlock("diverge." + llvm::Twine(pc));
  b_.CreateCondBr(b_.CreateICmpEQ(taken, current), all, some);
  b_.SetInsertPoint(all);
  account();
  b_.CreateBr(checkBlock(in.target));
  b_.SetInsertPoint(some);
  b_.CreateCondBr(b_.CreateICmpEQ(taken, b_.getInt32(0)), none, diverge);
  b_.SetInsertPoint(none);
  account();
  b_.CreateBr(checkBlock(pc + 1));
  b_.SetInsertPoint(diverge);
  // Divergence: the interpreter's scheme. The current entry waits at the join; the lanes that
  // do not branch wait at the next pc; the branching lanes go first.
  llvm::Value* depth = b_.CreateLoad(b_.getInt32Ty(), depth_);
  llvm::BasicBlock* push = newBlock("push." + llvm::Twine(pc));
  b_.CreateCondBr(b_.CreateICmpUGT(depth, b_.getInt32(kNativeStackCapacity - 2)),
                  exitBlock(pc, NativeExit::Interpret), push);
  b_.SetInsertPoint(push);
  account();
  auto entryAt = [&](llvm::Value* index) {
    return b_.CreateInBoundsGEP(
        b_.getInt8Ty(), fieldPointer(offsetof(NativeWarpState, stack)),
        b_.CreateMul(b_.CreateZExt(index, b_.getInt64Ty()), b_.getInt64(sizeof(SimtEntry))));
  };
  auto storeEntry = [&](llvm::Value* index, llvm::Value* entryPc, llvm::Value* reconverge,
                        llvm::Value* lanes) {
    llvm::Value* entry = entryAt(index);
    b_.CreateStore(entryPc, entry);
    b_.CreateStore(reconverge, b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), entry,
                                                             offsetof(SimtEntry, reconverge)));
    b_.CreateStore(lanes,
                   b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), entry, offsetof(SimtEntry, mask)));
  };
  const uint32_t join = in.reconverge;
  storeEntry(depth, b_.getInt32(join), b_.CreateLoad(b_.getInt32Ty(), reconverge_), current);
  storeEntry(b_.CreateAdd(depth, b_.getInt32(1)), b_.getInt32(pc + 1), b_.getInt32(join),
             b_.CreateAnd(current, b_.CreateNot(taken)));
  b_.CreateStore(b_.CreateAdd(depth, b_.getInt32(2)), depth_);
  // The lanes parked at the next pc find what they read there in memory, whoever runs them.
  if (!ssaPops_ && pc + 1 < liveIn_.size()) {
    VarSet parked = liveIn_[pc + 1];
    parked.intersect(written_);
    storeVariables(parked);
  }
  b_.CreateStore(b_.getInt32(join), reconverge_);
  b_.CreateStore(taken, mask_);
  b_.CreateBr(checkBlock(in.target));
}

/// bar.sync (the simple forms) and exit: the warp leaves native code with what the interpreter
/// needs to arrive at the barrier or remove the lanes; a guard false everywhere skips them, and an
/// aligned barrier only some live lanes reach is the interpreter's to report.
void Translator::emitWarpControl(uint32_t pc, llvm::Value* lanes) {
  const Instruction& in = plan_.code[pc];
  llvm::BasicBlock* act = newBlock("control." + llvm::Twine(pc));
  b_.CreateCondBr(b_.CreateICmpEQ(lanes, b_.getInt32(0)), checkBlock(pc + 1), act);
  b_.SetInsertPoint(act);
  if (in.op == Op::Exit) {
    storeField(lanes, offsetof(NativeWarpState, exited));
    emitNextWarp(pc, NativeExit::Exit);
    return;
  }
  storeField(b_.getInt32(static_cast<uint32_t>(in.imm)), offsetof(NativeWarpState, barrier));
  if (in.flags & kAligned) {
    llvm::BasicBlock* arrive = newBlock("arrive.barrier." + llvm::Twine(pc));
    b_.CreateCondBr(b_.CreateICmpEQ(lanes, live_), arrive, exitBlock(pc, NativeExit::Interpret));
    b_.SetInsertPoint(arrive);
  }
  storeField(b_.getInt32(0), offsetof(NativeWarpState, exited));
  emitNextWarp(pc, NativeExit::Barrier);
}

/// A barrier every live lane reached, or lanes that exit (`exited` says which): with the
/// interpreter's nextWarp and no entries pushed by native code, the interpreter does its part
/// without native code returning, which goes on with the next ready warp of the CTA (its
/// registers from memory, as at any entry); otherwise the warp leaves with `otherwise`.
void Translator::emitNextWarp(uint32_t pc, NativeExit otherwise) {
  llvm::Value* next = loadField(b_.getPtrTy(), offsetof(NativeWarpState, nextWarp));
  llvm::Value* canSwitch =
      b_.CreateAnd(b_.CreateIsNotNull(next),
                   b_.CreateICmpEQ(b_.CreateLoad(b_.getInt32Ty(), depth_), b_.getInt32(0)));
  llvm::BasicBlock* arrive = newBlock("arrive.native." + llvm::Twine(pc));
  b_.CreateCondBr(canSwitch, arrive, exitBlock(pc + 1, otherwise));
  b_.SetInsertPoint(arrive);
  // What the warp (its lanes that stay) reads after the instruction goes to memory, where it
  // resumes from.
  VarSet live(plan_.rows.size(), plan_.predicateCount);
  if (pc + 1 < liveIn_.size())
    live = liveIn_[pc + 1];
  live.intersect(written_);
  storeVariables(live);
  storeField(b_.getInt32(pc + 1), offsetof(NativeWarpState, pc));
  storeField(b_.CreateLoad(b_.getInt32Ty(), reconverge_), offsetof(NativeWarpState, reconverge));
  storeField(b_.CreateLoad(b_.getInt32Ty(), mask_), offsetof(NativeWarpState, mask));
  storeField(b_.getInt32(0), offsetof(NativeWarpState, depth));
  storeField(b_.CreateLoad(b_.getInt64Ty(), budget_), offsetof(NativeWarpState, budget));
  storeField(b_.CreateLoad(b_.getInt64Ty(), executed_), offsetof(NativeWarpState, executed));
  b_.CreateStore(b_.getInt64(0), executed_);
  auto* type = llvm::FunctionType::get(b_.getInt32Ty(), {b_.getPtrTy()}, false);
  llvm::Value* switched = b_.CreateCall(type, next, {state_});
  llvm::BasicBlock* resume = newBlock("next.warp." + llvm::Twine(pc));
  llvm::BasicBlock* stop = newBlock("arrived." + llvm::Twine(pc));
  b_.CreateCondBr(b_.CreateICmpNE(switched, b_.getInt32(0)), resume, stop);

  b_.SetInsertPoint(stop);
  b_.CreateStore(b_.getInt32(pc + 1), exitPc_);
  b_.CreateStore(b_.getInt32(static_cast<uint32_t>(NativeExit::Arrived)), exitStatus_);
  b_.CreateBr(commonExit());

  // Another warp (or this one, released): nothing native code holds is its.
  b_.SetInsertPoint(resume);
  written_.rows.forEach([&](size_t row) { b_.CreateStore(b_.getInt32(0), rowDefined_[row]); });
  written_.predicates.forEach(
      [&](size_t p) { b_.CreateStore(b_.getInt32(0), predicateDefined_[p]); });
  b_.CreateStore(loadField(b_.getInt32Ty(), offsetof(NativeWarpState, reconverge)), reconverge_);
  b_.CreateStore(loadField(b_.getInt32Ty(), offsetof(NativeWarpState, mask)), mask_);
  b_.CreateStore(b_.getInt32(0), depth_);
  llvm::BasicBlock* here = b_.GetInsertBlock();
  rowsPhi_->addIncoming(loadField(b_.getPtrTy(), offsetof(NativeWarpState, rows)), here);
  predicatesPhi_->addIncoming(loadField(b_.getPtrTy(), offsetof(NativeWarpState, predicates)),
                              here);
  localPhi_->addIncoming(loadField(b_.getPtrTy(), offsetof(NativeWarpState, local)), here);
  frameBasePhi_->addIncoming(loadField(b_.getInt64Ty(), offsetof(NativeWarpState, frameBase)),
                             here);
  livePhi_->addIncoming(loadField(b_.getInt32Ty(), offsetof(NativeWarpState, live)), here);
  pcPhi_->addIncoming(loadField(b_.getInt32Ty(), offsetof(NativeWarpState, pc)), here);
  b_.CreateBr(dispatch_);
}

void Translator::emitHandler(uint32_t pc, llvm::Value* mask, llvm::Value* maskBits,
                             const std::vector<uint32_t>* writes) {
  (void)mask;
  const Instruction& in = plan_.code[pc];
  llvm::BasicBlock* call = newBlock("call." + llvm::Twine(pc));
  llvm::BasicBlock* done = newBlock("called." + llvm::Twine(pc));
  b_.CreateCondBr(b_.CreateICmpEQ(maskBits, b_.getInt32(0)), done, call);
  b_.SetInsertPoint(call);
  std::vector<uint32_t> operands;
  for (uint32_t operand : in.operands)
    if (operand != kNoRow)
      operands.push_back(operand);
  // What the handler reads must be in memory (operands it only writes are not live here). Besides
  // its operands, a handler may read registers the decoder keeps elsewhere (the fragments of
  // mma/wmma, vector operands), which the plan lists as uses.
  std::vector<uint32_t> readRows = operands, readPredicates = operands;
  if (in.knownDefs) {
    readRows.insert(readRows.end(), in.rowUses.begin(), in.rowUses.end());
    readPredicates.insert(readPredicates.end(), in.predicateUses.begin(), in.predicateUses.end());
  }
  std::sort(readRows.begin(), readRows.end());
  readRows.erase(std::unique(readRows.begin(), readRows.end()), readRows.end());
  std::sort(readPredicates.begin(), readPredicates.end());
  readPredicates.erase(std::unique(readPredicates.begin(), readPredicates.end()),
                       readPredicates.end());
  for (uint32_t row : readRows)
    if (isRegister(row) && written_.rows.test(row) && liveIn_[pc].rows.test(row))
      storeRowToMemory(row);
  for (uint32_t p : readPredicates)
    if (isPredicateVariable(p) && written_.predicates.test(p) && liveIn_[pc].predicates.test(p))
      storePredicateToMemory(p);
  llvm::Value* instruction = instructionPointer(pc);
  llvm::Value* execute =
      b_.CreateLoad(b_.getPtrTy(), instructionPointer(pc, plan_.layout.executeOffset));
  auto* type = llvm::FunctionType::get(b_.getInt8Ty(),
                                       {b_.getPtrTy(), b_.getPtrTy(), b_.getInt32Ty()}, false);
  llvm::Value* ok = b_.CreateCall(type, execute, {executionContext_, instruction, maskBits});
  llvm::BasicBlock* reload = newBlock("reload." + llvm::Twine(pc));
  b_.CreateCondBr(b_.CreateICmpEQ(b_.CreateAnd(ok, b_.getInt8(1)), b_.getInt8(0)),
                  exitBlock(pc, NativeExit::Fault), reload);
  b_.SetInsertPoint(reload);
  // What the handler may have written comes back (all its operands, unless that is known).
  std::vector<uint32_t> rows = operands, predicates = operands;
  if (writes != nullptr) {
    rows = *writes;
    predicates.clear();
  } else if (in.knownDefs) {
    rows = in.rowDefs;
    predicates = in.predicateDefs;
  }
  for (uint32_t row : rows)
    if (isRegister(row) && tracked_.rows.test(row))
      loadRowFromMemory(row);
  for (uint32_t p : predicates)
    if (isPredicateVariable(p) && tracked_.predicates.test(p))
      loadPredicateFromMemory(p);
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
}

} // namespace ocelot::runtime::cpu::native::translation
