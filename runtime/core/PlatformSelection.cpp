#include "runtime/core/PlatformSelection.h"

#include <cstdlib>
#include <string_view>

namespace ocelot::runtime {

PlatformResult selectPlatform(const PlatformRegistry& backends) {
  const char* requested = std::getenv("OCELOT_DEVICE");
  const std::string_view device = requested != nullptr ? requested : "";
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
