// instmix (and warpeff, which shares these probes): what ran, derived from block counts
// (docs/probe-tools.md). Every lane that enters a basic block runs each of its instructions, so
// the block's entries times its static mix give the dynamic mix; only guarded instructions
// (`@%p`) can run for fewer lanes, and their probe counts the lanes that skip them.
#include "ocelot/probe.cuh"

using namespace ocelot::probe;

// Per basic block: the warps and the lanes (threads) that entered it, counted by Ocelot as bbcount
// counts (derived where a block runs as often as another, in registers in loops, else one atomic
// per warp): no probe at block entries.
OCELOT_BLOCK_COUNTS(warpEntries, "warps");
OCELOT_BLOCK_COUNTS(laneEntries, "lanes");
// Per guarded instruction: active lanes whose guard was false. At a guarded branch whose
// fall-through block or target block has no other predecessor, the block entries give them
// (ProbeInstruction::derivedSkippedLanes), so derivable=skip leaves the probe out there: in loops
// with in-bounds `@%p bra` checks it would do an atomic at every iteration.
OCELOT_COUNTERS(skippedLanes, unsigned long long, "per=instruction");

OCELOT_PROBE(guardFalse, "at=instruction; guarded=yes; guard=receive; derivable=skip") {
  u32 active = activeMask();
  u32 skipped = active & ~__ballot_sync(active, predicate());
  if (skipped != 0 && isLeader())
    atomicAdd(skippedLanes.element(skippedLanes.here()), (u64)__popc(skipped));
}
