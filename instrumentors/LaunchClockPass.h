#pragma once

#include "instrumentors/KernelBoundaries.h"

namespace ocelot::instrumentors {

/// Inserts LaunchClock's code (see LaunchClock) where each warp starts a kernel and leaves it.
class LaunchClockPass final : public KernelBoundaryPass {
public:
  /// `completion`: where the launch's completion word is (see LaunchClock), or null: the kernel
  /// counts no exits and signals nothing.
  LaunchClockPass(const BufferAccess& buffer, const BufferAccess* completion)
      : KernelBoundaryPass(buffer), completion_(completion) {}
  std::string_view name() const override { return "launchclock"; }

private:
  ir::RegisterRef recordAddress(ir::IRBuilder& b) const;
  void recordStart(ir::IRBuilder& b) const override;
  void recordEnd(ir::IRBuilder& b, std::optional<ir::Guard> guard) const override;
  void signalEnd(ir::IRBuilder& b, const std::optional<ir::Guard>& guard, ir::RegisterRef mask,
                 ir::RegisterRef leader) const;

  const BufferAccess* completion_;
};

} // namespace ocelot::instrumentors
