// probecount: bbcount's per-warp block counting written as a probe, to compare what a probe costs
// with the hand-written instrumentor (docs/probes.md, "bbcount as a probe").
#include "ocelot/probe.cuh"

// One counter per basic block and 32 stripes of them, chosen by %ctaid.x as bbcount does, so
// that the atomics of different CTAs spread over 32 addresses.
OCELOT_COUNTERS(entries, unsigned long long, "per=block; stripes=32");

// At every block entry the warp's first active lane adds the number of active lanes.
OCELOT_PROBE(countBlock, "at=block-entry") {
  entries.warpIncrement();
}
