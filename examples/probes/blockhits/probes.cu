// blockhits, the device side: how many threads entered each basic block.
#include "ocelot/probe.cuh"

// One 64-bit counter per basic block of the instrumented module, in the launch's buffer.
OCELOT_COUNTERS(entries, unsigned long long, "per=block");

// At the start of every basic block: the warp's first active lane adds the active lanes.
OCELOT_PROBE(countEntries, "at=block-entry") {
  entries.warpIncrement();
}
