#include "instrumentors/LaunchClockPass.h"

#include "instrumentors/LaunchClock.h"
#include "instrumentors/PtxIdioms.h"

namespace ocelot::instrumentors {

using ir::IRBuilder;
using ir::RegisterRef;
using ir::ScalarType;

RegisterRef LaunchClockPass::recordAddress(IRBuilder& b) const {
  RegisterRef base = buffer_.bufferAddress(b);
  RegisterRef cta = linearCtaId(b);
  RegisterRef record = b.createRegister(ScalarType::U32);
  b.insert("and.b32", {IRBuilder::reg(record), IRBuilder::reg(cta),
                       IRBuilder::imm(LaunchClock::kRecords - 1)});
  return b.elementAddress(IRBuilder::reg(base), IRBuilder::reg(record), LaunchClock::kRecordBytes);
}

void LaunchClockPass::recordStart(IRBuilder& b) const {
  RegisterRef time = b.readSpecial("%globaltimer");
  WarpGroup group = warpGroup(b);
  RegisterRef record = recordAddress(b);
  RegisterRef notTime = b.createRegister(ScalarType::B64);
  b.insert("not.b64", {IRBuilder::reg(notTime), IRBuilder::reg(time)});
  b.insert("red.global.max.u64", {IRBuilder::address(record, 0), IRBuilder::reg(notTime)},
           ir::Guard{group.leader, false});
}

void LaunchClockPass::recordEnd(IRBuilder& b, std::optional<ir::Guard> guard) const {
  RegisterRef time = b.readSpecial("%globaltimer");
  WarpGroup group = warpGroup(b, guard);
  RegisterRef record = recordAddress(b);
  b.insert("red.global.max.u64", {IRBuilder::address(record, 8), IRBuilder::reg(time)},
           ir::Guard{group.leader, false});
}

} // namespace ocelot::instrumentors
