#pragma once

#include "ir/Statement.h"
#include "runtime/cpu/DecodedKernel.h"
#include "runtime/cpu/llvm/NativePlan.h"
#include "runtime/cpu/llvm/NativePlanner.h"

namespace ocelot::runtime::cpu::native {

class ConstantRegisters;

/// Plans one instruction the interpreter runs through a handler (control None) as a native
/// operation: true when `out` now describes one that does exactly what the handler does.
bool planNativeOperation(const DecodedKernel& kernel, const RunTimeRanges& ranges, const Plan& plan,
                         const DecodedInstruction& in, const ir::Instruction& instruction,
                         const ConstantRegisters* constants, Instruction& out);

} // namespace ocelot::runtime::cpu::native
