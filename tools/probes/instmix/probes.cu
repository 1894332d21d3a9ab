// instmix (and warpeff, which shares these probes): what ran, derived from block counts
// (docs/probe-tools.md). Every lane that enters a basic block runs each of its instructions, so
// the block's entries times its static mix give the dynamic mix; only guarded instructions
// (`@%p`) can run for fewer lanes, and their probe counts the lanes that skip them.
#include "ocelot/probe.cuh"

using namespace ocelot::probe;

// Per basic block: warp entries, and the lanes those warps did not have (32 - active lanes), so
// that a full warp costs one atomic: lane entries = 32 x warp entries - idle lanes. 32 stripes by
// %ctaid.x, as bbcount has.
OCELOT_COUNTERS(warpEntries, unsigned long long, "per=block; stripes=32");
OCELOT_COUNTERS(idleLanes, unsigned long long, "per=block; stripes=32");
// Per guarded instruction: active lanes whose guard was false.
OCELOT_COUNTERS(skippedLanes, unsigned long long, "per=instruction");

OCELOT_PROBE(enterBlock, "at=block-entry") {
  u32 active = activeMask();
  if (isLeader()) {
    atomicAdd(warpEntries.element(warpEntries.here()), 1ull);
    u32 idle = 32 - __popc(active);
    if (idle != 0)
      atomicAdd(idleLanes.element(idleLanes.here()), (u64)idle);
  }
}

OCELOT_PROBE(guardFalse, "at=instruction; guarded=yes; guard=receive") {
  u32 active = activeMask();
  u32 skipped = active & ~__ballot_sync(active, predicate());
  if (skipped != 0 && isLeader())
    atomicAdd(skippedLanes.element(skippedLanes.here()), (u64)__popc(skipped));
}
