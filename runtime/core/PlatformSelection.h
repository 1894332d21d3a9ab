#pragma once

#include "runtime/core/PlatformRegistry.h"
#include "runtime/core/PlatformResult.h"

namespace ocelot::runtime {

/// The platform the process's runtime uses, chosen among the registered back ends when the first
/// call needs a device: the NVIDIA driver ("gpu"), unless OCELOT_DEVICE=cpu asks for Ocelot's CPU
/// back end ("cpu") or the driver is unusable (no driver, one too old, no GPU) and
/// OCELOT_DEVICE=gpu does not insist on it.
PlatformResult selectPlatform(const PlatformRegistry& backends);

} // namespace ocelot::runtime
