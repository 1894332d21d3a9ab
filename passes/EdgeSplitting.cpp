#include "passes/EdgeSplitting.h"

#include "ir/Casting.h"
#include "ir/InstructionForm.h"

#include <algorithm>
#include <span>
#include <unordered_set>

namespace ocelot::passes {

namespace {

size_t layoutIndex(const ir::Function& function, const ir::BasicBlock& block) {
  const auto& blocks = function.blocks();
  for (size_t i = 0; i < blocks.size(); ++i)
    if (blocks[i].get() == &block)
      return i;
  return blocks.size();
}

bool holdsLabel(const ir::BasicBlock& block, ir::LabelId id) {
  return std::any_of(block.statements().begin(), block.statements().end(), [&](const auto& s) {
    const auto* label = ir::dyn_cast<ir::Label>(s.get());
    return label != nullptr && label->id() == id;
  });
}

/// Whether control can run off the end of `block` into whatever follows it.
bool canFallThrough(const ir::BasicBlock& block) {
  const ir::Instruction* last = block.terminator();
  return last == nullptr || last->guard().has_value();
}

} // namespace

ir::BasicBlock* splitEdge(ir::IRBuilder& builder, ir::BasicBlock& from, ir::BasicBlock& to,
                          EdgeKind kind, std::string* why) {
  auto fail = [&](std::string reason) -> ir::BasicBlock* {
    if (why != nullptr)
      *why = std::move(reason);
    return nullptr;
  };
  ir::Function& function = builder.function();
  const size_t fromIndex = layoutIndex(function, from);
  const size_t toIndex = layoutIndex(function, to);
  if (fromIndex == function.blocks().size() || toIndex == function.blocks().size())
    return fail("the blocks are not in the function");

  if (kind == EdgeKind::FallThrough) {
    if (toIndex != fromIndex + 1)
      return fail("a fall-through edge must join neighbouring blocks");
    return &builder.createBlock(toIndex);
  }
  if (kind != EdgeKind::Branch)
    return fail("edges to the virtual exit cannot be split");

  ir::Instruction* branch = from.terminator();
  if (branch == nullptr || !branch->form().has(ir::kBranch))
    return fail("the source block does not end in a branch");
  const ir::Label* target = to.label();
  if (target == nullptr)
    return fail("the target block has no label");
  for (const auto& s : to.statements())
    if (const auto* label = ir::dyn_cast<ir::Label>(s.get()); label && label->scope() != 0)
      return fail("the target label " + std::string(label->name()) +
                  " is inside a { } scope and not visible from a new block");

  // The new block goes last; the old last block must not fall into it.
  if (canFallThrough(*function.blocks().back())) {
    ir::BasicBlock& stop = builder.createBlock(function.blocks().size());
    builder.at(stop, 0).insert("ret", {});
  }
  ir::BasicBlock& split = builder.createBlock(function.blocks().size());
  builder.at(split, 0);
  const ir::Label& label = builder.insertLabel("edge");
  builder.branch(target->id());

  // Retarget the branch: `bra` directly, `brx.idx` through a copy of its table (other brx.idx
  // instructions may share the original).
  auto retarget = [&](std::span<ir::Operand> operands) { // a table's or a branch's
    for (auto& operand : operands)
      if (auto* l = operand.getIf<ir::LabelOperand>(); l && holdsLabel(to, l->label))
        l->label = label.id();
  };
  if (branch->form().opcode() == ir::Opcode::Brx) {
    auto* name =
        branch->operands().size() >= 2 ? branch->operands()[1].getIf<ir::SymbolOperand>() : nullptr;
    const ir::BranchTargets* table = nullptr;
    std::unordered_set<std::string_view> tableNames;
    for (const auto& block : function.blocks())
      for (const auto& s : block->statements())
        if (const auto* t = ir::dyn_cast<ir::BranchTargets>(s.get())) {
          tableNames.insert(t->name());
          if (name && t->name() == name->name)
            table = t;
        }
    if (table == nullptr)
      return fail("brx.idx without a .branchtargets table");
    std::string copyName;
    for (size_t n = 0;; ++n) {
      copyName = std::string(table->name()) + "_ocl" + std::to_string(n);
      if (!tableNames.contains(copyName))
        break;
    }
    std::vector<ir::Operand> targets = table->targets();
    retarget(targets);
    builder.before(from, *branch);
    auto& copy = builder.insertStatement(std::make_unique<ir::BranchTargets>(
        function.module().intern(copyName), std::move(targets), 0));
    name->name = copy.name();
  } else {
    retarget(branch->operands());
  }
  builder.reportChange(ir::IRChange::ControlFlow); // the retargeted branch
  return &split;
}

} // namespace ocelot::passes
