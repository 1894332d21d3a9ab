#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace ocelot::runtime::instrumentation {

/// What a device did apart from instrumented launches, timed by events around it in its stream
/// when host measures are on (OCELOT_HOST_MEASURES, docs/report.md): copies, memsets, and the
/// kernel launches that produce no KernelProfile (no instrumentor active, or not selected). GCP
/// and GLB (seed 001) need every kernel and every transfer, not only the instrumented launches.
struct DeviceOperation {
  enum class Kind { Kernel, Copy, Memset };
  Kind kind = Kind::Copy;
  /// The kernel's PTX name, or the call family ("copy", "copy 3D", "peer copy", "memset", ...).
  std::string name;
  int device = 0;
  uint64_t stream = 0;
  uint64_t bytes = 0; ///< copies and memsets
  /// Host clock (ns since the Unix epoch) when the call enqueued it, as KernelProfile's.
  int64_t enqueuedNs = 0;
  /// The device time between the events around it; negative when it could not be measured.
  double gpuNs = -1;

  static const char* kindName(Kind kind) {
    return kind == Kind::Kernel ? "kernel" : kind == Kind::Copy ? "copy" : "memset";
  }
};

/// Whether host measures are on: OCELOT_HOST_MEASURES "1" on, "0" off; unset, on when a profile
/// file is written (OCELOT_PROFILE_OUTPUT), where the operations go.
inline bool hostMeasuresRequested() {
  const char* value = std::getenv("OCELOT_HOST_MEASURES");
  if (value != nullptr && *value != '\0')
    return std::string_view(value) != "0";
  const char* output = std::getenv("OCELOT_PROFILE_OUTPUT");
  return output != nullptr && *output != '\0';
}

} // namespace ocelot::runtime::instrumentation
