// A probe that keeps about 200 registers live: more than a kernel limited to 32 may have.
#include "ocelot/probe.cuh"
OCELOT_COUNTERS(sums, unsigned long long, "per=block");
OCELOT_PROBE(hog, "at=block-entry") {
  unsigned long long v[96];
#pragma unroll
  for (int i = 0; i < 96; ++i)
    v[i] = clock64() * (i + 1);
  unsigned long long sum = 0;
#pragma unroll
  for (int i = 0; i < 96; ++i)
    sum += v[i] * v[95 - i];
  sums.add(sum);
}
