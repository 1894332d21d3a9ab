#include "instrumentors/CtaClockPass.h"

#include "instrumentors/PtxIdioms.h"

namespace ocelot::instrumentors {

using ir::IRBuilder;
using ir::RegisterRef;
using ir::ScalarType;

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

} // namespace ocelot::instrumentors
