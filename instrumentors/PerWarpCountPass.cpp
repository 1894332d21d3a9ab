#include "instrumentors/PerWarpCountPass.h"

#include "instrumentors/PtxIdioms.h"
#include "ir/Casting.h"

namespace ocelot::instrumentors {

using ir::IRBuilder;
using ir::RegisterRef;
using ir::ScalarType;

bool PerWarpCountPass::appliesTo(const ir::Function& function) const {
  return function.hasBody() && buffer_.reaches(function) && state_.registerRows.contains(&function);
}

void PerWarpCountPass::beginFunction(ir::Function& function, passes::AnalysisManager& analyses) {
  registers_.clear();
  registerRows_ = state_.registerRows.at(&function);
  IRBuilder b(function, &analyses);
  for (size_t i = 0; i < registerRows_.size(); ++i)
    registers_.push_back(b.createRegister(ScalarType::U32));
}

ir::Operand PerWarpCountPass::counterAddress(IRBuilder& b, uint32_t row) const {
  // The stripe: ctaid.x modulo the (power-of-two) number of stripes.
  RegisterRef base = buffer_.bufferAddress(b);
  RegisterRef cta = b.readSpecial("%ctaid", ir::VectorComponent::X);
  RegisterRef stripe =
      b.binary("and", ScalarType::B32, IRBuilder::reg(cta), IRBuilder::imm(state_.stripes - 1));
  RegisterRef address = b.elementAddress(IRBuilder::reg(base), IRBuilder::reg(stripe), 8);
  return IRBuilder::address(address, int64_t{row} * state_.stripes * 8);
}

passes::PreservedAnalyses PerWarpCountPass::runOnBlock(ir::BasicBlock& block,
                                                       passes::AnalysisManager& analyses) {
  ir::Function& function = block.parent();
  IRBuilder b(block, &analyses);
  bool changed = false;
  if (&block == function.blocks().front().get()) {
    // The first block runs once per call (BufferPlan made sure): zero the register counters.
    for (RegisterRef r : registers_)
      b.insert("mov.u32", {IRBuilder::reg(r), IRBuilder::imm(0)});
    changed = !registers_.empty();
  }
  auto row = state_.rowOf.find(&block);
  if (row == state_.rowOf.end())
    return changed ? passes::PreservedAnalyses::controlFlow() : passes::PreservedAnalyses::all();
  auto kind = state_.registerOf.find(&block);
  if (kind != state_.registerOf.end()) {
    RegisterRef r = registers_.at(kind->second);
    // Counting warps, only the lowest active lane counts the entry (the flush sums the lanes).
    std::optional<ir::Guard> counts;
    if (state_.countWarps)
      counts = ir::Guard{warpGroup(b).leader, false};
    b.insert("add.u32", {IRBuilder::reg(r), IRBuilder::reg(r), IRBuilder::imm(1)}, counts);
    return passes::PreservedAnalyses::controlFlow();
  }
  WarpGroup group = warpGroup(b);
  ir::Operand value =
      state_.countWarps ? IRBuilder::imm(1) : IRBuilder::reg(laneCount(b, group.mask));
  ir::Operand address = counterAddress(b, row->second);
  b.insert("red.global.add.u64", {address, value}, ir::Guard{group.leader, false});
  return passes::PreservedAnalyses::controlFlow();
}

void PerWarpCountPass::flushRegisters(IRBuilder& b, std::optional<ir::Guard> guard) const {
  WarpGroup group = warpGroup(b, guard);
  for (size_t i = 0; i < registers_.size(); ++i) {
    RegisterRef wide = b.convert(ScalarType::U64, ScalarType::U32, IRBuilder::reg(registers_[i]));
    RegisterRef sum = warpSum(b, wide, group.mask, guard);
    RegisterRef nonzero = b.compare("ne", ScalarType::U64, IRBuilder::reg(sum), IRBuilder::imm(0));
    RegisterRef acts = predicateAnd(b, group.leader, nonzero);
    ir::Operand address = counterAddress(b, registerRows_[i]);
    b.insert("red.global.add.u64", {address, IRBuilder::reg(sum)}, ir::Guard{acts, false});
  }
}

passes::PreservedAnalyses PerWarpCountPass::endFunction(ir::Function& function,
                                                        passes::AnalysisManager& analyses) {
  if (registers_.empty())
    return passes::PreservedAnalyses::all();
  // Every way a thread leaves the kernel: ret and exit (guarded or not), and falling off the end
  // of the last block.
  for (auto& block : function.blocks()) {
    for (size_t i = 0; i < block->statements().size(); ++i) {
      auto* inst = ir::dyn_cast<ir::Instruction>(block->statements()[i].get());
      if (inst == nullptr || !(inst->form().has(ir::kReturn) || inst->form().has(ir::kExit)))
        continue;
      IRBuilder b(function, &analyses);
      b.at(*block, i);
      flushRegisters(b, inst->guard());
      i = b.index();
    }
  }
  ir::BasicBlock& last = *function.blocks().back();
  if (last.terminator() == nullptr) {
    IRBuilder b(function, &analyses);
    b.atEnd(last);
    flushRegisters(b, std::nullopt);
  }
  return passes::PreservedAnalyses::controlFlow();
}

} // namespace ocelot::instrumentors
