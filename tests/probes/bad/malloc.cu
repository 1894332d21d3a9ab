// A bad probe: it allocates.
#include "ocelot/probe.cuh"
OCELOT_COUNTERS(hits, unsigned long long, "per=block");
OCELOT_PROBE(allocate, "at=kernel-entry") {
  void* p = malloc(16);
  hits.add(p != nullptr);
}
