#include "instrumentors/CtaClockPass.h"

#include "instrumentors/PtxIdioms.h"
#include "ir/Casting.h"

namespace ocelot::instrumentors {

using ir::IRBuilder;
using ir::RegisterRef;
using ir::ScalarType;

namespace {

bool hasExit(const ir::Function& function) {
  bool found = false;
  for (const auto& block : function.blocks())
    block->forEachInstruction(
        [&](const ir::Instruction& inst) { found = found || inst.form().has(ir::kExit); });
  return found;
}

} // namespace

bool CtaClockPass::appliesTo(const ir::Function& function) const {
  return function.hasBody() && buffer_.reaches(function) &&
         (function.isEntry() || hasExit(function));
}

RegisterRef CtaClockPass::recordAddress(IRBuilder& b) const {
  RegisterRef base = buffer_.bufferAddress(b);
  RegisterRef cta = linearCtaId(b);
  return b.elementAddress(IRBuilder::reg(base), IRBuilder::reg(cta), 48);
}

void CtaClockPass::recordStart(IRBuilder& b) const {
  // Clocks first, so that the record is as close to the kernel's own start as possible.
  RegisterRef clock = b.readSpecial("%clock64");
  RegisterRef time = b.readSpecial("%globaltimer");
  RegisterRef sm = b.readSpecial("%smid");
  WarpGroup group = warpGroup(b);
  RegisterRef record = recordAddress(b);
  RegisterRef notClock = b.createRegister(ScalarType::B64);
  b.insert("not.b64", {IRBuilder::reg(notClock), IRBuilder::reg(clock)});
  RegisterRef notTime = b.createRegister(ScalarType::B64);
  b.insert("not.b64", {IRBuilder::reg(notTime), IRBuilder::reg(time)});
  RegisterRef smPlusOne = b.add(ScalarType::U32, IRBuilder::reg(sm), IRBuilder::imm(1));
  ir::Guard leader{group.leader, false};
  b.insert("red.global.max.u64", {IRBuilder::address(record, 0), IRBuilder::reg(notClock)}, leader);
  b.insert("red.global.max.u64", {IRBuilder::address(record, 16), IRBuilder::reg(notTime)}, leader);
  b.insert("red.global.max.u32", {IRBuilder::address(record, 32), IRBuilder::reg(smPlusOne)},
           leader);
  b.insert("red.global.add.u32", {IRBuilder::address(record, 36), IRBuilder::imm(1)}, leader);
}

void CtaClockPass::recordEnd(IRBuilder& b, std::optional<ir::Guard> guard) const {
  RegisterRef clock = b.readSpecial("%clock64");
  RegisterRef time = b.readSpecial("%globaltimer");
  WarpGroup group = warpGroup(b, guard);
  RegisterRef leaving = b.createRegister(ScalarType::U32);
  b.insert("popc.b32", {IRBuilder::reg(leaving), IRBuilder::reg(group.mask)});
  RegisterRef record = recordAddress(b);
  ir::Guard leader{group.leader, false};
  b.insert("red.global.max.u64", {IRBuilder::address(record, 8), IRBuilder::reg(clock)}, leader);
  b.insert("red.global.max.u64", {IRBuilder::address(record, 24), IRBuilder::reg(time)}, leader);
  b.insert("red.global.add.u32", {IRBuilder::address(record, 40), IRBuilder::reg(leaving)}, leader);
}

passes::PreservedAnalyses CtaClockPass::run(ir::Function& function,
                                            passes::AnalysisManager& analyses) {
  if (function.isEntry()) {
    // The first block runs once per thread (BufferPlan made sure it is no branch target).
    IRBuilder b(*function.blocks().front(), &analyses);
    recordStart(b);
  }
  for (auto& block : function.blocks()) {
    for (size_t i = 0; i < block->statements().size(); ++i) {
      auto* inst = ir::dyn_cast<ir::Instruction>(block->statements()[i].get());
      if (inst == nullptr)
        continue;
      bool leaves =
          inst->form().has(ir::kExit) || (function.isEntry() && inst->form().has(ir::kReturn));
      if (!leaves)
        continue;
      IRBuilder b(function, &analyses);
      b.at(*block, i);
      recordEnd(b, inst->guard());
      i = b.index();
    }
  }
  ir::BasicBlock& last = *function.blocks().back();
  if (function.isEntry() && last.terminator() == nullptr) {
    IRBuilder b(function, &analyses);
    b.atEnd(last);
    recordEnd(b, std::nullopt);
  }
  return passes::PreservedAnalyses::controlFlow();
}

} // namespace ocelot::instrumentors
