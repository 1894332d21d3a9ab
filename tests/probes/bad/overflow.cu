// A bad probe: it writes past the end of its region, outside the launch's buffer.
#include "ocelot/probe.cuh"
OCELOT_COUNTERS(hits, unsigned long long, "per=block");
OCELOT_PROBE(overflow, "at=block-entry") {
  unsigned long long* first = hits.slot(0);
  if (first != nullptr)
    first[1 << 24] = 1; // 128 MB past the counters
  hits.add(1);
}
