#pragma once

// Where a thread's time in a kernel begins and ends, for instrumentation that records both
// (CtaClockPass, LaunchClockPass).

#include "ocelot/Instrumentor.h"
#include "passes/Pass.h"

#include <optional>

namespace ocelot::instrumentors {

/// Whether `function` has an `exit` instruction (a thread can leave the kernel there).
bool hasExitInstruction(const ir::Function& function);

/// A pass that records something where each thread starts a kernel and where it leaves it:
/// recordStart at the start of a kernel's first block (which runs once per thread: BufferPlan
/// makes sure it is no branch target), recordEnd before every `exit`, every `ret` of a kernel, and
/// at the end of a kernel's last block when it falls off it, with the leaving instruction's guard.
/// It applies to kernels and to device functions with an `exit` that reach the buffer.
class KernelBoundaryPass : public passes::KernelPass {
public:
  bool appliesTo(const ir::Function& function) const override;
  passes::PreservedAnalyses run(ir::Function& function, passes::AnalysisManager& analyses) override;

protected:
  explicit KernelBoundaryPass(const BufferAccess& buffer) : buffer_(buffer) {}
  virtual void recordStart(ir::IRBuilder& b) const = 0;
  virtual void recordEnd(ir::IRBuilder& b, std::optional<ir::Guard> guard) const = 0;

  const BufferAccess& buffer_;
};

} // namespace ocelot::instrumentors
