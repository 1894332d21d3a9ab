// branchdiv: how each conditional branch splits its warps (docs/probe-tools.md).
//
// Before every guarded branch (`@%p bra`) each active lane knows whether it takes it; the warp
// votes, and its first active lane records the outcome: all lanes take it, none does, or the
// warp diverges. Unconditional branches cannot diverge and are not probed.
#include "ocelot/probe.cuh"

using namespace ocelot::probe;

// Per branch: warp executions by outcome (bin 0 taken by every lane, 1 by none, 2 divergent).
OCELOT_HISTOGRAM(outcomes, "per=instruction; bins=3");
// Per branch: lanes that took it and lanes that fell through.
OCELOT_COUNTERS(takenLanes, unsigned long long, "per=instruction");
OCELOT_COUNTERS(fallLanes, unsigned long long, "per=instruction");

OCELOT_PROBE(vote, "at=branch; guarded=yes") {
  u32 active = activeMask();
  u32 taken = __ballot_sync(active, predicate());
  if (isLeader()) {
    u32 outcome = taken == active ? 0 : taken == 0 ? 1 : 2;
    atomicAdd(outcomes.slot(outcomes.here(), outcome), 1ull);
    if (taken != 0)
      atomicAdd(takenLanes.element(takenLanes.here()), (u64)__popc(taken));
    if (taken != active)
      atomicAdd(fallLanes.element(fallLanes.here()), (u64)__popc(active & ~taken));
  }
}
