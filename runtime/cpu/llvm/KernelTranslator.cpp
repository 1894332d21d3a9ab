#include "runtime/cpu/llvm/KernelTranslator.h"

#include "runtime/cpu/NativeCode.h"

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ocelot::runtime::cpu::native {
namespace {

constexpr unsigned kLanes = 32;
/// Registers live where parked lanes resume up to which they stay in registers across pops.
constexpr size_t kSsaPopLimit = 48;
/// Kernels longer than this get one version of each block (compile time grows faster than size).
constexpr size_t kTwoVersionsLimit = 160;
/// Bytes a load's lanes may span to be served by two vector loads and a permutation.
constexpr uint64_t kWindow = 128;

/// A set over rows or predicates.
class BitSet {
public:
  explicit BitSet(size_t size = 0) : words_((size + 63) / 64, 0) {}
  bool test(size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  void set(size_t i) { words_[i / 64] |= uint64_t{1} << (i % 64); }
  void reset(size_t i) { words_[i / 64] &= ~(uint64_t{1} << (i % 64)); }
  /// this |= other; true when this changed.
  bool merge(const BitSet& other) {
    bool changed = false;
    for (size_t i = 0; i < words_.size(); ++i) {
      const uint64_t value = words_[i] | other.words_[i];
      changed = changed || value != words_[i];
      words_[i] = value;
    }
    return changed;
  }
  void intersect(const BitSet& other) {
    for (size_t i = 0; i < words_.size(); ++i)
      words_[i] &= other.words_[i];
  }
  void subtract(const BitSet& other) {
    for (size_t i = 0; i < words_.size(); ++i)
      words_[i] &= ~other.words_[i];
  }
  bool operator==(const BitSet& other) const { return words_ == other.words_; }
  template <class Fn> void forEach(Fn&& fn) const {
    for (size_t w = 0; w < words_.size(); ++w) {
      uint64_t word = words_[w];
      while (word != 0) {
        const unsigned bit = static_cast<unsigned>(__builtin_ctzll(word));
        fn(w * 64 + bit);
        word &= word - 1;
      }
    }
  }

private:
  std::vector<uint64_t> words_;
};

/// Rows and predicates together (liveness works on both).
struct VarSet {
  BitSet rows, predicates;
  VarSet() = default;
  VarSet(size_t rowCount, size_t predicateCount) : rows(rowCount), predicates(predicateCount) {}
  bool merge(const VarSet& other) {
    const bool a = rows.merge(other.rows);
    const bool b = predicates.merge(other.predicates);
    return a || b;
  }
  void intersect(const VarSet& other) {
    rows.intersect(other.rows);
    predicates.intersect(other.predicates);
  }
  void subtract(const VarSet& other) {
    rows.subtract(other.rows);
    predicates.subtract(other.predicates);
  }
};

bool predicateOperands(Op op) {
  switch (op) {
  case Op::PredAnd:
  case Op::PredOr:
  case Op::PredXor:
  case Op::PredNot:
  case Op::PredCopy:
    return true;
  default:
    return false;
  }
}

bool isNative(Op op) {
  return op != Op::Interpret && op != Op::Handler;
}

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
  void emitWarpControl(uint32_t pc, llvm::Value* lanes);
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
  /// Blocks where the time slice is checked (where loops may close), and the pcs some SIMT entry
  /// may reconverge at (only there can going to a block pop the stack).
  std::set<uint32_t> yieldAt_, reconvergePcs_;
};

// --- analysis -----------------------------------------------------------------------------------

void Translator::accesses(uint32_t pc, VarSet& uses, VarSet& defs, bool& everything) const {
  const Instruction& in = plan_.code[pc];
  auto useRow = [&](uint32_t row) {
    if (isRegister(row))
      uses.rows.set(row);
  };
  auto usePredicate = [&](uint32_t p) {
    if (isPredicateVariable(p))
      uses.predicates.set(p);
  };
  auto defRow = [&](uint32_t row) {
    if (isRegister(row))
      defs.rows.set(row);
  };
  auto defPredicate = [&](uint32_t p) {
    if (isPredicateVariable(p))
      defs.predicates.set(p);
  };
  everything = in.usesEverything;
  if (in.guard != kNoRow)
    usePredicate(in.guard);
  switch (in.op) {
  case Op::Interpret:
    for (uint32_t row : in.rowUses)
      useRow(row);
    for (uint32_t p : in.predicateUses)
      usePredicate(p);
    return;
  case Op::Handler:
    if (in.knownDefs) {
      for (uint32_t row : in.rowUses)
        useRow(row);
      for (uint32_t p : in.predicateUses)
        usePredicate(p);
      for (uint32_t row : in.rowDefs)
        defRow(row);
      for (uint32_t p : in.predicateDefs)
        defPredicate(p);
      return;
    }
    // What a decoder-made handler reads only it knows: every operand, as row and predicate.
    for (uint32_t operand : in.operands) {
      if (operand == kNoRow)
        continue;
      useRow(operand);
      usePredicate(operand);
    }
    return;
  case Op::Setp:
    useRow(in.s[0]);
    useRow(in.s[1]);
    usePredicate(in.s[2]);
    defPredicate(in.d[0]);
    defPredicate(in.d[1]);
    break;
  case Op::Selp:
    useRow(in.s[0]);
    useRow(in.s[1]);
    usePredicate(in.s[2]);
    defRow(in.d[0]);
    break;
  case Op::Shuffle:
    // Masked blocks call its handler, which reads every operand (b and c too).
    for (uint32_t operand : in.operands)
      if (operand != kNoRow && operand != in.d[0] && operand != in.d[1])
        useRow(operand);
    defRow(in.d[0]);
    defPredicate(in.d[1]);
    break;
  case Op::Vote:
    usePredicate(in.s[0]);
    if (mode(in.flags) == kVoteBallot)
      defRow(in.d[0]);
    else
      defPredicate(in.d[0]);
    break;
  default:
    if (predicateOperands(in.op)) {
      for (uint32_t p : in.s)
        if (p != kNoRow)
          usePredicate(p);
      for (uint32_t p : in.d)
        if (p != kNoRow)
          defPredicate(p);
    } else {
      for (uint32_t row : in.s)
        if (row != kNoRow)
          useRow(row);
      for (uint32_t row : in.d)
        if (row != kNoRow)
          defRow(row);
    }
    break;
  }
}

std::vector<uint32_t> Translator::successors(uint32_t pc) const {
  const Instruction& in = plan_.code[pc];
  const auto size = static_cast<uint32_t>(plan_.code.size());
  std::vector<uint32_t> result;
  auto add = [&](uint32_t target) {
    if (target < size)
      result.push_back(target);
  };
  if (in.op == Op::Branch) {
    add(in.target);
    if (in.guard != kNoRow)
      add(pc + 1);
    return result;
  }
  if (in.op == Op::Interpret) {
    for (uint32_t target : in.targets)
      add(target);
    if (in.guard != kNoRow || in.control == ControlKind::Call ||
        in.control == ControlKind::Barrier || in.control == ControlKind::Sleep ||
        in.control == ControlKind::IndexedBranch)
      add(pc + 1);
    return result;
  }
  add(pc + 1);
  return result;
}

void Translator::analyze() {
  const auto size = static_cast<uint32_t>(plan_.code.size());
  const size_t rowCount = plan_.rows.size(), predicateCount = plan_.predicateCount;
  VarSet everything(rowCount, predicateCount);
  for (uint32_t row = 0; row < rowCount; ++row)
    if (isRegister(row))
      everything.rows.set(row);
  for (uint32_t p = 0; p < predicateCount; ++p)
    if (isPredicateVariable(p))
      everything.predicates.set(p);

  std::vector<VarSet> uses(size, VarSet(rowCount, predicateCount)),
      kills(size, VarSet(rowCount, predicateCount));
  tracked_ = VarSet(rowCount, predicateCount);
  written_ = VarSet(rowCount, predicateCount);
  std::vector<bool> usesAll(size, false);
  for (uint32_t pc = 0; pc < size; ++pc) {
    const Instruction& in = plan_.code[pc];
    VarSet use(rowCount, predicateCount), def(rowCount, predicateCount);
    bool all = false;
    accesses(pc, use, def, all);
    usesAll[pc] = all;
    if (isNative(in.op)) {
      tracked_.merge(use);
      tracked_.merge(def);
      written_.merge(def);
    } else if (in.guard != kNoRow && isPredicateVariable(in.guard)) {
      tracked_.predicates.set(in.guard); // guards are evaluated natively everywhere
    }
    if (in.guard != kNoRow)
      use.merge(def); // a guarded write keeps the other lanes' values
    else
      kills[pc] = def;
    uses[pc] = std::move(use);
  }
  liveIn_.assign(size, VarSet(rowCount, predicateCount));
  bool changed = true;
  while (changed) {
    changed = false;
    for (uint32_t pc = size; pc-- > 0;) {
      VarSet live(rowCount, predicateCount);
      if (usesAll[pc]) {
        live = everything;
      } else {
        for (uint32_t next : successors(pc))
          live.merge(liveIn_[next]);
        live.subtract(kills[pc]);
        live.merge(uses[pc]);
      }
      if (liveIn_[pc].merge(live))
        changed = true;
    }
  }

  // Blocks.
  for (uint32_t pc = 0; pc < size; ++pc) {
    if (!plan_.code[pc].leader)
      continue;
    Block block;
    block.start = pc;
    uint32_t at = pc;
    for (;; ++at) {
      if (at >= size) {
        block.exit = Block::Exit::Interpret;
        break;
      }
      if (at != pc && plan_.code[at].leader) {
        block.exit = Block::Exit::Fall;
        break;
      }
      if (plan_.code[at].op == Op::Interpret) {
        block.exit = Block::Exit::Interpret;
        break;
      }
      if (plan_.code[at].op == Op::Branch) {
        block.exit = Block::Exit::Branch;
        ++at;
        break;
      }
    }
    block.end = at;
    blockAt_[pc] = blocks_.size();
    blocks_.push_back(block);
  }

  // Where loops close (backward branches and the pcs lanes parked by divergence resume at) and
  // where entries may reconverge (branches' joins; calls return to pc + 1).
  for (uint32_t pc = 0; pc < size; ++pc) {
    const Instruction& in = plan_.code[pc];
    if (in.reconverge != kNoRow)
      reconvergePcs_.insert(in.reconverge);
    if (in.control == ControlKind::Call || in.control == ControlKind::IndexedBranch)
      reconvergePcs_.insert(pc + 1);
    if (in.op == Op::Branch) {
      if (in.target <= pc)
        yieldAt_.insert(in.target);
      if (in.guard != kNoRow) {
        yieldAt_.insert(in.reconverge);
        yieldAt_.insert(pc + 1);
      }
    }
  }

  // Where divergent branches may park lanes, and what must be in memory while they wait.
  pushLive_ = VarSet(rowCount, predicateCount);
  for (uint32_t pc = 0; pc < size; ++pc) {
    const Instruction& in = plan_.code[pc];
    if (in.op != Op::Branch || in.guard == kNoRow)
      continue;
    for (uint32_t target : {in.reconverge, pc + 1}) {
      if (target >= size)
        continue;
      pushTargets_.push_back(target);
      pushLive_.merge(liveIn_[target]);
    }
  }
  {
    size_t count = 0;
    VarSet parked = pushLive_;
    parked.intersect(written_);
    parked.rows.forEach([&](size_t) { ++count; });
    parked.predicates.forEach([&](size_t) { ++count; });
    ssaPops_ = count <= kSsaPopLimit;
  }
  std::sort(pushTargets_.begin(), pushTargets_.end());
  pushTargets_.erase(std::unique(pushTargets_.begin(), pushTargets_.end()), pushTargets_.end());
}

// --- registers ----------------------------------------------------------------------------------

llvm::Value* Translator::readRowAtOwnWidth(uint32_t row) {
  if (isRegister(row))
    return readRow(row, rowBits(row));
  return readRow(row, 64);
}

llvm::Value* Translator::readRow(uint32_t row, unsigned bits) {
  const Row& info = plan_.rows[row];
  switch (info.kind) {
  case RowKind::Constant: {
    const uint64_t value = bits >= 64 ? info.value : info.value & ((uint64_t{1} << bits) - 1);
    return splatInt(bits, value);
  }
  case RowKind::Uniform: {
    auto* load = b_.CreateLoad(b_.getInt64Ty(), rowPointer(row));
    markInvariant(load);
    llvm::Value* value = load;
    if (bits < 64)
      value = b_.CreateTrunc(value, laneType(bits));
    return splat(value);
  }
  case RowKind::Lanes: {
    auto* load = b_.CreateAlignedLoad(intVector(64), rowPointer(row), llvm::Align(8));
    markInvariant(load);
    return bits < 64 ? b_.CreateTrunc(load, intVector(bits)) : static_cast<llvm::Value*>(load);
  }
  case RowKind::Register:
    break;
  }
  llvm::AllocaInst* slot = rowSlots_[row];
  llvm::Value* value = b_.CreateLoad(slot->getAllocatedType(), slot);
  const unsigned width = rowBits(row);
  if (bits < width)
    value = b_.CreateTrunc(value, intVector(bits));
  else if (bits > width)
    value = b_.CreateZExt(value, intVector(bits));
  return value;
}

void Translator::writeRow(uint32_t row, llvm::Value* value, ValueType type, llvm::Value* mask) {
  llvm::AllocaInst* slot = rowSlots_[row];
  const unsigned width = rowBits(row);
  const unsigned bits = type.bits;
  if (bits < width)
    value = type.kind == Kind::Signed ? b_.CreateSExt(value, intVector(width))
                                      : b_.CreateZExt(value, intVector(width));
  else if (bits > width)
    value = b_.CreateTrunc(value, intVector(width));
  writeSlot(slot, rowDefined_[row], value, mask,
            guardedWrite_ || (ssaPops_ && pushLive_.rows.test(row)));
}

/// A register write under `mask` (null: every lane). A guarded instruction keeps the other
/// current lanes' values (`preserve`), and so do registers lanes parked by divergence read when
/// their entry is popped in registers (ssaPops_). Otherwise an unguarded write in a masked block
/// leaves nothing for the lanes outside the block's mask: those lanes wait in other SIMT entries,
/// with their registers in memory (see the stores at pushes and pops), and `defined` keeps their
/// memory from being overwritten. So the old value is not read, which keeps registers from living
/// longer than the program uses them.
void Translator::writeSlot(llvm::AllocaInst* slot, llvm::AllocaInst* defined, llvm::Value* value,
                           llvm::Value* mask, bool preserve) {
  if (mask == nullptr) {
    b_.CreateStore(value, slot);
    if (defined != nullptr)
      b_.CreateStore(b_.getInt32(kAllLanes), defined);
    return;
  }
  llvm::Value* lanes = b_.CreateBitCast(mask, b_.getInt32Ty());
  if (preserve) {
    value = b_.CreateSelect(mask, value, b_.CreateLoad(slot->getAllocatedType(), slot));
    if (defined != nullptr)
      b_.CreateStore(b_.CreateOr(b_.CreateLoad(b_.getInt32Ty(), defined), lanes), defined);
  } else {
    value = b_.CreateSelect(mask, value, llvm::Constant::getNullValue(value->getType()));
    if (defined != nullptr)
      b_.CreateStore(lanes, defined);
  }
  b_.CreateStore(value, slot);
}

void Translator::define(llvm::AllocaInst* defined, llvm::Value* mask) {
  if (defined == nullptr)
    return;
  if (mask == nullptr) {
    b_.CreateStore(b_.getInt32(kAllLanes), defined);
    return;
  }
  llvm::Value* lanes = b_.CreateBitCast(mask, b_.getInt32Ty());
  b_.CreateStore(b_.CreateOr(b_.CreateLoad(b_.getInt32Ty(), defined), lanes), defined);
}

llvm::Value* Translator::readPredicate(uint32_t p) {
  if (p == plan_.truePredicate)
    return allTrue();
  if (p == plan_.falsePredicate || p >= plan_.predicateCount)
    return llvm::Constant::getNullValue(maskType());
  llvm::AllocaInst* slot = predicateSlots_[p];
  return b_.CreateLoad(maskType(), slot);
}

void Translator::writePredicate(uint32_t p, llvm::Value* value, llvm::Value* mask) {
  if (!isPredicateVariable(p))
    return;
  writeSlot(predicateSlots_[p], predicateDefined_[p], value, mask,
            guardedWrite_ || (ssaPops_ && pushLive_.predicates.test(p)));
}

void Translator::loadRowFromMemory(uint32_t row) {
  llvm::Value* value = b_.CreateAlignedLoad(intVector(64), rowPointer(row), llvm::Align(8));
  if (rowBits(row) < 64)
    value = b_.CreateTrunc(value, intVector(rowBits(row)));
  b_.CreateStore(value, rowSlots_[row]);
  define(rowDefined_[row], nullptr);
}

void Translator::storeRowToMemory(uint32_t row) {
  llvm::AllocaInst* slot = rowSlots_[row];
  llvm::Value* value = b_.CreateLoad(slot->getAllocatedType(), slot);
  if (rowBits(row) < 64)
    value = b_.CreateZExt(value, intVector(64));
  llvm::Value* lanes = b_.CreateLoad(b_.getInt32Ty(), rowDefined_[row]);
  b_.CreateMaskedStore(value, rowPointer(row), llvm::Align(8), b_.CreateBitCast(lanes, maskType()));
}

void Translator::loadPredicateFromMemory(uint32_t p) {
  llvm::Value* bits = b_.CreateLoad(b_.getInt32Ty(), predicatePointer(p));
  b_.CreateStore(b_.CreateBitCast(bits, maskType()), predicateSlots_[p]);
  define(predicateDefined_[p], nullptr);
}

void Translator::storePredicateToMemory(uint32_t p) {
  llvm::Value* value =
      b_.CreateBitCast(b_.CreateLoad(maskType(), predicateSlots_[p]), b_.getInt32Ty());
  llvm::Value* lanes = b_.CreateLoad(b_.getInt32Ty(), predicateDefined_[p]);
  llvm::Value* pointer = predicatePointer(p);
  llvm::Value* old = b_.CreateLoad(b_.getInt32Ty(), pointer);
  b_.CreateStore(b_.CreateOr(b_.CreateAnd(old, b_.CreateNot(lanes)), b_.CreateAnd(value, lanes)),
                 pointer);
}

void Translator::storeVariables(const VarSet& set) {
  set.rows.forEach([&](size_t row) {
    if (written_.rows.test(row))
      storeRowToMemory(static_cast<uint32_t>(row));
  });
  set.predicates.forEach([&](size_t p) {
    if (written_.predicates.test(p))
      storePredicateToMemory(static_cast<uint32_t>(p));
  });
}

// --- control ------------------------------------------------------------------------------------

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
  rows_ = loadField(ptr, offsetof(NativeWarpState, rows));
  predicates_ = loadField(ptr, offsetof(NativeWarpState, predicates));
  executionContext_ = loadField(ptr, offsetof(NativeWarpState, context));
  code_ = loadField(ptr, offsetof(NativeWarpState, code));
  shared_ = loadField(ptr, offsetof(NativeWarpState, shared));
  sharedSize_ = loadField(i64, offsetof(NativeWarpState, sharedSize));
  local_ = loadField(ptr, offsetof(NativeWarpState, local));
  localStride_ = loadField(i64, offsetof(NativeWarpState, localStride));
  localSize_ = loadField(i64, offsetof(NativeWarpState, localSize));
  frameBase_ = loadField(i64, offsetof(NativeWarpState, frameBase));
  arenaBase_ = loadField(i64, offsetof(NativeWarpState, arenaBase));
  arenaSize_ = loadField(i64, offsetof(NativeWarpState, arenaSize));
  sharedWindow_ = loadField(i64, offsetof(NativeWarpState, sharedWindow));
  localWindow_ = loadField(i64, offsetof(NativeWarpState, localWindow));
  checked_ = b_.CreateICmpNE(loadField(b_.getInt32Ty(), offsetof(NativeWarpState, checked)),
                             b_.getInt32(0));
  live_ = loadField(b_.getInt32Ty(), offsetof(NativeWarpState, live));
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
  llvm::BasicBlock* unknown = newBlock("not.an.entry");
  auto* dispatch = b_.CreateSwitch(pc, unknown, static_cast<unsigned>(blocks_.size()));
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
    b_.CreateBr(exitBlock(pc + 1, NativeExit::Exit));
    return;
  }
  storeField(b_.getInt32(static_cast<uint32_t>(in.imm)), offsetof(NativeWarpState, barrier));
  if (in.flags & kAligned) {
    llvm::BasicBlock* arrive = newBlock("arrive.barrier." + llvm::Twine(pc));
    b_.CreateCondBr(b_.CreateICmpEQ(lanes, live_), arrive, exitBlock(pc, NativeExit::Interpret));
    b_.SetInsertPoint(arrive);
  }
  b_.CreateBr(exitBlock(pc + 1, NativeExit::Barrier));
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

// --- float semantics ----------------------------------------------------------------------------

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
  case Op::Shuffle: {
    // The interpreter's lane arithmetic, done once: a source lane per lane, or the lane itself
    // (with a false predicate) when the source is outside the segment.
    const uint64_t b = static_cast<uint64_t>(in.imm) & 0xffffffffu,
                   c = static_cast<uint64_t>(in.imm) >> 32;
    const uint32_t bval = static_cast<uint32_t>(b) & 31, cval = static_cast<uint32_t>(c) & 31;
    const uint32_t segment = (static_cast<uint32_t>(c) >> 8) & 31;
    std::vector<int> sources;
    std::vector<llvm::Constant*> valid;
    for (uint32_t lane = 0; lane < kLanes; ++lane) {
      const uint32_t maxLane = (lane & segment) | (cval & ~segment);
      const uint32_t minLane = lane & segment;
      int32_t j = 0;
      bool ok = false;
      switch (mode(in.flags)) {
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
      if (!ok)
        j = static_cast<int32_t>(lane);
      sources.push_back(j & 31);
      valid.push_back(ok ? b_.getTrue() : b_.getFalse());
    }
    llvm::Value* value = readRow(in.s[0], 32);
    writeRow(in.d[0], b_.CreateShuffleVector(value, sources), in.type, mask);
    if (in.d[1] != kNoRow)
      writePredicate(in.d[1], llvm::ConstantVector::get(valid), mask);
    return;
  }
  case Op::Vote: {
    llvm::Value* p = readPredicate(in.s[0]);
    if (in.flags & kNegate)
      p = b_.CreateNot(p);
    llvm::Value* value = b_.CreateAnd(b_.CreateBitCast(p, b_.getInt32Ty()), maskBits);
    if (mode(in.flags) == kVoteBallot) {
      writeRow(in.d[0], splat(value), in.type, mask);
      return;
    }
    llvm::Value* result = nullptr;
    switch (mode(in.flags)) {
    case kVoteAll:
      result = b_.CreateICmpEQ(value, maskBits);
      break;
    case kVoteAny:
      result = b_.CreateICmpNE(value, b_.getInt32(0));
      break;
    default:
      result =
          b_.CreateOr(b_.CreateICmpEQ(value, b_.getInt32(0)), b_.CreateICmpEQ(value, maskBits));
      break;
    }
    writePredicate(in.d[0], splat(result), mask);
    return;
  }
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
    if (in.op == Op::Popc || in.op == Op::Clz)
      type = ValueType{32, Kind::Unsigned};
    writeRow(in.d[0], value, type, mask);
    return;
  }
  }
}

// --- memory -------------------------------------------------------------------------------------

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

llvm::Function* Translator::run(const std::string& symbol, std::string* error) {
  if (plan_.layout.stateSize != sizeof(NativeWarpState) ||
      plan_.layout.stackCapacity != kNativeStackCapacity) {
    *error = "the plan was made for another layout of the warp state";
    return nullptr;
  }
  analyze();
  auto* type = llvm::FunctionType::get(b_.getInt32Ty(), {b_.getPtrTy()}, false);
  function_ = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, symbol, module_);
  function_->addFnAttr(llvm::Attribute::NoUnwind);
  function_->addFnAttr("min-legal-vector-width", "2048");
  state_ = function_->getArg(0);
  for (const Block& block : blocks_) {
    full_[block.start] = newBlock("full." + llvm::Twine(block.start));
    masked_[block.start] = newBlock("masked." + llvm::Twine(block.start));
  }
  emitPrologue();
  single_ = plan_.code.size() > kTwoVersionsLimit;
  for (const Block& block : blocks_) {
    if (!single_)
      emitBody(block, true);
    emitBody(block, false);
  }
  if (single_)
    for (auto& [pc, block] : full_) {
      new llvm::UnreachableInst(context_, block); // never entered
      (void)pc;
    }
  std::string message;
  llvm::raw_string_ostream stream(message);
  if (llvm::verifyFunction(*function_, &stream)) {
    *error = "generated code does not verify: " + stream.str();
    function_->eraseFromParent();
    return nullptr;
  }
  return function_;
}

} // namespace

llvm::Function* translateKernel(const Plan& plan, const TargetInfo& target,
                                const std::string& symbol, llvm::Module& module, std::string* error,
                                std::string* analysis) {
  Translator translator(plan, target, module);
  llvm::Function* function = translator.run(symbol, error);
  if (analysis != nullptr)
    *analysis = translator.describe();
  return function;
}

} // namespace ocelot::runtime::cpu::native
