#pragma once

#include "runtime/fatbin/Fatbinary.h"

#include <cstdint>
#include <span>

namespace ocelot::runtime::fatbin {

/// A device's compute capability. Fatbinary entries name architectures as major * 10 + minor
/// (sm_90 = 90, sm_120 = 120), and so does `number()`.
struct ComputeCapability {
  int major = 0, minor = 0;

  /// major * 10 + minor, in the unsigned arithmetic of the entries' 32-bit field.
  uint32_t number() const {
    return static_cast<uint32_t>(major) * 10u + static_cast<uint32_t>(minor);
  }
  static ComputeCapability fromNumber(uint32_t number) {
    return {static_cast<int>(number / 10), static_cast<int>(number % 10)};
  }
  friend bool operator==(ComputeCapability, ComputeCapability) = default;
};

/// Whether the driver can JIT-compile this PTX entry for `device`: generic PTX (compute_XY) for
/// any device of at least that architecture, family-specific PTX (compute_100f) within its major
/// architecture, arch-specific PTX (compute_90a) only for exactly that architecture.
bool ptxRunsOn(const Entry& entry, ComputeCapability device);

/// Whether this cubin runs on `device`: the same major architecture and a minor version no higher
/// than the device's; arch-specific cubins (sm_90a) only on exactly their architecture.
bool cubinRunsOn(const Entry& entry, ComputeCapability device);

/// The PTX best suited to `device`: among the PTX entries that run on it, the one of the highest
/// architecture (Ocelot then JIT-compiles the newest instructions the device has); on a tie the
/// more specific one (arch-specific, then family-specific, then generic). Null when none runs.
const Entry* selectPtx(std::span<const Entry* const> entries, ComputeCapability device);

/// The cubin for the fallback path: one built for exactly `device` if there is one (preferring an
/// arch-specific build), else the compatible one of the highest architecture. Null when none runs.
const Entry* selectCubin(std::span<const Entry* const> entries, ComputeCapability device);

} // namespace ocelot::runtime::fatbin
