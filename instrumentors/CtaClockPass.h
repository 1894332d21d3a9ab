#pragma once

#include "instrumentors/KernelBoundaries.h"

namespace ocelot::instrumentors {

/// Inserts CtaClock's code (see CtaClock): at a kernel's entry, each warp's start; before every
/// ret or exit of a kernel, every exit of a device function and at the end of a kernel that
/// falls off its last block, the leaving lanes' end.
class CtaClockPass final : public KernelBoundaryPass {
public:
  explicit CtaClockPass(const BufferAccess& buffer) : KernelBoundaryPass(buffer) {}
  std::string_view name() const override { return "ctaclock"; }

private:
  ir::RegisterRef recordAddress(ir::IRBuilder& b) const;
  void recordStart(ir::IRBuilder& b) const override;
  void recordEnd(ir::IRBuilder& b, std::optional<ir::Guard> guard) const override;
};

} // namespace ocelot::instrumentors
