#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ocelot::runtime {

/// A PCI location as the Runtime API spells it: "domain:bus:device.function" in hexadecimal,
/// e.g. "0000:00:06.0" (cudaDeviceGetPCIBusId writes it, cudaDeviceGetByPCIBusId reads it).
struct PciBusId {
  unsigned int domain = 0;
  unsigned int bus = 0;
  unsigned int device = 0;

  std::string text() const;
  /// Accepts "domain:bus:device.function", "domain:bus:device" and "bus:device.function"
  /// (the forms the Runtime API documents); anything else is not a bus id.
  static std::optional<PciBusId> parse(std::string_view text);
};

} // namespace ocelot::runtime
