#pragma once

#include "runtime/cpu/CpuModule.h"
#include "runtime/cpu/DecodedKernel.h"
#include "support/Expected.h"

#include <memory>

namespace ocelot::runtime::cpu {

/// Decodes `kernel` and every function it may reach into one DecodedKernel: instructions become
/// handlers with pre-resolved register rows, labels become pcs, and every divergent branch learns
/// where its warp joins again (the first pc of its block's immediate post-dominator). The error
/// names the first instruction the CPU device cannot run, and where it is.
support::Expected<std::shared_ptr<const DecodedKernel>, ModuleError>
decodeKernel(CpuModule& module, const ModuleFunction& kernel);

} // namespace ocelot::runtime::cpu
