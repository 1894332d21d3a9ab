// The probes the CPU-device oracle tests check (ProbeOracleTest.cpp): block entries, every lane's
// memory address before and after each access, every branch's predicates.
#include "OracleRecords.h"
#include "ocelot/probe.cuh"

using namespace ocelot::probe;

OCELOT_COUNTERS(blocks, unsigned long long, "per=block");
OCELOT_STREAM(accesses, oracle::Access, "capacity=262144");
OCELOT_STREAM(afterLoads, oracle::Access, "capacity=262144");
OCELOT_COUNTERS(taken, unsigned long long, "per=instruction");
OCELOT_COUNTERS(notTaken, unsigned long long, "per=instruction");
OCELOT_COUNTERS(divergent, unsigned long long, "per=instruction");
OCELOT_COUNTERS(executions, unsigned long long, "per=instruction");

OCELOT_PROBE(countBlocks, "at=block-entry") {
  blocks.warpIncrement();
}

OCELOT_PROBE(traceMemory, "at=instruction; class=load,store,atomic; space=generic,global,shared,local") {
  accesses.push(oracle::Access{address(), instructionId(), ctaId(), warpId(), laneId(),
                               accessSize(), stateSpace(), accessKind()});
}

OCELOT_PROBE(traceLoadsAfter, "at=instruction; when=after; class=load; space=generic,global,shared") {
  afterLoads.push(oracle::Access{address(), instructionId(), ctaId(), warpId(), laneId(),
                                 accessSize(), stateSpace(), accessKind()});
}

OCELOT_PROBE(branches, "at=branch") {
  unsigned active = activeMask();
  unsigned yes = __ballot_sync(active, predicate());
  if (isLeader()) {
    taken.add(__popc(yes));
    notTaken.add(__popc(active & ~yes));
    if (yes != 0 && yes != active)
      divergent.add(1);
  }
}

// Every instruction (guard applied): the thread-level count the CPU device's trace gives.
OCELOT_PROBE(countInstructions, "at=instruction") {
  executions.warpIncrement();
}
