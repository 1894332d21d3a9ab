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
  if (completion_ != nullptr)
    signalEnd(b, guard, group.mask, group.leader);
}

void LaunchClockPass::signalEnd(IRBuilder& b, const std::optional<ir::Guard>& guard,
                                RegisterRef mask, RegisterRef leader) const {
  // What the leaving lanes wrote comes before the leader's fence (bar.warp.sync orders memory
  // among its lanes; only the leaving ones run it), and the fence before the count: a reader of
  // the count that completes the grid sees all of it.
  b.insert("bar.warp.sync", {IRBuilder::reg(mask)}, guard);
  const ir::Guard byLeader{leader, false};
  RegisterRef count = laneCount(b, mask);
  RegisterRef base = buffer_.bufferAddress(b);
  RegisterRef before = b.createRegister(ScalarType::U64);
  b.insert("atom.acq_rel.gpu.global.add.u64",
           {IRBuilder::reg(before),
            IRBuilder::address(base, static_cast<int64_t>(LaunchClock::kExitedOffset)),
            IRBuilder::reg(count)},
           byLeader);
  RegisterRef total;
  linearGlobalThreadId(b, &total);
  RegisterRef after = b.add(ScalarType::U64, IRBuilder::reg(before), IRBuilder::reg(count));
  RegisterRef word = completion_->bufferAddress(b);
  RegisterRef complete =
      b.compare("eq", ScalarType::U64, IRBuilder::reg(after), IRBuilder::reg(total));
  RegisterRef wanted = b.compare("ne", ScalarType::U64, IRBuilder::reg(word), IRBuilder::imm(0));
  RegisterRef last = predicateAnd(b, predicateAnd(b, leader, complete), wanted);
  // The last add acquired every earlier warp's released count, so the results are performed at
  // GPU scope (in L2) before the word is written. The host never reads them directly: the profile
  // worker copies them out after it sees the word, and that copy reads L2. So the word needs no
  // system-scope fence, which costs the GPU microseconds per launch (an H200 showed ~3 us more on
  // a 50 us kernel with fence.acq_rel.sys + st.release.sys here).
  const ir::Guard byLast{last, false};
  b.insert("st.relaxed.sys.global.u32", {IRBuilder::address(word, 0), IRBuilder::imm(1)}, byLast);
}

} // namespace ocelot::instrumentors
