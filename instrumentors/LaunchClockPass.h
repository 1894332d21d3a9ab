#pragma once

#include "instrumentors/KernelBoundaries.h"

namespace ocelot::instrumentors {

/// Inserts LaunchClock's code (see LaunchClock) where each warp starts a kernel and leaves it.
class LaunchClockPass final : public KernelBoundaryPass {
public:
  explicit LaunchClockPass(const BufferAccess& buffer) : KernelBoundaryPass(buffer) {}
  std::string_view name() const override { return "launchclock"; }

private:
  ir::RegisterRef recordAddress(ir::IRBuilder& b) const;
  void recordStart(ir::IRBuilder& b) const override;
  void recordEnd(ir::IRBuilder& b, std::optional<ir::Guard> guard) const override;
};

} // namespace ocelot::instrumentors
