// A bad probe: an array indexed at run time lives in local memory (a stack frame).
#include "ocelot/probe.cuh"
OCELOT_COUNTERS(hits, unsigned long long, "per=block");
OCELOT_PROBE(stack, "at=block-entry") {
  volatile unsigned int buffer[32];
  for (int i = 0; i < 32; ++i)
    buffer[i] = i * threadIdx.x;
  hits.add(buffer[threadIdx.x % 32]);
}
