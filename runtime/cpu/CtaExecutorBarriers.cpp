// Barriers: bar.sync/bar.red arrivals, from the interpreter and from native code, and their
// release.

#include "runtime/cpu/CtaExecutor.h"
#include "runtime/cpu/CtaExecutorWarp.h"

#include <algorithm>

namespace ocelot::runtime::cpu {

bool CtaExecutor::arrive(Warp& warp, const DecodedInstruction& in, LaneMask active,
                         LaneMask lanes) {
  const uint32_t pc = warp.stack.back().pc;
  const uint32_t first = static_cast<uint32_t>(std::countr_zero(lanes));
  const LaneMask live = warp.valid & ~warp.exited;
  if ((in.aux & kBarrierAligned) && lanes != live) {
    faultAt(warp, FaultKind::BarrierDeadlock, first, pc,
            "barrier divergence: only some threads of the warp reached the barrier");
    return false;
  }
  (void)active;
  const uint32_t id = static_cast<uint32_t>(warp.rows[size_t{in.op[0]} * kWarpSize + first]);
  if (id >= kBarrierCount) {
    faultAt(warp, FaultKind::IllegalInstruction, first, pc, "barrier number out of range");
    return false;
  }
  Barrier& barrier = barriers_[id];
  if (in.op[1] != kNone)
    barrier.expected = static_cast<uint32_t>(warp.rows[size_t{in.op[1]} * kWarpSize + first]);
  if (barrier.arrived == 0)
    ++waitingBarriers_;
  barrier.arrived += static_cast<uint32_t>(std::popcount(live));
  if (in.aux & kBarrierReduce) {
    const LaneMask value = warp.predicates[in.op[3]] & lanes;
    barrier.popc += static_cast<uint32_t>(std::popcount(value));
    barrier.all = barrier.all && value == lanes;
    barrier.any = barrier.any || value != 0;
    warp.reduceDestination = in.op[2];
    warp.reduceFlags = in.aux;
    warp.reduceLanes = lanes;
  } else {
    warp.reduceDestination = kNone;
  }
  warp.stack.back().pc = pc + 1;
  if (in.aux & kBarrierWait) {
    barrier.waiting.push_back(warp.index);
    warp.state = Warp::State::Waiting;
    warp.barrier = id;
  }
  return true;
}

void CtaExecutor::resetBarrier(Barrier& barrier) {
  barrier.arrived = barrier.expected = barrier.popc = 0;
  barrier.all = true;
  barrier.any = false;
  barrier.waiting.clear();
}

void CtaExecutor::arriveNative(Warp& warp, uint32_t id) {
  // arrive() for bar.sync of a constant barrier without a thread count, reached by every live
  // lane (native code checked): the warp waits, resuming after the barrier.
  Barrier& barrier = barriers_[id];
  if (barrier.arrived == 0)
    ++waitingBarriers_;
  barrier.arrived += static_cast<uint32_t>(std::popcount(warp.valid & ~warp.exited));
  warp.reduceDestination = kNone;
  barrier.waiting.push_back(warp.index);
  warp.state = Warp::State::Waiting;
  warp.barrier = id;
}

bool CtaExecutor::releaseBarriers(bool* released) {
  if (waitingBarriers_ == 0)
    return true;
  for (Barrier& barrier : barriers_) {
    if (barrier.arrived == 0)
      continue;
    const uint32_t expected = barrier.expected != 0 ? barrier.expected : liveThreads_;
    if (barrier.arrived < expected)
      continue;
    for (uint32_t index : barrier.waiting) {
      Warp& warp = *warps_[index];
      warp.state = warp.stack.empty() ? Warp::State::Done : Warp::State::Ready;
      if (warp.reduceDestination != kNone) {
        if (warp.reduceFlags & kBarrierRedPopc) {
          forEachLane(warp.reduceLanes, [&](uint32_t lane) {
            warp.rows[size_t{warp.reduceDestination} * kWarpSize + lane] = barrier.popc;
          });
        } else {
          const bool value = (warp.reduceFlags & kBarrierRedAnd) ? barrier.all : barrier.any;
          LaneMask& predicate = warp.predicates[warp.reduceDestination];
          predicate = (predicate & ~warp.reduceLanes) | (value ? warp.reduceLanes : 0);
        }
        warp.reduceDestination = kNone;
      }
    }
    resetBarrier(barrier);
    --waitingBarriers_;
    if (released != nullptr)
      *released = true;
  }
  return true;
}

} // namespace ocelot::runtime::cpu
