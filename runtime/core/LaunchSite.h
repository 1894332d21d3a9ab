#pragma once

#include "runtime/core/Device.h"
#include "runtime/core/Registration.h"

#include <cstdint>
#include <string>

namespace ocelot::runtime {

/// What the runtime knows about a launch it offers to its LaunchInterceptor (the instrumentation):
/// the device, the registered kernel, the application's module it runs from (whose variables
/// instrumented code must use), and the launch exactly as the application made it.
struct LaunchSite {
  Device& device;
  int ordinal;
  const FatbinaryRegistration& registration;
  const std::string& kernelName;
  DeviceModule applicationModule;
  const LaunchParams& params; ///< with the original kernel's device function
  uint64_t launchId;
};

} // namespace ocelot::runtime
