// A bad probe: it waits at a CTA barrier (deadlock where only some threads run it).
#include "ocelot/probe.cuh"
OCELOT_COUNTERS(hits, unsigned long long, "per=block");
OCELOT_PROBE(wait, "at=block-entry") {
  __syncthreads();
  hits.add(1);
}
