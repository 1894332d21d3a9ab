#pragma once

// The translator of a plan into LLVM IR (see KernelTranslator.h): one class whose member
// functions live in a file per concept (Translator*.cpp). Private to libocelot_cpu_llvm.

#include "runtime/cpu/NativeCode.h"
#include "runtime/cpu/llvm/KernelTranslator.h"
#include "runtime/cpu/llvm/LiveSets.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ocelot::runtime::cpu::native::translation {

constexpr unsigned kLanes = 32;

/// A native block: [start, end), entered at `start`, left by a branch (the last instruction), by
/// handing instruction `end` to the interpreter, or by falling into the block starting at `end`.
struct Block {
  enum class Exit { Branch, Interpret, Fall } exit = Exit::Fall;
  uint32_t start = 0, end = 0;
};

class Translator {
public:
  Translator(const Plan& plan, const TargetInfo& target, llvm::Module& module)
      : plan_(plan), target_(target), module_(module), context_(module.getContext()), b_(context_) {
  }

  llvm::Function* run(const std::string& symbol, std::string* error);
  /// The analysis, one line per pc (for developers: OCELOT_CPU_LLVM_DUMP).
  std::string describe() const {
    std::string text;
    for (uint32_t pc = 0; pc < plan_.code.size(); ++pc) {
      const Instruction& in = plan_.code[pc];
      size_t rows = 0, predicates = 0;
      if (pc < liveIn_.size()) {
        liveIn_[pc].rows.forEach([&](size_t) { ++rows; });
        liveIn_[pc].predicates.forEach([&](size_t) { ++predicates; });
      }
      text += std::to_string(pc) + (in.leader ? " L" : "  ") + " op " +
              std::to_string(static_cast<int>(in.op)) + " control " +
              std::to_string(static_cast<int>(in.control)) + " live " + std::to_string(rows) + "/" +
              std::to_string(predicates) + " d " + std::to_string(in.d[0]) + " s " +
              std::to_string(in.s[0]) + "," + std::to_string(in.s[1]) + " target " +
              std::to_string(in.target) + " reconverge " + std::to_string(in.reconverge) + "\n";
    }
    return text;
  }

private:
  // --- analysis ---------------------------------------------------------------------------------
  bool isRegister(uint32_t row) const {
    return row < plan_.rows.size() && plan_.rows[row].kind == RowKind::Register;
  }
  bool isPredicateVariable(uint32_t p) const {
    return p < plan_.predicateCount && p != plan_.truePredicate && p != plan_.falsePredicate;
  }
  void accesses(uint32_t pc, VarSet& uses, VarSet& defs, bool& everything) const;
  std::vector<uint32_t> successors(uint32_t pc) const;
  void analyze();

  // --- code generation --------------------------------------------------------------------------
  llvm::Type* laneType(unsigned bits) { return b_.getIntNTy(bits); }
  llvm::VectorType* vectorOf(llvm::Type* type) { return llvm::FixedVectorType::get(type, kLanes); }
  llvm::VectorType* intVector(unsigned bits) { return vectorOf(laneType(bits)); }
  llvm::VectorType* floatVector(unsigned bits) {
    return vectorOf(bits == 64 ? b_.getDoubleTy() : b_.getFloatTy());
  }
  llvm::VectorType* maskType() { return vectorOf(b_.getInt1Ty()); }
  llvm::Value* splat(llvm::Value* value) { return b_.CreateVectorSplat(kLanes, value); }
  llvm::Value* splatInt(unsigned bits, uint64_t value) {
    return splat(llvm::ConstantInt::get(laneType(bits), value));
  }
  llvm::Value* allTrue() { return llvm::Constant::getAllOnesValue(maskType()); }
  /// <1 << 0, 1 << 1, ..., 1 << 31>: each lane's own bit of a warp mask.
  llvm::Value* laneBits() {
    uint32_t bits[kLanes];
    for (uint32_t lane = 0; lane < kLanes; ++lane)
      bits[lane] = 1u << lane;
    return llvm::ConstantDataVector::get(b_.getContext(), llvm::ArrayRef<uint32_t>(bits));
  }
  /// <0, 1, ..., 31>: each lane's number.
  llvm::Value* laneNumbers() {
    uint32_t numbers[kLanes];
    for (uint32_t lane = 0; lane < kLanes; ++lane)
      numbers[lane] = lane;
    return llvm::ConstantDataVector::get(b_.getContext(), llvm::ArrayRef<uint32_t>(numbers));
  }
  llvm::Value* fieldPointer(size_t offset) {
    return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), state_, offset);
  }
  llvm::Value* loadField(llvm::Type* type, size_t offset) {
    return b_.CreateLoad(type, fieldPointer(offset));
  }
  void storeField(llvm::Value* value, size_t offset) {
    b_.CreateStore(value, fieldPointer(offset));
  }
  llvm::Value* rowPointer(uint32_t row) {
    return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), rows_, uint64_t{row} * kLanes * 8);
  }
  llvm::Value* predicatePointer(uint32_t p) {
    return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), predicates_, uint64_t{p} * 4);
  }
  llvm::Value* instructionPointer(uint32_t pc, size_t offset = 0) {
    return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), code_,
                                         uint64_t{pc} * plan_.layout.instructionSize + offset);
  }
  void markInvariant(llvm::Instruction* load) {
    load->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(context_, {}));
  }

  unsigned rowBits(uint32_t row) const { return plan_.rows[row].bytes * 8u; }
  llvm::Value* readRow(uint32_t row, unsigned bits);
  llvm::Value* readRowAtOwnWidth(uint32_t row);
  llvm::Value* readFloat(uint32_t row, unsigned bits) {
    return b_.CreateBitCast(readRow(row, bits), floatVector(bits));
  }
  void writeRow(uint32_t row, llvm::Value* value, ValueType type, llvm::Value* mask);
  void writeFloat(uint32_t row, llvm::Value* value, unsigned bits, llvm::Value* mask) {
    writeRow(row, b_.CreateBitCast(value, intVector(bits)), ValueType{static_cast<uint8_t>(bits)},
             mask);
  }
  llvm::Value* readPredicate(uint32_t p);
  void writePredicate(uint32_t p, llvm::Value* value, llvm::Value* mask);
  void loadRowFromMemory(uint32_t row);
  void storeRowToMemory(uint32_t row);
  void loadPredicateFromMemory(uint32_t p);
  void storePredicateToMemory(uint32_t p);
  void storeVariables(const VarSet& set);
  void define(llvm::AllocaInst* defined, llvm::Value* mask);
  void writeSlot(llvm::AllocaInst* slot, llvm::AllocaInst* defined, llvm::Value* value,
                 llvm::Value* mask, bool preserve);

  llvm::BasicBlock* newBlock(const llvm::Twine& name) {
    return llvm::BasicBlock::Create(context_, name, function_);
  }
  llvm::BasicBlock* arriveBlock(uint32_t pc);
  llvm::BasicBlock* checkBlock(uint32_t pc);
  llvm::BasicBlock* exitBlock(uint32_t pc, NativeExit exit);
  llvm::BasicBlock* storeBlock(const VarSet& set, bool pop);
  llvm::BasicBlock* commonExit();
  llvm::BasicBlock* dynamicPopBlock();
  llvm::BasicBlock* resumeBlock(uint32_t pc);
  void emitPrologue();
  void emitBody(const Block& block, bool full);
  void emitBranch(uint32_t pc, llvm::Value* mask, llvm::Value* taken, llvm::Value* executedCount);
  void emitInstruction(uint32_t pc, llvm::Value* mask, llvm::Value* maskBits);
  void emitWarp(uint32_t pc, llvm::Value* mask, llvm::Value* maskBits);
  llvm::Value* shuffleSources(const Instruction& in, llvm::Value** valid);
  llvm::Value* memberGroups(const Instruction& in, llvm::Value* maskBits);
  /// A warp operation's step over one lane: (values, groups, lane, accumulator) -> accumulator.
  using GroupStep =
      std::function<llvm::Value*(llvm::Value*, llvm::Value*, llvm::Value*, llvm::Value*)>;
  llvm::Value* callGroupHelper(const std::string& name, llvm::Value* values, llvm::Value* groups,
                               llvm::Value* lanes, uint32_t initial, const GroupStep& step);
  void emitWarpControl(uint32_t pc, llvm::Value* lanes);
  void emitNextWarp(uint32_t pc, NativeExit otherwise);
  void emitHandler(uint32_t pc, llvm::Value* mask, llvm::Value* maskBits,
                   const std::vector<uint32_t>* writes = nullptr);
  void emitMemory(uint32_t pc, llvm::Value* mask, llvm::Value* maskBits);
  void emitAtomic(uint32_t pc, llvm::Value* mask, llvm::Value* maskBits);
  void emitLoadPatterns(uint32_t pc, llvm::Value* mask, llvm::Value* address, llvm::Value* minBase,
                        llvm::Value* span, llvm::Value* host, llvm::Value* windowFits,
                        llvm::BasicBlock* done, llvm::BasicBlock* lanes);
  llvm::Value* concatenate(std::vector<llvm::Value*> parts);
  std::pair<llvm::Value*, llvm::Value*> scalarRange(Space space, llvm::Value* address,
                                                    uint64_t bytes, uint64_t elementBytes);

  // Semantics.
  llvm::Value* flush(llvm::Value* value, unsigned bits);
  llvm::Value* saturate(llvm::Value* value, unsigned bits);
  llvm::Value* canonical(llvm::Value* value, unsigned bits);
  llvm::Value* isNan(llvm::Value* value) { return b_.CreateFCmpUNO(value, value); }
  llvm::Value* quiet(llvm::Value* value, unsigned bits);
  llvm::Value* nanFrom(llvm::Value* result, std::initializer_list<llvm::Value*> operands);
  llvm::Value* floatResult(llvm::Value* value, unsigned bits, uint32_t flags, llvm::Value* exact);
  llvm::Value* compare(uint32_t compare, llvm::Value* a, llvm::Value* b, ValueType type);
  llvm::Value* minMax(llvm::Value* a, llvm::Value* b, bool isMax, unsigned bits);
  llvm::Value* convert(const Instruction& in, llvm::Value* source);
  llvm::Value* integerOp(const Instruction& in);

  const Plan& plan_;
  const TargetInfo target_;
  llvm::Module& module_;
  llvm::LLVMContext& context_;
  llvm::IRBuilder<> b_;
  llvm::Function* function_ = nullptr;

  // Analysis results.
  std::vector<VarSet> liveIn_;
  VarSet tracked_, written_, pushLive_;
  std::vector<uint32_t> pushTargets_;
  std::vector<Block> blocks_;
  std::map<uint32_t, size_t> blockAt_;

  // Values of the prologue.
  llvm::Value* state_ = nullptr;
  llvm::Value *rows_ = nullptr, *predicates_ = nullptr, *executionContext_ = nullptr,
              *code_ = nullptr;
  llvm::Value *shared_ = nullptr, *sharedSize_ = nullptr, *local_ = nullptr,
              *localStride_ = nullptr, *localSize_ = nullptr, *frameBase_ = nullptr;
  llvm::Value *arenaBase_ = nullptr, *arenaSize_ = nullptr, *sharedWindow_ = nullptr,
              *localWindow_ = nullptr, *checked_ = nullptr, *live_ = nullptr;
  llvm::AllocaInst *reconverge_ = nullptr, *mask_ = nullptr, *depth_ = nullptr, *budget_ = nullptr,
                   *executed_ = nullptr;
  std::vector<llvm::AllocaInst*> rowSlots_, predicateSlots_;
  /// Per written row and predicate: the lanes native code holds a value of (loaded or written).
  /// Only those go back to memory, so lanes native code never saw keep their values there.
  std::vector<llvm::AllocaInst*> rowDefined_, predicateDefined_;
  llvm::BasicBlock* entryBlock_ = nullptr;
  /// Where a warp's own fields (rows_, predicates_, local_, frameBase_, live_) and entry pc come
  /// in: from the state at the call, and from it again after nextWarp switched warps.
  llvm::BasicBlock* dispatch_ = nullptr;
  llvm::PHINode *rowsPhi_ = nullptr, *predicatesPhi_ = nullptr, *localPhi_ = nullptr,
                *frameBasePhi_ = nullptr, *livePhi_ = nullptr, *pcPhi_ = nullptr;
  bool guardedWrite_ = false; ///< the instruction being emitted has a guard
  /// One version of each block (the masked one) for large kernels: half the code to compile.
  bool single_ = false;
  llvm::BasicBlock* fullWarpAt_ = nullptr; ///< see emitMemory
  /// Registers stay in registers across SIMT pops (few are live where parked lanes resume);
  /// otherwise they go through memory there, which keeps large kernels' code small.
  bool ssaPops_ = false;

  std::map<uint32_t, llvm::BasicBlock*> arrive_, check_, full_, masked_;
  std::map<std::pair<uint32_t, uint32_t>, llvm::BasicBlock*> exits_;
  std::map<std::string, llvm::BasicBlock*> stores_;
  llvm::BasicBlock *dynamicPop_ = nullptr, *leave_ = nullptr;
  llvm::AllocaInst *exitPc_ = nullptr, *exitStatus_ = nullptr;
  llvm::AllocaInst* shuffleSlot_ = nullptr; ///< a row's 32 lanes, for shuffles by lane numbers
  /// Blocks where the time slice is checked (where loops may close), and the pcs some SIMT entry
  /// may reconverge at (only there can going to a block pop the stack).
  std::set<uint32_t> yieldAt_, reconvergePcs_;
};

} // namespace ocelot::runtime::cpu::native::translation
