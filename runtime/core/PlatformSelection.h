#pragma once

#include "runtime/core/PlatformResult.h"

namespace ocelot::runtime {

/// The platform the process's runtime uses, chosen when the first call needs a device. Today: the
/// NVIDIA driver. This is the one place where another platform (Ocelot's CPU back end, when the
/// driver is unusable or when asked for) is chosen instead.
PlatformResult selectPlatform();

} // namespace ocelot::runtime
