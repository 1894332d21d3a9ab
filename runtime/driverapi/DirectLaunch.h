#pragma once

#include <cuda.h>

namespace ocelot::runtime::driverapi {

/// Launches that skip Ocelot's runtime (docs/driver-api.md, "Direct launches"). While no
/// instrumentor is active, a launch through the runtime does no more than find the function the
/// current device loaded and hand it to NVIDIA's driver; the shim's own lookups and the runtime's
/// layers cost about half a microsecond on top of the driver's (1.17x on the launch benchmark,
/// H200). After one launch through the runtime, a thread remembers that function and its context,
/// and later launches of the same kernel go to the driver directly, as long as no instrumentor
/// is active, no module was unloaded and no device reset since (the runtime's
/// directLaunchEpoch), and the thread's current context is still the one it was.
class DirectLaunch {
public:
  /// NVIDIA's function for the stand-in `function` when this launch may go to the driver
  /// directly; null when it must take the runtime's path (on the CPU device, always).
  static CUfunction target(CUfunction function);
  /// After a successful launch of `function` (stand-in `stub`) through the runtime.
  static void remember(CUfunction function, const void* stub);
};

} // namespace ocelot::runtime::driverapi
