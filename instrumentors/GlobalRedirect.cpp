#include "instrumentors/GlobalRedirect.h"

#include "ir/Casting.h"

#include <map>
#include <unordered_map>

namespace ocelot::instrumentors {

namespace {

struct Variable {
  ir::StateSpace space = ir::StateSpace::Global;
  bool opaque = false; ///< a texture, surface or sampler reference: no address to redirect to
};

std::unordered_map<std::string_view, Variable> collectVariables(const ir::Module& module) {
  std::unordered_map<std::string_view, Variable> variables;
  for (const auto& item : module.items()) {
    const auto* global = ir::dyn_cast<ir::GlobalVariable>(item.get());
    if (global == nullptr)
      continue;
    ir::StateSpace space = global->spec().stateSpace();
    if (space != ir::StateSpace::Global && space != ir::StateSpace::Const)
      continue;
    std::string_view type = global->spec().typeWord();
    bool opaque = type == ".texref" || type == ".surfref" || type == ".samplerref";
    for (const auto& d : global->spec().declarators)
      variables[d.name] = Variable{space, opaque};
  }
  return variables;
}

bool isCall(const ir::Instruction& inst) {
  return inst.form().has(ir::kCall);
}

/// The spelling with its `const` state-space modifier replaced by `global`.
std::string globalSpelling(const ir::InstructionForm& form) {
  std::string text(form.opcodeName());
  bool replaced = false;
  for (std::string_view modifier : form.modifiers()) {
    text += '.';
    if (!replaced && modifier == "const") {
      text += "global";
      replaced = true;
    } else {
      text += modifier;
    }
  }
  return text;
}

ir::Operand immediateAddress(uint64_t address) {
  ir::ImmediateOperand value;
  value.magnitude = address;
  value.format = ir::ImmediateOperand::Format::Hexadecimal;
  return value;
}

} // namespace

RedirectResult redirectGlobals(ir::Module& module, passes::AnalysisManager& analyses,
                               const VariableAddresses& addresses) {
  RedirectResult result;
  auto variables = collectVariables(module);
  if (variables.empty())
    return result;
  if (module.addressSize().value_or(64) != 64) {
    result.ok = false;
    result.error = "32-bit addressing is not supported";
    return result;
  }

  // Pass 1: which variables are used by instructions, and can every use be rewritten?
  std::map<std::string_view, uint64_t> used; // name -> address
  bool constUsed = false;
  auto fail = [&](std::string message) {
    if (result.ok) {
      result.ok = false;
      result.error = std::move(message);
    }
  };
  for (ir::Function* f : module.functions()) {
    for (const auto& block : f->blocks())
      block->forEachInstruction([&](const ir::Instruction& inst) {
        const auto& ops = inst.operands();
        size_t callTarget =
            isCall(inst) && !ops.empty() && ops[0].is<ir::ArgumentListOperand>() ? 1 : 0;
        for (size_t i = 0; i < ops.size(); ++i) {
          std::string_view name;
          if (const auto* symbol = ops[i].getIf<ir::SymbolOperand>())
            name = symbol->name;
          else if (const auto* address = ops[i].getIf<ir::AddressOperand>())
            if (const auto* base = std::get_if<ir::SymbolOperand>(&address->base))
              name = base->name;
          if (isCall(inst) && i == callTarget)
            continue;
          if (const auto* list = ops[i].getIf<ir::ArgumentListOperand>())
            for (const auto& argument : list->arguments)
              if (const auto* symbol = argument.getIf<ir::SymbolOperand>();
                  symbol && variables.contains(symbol->name))
                fail("variable " + std::string(symbol->name) + " is passed to a call");
          auto it = variables.find(name);
          if (name.empty() || it == variables.end())
            continue;
          if (it->second.opaque) {
            fail("it uses the texture, surface or sampler reference " + std::string(name));
            continue;
          }
          if (!used.contains(name)) {
            auto address = addresses(name);
            if (!address) {
              fail("the application's module has no address for variable " + std::string(name));
              continue;
            }
            used[name] = *address;
          }
          constUsed = constUsed || it->second.space == ir::StateSpace::Const;
        }
        if (inst.form().hasModifier("const") && inst.form().opcode() != ir::Opcode::Ld &&
            inst.form().opcode() != ir::Opcode::Cvta)
          fail("`" + std::string(inst.form().spelling()) + "` cannot read constant memory " +
               "through global memory");
      });
  }
  if (!result.ok || used.empty())
    return result;

  // Pass 2: rewrite.
  for (ir::Function* f : module.functions()) {
    bool changed = false;
    for (auto& block : f->blocks()) {
      for (size_t i = 0; i < block->statements().size(); ++i) {
        auto* inst = ir::dyn_cast<ir::Instruction>(block->statements()[i].get());
        if (inst == nullptr)
          continue;
        if (constUsed && inst->form().hasModifier("const")) {
          inst->setForm(module.form(globalSpelling(inst->form())));
          changed = true;
        }
        auto& ops = inst->operands();
        size_t callTarget =
            isCall(*inst) && !ops.empty() && ops[0].is<ir::ArgumentListOperand>() ? 1 : 0;
        bool genericAccess =
            inst->form().accessesMemory() && inst->form().stateSpace() == ir::StateSpace::Generic;
        for (size_t k = 0; k < ops.size(); ++k) {
          if (isCall(*inst) && k == callTarget)
            continue;
          ir::SymbolOperand* symbol = ops[k].getIf<ir::SymbolOperand>();
          ir::AddressOperand* address = ops[k].getIf<ir::AddressOperand>();
          ir::SymbolOperand* base =
              address != nullptr ? std::get_if<ir::SymbolOperand>(&address->base) : nullptr;
          ir::SymbolOperand* target = symbol != nullptr ? symbol : base;
          if (target == nullptr || !used.contains(target->name))
            continue;
          // The address as an immediate, then its global-space form unless a generic one is
          // wanted. Both instructions go right before the use and are not guarded.
          ir::IRBuilder b(*f, &analyses);
          b.at(*block, i);
          bool generic = target->generic || (address != nullptr && genericAccess);
          ir::RegisterRef value = b.mov(ir::ScalarType::U64, immediateAddress(used[target->name]));
          if (!generic) {
            ir::RegisterRef global = b.createRegister(ir::ScalarType::U64);
            b.insert("cvta.to.global.u64", {ir::IRBuilder::reg(global), ir::IRBuilder::reg(value)});
            value = global;
          }
          i = b.index();
          // `ops` still refers to the same instruction: insertion moved pointers, not objects.
          if (address != nullptr) {
            int64_t offset = address->offset + base->offset;
            address->base = ir::RegisterOperand{value};
            address->offset = offset;
          } else {
            int64_t offset = symbol->offset;
            if (offset == 0) {
              ops[k] = ir::IRBuilder::reg(value);
            } else {
              // `sym+off` as a value: add the offset to the register.
              ir::IRBuilder add(*f, &analyses);
              add.at(*block, i);
              ir::RegisterRef sum = add.add(ir::ScalarType::U64, ir::IRBuilder::reg(value),
                                            ir::IRBuilder::imm(offset));
              i = add.index();
              ops[k] = ir::IRBuilder::reg(sum);
            }
          }
          ++result.uses;
          changed = true;
        }
      }
    }
    if (changed)
      analyses.irChanged(*f, ir::IRChange::Instructions);
  }
  result.variables = static_cast<uint32_t>(used.size());
  return result;
}

} // namespace ocelot::instrumentors
