// branchdiv: how each conditional branch splits its warps (docs/probe-tools.md).
//
// Per guarded branch (`@%p bra`) the host reports the warp executions where every lane takes it,
// where none does and where the warp diverges, and the lanes on each side. Block counts give most
// of it: the warps and lanes that reach the branch are those that entered its block, and the lanes
// that fall through are those that entered the next block where only this branch leads there. The
// probe counts the rest, each in a counter of its own (no index chosen at run time), so that Ocelot
// keeps them in registers in loops. Unconditional branches cannot diverge and are not probed.
#include "ocelot/probe.cuh"

using namespace ocelot::probe;

OCELOT_BLOCK_COUNTS(warpEntries, "warps");
OCELOT_BLOCK_COUNTS(laneEntries, "lanes");
// Per branch: warp executions taken by every lane, and divergent ones (not taken = the block's
// warp entries less both).
OCELOT_COUNTERS(allTaken, unsigned long long, "per=instruction");
OCELOT_COUNTERS(divergent, unsigned long long, "per=instruction");
// Only where the block entries do not give them: not-taken warp executions and taken lanes where a
// call before the branch may exit lanes, fall-through lanes where other blocks also lead there.
OCELOT_COUNTERS(noneTaken, unsigned long long, "per=instruction");
OCELOT_COUNTERS(takenLanes, unsigned long long, "per=instruction");
OCELOT_COUNTERS(fallLanes, unsigned long long, "per=instruction");

__device__ __forceinline__ void count(Counters<unsigned long long> counter, u32 value) {
  atomicAdd(counter.element(counter.here()), (u64)value);
}

OCELOT_PROBE(vote, "at=branch; guarded=yes") {
  u32 active = activeMask();
  u32 taken = __ballot_sync(active, predicate());
  if (!isLeader())
    return;
  // blockEntriesReach() and skippedLanesDerivable() are constants at each branch: Ocelot leaves
  // out what they rule out.
  if (taken == active)
    count(allTaken, 1);
  else if (taken != 0)
    count(divergent, 1);
  else if (!blockEntriesReach())
    count(noneTaken, 1);
  if (!blockEntriesReach() && taken != 0)
    count(takenLanes, __popc(taken));
  if (!skippedLanesDerivable() && taken != active)
    count(fallLanes, __popc(active & ~taken));
}
