#pragma once
// What the oracle tool's traceMemory probe records per lane (shared by the probes and the test).
namespace oracle {
struct Access {
  unsigned long long address;
  unsigned int instruction, cta, warp, lane;
  unsigned int bytes, space, kind;
};
} // namespace oracle
