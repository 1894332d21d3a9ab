// ctaclockprobe: ctaclock's per-CTA record written as probes, to compare what a probe costs with
// the hand-written instrumentor (docs/probes.md, "ctaclock as a probe"). The same record: the
// earliest start and the latest end of each CTA in %clock64 and %globaltimer, its SM, the warps
// that started and the threads that left. Minima are kept as maxima of the complement, since the
// buffer starts at 0.
#include "ocelot/probe.cuh"

using namespace ocelot::probe;

OCELOT_COUNTERS(notStartClock, unsigned long long, "per=cta");
OCELOT_COUNTERS(endClock, unsigned long long, "per=cta");
OCELOT_COUNTERS(notStartNs, unsigned long long, "per=cta");
OCELOT_COUNTERS(endNs, unsigned long long, "per=cta");
OCELOT_COUNTERS(smPlusOne, unsigned int, "per=cta");
OCELOT_COUNTERS(warpsStarted, unsigned int, "per=cta");
OCELOT_COUNTERS(threadsExited, unsigned int, "per=cta");

// Each warp's lowest active lane folds the warp's start into its CTA's record.
OCELOT_PROBE(ctaStart, "at=kernel-entry") {
  if (isLeader()) {
    u64 cta = notStartClock.here();
    atomicMax(notStartClock.element(cta), ~ocelot::probe::clock());
    atomicMax(notStartNs.element(cta), ~globalTimer());
    atomicMax(smPlusOne.element(cta), smId() + 1);
    atomicAdd(warpsStarted.element(cta), 1u);
  }
}

// The lanes leaving together fold their end in and count themselves.
OCELOT_PROBE(ctaEnd, "at=kernel-exit") {
  u32 active = activeMask();
  if (isLeader()) {
    u64 cta = endClock.here();
    atomicMax(endClock.element(cta), ocelot::probe::clock());
    atomicMax(endNs.element(cta), globalTimer());
    atomicAdd(threadsExited.element(cta), (u32)__popc(active));
  }
}
