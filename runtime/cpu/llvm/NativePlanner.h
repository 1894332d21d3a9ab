#pragma once

#include "runtime/cpu/DecodedKernel.h"
#include "runtime/cpu/llvm/NativePlan.h"

#include <cstdint>

namespace ocelot::runtime::cpu {
class DeviceMemory;
}

namespace ocelot::runtime::cpu::native {

/// Address ranges whose values differ from run to run: values inside them are read at run time
/// by generated code instead of being compiled in (so cached code stays valid).
struct RunTimeRanges {
  uint64_t arenaBase = 0, arenaSize = 0;
  uint64_t sharedWindow = 0, localWindow = 0, windowSize = 0;

  bool contains(uint64_t value) const;
  static RunTimeRanges of(const DeviceMemory& memory);
};

/// Restates a decoded kernel as a plan for the LLVM executor: per pc, the native operation that
/// performs exactly what the interpreter's handler does, a call of that handler where no native
/// form exists, or a hand-back to the interpreter for control transfers it manages (calls,
/// barriers, exits...). Needs the IR the kernel was decoded from (InstructionSource::instruction).
Plan makePlan(const DecodedKernel& kernel, const RunTimeRanges& ranges);

/// Whether only native code reads `rows` (which it reads from lane 0: uniform rows), so the
/// interpreter may leave their other lanes unset.
bool onlyNativeReads(const Plan& plan, const std::vector<uint32_t>& rows);

/// Instructions of the plan native code performs itself (not through handlers), for the log.
struct PlanStatistics {
  uint32_t native = 0, handlers = 0, interpreted = 0;
};
PlanStatistics statistics(const Plan& plan);

} // namespace ocelot::runtime::cpu::native
