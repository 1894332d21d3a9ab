// Regions sized by the launch (per warp, CTA, thread), per SM and per kernel, a histogram, warp
// sampling, kernel entries and exits (ProbeOracleTest.cpp, LaunchSizedRegions...).
#include "ocelot/probe.cuh"

using namespace ocelot::probe;

OCELOT_COUNTERS(perWarp, unsigned long long, "per=warp");
OCELOT_COUNTERS(perCta, unsigned int, "per=cta");
OCELOT_COUNTERS(perThread, unsigned int, "per=thread");
OCELOT_COUNTERS(perSm, unsigned long long, "per=sm; sms=256");
OCELOT_COUNTERS(sampled, unsigned long long, "per=none");
OCELOT_COUNTERS(exits, unsigned long long, "per=kernel");
OCELOT_HISTOGRAM(lanes, "per=kernel; bins=33");

OCELOT_PROBE(entry, "at=kernel-entry") {
  perWarp.warpIncrement();
  perCta.add(1);
  perThread.add(1);
  perSm.add(1);
  lanes.recordWarp(__popc(activeMask()));
}

OCELOT_PROBE(sampledEntry, "at=kernel-entry; sample-warps=2") {
  sampled.warpIncrement();
}

OCELOT_PROBE(leave, "at=kernel-exit") {
  exits.warpIncrement();
}
