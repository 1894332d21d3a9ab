#include "instrumentors/ProbeCounterPromotion.h"

#include "instrumentors/CounterPlacement.h"
#include "instrumentors/ProbeCounterValues.h"
#include "instrumentors/PtxIdioms.h"
#include "ir/Casting.h"
#include "ir/IRBuilder.h"
#include "ir/RegisterAccess.h"
#include "passes/ControlFlowGraph.h"
#include "passes/DefUseChains.h"
#include "passes/LoopInfo.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ocelot::instrumentors {

namespace {

using namespace counter_values;

/// `red`/`atom` `.add` of a 32- or 64-bit integer, `.global` or generic, nothing else: what can
/// move to a register. Sets `type` and `global`.
bool isIntegerAddReduction(const ir::Instruction& inst, ScalarType* type = nullptr,
                           bool* global = nullptr) {
  const ir::InstructionForm& form = inst.form();
  const bool atom = form.opcode() == ir::Opcode::Atom;
  if (!atom && form.opcode() != ir::Opcode::Red)
    return false;
  const auto& modifiers = form.modifiers();
  size_t i = 0;
  bool isGlobal = false;
  if (i < modifiers.size() && modifiers[i] == "global") {
    isGlobal = true;
    ++i;
  }
  if (modifiers.size() != i + 2 || modifiers[i] != "add")
    return false;
  auto t = ir::scalarTypeFromName(modifiers[i + 1]);
  if (!t || (*t != ScalarType::U32 && *t != ScalarType::S32 && *t != ScalarType::U64 &&
             *t != ScalarType::S64))
    return false;
  if (inst.operands().size() != (atom ? 3u : 2u))
    return false;
  if (type != nullptr)
    *type = *t;
  if (global != nullptr)
    *global = isGlobal;
  return true;
}

/// The address operand of a reduction (`[%r+offset]`), or nullptr.
const ir::AddressOperand* reductionAddress(const ir::Instruction& inst) {
  const auto& ops = inst.operands();
  const Operand& op = inst.form().opcode() == ir::Opcode::Atom ? ops[1] : ops[0];
  return op.getIf<ir::AddressOperand>();
}

/// Whether an atom's result is never read (a red has none).
bool resultUnused(const ir::Instruction& inst, const passes::DefUseChains& chains) {
  if (inst.form().opcode() != ir::Opcode::Atom)
    return true;
  const Operand& result = inst.operands()[0];
  if (result.is<ir::SinkOperand>())
    return true;
  const auto* reg = result.getIf<ir::RegisterOperand>();
  return reg != nullptr && chains.uses(inst, reg->reg).empty();
}

/// One counter kept in a register: every promoted update of one address in one loop.
struct Counter {
  ValuePtr base;      ///< the address register's value
  int64_t offset = 0; ///< the address operand's offset
  ScalarType type = ScalarType::U64;
  bool global = false;
  uint32_t loop = 0;     ///< the loop whose exits flush it
  unsigned depth = 0;    ///< the deepest loop an update is in
  uint32_t shortest = 0; ///< instructions of the shortest block an update is in
  std::vector<const ir::Instruction*> updates;
  RegisterRef reg{};
};

/// Where a loop's counters are flushed.
struct ExitEdge {
  ir::BasicBlock* from;
  ir::BasicBlock* to;
  /// The target's start, the source's end, or before the source's `@%p bra` under `guard`.
  enum class Place : uint8_t { StartOfTarget, EndOfSource, BeforeBranch } place;
  std::optional<ir::Guard> guard;
};

/// Values already computed at the current flush point, by key (the counters flushed together share
/// the buffer's load and most of their address arithmetic).
using Emitted = std::map<std::string, Operand>;

/// Computes `value` again at the builder's point (fresh registers), as an operand.
Operand emitNew(IRBuilder& b, const Value& value, const BufferAccess& buffer, Emitted& emitted);

/// `value` at the builder's point: computed there once per flush point.
Operand emitValue(IRBuilder& b, const Value& value, const BufferAccess& buffer, Emitted& emitted) {
  if (value.kind == Value::Kind::Constant)
    return IRBuilder::imm(value.constant);
  auto known = emitted.find(value.key);
  if (known != emitted.end())
    return known->second;
  Operand result = emitNew(b, value, buffer, emitted);
  emitted.emplace(value.key, result);
  return result;
}

Operand emitNew(IRBuilder& b, const Value& value, const BufferAccess& buffer, Emitted& emitted) {
  const ir::Instruction& def = *value.definition;
  if (value.key == "buffer")
    return IRBuilder::reg(buffer.bufferAddress(b));
  std::vector<Operand> operands(def.operands().begin(), def.operands().end());
  for (size_t i = 1; i < operands.size(); ++i)
    if (const ValuePtr& source = value.sources[i - 1])
      operands[i] = emitValue(b, *source, buffer, emitted);
  // Immediates stand second: swap where the operation commutes, else put the first in a register.
  if (operands.size() == 3 && operands[1].is<ir::ImmediateOperand>()) {
    const ir::Opcode opcode = def.form().opcode();
    if (opcode == ir::Opcode::Add || opcode == ir::Opcode::And ||
        (opcode == ir::Opcode::Mul && def.form().modifiers()[0] == "lo")) {
      std::swap(operands[1], operands[2]);
    } else {
      auto type = def.form().lastType();
      RegisterRef first = b.mov(*type, operands[1]);
      operands[1] = IRBuilder::reg(first);
    }
  }
  const auto& destination = operands[0].as<ir::RegisterOperand>();
  RegisterRef fresh = b.createRegister(*b.function().declaratorOf(destination.reg).type);
  operands[0] = IRBuilder::reg(fresh);
  b.insert(def.form().spelling(), std::move(operands));
  return IRBuilder::reg(fresh);
}

std::string typeWord(ScalarType type) {
  return std::string(ir::scalarTypeName(type));
}

/// `@(counter != 0 [&& guard]) red.add [address], counter`, then the counter zeroed if `reset`.
void flushCounter(IRBuilder& b, const Counter& counter, std::optional<ir::Guard> guard, bool reset,
                  const BufferAccess& buffer, Emitted& emitted) {
  const bool wide = ir::scalarTypeBits(counter.type) == 64;
  const std::string unsignedWord = wide ? "u64" : "u32";
  RegisterRef nonzero = b.createRegister(ScalarType::Pred);
  if (guard)
    b.insert("setp.ne.and." + unsignedWord, {IRBuilder::reg(nonzero), IRBuilder::reg(counter.reg),
                                             IRBuilder::imm(0), guardOperand(*guard)});
  else
    b.insert("setp.ne." + unsignedWord,
             {IRBuilder::reg(nonzero), IRBuilder::reg(counter.reg), IRBuilder::imm(0)});
  Operand base = emitValue(b, *counter.base, buffer, emitted);
  const std::string spelling =
      std::string("red.") + (counter.global ? "global." : "") + "add." + typeWord(counter.type);
  b.insert(spelling,
           {IRBuilder::address(base.as<ir::RegisterOperand>().reg, counter.offset),
            IRBuilder::reg(counter.reg)},
           ir::Guard{nonzero, false});
  if (reset) // the lanes that flushed (those that take the exit)
    b.insert("mov." + unsignedWord, {IRBuilder::reg(counter.reg), IRBuilder::imm(0)}, guard);
}

/// How `buffer` loads the buffer's address in `function`: emitted once and taken back.
std::optional<BufferLoad> learnBufferLoad(ir::Function& function, const BufferAccess& buffer,
                                          passes::AnalysisManager& analyses) {
  IRBuilder b(function, &analyses);
  ir::BasicBlock& block = *b.block();
  RegisterRef address = buffer.bufferAddress(b);
  // The instruction that defined it (the builder may also have declared registers).
  std::optional<BufferLoad> load;
  std::vector<size_t> emitted;
  for (size_t i = 0; i < block.statements().size(); ++i) {
    const auto* inst = ir::dyn_cast<ir::Instruction>(block.statements()[i].get());
    if (inst == nullptr || inst->operands().empty())
      continue;
    const auto* destination = inst->operands()[0].getIf<ir::RegisterOperand>();
    if (destination == nullptr || destination->reg != address)
      continue;
    emitted.push_back(i);
    if (inst->form().opcode() == ir::Opcode::Ld && inst->operands().size() == 2)
      if (const auto* operand = inst->operands()[1].getIf<ir::AddressOperand>())
        if (const auto* symbol = std::get_if<ir::SymbolOperand>(&operand->base))
          load = BufferLoad{std::string(symbol->name), symbol->offset + operand->offset};
  }
  if (emitted.size() != 1)
    load.reset(); // not one plain load: nothing to recognize
  for (size_t k = emitted.size(); k-- > 0;)
    b.erase(block, emitted[k]);
  return load;
}

size_t indexOf(const ir::BasicBlock& block, const ir::Statement* statement) {
  const auto& statements = block.statements();
  for (size_t i = 0; i < statements.size(); ++i)
    if (statements[i].get() == statement)
      return i;
  return statements.size();
}

} // namespace

bool ProbeCounterPromotionPass::appliesTo(const ir::Function& function) const {
  return function.hasBody() && buffer_.reaches(function);
}

passes::PreservedAnalyses ProbeCounterPromotionPass::run(ir::Function& function,
                                                         passes::AnalysisManager& analyses) {
  // Cheap test first: integer add reductions in loops.
  {
    const auto& cfg = analyses.getResult<passes::ControlFlowGraphAnalysis>(function);
    const auto& loops = analyses.getResult<passes::LoopAnalysis>(function);
    // The registers are zeroed in the first block: it must run once per call (BufferPlan gives
    // every instrumented function such a block).
    if (cfg.blockCount() == 0 || cfg.predecessors(0).size() != 1)
      return passes::PreservedAnalyses::all();
    bool any = false;
    for (Node n = 0; n < cfg.blockCount() && !any; ++n)
      if (cfg.isReachable(n) && loops.depth(n) > 0)
        cfg.block(n)->forEachInstruction(
            [&](const ir::Instruction& inst) { any = any || isIntegerAddReduction(inst); });
    if (!any)
      return passes::PreservedAnalyses::all();
  }
  std::optional<BufferLoad> load = learnBufferLoad(function, buffer_, analyses);
  if (!load)
    return passes::PreservedAnalyses::controlFlow();

  const auto& cfg = analyses.getResult<passes::ControlFlowGraphAnalysis>(function);
  const auto& loops = analyses.getResult<passes::LoopAnalysis>(function);
  const auto& chains = analyses.getResult<passes::DefUseAnalysis>(function);
  Evaluator evaluate(function, chains, *load);
  const size_t n = cfg.blockCount();

  // Registers that may hold an address computed from the buffer's (flow-insensitive, so sound).
  std::set<RegisterRef> tainted;
  for (bool grew = true; grew;) {
    grew = false;
    for (Node b = 0; b < n; ++b)
      cfg.block(b)->forEachInstruction([&](const ir::Instruction& inst) {
        bool from = evaluate.isBufferLoad(inst);
        ir::forEachRegisterAccess(inst, [&](const RegisterRef& ref, const ir::RegisterAccess& a) {
          from = from || (a.read && !a.isGuard && tainted.contains(ref));
        });
        if (!from)
          return;
        ir::forEachRegisterAccess(inst, [&](const RegisterRef& ref, const ir::RegisterAccess& a) {
          if (a.written && tainted.insert(ref).second)
            grew = true;
        });
      });
  }

  // Every other access that may touch the buffer and does not commute with an add: the ranges it
  // may touch, relative to the buffer's address. One without a known range keeps everything
  // atomic.
  std::vector<std::pair<int64_t, int64_t>> touched; // [first, last) byte offsets
  bool unknownAccess = false;
  for (Node b = 0; b < n && !unknownAccess; ++b)
    cfg.block(b)->forEachInstruction([&](const ir::Instruction& inst) {
      if (unknownAccess || !inst.form().accessesMemory())
        return;
      if (isIntegerAddReduction(inst) && resultUnused(inst, chains))
        return;
      for (const Operand& op : inst.operands()) {
        const auto* address = op.getIf<ir::AddressOperand>();
        if (address == nullptr)
          continue;
        const auto* reg = std::get_if<ir::RegisterOperand>(&address->base);
        bool touches = reg != nullptr && tainted.contains(reg->reg);
        for (const Operand& extra : address->extra)
          if (const auto* r = extra.getIf<ir::RegisterOperand>())
            touches = touches || tainted.contains(r->reg);
        if (!touches)
          continue;
        ValuePtr v = address->extra.empty() ? evaluate.at(inst, reg->reg) : nullptr;
        if (!v || !v->hasBuffer || !v->bounded) {
          unknownAccess = true;
          return;
        }
        // The bytes it accesses: its type's times its vector width (the widest PTX has, 128,
        // where the type is not known).
        auto type = inst.form().lastType();
        int64_t bytes = type && ir::scalarTypeBits(*type) >= 8
                            ? int64_t{ir::scalarTypeBits(*type) / 8} * inst.form().vectorWidth()
                            : 128;
        touched.emplace_back(v->low + address->offset, v->high + address->offset + bytes);
      }
    });
  if (unknownAccess)
    return passes::PreservedAnalyses::controlFlow();

  // Loops that make calls (their inner loops' included) keep their counters atomic.
  const auto& allLoops = loops.loops();
  std::vector<uint8_t> calls(allLoops.size(), 0);
  for (Node b = 0; b < n; ++b)
    if (cfg.isReachable(b) && loops.depth(b) > 0 && blockMakesCalls(*cfg.block(b)))
      for (uint32_t l = loops.loopIndexFor(b); l != passes::Loop::kNoLoop; l = allLoops[l].parent)
        calls[l] = 1;

  // An exit edge is flushed in its target when the edge is the target's only way in, else in its
  // source when it is the source's only way out, else before the source's `@%p bra`, under the
  // branch's condition (no new blocks: another tool's probes find their places by the blocks).
  // Loops with an exit that is none of these (`brx.idx`) keep their counters atomic, as loops
  // with calls.
  auto exitGuard = [&](const passes::ControlFlowGraph::Edge& edge) -> std::optional<ir::Guard> {
    const ir::Instruction* branch = cfg.block(edge.from)->terminator();
    if (branch == nullptr || branch->form().opcode() != ir::Opcode::Bra || !branch->guard())
      return std::nullopt;
    ir::Guard guard = *branch->guard();
    if (edge.kind == passes::EdgeKind::FallThrough)
      guard.negated = !guard.negated;
    return guard;
  };
  auto needsGuard = [&](const passes::ControlFlowGraph::Edge& edge) {
    return !cfg.isVirtual(edge.to) && cfg.predecessors(edge.to).size() != 1 &&
           cfg.successors(edge.from).size() != 1;
  };
  for (uint32_t l = 0; l < allLoops.size(); ++l)
    for (const auto& edge : allLoops[l].exits)
      if (needsGuard(edge) && !exitGuard(edge))
        for (uint32_t k = l; k != passes::Loop::kNoLoop; k = allLoops[k].parent)
          calls[k] = 1;

  // The counters: updates grouped by address and by the outermost call-free loop around them.
  std::map<std::string, Counter> byKey;
  for (Node b = 0; b < n; ++b) {
    if (!cfg.isReachable(b) || loops.depth(b) == 0)
      continue;
    uint32_t loop = loops.loopIndexFor(b);
    if (calls[loop])
      continue;
    while (allLoops[loop].parent != passes::Loop::kNoLoop && !calls[allLoops[loop].parent])
      loop = allLoops[loop].parent;
    const ir::BasicBlock& block = *cfg.block(b);
    block.forEachInstruction([&](const ir::Instruction& inst) {
      ScalarType type;
      bool global = false;
      if (!isIntegerAddReduction(inst, &type, &global) || !resultUnused(inst, chains))
        return;
      const ir::AddressOperand* address = reductionAddress(inst);
      if (address == nullptr || !address->extra.empty())
        return;
      const auto* reg = std::get_if<ir::RegisterOperand>(&address->base);
      if (reg == nullptr || reg->component != ir::VectorComponent::None)
        return;
      ValuePtr v = evaluate.at(inst, reg->reg);
      if (!v || !v->hasBuffer)
        return;
      // Nothing that reads or overwrites may touch it.
      const unsigned bytes = ir::scalarTypeBits(type) / 8;
      for (const auto& [first, last] : touched)
        if (!v->bounded ||
            (v->low + address->offset < last && first < v->high + address->offset + bytes))
          return;
      std::string key = v->key + "+" + std::to_string(address->offset) + " " + typeWord(type) +
                        (global ? " global" : "") + " loop " + std::to_string(loop);
      Counter& counter = byKey[key];
      if (counter.updates.empty()) {
        counter.base = v;
        counter.offset = address->offset;
        counter.type = type;
        counter.global = global;
        counter.loop = loop;
        counter.shortest = UINT32_MAX;
      }
      counter.depth = std::max(counter.depth, loops.depth(b));
      counter.shortest = std::min(counter.shortest, blockInstructionCount(block));
      counter.updates.push_back(&inst);
    });
  }
  // Innermost loops first, then the shortest blocks (where an atomic costs most), as bbcount.
  std::vector<Counter> counters;
  for (auto& [key, counter] : byKey)
    counters.push_back(std::move(counter));
  std::stable_sort(counters.begin(), counters.end(), [](const Counter& a, const Counter& b) {
    if (a.depth != b.depth)
      return a.depth > b.depth;
    return a.shortest < b.shortest;
  });
  {
    uint32_t used = 0;
    std::vector<Counter> kept;
    for (Counter& counter : counters) {
      uint32_t units = ir::scalarTypeBits(counter.type) / 32;
      if (used + units > budget_)
        continue;
      used += units;
      kept.push_back(std::move(counter));
    }
    counters = std::move(kept);
    if (!counters.empty() && report_)
      report_(function, used);
  }
  if (counters.empty())
    return passes::PreservedAnalyses::controlFlow();

  // Everything the rewrite needs from the analyses, before it changes the function.
  std::map<uint32_t, std::vector<size_t>> countersOfLoop;
  for (size_t c = 0; c < counters.size(); ++c)
    countersOfLoop[counters[c].loop].push_back(c);
  std::vector<std::pair<ExitEdge, std::vector<size_t>>> edges;
  std::vector<std::pair<ir::BasicBlock*, std::vector<size_t>>> fallsOffEnd;
  std::vector<std::tuple<ir::BasicBlock*, const ir::Instruction*, std::vector<size_t>>> leaves;
  std::unordered_map<const ir::Instruction*, ir::BasicBlock*> blockOf;
  for (const Counter& counter : counters)
    for (const ir::Instruction* update : counter.updates)
      blockOf[update] = nullptr;
  for (Node b = 0; b < n; ++b)
    cfg.block(b)->forEachInstruction([&](const ir::Instruction& inst) {
      auto found = blockOf.find(&inst);
      if (found != blockOf.end())
        found->second = cfg.block(b);
    });
  for (const auto& [loop, members] : countersOfLoop) {
    for (const auto& edge : allLoops[loop].exits) {
      ir::BasicBlock* from = cfg.block(edge.from);
      if (cfg.isVirtual(edge.to)) {
        // ret and exit are flushed before the instruction below; a block that falls off the end
        // of the function is flushed at its end; trap ends the kernel.
        const ir::Instruction* last = from->terminator();
        if (last == nullptr)
          fallsOffEnd.emplace_back(from, members);
        continue;
      }
      ExitEdge exit{from, cfg.block(edge.to), ExitEdge::Place::BeforeBranch, std::nullopt};
      if (cfg.predecessors(edge.to).size() == 1)
        exit.place = ExitEdge::Place::StartOfTarget;
      else if (cfg.successors(edge.from).size() == 1)
        exit.place = ExitEdge::Place::EndOfSource;
      else
        exit.guard = exitGuard(edge); // checked above
      edges.emplace_back(exit, members);
    }
    for (Node b : allLoops[loop].nodes())
      cfg.block(b)->forEachInstruction([&](const ir::Instruction& inst) {
        if (inst.form().has(ir::kReturn) || inst.form().has(ir::kExit))
          leaves.emplace_back(cfg.block(b), &inst, members);
      });
  }

  // The registers, zeroed where the function starts (its first block runs once per call).
  IRBuilder b(function, &analyses);
  for (Counter& counter : counters) {
    const bool wide = ir::scalarTypeBits(counter.type) == 64;
    counter.reg = b.createRegister(wide ? ScalarType::U64 : ScalarType::U32);
    b.insert(wide ? "mov.u64" : "mov.u32", {IRBuilder::reg(counter.reg), IRBuilder::imm(0)});
  }
  // Each update adds into its register, under its own guard.
  for (Counter& counter : counters) {
    const bool wide = ir::scalarTypeBits(counter.type) == 64;
    for (const ir::Instruction* update : counter.updates) {
      ir::BasicBlock& block = *blockOf.at(update);
      size_t index = indexOf(block, update);
      const Operand& value = update->operands().back();
      b.at(block, index);
      ir::Instruction& add = b.insert(
          wide ? "add.u64" : "add.u32",
          {IRBuilder::reg(counter.reg), IRBuilder::reg(counter.reg), value}, update->guard());
      add.setSourceLoc(update->sourceLoc());
      b.erase(block, index + 1);
      ++promotedUpdates_;
    }
  }
  promotedCounters_ += static_cast<uint32_t>(counters.size());
  // Flushes before every ret and exit in the loops (the lanes that leave there; no reset: they
  // are gone) ...
  for (auto& [block, inst, members] : leaves) {
    b.at(*block, indexOf(*block, inst));
    Emitted emitted;
    for (size_t c : members)
      flushCounter(b, counters[c], inst->guard(), false, buffer_, emitted);
  }
  for (auto& [block, members] : fallsOffEnd) {
    b.atEnd(*block);
    Emitted emitted;
    for (size_t c : members)
      flushCounter(b, counters[c], std::nullopt, false, buffer_, emitted);
  }
  // ... and on every edge out of them, zeroed again for the next time the loop runs.
  for (auto& [exit, members] : edges) {
    if (exit.place == ExitEdge::Place::StartOfTarget)
      b.atStart(*exit.to);
    else
      b.atEnd(*exit.from); // before the terminator
    Emitted emitted;
    for (size_t c : members)
      flushCounter(b, counters[c], exit.guard, true, buffer_, emitted);
  }
  return passes::PreservedAnalyses::controlFlow();
}

} // namespace ocelot::instrumentors
