#include "runtime/core/LogLevelVariable.h"

#include <cstdlib>
#include <string_view>

namespace ocelot::runtime {

std::string logLevelVariableProblem() {
  const char* value = std::getenv("OCELOT_LOG");
  if (value == nullptr || *value == '\0')
    return {};
  // "trace" is the driver-API shim's name for its call trace (runtime/driverapi/DriverShim.cpp).
  for (std::string_view known : {"off", "none", "warn", "info", "debug", "trace"})
    if (known == value)
      return {};
  return "OCELOT_LOG=" + std::string(value) +
         " is not a log level Ocelot knows (off, warn, info or debug); using warn";
}

} // namespace ocelot::runtime
