#include "instrumentors/PerThreadCountPass.h"

#include "instrumentors/PtxIdioms.h"

namespace ocelot::instrumentors {

using ir::IRBuilder;
using ir::RegisterRef;
using ir::ScalarType;

bool PerThreadCountPass::appliesTo(const ir::Function& function) const {
  return function.hasBody() && buffer_.reaches(function) && state_.registerRows.contains(&function);
}

passes::PreservedAnalyses PerThreadCountPass::runOnBlock(ir::BasicBlock& block,
                                                         passes::AnalysisManager& analyses) {
  ir::Function& function = block.parent();
  IRBuilder b(block, &analyses);
  if (&block == function.blocks().front().get()) {
    // Once per call (the first block is never a branch target): this thread's column in row 0
    // and the distance between rows.
    RegisterRef base = buffer_.bufferAddress(b);
    RegisterRef threads{};
    RegisterRef thread = linearGlobalThreadId(b, &threads);
    column_ =
        b.mad(ScalarType::U64, IRBuilder::reg(thread), IRBuilder::imm(8), IRBuilder::reg(base));
    rowBytes_ = b.binary("shl", ScalarType::B64, IRBuilder::reg(threads), IRBuilder::imm(3));
  }
  auto row = state_.rowOf.find(&block);
  if (row == state_.rowOf.end() || state_.registerOf.contains(&block))
    return passes::PreservedAnalyses::controlFlow();
  // counter = column + row * rowBytes; ++*counter (no other thread touches it)
  RegisterRef address = b.mad(ScalarType::U64, IRBuilder::reg(rowBytes_),
                              IRBuilder::imm(row->second), IRBuilder::reg(column_));
  RegisterRef count = b.load(ir::StateSpace::Global, ScalarType::U64, IRBuilder::reg(address));
  RegisterRef next = b.add(ScalarType::U64, IRBuilder::reg(count), IRBuilder::imm(1));
  b.store(ir::StateSpace::Global, ScalarType::U64, IRBuilder::reg(address), IRBuilder::reg(next));
  return passes::PreservedAnalyses::controlFlow();
}

} // namespace ocelot::instrumentors
