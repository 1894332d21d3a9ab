#include "passes/ProbeInliner.h"

#include "ir/Casting.h"
#include "ir/RegisterAccess.h"
#include "passes/AnalysisManager.h"
#include "passes/ProbeSpecialization.h"
#include "passes/RegisterPressure.h"

#include <algorithm>
#include <map>
#include <set>

namespace ocelot::passes {

namespace {

using detail::InstancePlan;
using detail::specialize;
using ir::Instruction;
using ir::Operand;
using ir::RegisterRef;

uint32_t declaratorUnits(const ir::RegisterDeclarator& declarator) {
  if (!declarator.type || *declarator.type == ir::ScalarType::Pred)
    return 0;
  unsigned bits = ir::scalarTypeBits(*declarator.type);
  return std::max(1u, (bits + 31) / 32) * declarator.vectorWidth;
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