// A bad probe: it calls itself (not in tail position, so nvcc keeps the call).
#include "ocelot/probe.cuh"
OCELOT_COUNTERS(hits, unsigned long long, "per=block");
OCELOT_PROBE(recurse, "at=block-entry") {
  hits.add(1);
  if (ocelot::probe::laneId() > 64)
    recurse();
  hits.add(2);
}
