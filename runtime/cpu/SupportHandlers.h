#pragma once

#include "runtime/cpu/DecodedKernel.h"

namespace ocelot::runtime::cpu {

/// Clocks a warp can read (`%clock`, `%clock64`, `%globaltimer` and their halves).
enum class TimerKind : uint32_t {
  Clock,
  ClockHi,
  Clock64,
  GlobalTimer,
  GlobalTimerLo,
  GlobalTimerHi
};

// Handlers of instructions the decoder makes itself (InstructionSource::text says which PTX
// instruction they belong to).

/// op[0] = frame base + imm for every lane: the address of a local or `.param` variable of the
/// current activation (frames move with calls, so this cannot be a constant).
bool executeFrameAddress(ExecutionContext& context, const DecodedInstruction& instruction,
                         LaneMask mask);
/// op[0] = the clock named by aux (a TimerKind).
bool executeReadTimer(ExecutionContext& context, const DecodedInstruction& instruction,
                      LaneMask mask);
/// Predicate op[0] = !op[1] (for `!%p` used as a source).
bool executeNotPredicate(ExecutionContext& context, const DecodedInstruction& instruction,
                         LaneMask mask);
/// Does nothing (gives empty blocks an instruction to count, stands in for hints).
bool executeNop(ExecutionContext& context, const DecodedInstruction& instruction, LaneMask mask);

} // namespace ocelot::runtime::cpu
