// A bad probe: it calls a helper nvcc did not inline (probes may call only intrinsics).
#include "ocelot/probe.cuh"
OCELOT_COUNTERS(hits, unsigned long long, "per=block");
__device__ __noinline__ unsigned long long twice(unsigned long long v) {
  return 2 * v;
}
OCELOT_PROBE(help, "at=block-entry") {
  hits.add(twice(ocelot::probe::blockId()));
}
