// Block counts the framework counts (OCELOT_BLOCK_COUNTS) beside one probe: ProbeToolTest's
// ProbeBlockCounts tests.
#include "ocelot/probe.cuh"

OCELOT_BLOCK_COUNTS(laneEntries, "lanes");
OCELOT_BLOCK_COUNTS(warpEntries, "warps");
OCELOT_COUNTERS(exits, unsigned long long, "count=1");

OCELOT_PROBE(countExits, "at=kernel-exit") {
  exits.warpIncrement();
}
