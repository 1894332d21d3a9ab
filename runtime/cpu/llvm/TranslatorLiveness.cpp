// Which registers and predicates native code keeps in SSA values, where they are live, and
// the native blocks: the analysis run before any code is generated.

#include "runtime/cpu/llvm/Translator.h"

#include <algorithm>
#include <vector>

namespace ocelot::runtime::cpu::native::translation {

namespace {

/// Registers live where parked lanes resume up to which they stay in registers across pops.
constexpr size_t kSsaPopLimit = 48;

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

} // namespace

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
    if (in.flags & kMemberMaskRow)
      useRow(in.s[1]);
    if (mode(in.flags) == kVoteBallot)
      defRow(in.d[0]);
    else
      defPredicate(in.d[0]);
    break;
  case Op::Match:
  case Op::Redux:
    useRow(in.s[0]);
    if (in.flags & kMemberMaskRow)
      useRow(in.s[1]);
    defRow(in.d[0]);
    defPredicate(in.d[1]);
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

} // namespace ocelot::runtime::cpu::native::translation
