// memtrace: every warp-level memory access, with each lane's address (docs/probe-tools.md).
//
// Before every load, store and atomic, the warp reserves one record with one atomic; each active
// lane writes its own address into it (a coalesced write), and the first active lane the rest.
// Records past the stream's capacity (`records.count=N`) are dropped and counted; sampling
// (`traceAccess.sample-warps=N`) traces every N-th warp only.
#include "TraceFormat.h"
#include "ocelot/probe.cuh"

using namespace ocelot::probe;

OCELOT_STREAM(records, memtrace::WarpAccess, "capacity=65536");

OCELOT_PROBE(traceAccess, "at=instruction; class=memory; space=generic,global,shared,local") {
  u32 active = activeMask();
  u64 at = records.reserveWarp();
  if (memtrace::WarpAccess* r = records.record(at)) {
    r->addresses[laneId()] = address();
    if (isLeader()) {
      r->instruction = instructionId();
      r->cta = ctaId();
      r->warp = warpId();
      r->mask = active;
      r->bytes = accessSize();
      r->spaceAndKind = u32(stateSpace()) << 8 | u32(accessKind());
    }
  }
}
