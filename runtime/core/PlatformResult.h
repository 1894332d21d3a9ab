#pragma once

#include "runtime/core/Platform.h"

#include <driver_types.h>
#include <memory>
#include <string>

namespace ocelot::runtime {

/// The outcome of starting a platform: the platform, or the error every call that needs a device
/// reports from then on (NVIDIA's runtime makes that error sticky in the same way).
struct PlatformResult {
  std::unique_ptr<Platform> platform;
  cudaError_t error = cudaSuccess;
  int driverVersion = 0; ///< known even when the driver is too old to use; 0 without a driver
  std::string reason;    ///< one line for the log when there is no platform
};

} // namespace ocelot::runtime
