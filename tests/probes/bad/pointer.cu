// A bad probe: it calls through a function pointer.
#include "ocelot/probe.cuh"
OCELOT_COUNTERS(hits, unsigned long long, "per=block");
__device__ unsigned long long one() {
  return 1;
}
__device__ unsigned long long two() {
  return 2;
}
__device__ unsigned long long (*volatile pick[2])() = {one, two};
OCELOT_PROBE(indirect, "at=block-entry") {
  hits.add(pick[ocelot::probe::blockId() & 1]());
}
