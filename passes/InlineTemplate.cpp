// InlineTemplate: a probe function checked and prepared once for inlining (passes/ProbeInliner.h):
// what it may use, its registers, and its items by block.
#include "ir/Casting.h"
#include "ir/RegisterAccess.h"
#include "passes/AnalysisManager.h"
#include "passes/ProbeInliner.h"
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

} // namespace ocelot::passes
