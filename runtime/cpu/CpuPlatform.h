#pragma once

#include "runtime/core/PlatformRegistry.h"
#include "runtime/core/PlatformResult.h"
#include "runtime/cpu/CpuDevice.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ocelot::runtime::cpu {

/// The platform of Ocelot's CPU back end: one CpuDevice, or OCELOT_CPU_DEVICES of them (1 to
/// kMaxDevices), each with its own memory arena, streams and workers, so that the multi-GPU paths
/// (per-device instrumentation and profiles, peer copies, per-device report lanes) run without
/// GPUs. Chosen by OCELOT_DEVICE=cpu, or when the NVIDIA driver is missing or finds no GPU (see
/// runtime/core/PlatformSelection.cpp). registerPlatform adds it to the back ends as "cpu".
class CpuPlatform final : public Platform {
public:
  static constexpr uint32_t kMaxDevices = 8;
  /// OCELOT_CPU_DEVICES devices (1 when unset; a value outside 1..kMaxDevices warns and gives 1).
  static PlatformResult create();
  static PlatformResult create(uint32_t devices);

  std::string name() const override { return "Ocelot CPU back end"; }
  int driverVersion() const override { return 13000; }
  int deviceCount() const override { return static_cast<int>(devices_.size()); }
  /// The runtime asks only for ordinals below deviceCount().
  Device& device(int ordinal) override { return *devices_[static_cast<size_t>(ordinal)]; }
  /// The CPU device has no driver API; it answers for the few entry points programs use to
  /// check versions (cuDriverGetVersion), and "not found" for the others.
  cudaError_t driverEntryPoint(const char* symbol, void** function, int cudaVersion,
                               unsigned long long flags,
                               cudaDriverEntryPointQueryResult* status) override;

private:
  explicit CpuPlatform(std::vector<std::unique_ptr<CpuDevice>> devices)
      : devices_(std::move(devices)) {}
  std::vector<std::unique_ptr<CpuDevice>> devices_;
};

/// Adds this back end to `backends` as "cpu".
void registerPlatform(PlatformRegistry& backends);

} // namespace ocelot::runtime::cpu
