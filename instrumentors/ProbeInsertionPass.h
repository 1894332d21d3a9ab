#pragma once

#include "instrumentors/ProbeSites.h"
#include "passes/Pass.h"

namespace ocelot::instrumentors {

/// Inlines a probe tool's probes at the sites placeProbes decided, in every function the buffer
/// reaches: the context intrinsics become constants or the few instructions that compute them at
/// the site, regions become addresses in the launch's buffer, and every memory write of a probe is
/// checked against the buffer (a write outside is suppressed and flagged for finalize). Records
/// the registers the inlined probes add per function in the state's tables.
class ProbeInsertionPass final : public passes::KernelPass {
public:
  ProbeInsertionPass(ProbeModuleState& state, const BufferAccess& buffer)
      : state_(state), buffer_(buffer) {}
  std::string_view name() const override { return "probes"; }
  bool appliesTo(const ir::Function& function) const override;
  passes::PreservedAnalyses run(ir::Function& function, passes::AnalysisManager& analyses) override;

private:
  ProbeModuleState& state_;
  const BufferAccess& buffer_;
};

} // namespace ocelot::instrumentors
