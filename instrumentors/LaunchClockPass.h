#pragma once

#include "ocelot/Instrumentor.h"
#include "passes/Pass.h"

#include <optional>

namespace ocelot::instrumentors {

/// Inserts LaunchClock's code (see LaunchClock): at a kernel's entry, each warp's start; before
/// every ret or exit of a kernel, every exit of a device function and at the end of a kernel that
/// falls off its last block, the leaving lanes' end.
class LaunchClockPass final : public passes::KernelPass {
public:
  explicit LaunchClockPass(const BufferAccess& buffer) : buffer_(buffer) {}

  std::string_view name() const override { return "launchclock"; }
  bool appliesTo(const ir::Function& function) const override;
  passes::PreservedAnalyses run(ir::Function& function, passes::AnalysisManager& analyses) override;

private:
  ir::RegisterRef recordAddress(ir::IRBuilder& b) const;
  void recordStart(ir::IRBuilder& b) const;
  void recordEnd(ir::IRBuilder& b, std::optional<ir::Guard> guard) const;

  const BufferAccess& buffer_;
};

} // namespace ocelot::instrumentors
