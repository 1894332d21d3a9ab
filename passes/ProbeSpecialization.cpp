// Specialization of one inlined probe instance (passes/ProbeSpecialization.h): constants and value
// ranges through the template's items, guards and branches they decide, pure items nothing reads.
#include "passes/ProbeSpecialization.h"

#include "ir/Casting.h"
#include "ir/RegisterAccess.h"

#include <algorithm>
#include <set>

namespace ocelot::passes::detail {

using ir::Instruction;
using ir::Operand;
using ir::RegisterRef;

namespace {

using Item = InlineTemplate::Item;

using Constants = std::map<RegisterRef, uint64_t>;

std::optional<uint64_t> valueOf(const Operand& op, const Constants& constants);
bool integerType(ir::ScalarType type);

/// Values known to lie in [lo, hi]; relative ones are offsets from the caller's buffer address.
struct Range {
  bool relative = false;
  uint64_t lo = 0, hi = 0;
  friend bool operator==(const Range&, const Range&) = default;
};
using Ranges = std::map<RegisterRef, Range>;

/// Bounds kept small enough that sums and products of two cannot overflow 64 bits.
constexpr uint64_t kRangeLimit = uint64_t{1} << 40;

std::optional<Range> rangeOfOperand(const Operand& op, const Constants& constants,
                                    const Ranges& ranges) {
  if (const auto* sreg = op.getIf<ir::SpecialRegisterOperand>()) {
    std::string_view name = sreg->name;
    if (name == "%tid" || name == "%ntid")
      return Range{false, 0, 1024};
    if (name == "%ctaid" || name == "%nctaid")
      return Range{false, 0, (uint64_t{1} << 31) - 1};
    if (name == "%laneid")
      return Range{false, 0, 31};
    return std::nullopt;
  }
  if (const auto* reg = op.getIf<ir::RegisterOperand>()) {
    if (reg->component != ir::VectorComponent::None || reg->negated)
      return std::nullopt;
    if (auto found = ranges.find(reg->reg); found != ranges.end())
      return found->second;
  }
  if (const auto* imm = op.getIf<ir::ImmediateOperand>(); imm && imm->isFloat())
    return std::nullopt;
  auto v = valueOf(op, constants);
  if (!v || *v >= kRangeLimit)
    return std::nullopt;
  return Range{false, *v, *v};
}

/// The range of what `inst` writes, from its operands' ranges (unsigned, non-negative values).
std::optional<Range> rangeOf(const Instruction& inst, const Constants& constants,
                             const Ranges& ranges) {
  const ir::InstructionForm& form = inst.form();
  ir::Opcode op = form.opcode();
  const auto& ops = inst.operands();
  auto type = form.lastType();
  if (!type || !integerType(*type))
    return std::nullopt;
  unsigned bits = ir::scalarTypeBits(*type);
  auto source = [&](size_t i) -> std::optional<Range> {
    return i < ops.size() ? rangeOfOperand(ops[i], constants, ranges) : std::nullopt;
  };
  auto fits = [&](const Range& r) -> std::optional<Range> {
    if (r.hi >= kRangeLimit || (!r.relative && bits < 64 && r.hi >= (uint64_t{1} << bits)) ||
        (r.relative && bits != 64))
      return std::nullopt;
    return r;
  };
  if (op == ir::Opcode::Mov && ops.size() == 2) {
    auto a = source(1);
    return a ? fits(*a) : std::nullopt;
  }
  if (op == ir::Opcode::Cvt && ops.size() == 2 && form.modifiers().size() == 2) {
    auto to = form.firstType();
    auto a = source(1);
    if (!to || !integerType(*to) || !a || a->relative)
      return std::nullopt;
    unsigned from = bits;
    bits = ir::scalarTypeBits(*to);
    if (from < 64 && a->hi >= (uint64_t{1} << (from - 1)) && ir::isSignedIntegerType(*type))
      return std::nullopt; // might be negative in the source type
    return fits(*a);
  }
  if (op == ir::Opcode::Mad && ops.size() == 4 && form.hasModifier("lo")) {
    auto a = source(1), b = source(2), c = source(3);
    if (!a || !b || !c || a->relative || b->relative)
      return std::nullopt;
    if (a->hi != 0 && b->hi > kRangeLimit / a->hi)
      return std::nullopt;
    return fits(Range{c->relative, a->lo * b->lo + c->lo, a->hi * b->hi + c->hi});
  }
  if (ops.size() != 3)
    return std::nullopt;
  auto a = source(1), b = source(2);
  if (!a || !b)
    return std::nullopt;
  if (op == ir::Opcode::Add) {
    if (a->relative && b->relative)
      return std::nullopt;
    return fits(Range{a->relative || b->relative, a->lo + b->lo, a->hi + b->hi});
  }
  if (a->relative || b->relative)
    return std::nullopt;
  bool wide = form.hasModifier("wide");
  if ((op == ir::Opcode::Mul && (form.hasModifier("lo") || wide)) || op == ir::Opcode::Shl) {
    if (op == ir::Opcode::Shl) {
      if (b->lo != b->hi || b->lo >= 24)
        return std::nullopt;
      b = Range{false, uint64_t{1} << b->lo, uint64_t{1} << b->lo};
    }
    if (a->hi != 0 && b->hi > kRangeLimit / a->hi)
      return std::nullopt;
    if (wide)
      bits = 2 * bits;
    return fits(Range{false, a->lo * b->lo, a->hi * b->hi});
  }
  if (op == ir::Opcode::And)
    return fits(Range{false, 0, std::min(a->hi, b->hi)});
  return std::nullopt;
}

uint64_t maskTo(uint64_t value, unsigned bits) {
  return bits >= 64 ? value : value & ((uint64_t{1} << bits) - 1);
}

int64_t signExtend(uint64_t value, unsigned bits) {
  if (bits >= 64)
    return static_cast<int64_t>(value);
  uint64_t sign = uint64_t{1} << (bits - 1);
  value = maskTo(value, bits);
  return static_cast<int64_t>((value ^ sign) - sign);
}

std::optional<uint64_t> valueOf(const Operand& op, const Constants& constants) {
  if (const auto* imm = op.getIf<ir::ImmediateOperand>()) {
    if (imm->isFloat())
      return std::nullopt;
    return static_cast<uint64_t>(imm->integerValue());
  }
  if (const auto* reg = op.getIf<ir::RegisterOperand>()) {
    if (reg->component != ir::VectorComponent::None)
      return std::nullopt;
    auto found = constants.find(reg->reg);
    if (found == constants.end())
      return std::nullopt;
    return reg->negated ? (found->second == 0 ? 1 : 0) : found->second;
  }
  return std::nullopt;
}

/// The register an instruction defines when it defines exactly one, whole.
std::optional<RegisterRef> definedRegister(const Instruction& inst) {
  if (inst.form().traits().definitions != ir::DefinitionPattern::FirstOperand ||
      inst.operands().empty())
    return std::nullopt;
  const auto* reg = inst.operands()[0].getIf<ir::RegisterOperand>();
  if (reg == nullptr || reg->component != ir::VectorComponent::None)
    return std::nullopt;
  return reg->reg;
}

/// Every register an instruction may write.
void writtenRegisters(const Instruction& inst, std::vector<RegisterRef>& out) {
  ir::forEachRegisterAccess(inst, [&](RegisterRef ref, const ir::RegisterAccess& access) {
    if (access.written)
      out.push_back(ref);
  });
}

bool integerType(ir::ScalarType type) {
  return type != ir::ScalarType::Pred && !ir::isFloatType(type) && ir::scalarTypeBits(type) <= 64;
}

/// The value `inst` gives its register when its operands are the constants, or nullopt.
std::optional<uint64_t> evaluate(const Instruction& inst, const Constants& constants) {
  const ir::InstructionForm& form = inst.form();
  ir::Opcode op = form.opcode();
  const auto& ops = inst.operands();
  auto type = form.lastType();
  if (!type)
    return std::nullopt;
  unsigned bits = ir::scalarTypeBits(*type);
  bool isSigned = ir::isSignedIntegerType(*type);
  auto source = [&](size_t i) -> std::optional<uint64_t> {
    return i < ops.size() ? valueOf(ops[i], constants) : std::nullopt;
  };
  if (op == ir::Opcode::Mov && ops.size() == 2 &&
      (integerType(*type) || *type == ir::ScalarType::Pred))
    return source(1);
  if (op == ir::Opcode::Cvt && ops.size() == 2 && form.modifiers().size() == 2) {
    auto to = form.firstType();
    if (!to || !integerType(*to) || !integerType(*type))
      return std::nullopt;
    auto v = source(1);
    if (!v)
      return std::nullopt;
    int64_t wide = isSigned ? signExtend(*v, bits) : static_cast<int64_t>(maskTo(*v, bits));
    return maskTo(static_cast<uint64_t>(wide), ir::scalarTypeBits(*to));
  }
  if (op == ir::Opcode::Selp && ops.size() == 4) {
    auto p = source(3);
    if (!p)
      return std::nullopt;
    return source(*p != 0 ? 1 : 2);
  }
  if (op == ir::Opcode::Setp && ops.size() == 3 && integerType(*type) &&
      form.modifiers().size() == 2) {
    auto a = source(1), b = source(2);
    if (!a || !b)
      return std::nullopt;
    std::string_view cmp = form.modifiers()[0];
    int64_t sa = isSigned ? signExtend(*a, bits) : 0, sb = isSigned ? signExtend(*b, bits) : 0;
    uint64_t ua = maskTo(*a, bits), ub = maskTo(*b, bits);
    bool r;
    if (cmp == "eq")
      r = ua == ub;
    else if (cmp == "ne")
      r = ua != ub;
    else if (cmp == "lt" || cmp == "lo")
      r = isSigned && cmp == "lt" ? sa < sb : ua < ub;
    else if (cmp == "le" || cmp == "ls")
      r = isSigned && cmp == "le" ? sa <= sb : ua <= ub;
    else if (cmp == "gt" || cmp == "hi")
      r = isSigned && cmp == "gt" ? sa > sb : ua > ub;
    else if (cmp == "ge" || cmp == "hs")
      r = isSigned && cmp == "ge" ? sa >= sb : ua >= ub;
    else
      return std::nullopt;
    return r ? 1 : 0;
  }
  if (*type == ir::ScalarType::Pred) {
    // Predicate logic, as nvcc writes `a && b` of a site constant and a run-time value: a false
    // operand decides `and`, a true one `or`, whatever the other.
    if (op == ir::Opcode::Not && ops.size() == 2) {
      auto a = source(1);
      return a ? std::optional<uint64_t>(*a == 0 ? 1 : 0) : std::nullopt;
    }
    if (ops.size() != 3 || (op != ir::Opcode::And && op != ir::Opcode::Or && op != ir::Opcode::Xor))
      return std::nullopt;
    auto a = source(1), b = source(2);
    if (op == ir::Opcode::And && ((a && *a == 0) || (b && *b == 0)))
      return 0;
    if (op == ir::Opcode::Or && ((a && *a != 0) || (b && *b != 0)))
      return 1;
    if (!a || !b)
      return std::nullopt;
    bool x = *a != 0, y = *b != 0;
    return op == ir::Opcode::And ? (x && y) : op == ir::Opcode::Or ? (x || y) : (x != y);
  }
  if (ops.size() != 3 || !integerType(*type))
    return std::nullopt;
  if (op == ir::Opcode::Mul && !form.hasModifier("lo"))
    return std::nullopt; // mul.wide, mul.hi
  auto a = source(1), b = source(2);
  if (!a || !b)
    return std::nullopt;
  uint64_t r;
  if (op == ir::Opcode::Add)
    r = *a + *b;
  else if (op == ir::Opcode::Sub)
    r = *a - *b;
  else if (op == ir::Opcode::Mul)
    r = *a * *b;
  else if (op == ir::Opcode::And)
    r = *a & *b;
  else if (op == ir::Opcode::Or)
    r = *a | *b;
  else if (op == ir::Opcode::Xor)
    r = *a ^ *b;
  else if (op == ir::Opcode::Shl)
    r = *b >= bits ? 0 : *a << *b;
  else if (op == ir::Opcode::Shr)
    r = *b >= bits ? (isSigned && signExtend(*a, bits) < 0 ? ~uint64_t{0} : 0)
        : isSigned ? static_cast<uint64_t>(signExtend(*a, bits) >> *b)
                   : maskTo(*a, bits) >> *b;
  else
    return std::nullopt;
  return maskTo(r, bits);
}

/// Instructions whose only effect is their result: left out when nothing reads it.
bool pure(const Instruction& inst) {
  const ir::InstructionForm& form = inst.form();
  return form.traits().known() && !form.accessesMemory() && !form.has(ir::kSideEffects) &&
         !form.has(ir::kWarpCollective) && !form.has(ir::kCall) && !form.isTerminator() &&
         !form.has(ir::kAsynchronous) && !form.has(ir::kTexture) &&
         form.traits().definitions == ir::DefinitionPattern::FirstOperand;
}

/// What a predicate says about a register: `x CMP bound`, unsigned (from `setp.CMP.uN p, x, C`).
struct Relation {
  RegisterRef x;
  std::string_view cmp; ///< lt, le, gt, ge (lo, ls, hi, hs as their unsigned spellings)
  uint64_t bound = 0;
};

/// `setp.CMP.uN p, x, C` (or `C, x`, the comparison turned around) as a relation, or nullopt.
std::optional<Relation> relationOf(const Instruction& inst, const Constants& constants) {
  const ir::InstructionForm& form = inst.form();
  const auto& ops = inst.operands();
  auto type = form.lastType();
  if (form.opcode() != ir::Opcode::Setp || ops.size() != 3 || form.modifiers().size() != 2 ||
      !type || !integerType(*type) || ir::isSignedIntegerType(*type))
    return std::nullopt;
  std::string_view cmp = form.modifiers()[0];
  if (cmp == "lo")
    cmp = "lt";
  else if (cmp == "ls")
    cmp = "le";
  else if (cmp == "hi")
    cmp = "gt";
  else if (cmp == "hs")
    cmp = "ge";
  if (cmp != "lt" && cmp != "le" && cmp != "gt" && cmp != "ge")
    return std::nullopt;
  const auto* left = ops[1].getIf<ir::RegisterOperand>();
  const auto* right = ops[2].getIf<ir::RegisterOperand>();
  if (left != nullptr && !valueOf(ops[1], constants)) {
    auto c = valueOf(ops[2], constants);
    if (!c || left->component != ir::VectorComponent::None)
      return std::nullopt;
    return Relation{left->reg, cmp, *c};
  }
  if (right != nullptr && !valueOf(ops[2], constants)) {
    auto c = valueOf(ops[1], constants);
    if (!c || right->component != ir::VectorComponent::None)
      return std::nullopt;
    // C < x  is  x > C, and so on.
    std::string_view turned = cmp == "lt" ? "gt" : cmp == "le" ? "ge" : cmp == "gt" ? "lt" : "le";
    return Relation{right->reg, turned, *c};
  }
  return std::nullopt;
}

/// The range `relation` (true or false) gives its register: only upper bounds are kept, which is
/// what bounds an index.
std::optional<Range> refine(const Relation& relation, bool holds) {
  std::string_view cmp = relation.cmp;
  if (!holds) // x < C false: x >= C ...
    cmp = cmp == "lt" ? "ge" : cmp == "le" ? "gt" : cmp == "gt" ? "le" : "lt";
  if (cmp == "lt" && relation.bound > 0 && relation.bound <= kRangeLimit)
    return Range{false, 0, relation.bound - 1};
  if (cmp == "le" && relation.bound < kRangeLimit)
    return Range{false, 0, relation.bound};
  return std::nullopt;
}

} // namespace

InstancePlan specialize(const InlineTemplate& t,
                        const std::function<std::optional<uint64_t>(const Item&)>& constantOf,
                        const std::function<std::optional<uint64_t>(const Item&)>& offsetOf) {
  const auto& blocks = t.blocks();
  InstancePlan plan;
  plan.reachable.assign(blocks.size(), true);
  plan.emit.resize(blocks.size());
  for (size_t b = 0; b < blocks.size(); ++b)
    plan.emit[b].assign(blocks[b].size(), InstancePlan::kEmit);
  std::map<ir::LabelId, size_t> blockOfLabel;
  for (size_t b = 0; b < blocks.size(); ++b)
    for (const Item& item : blocks[b])
      if (item.kind == Item::Kind::Label)
        blockOfLabel[item.label] = b;
  std::map<const Item*, std::optional<uint64_t>> intrinsics, offsets;
  for (const auto& items : blocks)
    for (const Item& item : items)
      if (item.kind == Item::Kind::Intrinsic) {
        intrinsics[&item] = constantOf(item);
        if (!intrinsics[&item])
          offsets[&item] = offsetOf(item);
      }

  // Constants, flow by flow (sparse conditional constant propagation on the probe's few blocks):
  // a block's registers are constant when every executable edge into it brings the same value;
  // edges a constant guard rules out are not executable.
  struct BlockState {
    bool visited = false;
    Constants in, out;
    Ranges rangesOut;
    std::vector<size_t> successors;
    /// The block's last branch when its predicate is a relation: what each way says.
    std::optional<Relation> branchRelation;
    bool branchNegated = false;
    size_t branchTarget = SIZE_MAX;
  };
  std::vector<BlockState> state(blocks.size());
  auto guardValue = [](const Instruction& inst, const Constants& known) -> std::optional<bool> {
    if (!inst.guard())
      return true;
    auto v = valueOf(ir::RegisterOperand{inst.guard()->predicate}, known);
    if (!v)
      return std::nullopt;
    return (*v != 0) != inst.guard()->negated;
  };
  std::vector<size_t> work{0};
  std::vector<std::vector<size_t>> predecessors(blocks.size());
  while (!work.empty()) {
    size_t b = work.back();
    work.pop_back();
    // In: the meet of the visited predecessors' outs (an unvisited one brings nothing yet).
    Constants in;
    Ranges rangesIn;
    bool first = true;
    auto meet = [](auto& into, const auto& other) {
      for (auto it = into.begin(); it != into.end();) {
        auto found = other.find(it->first);
        if (found == other.end() || !(found->second == it->second))
          it = into.erase(it);
        else
          ++it;
      }
    };
    for (size_t p : predecessors[b]) {
      if (!state[p].visited)
        continue;
      // What the edge p -> b says: a branch taken or not on `x CMP C` bounds x.
      Ranges edge = state[p].rangesOut;
      const BlockState& from = state[p];
      if (from.branchRelation && from.branchTarget != p + 1) {
        bool taken = b == from.branchTarget;
        if (auto r = refine(*from.branchRelation, taken != from.branchNegated)) {
          auto known = edge.find(from.branchRelation->x);
          if (known == edge.end() || (!known->second.relative && known->second.hi > r->hi))
            edge[from.branchRelation->x] = *r;
        }
      }
      if (first) {
        in = state[p].out;
        rangesIn = std::move(edge);
        first = false;
        continue;
      }
      meet(in, state[p].out);
      meet(rangesIn, edge);
    }
    Constants known = in;
    Ranges ranges = rangesIn;
    std::map<RegisterRef, Relation> relations; // predicates defined in this block
    std::optional<Relation> branchRelation;
    bool branchNegated = false;
    size_t branchTarget = SIZE_MAX;
    std::vector<size_t> successors;
    bool fallsThrough = true;
    for (size_t i = 0; i < blocks[b].size(); ++i) {
      const Item& item = blocks[b][i];
      if (item.kind == Item::Kind::Intrinsic) {
        plan.emit[b][i] = InstancePlan::kEmit;
        if (item.result) {
          known.erase(*item.result);
          ranges.erase(*item.result);
          if (auto v = intrinsics[&item])
            known[*item.result] = *v;
          else if (auto offset = offsets[&item]; offset && *offset < kRangeLimit)
            ranges[*item.result] = Range{true, *offset, *offset};
        }
        continue;
      }
      if (item.kind == Item::Kind::Return) {
        std::optional<bool> runs = guardValue(*item.instruction, known);
        if (runs && *runs) {
          fallsThrough = false;
          break;
        }
        continue;
      }
      if (item.kind != Item::Kind::Instruction)
        continue;
      const Instruction& inst = *item.instruction;
      std::optional<bool> runs = guardValue(inst, known);
      if (inst.form().has(ir::kBranch)) {
        size_t target = 0;
        for (const Operand& op : inst.operands())
          if (const auto* label = op.getIf<ir::LabelOperand>())
            target = blockOfLabel.at(label->label);
        plan.emit[b][i] = !runs   ? InstancePlan::kEmit
                          : *runs ? (inst.guard() ? InstancePlan::kAlways : InstancePlan::kEmit)
                                  : InstancePlan::kSkip;
        if (!runs || *runs)
          successors.push_back(target);
        if (!runs && inst.guard()) {
          auto relation = relations.find(inst.guard()->predicate);
          if (relation != relations.end()) {
            branchRelation = relation->second;
            branchNegated = inst.guard()->negated;
            branchTarget = target;
          }
        }
        if (runs && *runs) {
          fallsThrough = false;
          break;
        }
        continue;
      }
      if (runs && !*runs)
        continue; // never runs: no effect
      if (item.write) {
        // The bytes it can touch, from the range of its address register.
        plan.writeBytes.erase(&item);
        for (const Operand& op : inst.operands())
          if (const auto* address = op.getIf<ir::AddressOperand>()) {
            const auto* base = std::get_if<ir::RegisterOperand>(&address->base);
            auto r = base != nullptr ? rangeOfOperand(*base, known, ranges) : std::nullopt;
            auto type = inst.form().lastType();
            uint64_t bytes =
                type ? (ir::scalarTypeBits(*type) + 7) / 8 * inst.form().vectorWidth() : 0;
            if (r && r->relative && address->offset >= 0 && bytes != 0)
              plan.writeBytes[&item] = {r->lo + static_cast<uint64_t>(address->offset),
                                        r->hi + static_cast<uint64_t>(address->offset) + bytes};
            break;
          }
      }
      // Relations die with their predicate or their register.
      std::vector<RegisterRef> killed;
      writtenRegisters(inst, killed);
      for (RegisterRef k : killed)
        for (auto it = relations.begin(); it != relations.end();)
          it = it->first == k || it->second.x == k ? relations.erase(it) : std::next(it);
      if (auto relation = relationOf(inst, known); relation && runs && definedRegister(inst))
        relations[*definedRegister(inst)] = *relation;
      auto target = definedRegister(inst);
      if (target && runs) {
        auto v = evaluate(inst, known);
        auto r = rangeOf(inst, known, ranges);
        known.erase(*target);
        ranges.erase(*target);
        if (v)
          known[*target] = *v;
        if (r)
          ranges[*target] = *r;
      } else {
        std::vector<RegisterRef> written;
        writtenRegisters(inst, written);
        for (RegisterRef r : written) {
          known.erase(r);
          ranges.erase(r);
        }
      }
    }
    if (fallsThrough && b + 1 < blocks.size())
      successors.push_back(b + 1);
    bool changed = !state[b].visited || known != state[b].out || ranges != state[b].rangesOut ||
                   successors != state[b].successors || branchTarget != state[b].branchTarget;
    state[b].visited = true;
    state[b].branchRelation = branchRelation;
    state[b].branchNegated = branchNegated;
    state[b].branchTarget = branchTarget;
    state[b].in = std::move(in);
    state[b].out = std::move(known);
    state[b].rangesOut = std::move(ranges);
    if (!changed)
      continue;
    state[b].successors = successors;
    for (size_t next : successors) {
      if (std::find(predecessors[next].begin(), predecessors[next].end(), b) ==
          predecessors[next].end())
        predecessors[next].push_back(b);
      work.push_back(next);
    }
  }
  for (size_t b = 0; b < blocks.size(); ++b)
    plan.reachable[b] = state[b].visited;
  // Items after an unconditional transfer in their block never run.
  for (size_t b = 0; b < blocks.size(); ++b) {
    bool ended = false;
    for (size_t i = 0; i < blocks[b].size(); ++i) {
      const Item& item = blocks[b][i];
      if (ended && item.kind != Item::Kind::Label)
        plan.emit[b][i] = InstancePlan::kSkip;
      bool branchAlways = item.kind == Item::Kind::Instruction &&
                          item.instruction->form().has(ir::kBranch) &&
                          (plan.emit[b][i] == InstancePlan::kAlways || !item.instruction->guard());
      if ((branchAlways && plan.emit[b][i] != InstancePlan::kSkip) ||
          (item.kind == Item::Kind::Return && !item.instruction->guard()))
        ended = true;
    }
  }

  // Code nothing reads: pure instructions and intrinsics whose registers no kept item reads.
  for (bool changed = true; changed;) {
    changed = false;
    std::set<RegisterRef> read;
    for (size_t b = 0; b < blocks.size(); ++b) {
      if (!plan.reachable[b])
        continue;
      for (size_t i = 0; i < blocks[b].size(); ++i) {
        const Item& item = blocks[b][i];
        if (plan.emit[b][i] == InstancePlan::kSkip)
          continue;
        if (item.kind == Item::Kind::Instruction || item.kind == Item::Kind::Return) {
          bool dropsGuard = plan.emit[b][i] == InstancePlan::kAlways;
          ir::forEachRegisterAccess(*item.instruction,
                                    [&](RegisterRef r, const ir::RegisterAccess& access) {
                                      if (access.read && !(dropsGuard && access.isGuard))
                                        read.insert(r);
                                    });
        } else if (item.kind == Item::Kind::Intrinsic) {
          for (const Operand& op : item.arguments)
            ir::forEachRegister(op, [&](const ir::RegisterOperand& r) { read.insert(r.reg); });
        }
      }
    }
    for (size_t b = 0; b < blocks.size(); ++b) {
      if (!plan.reachable[b])
        continue;
      for (size_t i = 0; i < blocks[b].size(); ++i) {
        const Item& item = blocks[b][i];
        if (plan.emit[b][i] != InstancePlan::kEmit)
          continue;
        bool unused = false;
        if (item.kind == Item::Kind::Intrinsic)
          unused = !item.result || !read.contains(*item.result);
        else if (item.kind == Item::Kind::Instruction && pure(*item.instruction))
          if (auto target = definedRegister(*item.instruction))
            unused = !read.contains(*target);
        if (unused) {
          plan.emit[b][i] = InstancePlan::kSkip;
          changed = true;
        }
      }
    }
  }

  // An unconditional branch to the block that follows in the layout is a fall through.
  for (size_t b = 0; b < blocks.size(); ++b) {
    if (!plan.reachable[b])
      continue;
    size_t next = b + 1;
    while (next < blocks.size() && !plan.reachable[next])
      ++next;
    for (size_t i = blocks[b].size(); i-- > 0;) {
      const Item& item = blocks[b][i];
      if (plan.emit[b][i] == InstancePlan::kSkip || item.kind == Item::Kind::Label)
        continue;
      bool always = item.kind == Item::Kind::Instruction &&
                    item.instruction->form().has(ir::kBranch) &&
                    (plan.emit[b][i] == InstancePlan::kAlways || !item.instruction->guard());
      if (always)
        for (const Operand& op : item.instruction->operands())
          if (const auto* label = op.getIf<ir::LabelOperand>();
              label != nullptr && blockOfLabel.at(label->label) == next)
            plan.emit[b][i] = InstancePlan::kSkip;
      break; // only the block's last emitted item
    }
  }

  // What is left: empty, straight, and the return that falls through to the continuation.
  for (size_t b = 0; b < blocks.size(); ++b) {
    if (!plan.reachable[b])
      continue;
    for (size_t i = 0; i < blocks[b].size(); ++i) {
      const Item& item = blocks[b][i];
      if (plan.emit[b][i] == InstancePlan::kSkip || item.kind == Item::Kind::Label)
        continue;
      plan.finalReturn = {SIZE_MAX, SIZE_MAX};
      if (item.kind == Item::Kind::Return) {
        if (!item.instruction->guard())
          plan.finalReturn = {b, i};
        continue;
      }
      plan.empty = false;
    }
  }
  for (size_t b = 0; b < blocks.size(); ++b) {
    if (!plan.reachable[b])
      continue;
    for (size_t i = 0; i < blocks[b].size(); ++i) {
      const Item& item = blocks[b][i];
      if (plan.emit[b][i] == InstancePlan::kSkip)
        continue;
      bool branch =
          item.kind == Item::Kind::Instruction && item.instruction->form().has(ir::kBranch);
      bool earlyReturn = item.kind == Item::Kind::Return && plan.finalReturn != std::pair{b, i};
      if (branch || earlyReturn)
        plan.straight = false;
    }
  }
  return plan;
}

} // namespace ocelot::passes::detail
