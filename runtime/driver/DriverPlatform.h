#pragma once

#include "runtime/core/PlatformRegistry.h"
#include "runtime/core/PlatformResult.h"
#include "runtime/driver/DriverApi.h"
#include "runtime/driver/DriverDevice.h"

#include <memory>
#include <vector>

namespace ocelot::runtime::driver {

/// The GPUs of the NVIDIA driver.
class DriverPlatform final : public Platform {
public:
  /// Loads libcuda.so.1 (or `library`), initializes it and enumerates its devices. Without a
  /// usable driver the result says what NVIDIA's runtime would report:
  /// cudaErrorInsufficientDriver when libcuda is missing, too old or incomplete;
  /// cudaErrorNoDevice when it finds no GPU; cuInit's own error otherwise.
  static PlatformResult create(const char* library = "libcuda.so.1");

  std::string name() const override { return "NVIDIA driver"; }
  int driverVersion() const override { return api_->version; }
  int deviceCount() const override { return static_cast<int>(devices_.size()); }
  Device& device(int ordinal) override { return *devices_[static_cast<size_t>(ordinal)]; }
  cudaError_t driverEntryPoint(const char* symbol, void** function, int cudaVersion,
                               unsigned long long flags,
                               cudaDriverEntryPointQueryResult* status) override;
  cudaError_t logsRegisterCallback(cudaLogsCallback_t callback, void* userData,
                                   cudaLogsCallbackHandle* handle) override;
  cudaError_t logsUnregisterCallback(cudaLogsCallbackHandle handle) override;
  cudaError_t logsCurrent(cudaLogIterator* iterator, unsigned int flags) override;
  cudaError_t logsDumpToFile(cudaLogIterator* iterator, const char* path,
                             unsigned int flags) override;
  cudaError_t logsDumpToMemory(cudaLogIterator* iterator, char* buffer, size_t* size,
                               unsigned int flags) override;

private:
  explicit DriverPlatform(std::unique_ptr<DriverApi> api) : api_(std::move(api)) {}

  std::unique_ptr<DriverApi> api_;
  std::vector<std::unique_ptr<DriverDevice>> devices_;
};

/// Adds this back end (libcuda.so.1) to `backends` as "gpu".
void registerPlatform(PlatformRegistry& backends);

} // namespace ocelot::runtime::driver
