#pragma once

// Where a thread's time in a kernel begins and ends, for instrumentation that records both
// (CtaClockPass, LaunchClockPass).

#include "ir/IRBuilder.h"
#include "passes/AnalysisManager.h"

#include <functional>
#include <optional>

namespace ocelot::instrumentors {

/// Whether `function` has an `exit` instruction.
bool hasExitInstruction(const ir::Function& function);

/// Calls `atStart` with a builder at the start of a kernel's first block (which runs once per
/// thread: BufferPlan makes sure it is no branch target), and `atEnd` with a builder before every
/// `exit`, every `ret` of a kernel, and at the end of a kernel's last block when it falls off it;
/// `atEnd` receives the leaving instruction's guard. Device functions get only their `exit`s.
void forEachKernelBoundary(
    ir::Function& function, passes::AnalysisManager& analyses,
    const std::function<void(ir::IRBuilder&)>& atStart,
    const std::function<void(ir::IRBuilder&, std::optional<ir::Guard>)>& atEnd);

} // namespace ocelot::instrumentors
