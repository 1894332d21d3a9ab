// A bad probe: it prints.
#include "ocelot/probe.cuh"
#include <cstdio>
OCELOT_PROBE(talk, "at=kernel-entry") {
  printf("block %d\n", blockIdx.x);
}
