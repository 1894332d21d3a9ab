// A bad probe: it keeps state in shared memory (the application's).
#include "ocelot/probe.cuh"
__shared__ unsigned int scratch;
OCELOT_PROBE(share, "at=block-entry") {
  atomicAdd(&scratch, 1u);
}
