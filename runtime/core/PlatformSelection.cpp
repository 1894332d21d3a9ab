#include "runtime/core/PlatformSelection.h"

#include "runtime/core/Logger.h"

#include <cstdlib>
#include <string>
#include <string_view>

namespace ocelot::runtime {

PlatformResult selectPlatform(const PlatformRegistry& backends) {
  const char* requested = std::getenv("OCELOT_DEVICE");
  std::string_view device = requested != nullptr ? requested : "";
  if (!device.empty() && device != "cpu" && device != "gpu") {
    Logger(Logger::levelFromEnvironment())
        .warn(
            "OCELOT_DEVICE=" + std::string(device) +
            " is not a device Ocelot knows (gpu: the NVIDIA driver only; cpu: Ocelot's CPU "
            "device; unset: the GPU if there is one, else the CPU); choosing as if it were unset");
    device = "";
  }
  if (device == "cpu")
    return backends.create("cpu");
  PlatformResult driver = backends.create("gpu");
  if (driver.platform || device == "gpu")
    return driver;
  // No driver, a driver too old, or no GPU: Ocelot's CPU back end runs the program instead.
  if (driver.error == cudaErrorInsufficientDriver || driver.error == cudaErrorNoDevice) {
    PlatformResult cpu = backends.create("cpu");
    if (cpu.platform)
      return cpu;
  }
  return driver;
}

} // namespace ocelot::runtime
