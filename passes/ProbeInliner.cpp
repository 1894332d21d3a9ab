#include "passes/ProbeInliner.h"

#include "ir/Casting.h"
#include "ir/RegisterAccess.h"
#include "passes/AnalysisManager.h"
#include "passes/RegisterPressure.h"

#include <algorithm>
#include <map>
#include <set>

namespace ocelot::passes {

namespace {

using ir::Instruction;
using ir::Operand;
using ir::RegisterRef;

std::string quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

/// The directly called function of a `call`, or empty for an indirect call.
std::string_view callee(const Instruction& call) {
  for (const Operand& op : call.operands())
    if (const auto* symbol = op.getIf<ir::SymbolOperand>())
      return symbol->name;
    else if (op.is<ir::RegisterOperand>())
      return {};
  return {};
}

/// The parameter names of a call's argument lists: the return list (before the callee) and the
/// argument list (after it).
void callLists(const Instruction& call, std::vector<std::string_view>& returns,
               std::vector<std::string_view>& arguments) {
  bool seenCallee = false;
  for (const Operand& op : call.operands()) {
    if (op.is<ir::SymbolOperand>() || op.is<ir::RegisterOperand>()) {
      seenCallee = true;
      continue;
    }
    const auto* list = op.getIf<ir::ArgumentListOperand>();
    if (list == nullptr)
      continue;
    for (const Operand& argument : list->arguments)
      if (const auto* symbol = argument.getIf<ir::SymbolOperand>())
        (seenCallee ? arguments : returns).push_back(symbol->name);
  }
}

/// The first address operand of an instruction, or nullptr.
const ir::AddressOperand* firstAddress(const Instruction& inst) {
  for (const Operand& op : inst.operands())
    if (const auto* address = op.getIf<ir::AddressOperand>())
      return address;
  return nullptr;
}

std::string_view symbolBase(const ir::AddressOperand& address) {
  if (const auto* symbol = std::get_if<ir::SymbolOperand>(&address.base))
    return symbol->name;
  return {};
}

/// True when some call path from `from` reaches `target` (through defined functions).
bool reaches(const ir::Module& module, const ir::Function& from, const ir::Function& target,
             std::set<const ir::Function*>& seen) {
  if (!seen.insert(&from).second)
    return false;
  for (const auto& block : from.blocks())
    for (const auto& s : block->statements()) {
      const auto* inst = ir::dyn_cast<Instruction>(s.get());
      if (inst == nullptr || !inst->form().has(ir::kCall))
        continue;
      const ir::Function* next = module.findFunction(callee(*inst));
      if (next == nullptr)
        continue;
      if (next == &target || (next->hasBody() && reaches(module, *next, target, seen)))
        return true;
    }
  return false;
}

/// Instructions with side effects a probe may have: fences and warp-level synchronization.
bool allowedSideEffect(const Instruction& inst) {
  const ir::InstructionForm& form = inst.form();
  if (form.has(ir::kFence))
    return true;
  ir::Opcode opcode = form.opcode();
  return opcode == ir::Opcode::Nanosleep || (opcode == ir::Opcode::Bar && form.hasModifier("warp"));
}

std::string_view spaceWord(ir::StateSpace space) {
  switch (space) {
  case ir::StateSpace::Shared:
    return "shared";
  case ir::StateSpace::Local:
    return "local";
  case ir::StateSpace::Param:
    return "parameter";
  case ir::StateSpace::Const:
    return "constant";
  default:
    return "non-global";
  }
}

void checkInstruction(const ir::Module& module, const Instruction& inst) {
  const ir::InstructionForm& form = inst.form();
  std::string spelling(form.spelling());
  if (!form.traits().known())
    throw InlineError("uses " + quoted(spelling) + ", an instruction Ocelot does not know");
  if (form.has(ir::kCtaBarrier) || form.has(ir::kClusterBarrier))
    throw InlineError("waits at a barrier (" + spelling +
                      "), which hangs where only some threads run the probe");
  if (form.has(ir::kExit))
    throw InlineError("ends the thread (" + spelling + ")");
  if (form.has(ir::kTrap))
    throw InlineError("traps (" + spelling + ")");
  if (form.has(ir::kAsynchronous))
    throw InlineError("uses an asynchronous instruction (" + spelling + ")");
  if (form.has(ir::kSideEffects) && !allowedSideEffect(inst))
    throw InlineError("uses " + quoted(spelling) + ", which changes the warp's state");
  if (form.has(ir::kBranch) && form.opcode() != ir::Opcode::Bra)
    throw InlineError("uses an indirect branch (" + spelling + ")");
  for (const Operand& op : inst.operands()) {
    std::string_view name;
    if (const auto* symbol = op.getIf<ir::SymbolOperand>())
      name = symbol->name;
    else if (const auto* address = op.getIf<ir::AddressOperand>())
      name = symbolBase(*address);
    if (!name.empty() && module.findGlobal(name) != nullptr)
      throw InlineError("uses the variable " + quoted(name) +
                        " (probes keep their results in regions, not __device__ variables)");
  }
}

uint32_t declaratorUnits(const ir::RegisterDeclarator& declarator) {
  if (!declarator.type || *declarator.type == ir::ScalarType::Pred)
    return 0;
  unsigned bits = ir::scalarTypeBits(*declarator.type);
  return std::max(1u, (bits + 31) / 32) * declarator.vectorWidth;
}

} // namespace

// --- InlineTemplate ------------------------------------------------------------------------------

bool InlineTemplate::calls(std::string_view intrinsic) const {
  return std::find(intrinsicNames_.begin(), intrinsicNames_.end(), intrinsic) !=
         intrinsicNames_.end();
}

InlineTemplate InlineTemplate::prepare(const ir::Function& probe,
                                       const std::function<bool(std::string_view)>& isIntrinsic) {
  InlineTemplate t;
  t.function_ = &probe;
  const ir::Module& module = probe.module();
  if (!probe.hasBody())
    throw InlineError("is declared but not defined");
  if (probe.isEntry())
    throw InlineError("is a kernel (.entry); probes are __device__ functions");
  if (!probe.signature().parameters.empty())
    throw InlineError("takes parameters (probes read their context through ocelot::probe)");
  if (!probe.signature().returns.empty())
    throw InlineError("returns a value");
  for (const auto& declarator : probe.registerDeclarators()) {
    if (declarator.vectorWidth != 1)
      throw InlineError("declares the vector register " + quoted(declarator.name));
    if (!declarator.type || !ir::IRBuilder::bitType(*declarator.type))
      throw InlineError("declares the register " + quoted(declarator.name) + " of type " +
                        quoted(declarator.typeWord));
  }

  // Calls first: what a probe calls says more about it than the stack frame a call needs.
  for (const auto& block : probe.blocks())
    for (const auto& s : block->statements()) {
      const auto* inst = ir::dyn_cast<Instruction>(s.get());
      if (inst == nullptr || !inst->form().has(ir::kCall))
        continue;
      std::string_view name = callee(*inst);
      if (name.empty())
        throw InlineError("makes an indirect call");
      const ir::Function* target = module.findFunction(name);
      std::set<const ir::Function*> seen;
      if (target == &probe ||
          (target != nullptr && target->hasBody() && reaches(module, *target, probe, seen)))
        throw InlineError("recurses (calls " + quoted(name) + ")");
      if (target != nullptr && target->hasBody())
        throw InlineError("calls " + quoted(name) +
                          ", which nvcc did not inline (mark it __forceinline__)");
      if (!isIntrinsic(name))
        throw InlineError("calls " + quoted(name) + (name == "vprintf" ? " (printf)" : "") +
                          ", which probes cannot use (only ocelot::probe functions)");
    }

  std::set<std::string_view> callParameters;  // `.param` declared in the body: call sequences
  std::map<std::string_view, Operand> stored; // argument parameter -> value stored into it
  std::map<std::string_view, size_t> pending; // return parameter -> intrinsic item (this block)
  for (const auto& block : probe.blocks()) {
    std::vector<Item> items;
    pending.clear();
    for (const auto& s : block->statements()) {
      switch (s->kind()) {
      case ir::Statement::Kind::Label: {
        Item label;
        label.kind = Item::Kind::Label;
        label.label = ir::cast<ir::Label>(s.get())->id();
        items.push_back(std::move(label));
        continue;
      }
      case ir::Statement::Kind::Declaration: {
        const auto& spec = ir::cast<ir::DeclarationStatement>(s.get())->spec();
        ir::StateSpace space = spec.stateSpace();
        if (space == ir::StateSpace::Param) {
          for (const auto& d : spec.declarators)
            callParameters.insert(d.name);
        } else if (space == ir::StateSpace::Local) {
          throw InlineError("uses local memory (a stack frame: arrays indexed at run time, "
                            "address-taken variables); keep probe state in registers");
        } else if (space != ir::StateSpace::Reg) {
          throw InlineError("declares " + std::string(spaceWord(space)) + " memory");
        }
        continue;
      }
      case ir::Statement::Kind::CallPrototype:
      case ir::Statement::Kind::CallTargets:
        throw InlineError("makes an indirect call");
      case ir::Statement::Kind::BranchTargets:
        throw InlineError("uses an indirect branch (brx.idx)");
      case ir::Statement::Kind::Instruction:
        break;
      default: // .loc, .pragma and scope braces: dropped (every name inlined is fresh)
        continue;
      }
      const auto& inst = *ir::cast<Instruction>(s.get());
      const ir::InstructionForm& form = inst.form();
      if (form.has(ir::kCall)) {
        std::string_view name = callee(inst); // checked above: a direct call of an intrinsic
        std::vector<std::string_view> returns, arguments;
        callLists(inst, returns, arguments);
        Item item;
        item.kind = Item::Kind::Intrinsic;
        item.intrinsic = name;
        for (std::string_view argument : arguments) {
          auto value = stored.find(argument);
          if (value == stored.end())
            throw InlineError("passes " + quoted(name) + " an argument Ocelot cannot follow");
          item.arguments.push_back(value->second);
        }
        items.push_back(std::move(item));
        for (std::string_view r : returns)
          pending[r] = items.size() - 1;
        if (std::find(t.intrinsicNames_.begin(), t.intrinsicNames_.end(), name) ==
            t.intrinsicNames_.end())
          t.intrinsicNames_.push_back(name);
        continue;
      }
      // Call sequences: stores into argument parameters, loads of results.
      if (form.stateSpace() == ir::StateSpace::Param) {
        const ir::AddressOperand* address = firstAddress(inst);
        std::string_view parameter = address != nullptr ? symbolBase(*address) : "";
        if (!callParameters.contains(parameter))
          throw InlineError("uses the parameter space (" + std::string(form.spelling()) + ")");
        if (address->offset != 0)
          throw InlineError("passes an aggregate to an intrinsic");
        if (form.opcode() == ir::Opcode::St && inst.operands().size() == 2) {
          stored[parameter] = inst.operands()[1];
          continue;
        }
        if (form.opcode() == ir::Opcode::Ld && !inst.operands().empty()) {
          auto from = pending.find(parameter);
          const auto* destination = inst.operands()[0].getIf<ir::RegisterOperand>();
          if (from == pending.end() || destination == nullptr)
            throw InlineError("reads a parameter Ocelot cannot follow");
          items[from->second].result = destination->reg;
          continue;
        }
        throw InlineError("uses the parameter space (" + std::string(form.spelling()) + ")");
      }
      checkInstruction(module, inst);
      if (form.has(ir::kReturn)) {
        Item ret;
        ret.kind = Item::Kind::Return;
        ret.instruction = &inst;
        items.push_back(std::move(ret));
        continue;
      }
      Item item;
      item.instruction = &inst;
      if (form.has(ir::kMemoryWrite)) {
        ir::StateSpace space = form.stateSpace();
        if (space != ir::StateSpace::Global && space != ir::StateSpace::Generic)
          throw InlineError("writes " + std::string(spaceWord(space)) + " memory (" +
                            std::string(form.spelling()) + ")");
        const ir::AddressOperand* address = firstAddress(inst);
        if (address == nullptr || !symbolBase(*address).empty())
          throw InlineError("writes memory through an address Ocelot cannot check (" +
                            std::string(form.spelling()) + ")");
        item.write = true;
        t.writes_ = true;
      }
      if (form.has(ir::kBranch))
        t.branches_ = true;
      ++t.instructions_;
      items.push_back(std::move(item));
    }
    t.blocks_.push_back(std::move(items));
  }
  for (size_t b = 0; b < t.blocks_.size(); ++b)
    for (size_t i = 0; i < t.blocks_[b].size(); ++i) {
      const Item& item = t.blocks_[b][i];
      if (item.kind == Item::Kind::Intrinsic)
        ++t.instructions_;
      // A return other than the final one branches to the continuation.
      bool final = b + 1 == t.blocks_.size() && i + 1 == t.blocks_[b].size();
      if (item.kind == Item::Kind::Return && (!final || item.instruction->guard()))
        t.branches_ = true;
    }

  // What the probe keeps live at once, from liveness on its own code.
  AnalysisManager analyses;
  auto& mutableProbe = const_cast<ir::Function&>(probe); // analyses only read
  t.pressure_ = analyses.getResult<RegisterPressureAnalysis>(mutableProbe).function().maxUnits;
  return t;
}

// --- Specialization of one instance --------------------------------------------------------------

namespace {

using Item = InlineTemplate::Item;

/// What one instance emits: per item, skip / emit / emit as an unconditional branch.
struct InstancePlan {
  enum Emit : uint8_t { kSkip, kEmit, kAlways };
  std::vector<std::vector<uint8_t>> emit;
  std::vector<bool> reachable;
  bool empty = true;    ///< nothing to emit
  bool straight = true; ///< no branch and no return but a final one among the emitted items
  std::pair<size_t, size_t> finalReturn{SIZE_MAX, SIZE_MAX};
  /// Per write item: the bytes it can touch, as offsets from the caller's buffer, when bounded.
  std::map<const Item*, std::pair<uint64_t, uint64_t>> writeBytes;
};

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

} // namespace

// --- ProbeInliner --------------------------------------------------------------------------------

ProbeInliner::ProbeInliner(ir::Function& target, ir::IRChangeListener* listener)
    : function_(&target), listener_(listener), builder_(target, listener) {
  for (const auto& label : target.labels())
    labelNames_.insert(label.name);
}

RegisterRef ProbeInliner::mapRegister(const InlineTemplate& probe, RegisterRef reg) {
  auto key = std::make_pair(&probe.function(), reg);
  auto found = registers_.find(key);
  if (found != registers_.end())
    return found->second;
  const ir::RegisterDeclarator& declarator = probe.function().declaratorOf(reg);
  // prepare() checked that every declarator has a type with a register width.
  RegisterRef fresh = builder_.createRegister(*declarator.type);
  registerUnits_ += declaratorUnits(declarator);
  registers_.emplace(key, fresh);
  return fresh;
}

Operand ProbeInliner::mapOperand(const InlineTemplate& probe, const Operand& operand,
                                 const std::map<ir::LabelId, ir::LabelId>& labels) {
  ir::Module& module = function_->module();
  return operand.visit([&](const auto& value) -> Operand {
    using T = std::decay_t<decltype(value)>;
    if constexpr (std::is_same_v<T, ir::RegisterOperand>) {
      ir::RegisterOperand copy = value;
      copy.reg = mapRegister(probe, value.reg);
      return copy;
    } else if constexpr (std::is_same_v<T, ir::SpecialRegisterOperand>) {
      ir::SpecialRegisterOperand copy = value;
      copy.name = module.intern(value.name);
      return copy;
    } else if constexpr (std::is_same_v<T, ir::ImmediateOperand>) {
      ir::ImmediateOperand copy = value;
      copy.text = module.intern(value.text);
      return copy;
    } else if constexpr (std::is_same_v<T, ir::SymbolOperand>) {
      ir::SymbolOperand copy = value;
      copy.name = module.intern(value.name);
      return copy;
    } else if constexpr (std::is_same_v<T, ir::LabelOperand>) {
      return ir::LabelOperand{labels.at(value.label)};
    } else if constexpr (std::is_same_v<T, ir::AddressOperand>) {
      ir::AddressOperand copy;
      copy.offset = value.offset;
      copy.explicitOffset = value.explicitOffset;
      if (const auto* reg = std::get_if<ir::RegisterOperand>(&value.base)) {
        ir::RegisterOperand base = *reg;
        base.reg = mapRegister(probe, reg->reg);
        copy.base = base;
      } else if (const auto* symbol = std::get_if<ir::SymbolOperand>(&value.base)) {
        ir::SymbolOperand base = *symbol;
        base.name = module.intern(symbol->name);
        copy.base = base;
      } else {
        copy.base = value.base;
      }
      for (const Operand& part : value.extra)
        copy.extra.push_back(mapOperand(probe, part, labels));
      return copy;
    } else if constexpr (std::is_same_v<T, ir::VectorOperand>) {
      ir::VectorOperand copy;
      for (const Operand& element : value.elements)
        copy.elements.push_back(mapOperand(probe, element, labels));
      return copy;
    } else if constexpr (std::is_same_v<T, ir::DualOperand>) {
      ir::DualOperand copy;
      for (const Operand& part : value.parts)
        copy.parts.push_back(mapOperand(probe, part, labels));
      return copy;
    } else if constexpr (std::is_same_v<T, ir::ArgumentListOperand>) {
      ir::ArgumentListOperand copy;
      for (const Operand& argument : value.arguments)
        copy.arguments.push_back(mapOperand(probe, argument, labels));
      return copy;
    } else {
      return value;
    }
  });
}

ir::LabelId ProbeInliner::freshLabel(ir::ScopeId scope) {
  std::string name;
  do
    name = "$L__ocp_" + std::to_string(nextLabel_++);
  while (labelNames_.contains(name));
  std::string_view interned = function_->module().intern(name);
  labelNames_.insert(interned);
  return function_->addLabel(ir::LabelInfo{interned, scope, nullptr});
}

ir::LabelId ProbeInliner::labelBlock(ir::BasicBlock& block, ir::ScopeId scope) {
  ir::LabelId id = freshLabel(scope);
  const auto& info = function_->labels()[id];
  auto& label = block.insert(0, std::make_unique<ir::Label>(id, info.name, scope));
  function_->setLabelStatement(id, &label);
  if (listener_ != nullptr)
    listener_->irChanged(*function_, ir::IRChange::ControlFlow);
  return id;
}

void ProbeInliner::emitWrite(const InlineTemplate& probe, const Instruction& write,
                             const std::map<ir::LabelId, ir::LabelId>& labels,
                             std::optional<std::pair<uint64_t, uint64_t>> bytes,
                             InlineHooks& hooks) {
  std::vector<Operand> operands;
  for (const Operand& op : write.operands())
    operands.push_back(mapOperand(probe, op, labels));
  std::optional<ir::Guard> guard;
  if (write.guard())
    guard = ir::Guard{mapRegister(probe, write.guard()->predicate), write.guard()->negated};
  // The address written, as a 64-bit register.
  const ir::AddressOperand* address = nullptr;
  for (const Operand& op : operands)
    if ((address = op.getIf<ir::AddressOperand>()) != nullptr)
      break;
  // The address is computed for the check only: erased again when the hooks need no check.
  ir::BasicBlock* at = builder_.block();
  size_t before = at->statements().size();
  RegisterRef where{};
  if (const auto* base = std::get_if<ir::RegisterOperand>(&address->base)) {
    where = address->offset == 0 ? base->reg
                                 : builder_.add(ir::ScalarType::U64, ir::IRBuilder::reg(base->reg),
                                                ir::IRBuilder::imm(address->offset));
  } else {
    const auto& absolute = std::get<ir::AddressOperand::Absolute>(address->base);
    where =
        builder_.mov(ir::ScalarType::U64,
                     ir::IRBuilder::imm(static_cast<int64_t>(absolute.value) + address->offset));
  }
  std::optional<RegisterRef> allowed = hooks.guardWrite(builder_, where, bytes);
  if (!allowed && builder_.block() == at && at->statements().size() == before + 1)
    builder_.erase(*at, builder_.index() - 1);
  if (allowed) {
    if (guard) {
      RegisterRef own = guard->predicate;
      if (guard->negated) {
        own = builder_.createRegister(ir::ScalarType::Pred);
        builder_.insert("not.pred",
                        {ir::IRBuilder::reg(own), ir::IRBuilder::reg(guard->predicate)});
      }
      RegisterRef both = builder_.createRegister(ir::ScalarType::Pred);
      builder_.insert("and.pred", {ir::IRBuilder::reg(both), ir::IRBuilder::reg(own),
                                   ir::IRBuilder::reg(*allowed)});
      guard = ir::Guard{both, false};
    } else {
      guard = ir::Guard{*allowed, false};
    }
  }
  builder_.insert(write.form().spelling(), std::move(operands), guard);
}

void ProbeInliner::emitItem(const InlineTemplate& probe, const InlineTemplate::Item& item,
                            const std::map<ir::LabelId, ir::LabelId>& labels,
                            ir::LabelId continuation, bool last, bool unconditional,
                            std::optional<std::pair<uint64_t, uint64_t>> writeBytes,
                            InlineHooks& hooks) {
  using Kind = InlineTemplate::Item::Kind;
  switch (item.kind) {
  case Kind::Label: {
    ir::LabelId id = labels.at(item.label);
    const auto& info = function_->labels()[id];
    auto& label = builder_.insertStatement(std::make_unique<ir::Label>(id, info.name, info.scope));
    function_->setLabelStatement(id, &label);
    builder_.reportChange(ir::IRChange::ControlFlow);
    return;
  }
  case Kind::Intrinsic: {
    IntrinsicCall call{item.intrinsic, {}, std::nullopt};
    for (const Operand& argument : item.arguments)
      call.arguments.push_back(mapOperand(probe, argument, labels));
    if (item.result)
      call.result = mapRegister(probe, *item.result);
    hooks.expandIntrinsic(builder_, call);
    return;
  }
  case Kind::Return: {
    if (last && !item.instruction->guard())
      return; // falls through to the continuation
    std::optional<ir::Guard> guard;
    if (const auto& g = item.instruction->guard())
      guard = ir::Guard{mapRegister(probe, g->predicate), g->negated};
    builder_.branch(continuation, guard);
    return;
  }
  case Kind::Instruction:
    break;
  }
  if (item.write) {
    emitWrite(probe, *item.instruction, labels, writeBytes, hooks);
    return;
  }
  std::vector<Operand> operands;
  for (const Operand& op : item.instruction->operands())
    operands.push_back(mapOperand(probe, op, labels));
  std::optional<ir::Guard> guard;
  if (const auto& g = item.instruction->guard(); g && !unconditional)
    guard = ir::Guard{mapRegister(probe, g->predicate), g->negated};
  builder_.insert(item.instruction->form().spelling(), std::move(operands), guard);
}

ir::BasicBlock& ProbeInliner::inlineAt(const InlineTemplate& probe, ir::BasicBlock& block,
                                       size_t index, std::optional<ir::Guard> runIf,
                                       InlineHooks& hooks) {
  ++instances_;
  if (probe.empty())
    return block;
  InstancePlan plan = specialize(
      probe,
      [&](const InlineTemplate::Item& item) {
        return hooks.constant(IntrinsicCall{item.intrinsic, item.arguments, item.result});
      },
      [&](const InlineTemplate::Item& item) {
        return hooks.bufferOffset(IntrinsicCall{item.intrinsic, item.arguments, item.result});
      });
  auto writeBytes =
      [&](const InlineTemplate::Item& item) -> std::optional<std::pair<uint64_t, uint64_t>> {
    auto found = plan.writeBytes.find(&item);
    if (found == plan.writeBytes.end())
      return std::nullopt;
    return found->second;
  };
  if (plan.empty)
    return block;
  const auto& probeBlocks = probe.blocks();
  auto emitted = [&](size_t b, size_t i) {
    return plan.reachable[b] && plan.emit[b][i] != InstancePlan::kSkip &&
           plan.finalReturn != std::pair{b, i};
  };

  if (plan.straight && !runIf) {
    builder_.at(block, index);
    hooks.beginInstance(builder_);
    for (size_t b = 0; b < probeBlocks.size(); ++b)
      for (size_t i = 0; i < probeBlocks[b].size(); ++i)
        if (emitted(b, i) && probeBlocks[b][i].kind != InlineTemplate::Item::Kind::Label)
          emitItem(probe, probeBlocks[b][i], {}, 0, false, false, writeBytes(probeBlocks[b][i]),
                   hooks);
    return block;
  }

  ir::ScopeId scope = ir::IRBuilder::scopeAt(*function_, block, index);
  // Fresh labels for the probe's labels that emitted branches target.
  std::map<ir::LabelId, ir::LabelId> labels;
  for (size_t b = 0; b < probeBlocks.size(); ++b)
    for (size_t i = 0; i < probeBlocks[b].size(); ++i) {
      const auto& item = probeBlocks[b][i];
      if (!emitted(b, i) || item.kind != InlineTemplate::Item::Kind::Instruction ||
          !item.instruction->form().has(ir::kBranch))
        continue;
      for (const Operand& op : item.instruction->operands())
        if (const auto* label = op.getIf<ir::LabelOperand>();
            label && !labels.contains(label->label))
          labels[label->label] = freshLabel(scope);
    }

  // Split: the statements from `index` on move to a new block after `block`, behind a label the
  // probe's returns (and the lanes runIf excludes) branch to.
  auto& blocks = function_->blocks();
  size_t position = 0;
  while (position < blocks.size() && blocks[position].get() != &block)
    ++position;
  ir::BasicBlock& tail = builder_.createBlock(position + 1);
  auto& from = block.statements();
  index = std::min(index, from.size());
  for (size_t i = index; i < from.size(); ++i)
    tail.statements().push_back(std::move(from[i]));
  from.erase(from.begin() + static_cast<std::ptrdiff_t>(index), from.end());
  ir::LabelId continuation = labelBlock(tail, scope);

  builder_.at(block, block.statements().size());
  hooks.beginInstance(builder_);
  if (runIf)
    builder_.branch(continuation, ir::Guard{runIf->predicate, !runIf->negated});
  // The probe's blocks in layout order; a new IR block where a targeted label or a terminator
  // starts one, else the code continues the current block.
  size_t insertAt = position + 1; // before the tail
  bool newBlock = runIf.has_value();
  for (size_t b = 0; b < probeBlocks.size(); ++b) {
    if (!plan.reachable[b])
      continue;
    const auto& items = probeBlocks[b];
    for (size_t i = 0; i < items.size(); ++i) {
      const auto& item = items[i];
      bool isLabel = item.kind == InlineTemplate::Item::Kind::Label;
      bool label = isLabel && labels.contains(item.label);
      if (isLabel ? !label : !emitted(b, i))
        continue;
      if (newBlock || label) {
        ir::BasicBlock& next = builder_.createBlock(insertAt++);
        builder_.at(next, 0);
        newBlock = false;
      }
      emitItem(probe, item, labels, continuation, false, plan.emit[b][i] == InstancePlan::kAlways,
               writeBytes(item), hooks);
      newBlock = item.kind == InlineTemplate::Item::Kind::Return ||
                 (item.kind == InlineTemplate::Item::Kind::Instruction &&
                  item.instruction->form().isTerminator());
    }
  }
  return tail;
}

} // namespace ocelot::passes
