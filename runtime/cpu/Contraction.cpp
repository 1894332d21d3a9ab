#include "runtime/cpu/Contraction.h"

#include "ir/BasicBlock.h"
#include "ir/Casting.h"
#include "ir/InstructionForm.h"
#include "ir/Opcode.h"
#include "ir/RegisterAccess.h"

#include <vector>

namespace ocelot::runtime::cpu {
namespace {

uint64_t keyOf(ir::RegisterRef ref) {
  return (uint64_t{ref.declarator} << 32) | ref.index;
}

bool hasRounding(const ir::InstructionForm& form) {
  for (std::string_view m : {"rn", "rz", "rm", "rp"})
    if (form.hasModifier(m))
      return true;
  return false;
}

/// A floating-point instruction of `opcode` (f32, f64 or a 16-bit float type) the code generator
/// may contract.
bool contractible(const ir::Instruction& instruction, ir::Opcode opcode) {
  const ir::InstructionForm& form = instruction.form();
  if (form.opcode() != opcode || hasRounding(form))
    return false;
  const auto type = form.lastType();
  using T = ir::ScalarType;
  if (!type || (*type != T::F32 && *type != T::F64 && *type != T::F16 && *type != T::F16x2 &&
                *type != T::BF16 && *type != T::BF16x2))
    return false;
  return instruction.operands().size() == 3;
}

const ir::RegisterOperand* plainRegister(const ir::Operand& operand) {
  const auto* reg = operand.getIf<ir::RegisterOperand>();
  return reg != nullptr && reg->component == ir::VectorComponent::None && !reg->negated ? reg
                                                                                        : nullptr;
}

/// Where an instruction sits: its block and its index among the block's statements.
struct Position {
  size_t block = 0;
  size_t index = 0;
};

/// One read of a product by an add/sub that may absorb it.
struct Use {
  const ir::Instruction* add = nullptr;
  size_t operand = 1;
  Position at;
};

} // namespace

std::unordered_map<const ir::Instruction*, Contraction>
planContractions(const ir::Function& function) {
  std::unordered_map<uint64_t, uint32_t> writes, reads;
  std::unordered_map<uint64_t, std::vector<Use>> uses;
  std::vector<std::pair<const ir::Instruction*, Position>> multiplies;
  const auto& blocks = function.blocks();
  for (size_t b = 0; b < blocks.size(); ++b) {
    const auto& statements = blocks[b]->statements();
    for (size_t i = 0; i < statements.size(); ++i) {
      const auto* instruction = ir::dyn_cast<ir::Instruction>(statements[i].get());
      if (instruction == nullptr)
        continue;
      ir::forEachRegisterAccess(*instruction,
                                [&](const ir::RegisterRef& ref, const ir::RegisterAccess& access) {
                                  writes[keyOf(ref)] += access.written ? 1 : 0;
                                  reads[keyOf(ref)] += access.read ? 1 : 0;
                                });
      if (contractible(*instruction, ir::Opcode::Add) ||
          contractible(*instruction, ir::Opcode::Sub)) {
        const auto* first = plainRegister(instruction->operands()[1]);
        const auto* second = plainRegister(instruction->operands()[2]);
        // `add d, p, p` keeps its product: it is not counted as a use that can absorb it.
        if (first && second && keyOf(first->reg) == keyOf(second->reg))
          continue;
        if (first)
          uses[keyOf(first->reg)].push_back({instruction, 1, {b, i}});
        if (second)
          uses[keyOf(second->reg)].push_back({instruction, 2, {b, i}});
      }
      if (contractible(*instruction, ir::Opcode::Mul) && !instruction->guard() &&
          !instruction->form().hasModifier("sat"))
        multiplies.push_back({instruction, {b, i}});
    }
  }

  // Whether the sources of `multiply` still hold their values at `use`: defined once in the
  // function (nvcc's PTX is in SSA form but for loop-carried values), or not written between
  // the two in one block.
  auto sourcesReach = [&](const ir::Instruction& multiply, Position from, Position to) {
    std::vector<uint64_t> sources;
    for (size_t i = 1; i <= 2; ++i) {
      const ir::Operand& operand = multiply.operands()[i];
      if (operand.getIf<ir::RegisterOperand>() == nullptr)
        continue; // an immediate
      const auto* reg = plainRegister(operand);
      if (reg == nullptr)
        return false;
      if (writes[keyOf(reg->reg)] != 1)
        sources.push_back(keyOf(reg->reg));
    }
    if (sources.empty())
      return true;
    if (from.block != to.block || to.index <= from.index)
      return false;
    const auto& statements = blocks[from.block]->statements();
    for (size_t i = from.index + 1; i < to.index; ++i) {
      const auto* between = ir::dyn_cast<ir::Instruction>(statements[i].get());
      if (between == nullptr)
        continue;
      bool overwrites = false;
      ir::forEachRegisterAccess(
          *between, [&](const ir::RegisterRef& ref, const ir::RegisterAccess& access) {
            for (uint64_t key : sources)
              overwrites = overwrites || (access.written && keyOf(ref) == key);
          });
      if (overwrites)
        return false;
    }
    return true;
  };

  std::unordered_map<const ir::Instruction*, Contraction> plan;
  for (const auto& [multiply, at] : multiplies) {
    const auto* product = plainRegister(multiply->operands()[0]);
    if (product == nullptr || writes[keyOf(product->reg)] != 1)
      continue;
    const auto found = uses.find(keyOf(product->reg));
    if (found == uses.end() || found->second.size() != reads[keyOf(product->reg)])
      continue; // read by something other than an add/sub: the product stays rounded everywhere
    bool fusable = true;
    for (const Use& use : found->second)
      fusable = fusable &&
                use.add->form().hasModifier("ftz") == multiply->form().hasModifier("ftz") &&
                use.add->form().lastType() == multiply->form().lastType() &&
                sourcesReach(*multiply, at, use.at);
    if (!fusable)
      continue;
    for (const Use& use : found->second)
      plan.try_emplace(use.add, Contraction{multiply, use.operand});
  }
  return plan;
}

} // namespace ocelot::runtime::cpu
