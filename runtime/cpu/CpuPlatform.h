#pragma once

#include "runtime/core/PlatformRegistry.h"
#include "runtime/core/PlatformResult.h"
#include "runtime/cpu/CpuDevice.h"

#include <memory>

namespace ocelot::runtime::cpu {

/// The platform of Ocelot's CPU back end: one CpuDevice. Chosen by OCELOT_DEVICE=cpu, or when
/// the NVIDIA driver is missing or finds no GPU (see runtime/core/PlatformSelection.cpp).
/// registerPlatform adds it to the back ends as "cpu".
class CpuPlatform final : public Platform {
public:
  static PlatformResult create();

  std::string name() const override { return "Ocelot CPU back end"; }
  int driverVersion() const override { return 13000; }
  int deviceCount() const override { return 1; }
  Device& device(int) override { return *device_; }
  /// The CPU device has no driver API; it answers for the few entry points programs use to
  /// check versions (cuDriverGetVersion), and "not found" for the others.
  cudaError_t driverEntryPoint(const char* symbol, void** function, int cudaVersion,
                               unsigned long long flags,
                               cudaDriverEntryPointQueryResult* status) override;

private:
  explicit CpuPlatform(std::unique_ptr<CpuDevice> device) : device_(std::move(device)) {}
  std::unique_ptr<CpuDevice> device_;
};

/// Adds this back end to `backends` as "cpu".
void registerPlatform(PlatformRegistry& backends);

} // namespace ocelot::runtime::cpu
