// emptyprobe: a probe at every basic block that does nothing. Inlined, it adds no instruction: it
// shows that a probe costs its own instructions and nothing else (docs/probes.md).
#include "ocelot/probe.cuh"

OCELOT_PROBE(nothing, "at=block-entry") {}
