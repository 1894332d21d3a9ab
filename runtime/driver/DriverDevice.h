#pragma once

#include "runtime/core/Device.h"
#include "runtime/driver/DriverApi.h"

#include <atomic>
#include <mutex>

namespace ocelot::runtime::driver {

/// A GPU driven through the CUDA driver API, in its primary context (the context NVIDIA's runtime
/// uses too, so applications that mix the runtime and the driver API see the same context).
class DriverDevice final : public Device {
public:
  DriverDevice(const DriverApi& api, CUdevice device);

  std::string name() const override { return name_; }
  fatbin::ComputeCapability computeCapability() const override { return capability_; }
  cudaError_t attribute(cudaDeviceAttr attribute, int* value) override;
  cudaError_t memoryInfo(size_t* free, size_t* total) override;

  cudaError_t activate() override;
  cudaError_t synchronize() override;
  cudaError_t reset() override;

  cudaError_t allocate(void** pointer, size_t bytes) override;
  cudaError_t free(void* pointer) override;
  cudaError_t copy(void* destination, const void* source, size_t bytes, cudaStream_t stream,
                   bool async) override;
  cudaError_t fill(void* destination, unsigned char value, size_t bytes, cudaStream_t stream,
                   bool async) override;

  cudaError_t loadModule(const ModuleImage& image, DeviceModule* module, std::string* log) override;
  cudaError_t unloadModule(DeviceModule module) override;
  cudaError_t function(DeviceModule module, const char* name, DeviceFunction* function) override;
  cudaError_t global(DeviceModule module, const char* name, void** address, size_t* bytes) override;

  cudaError_t launch(const LaunchParams& params) override;

  cudaError_t createStream(cudaStream_t* stream, unsigned int flags, int priority) override;
  cudaError_t destroyStream(cudaStream_t stream) override;
  cudaError_t synchronizeStream(cudaStream_t stream) override;
  cudaError_t queryStream(cudaStream_t stream) override;
  cudaError_t waitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) override;
  cudaError_t createEvent(cudaEvent_t* event, unsigned int flags) override;
  cudaError_t destroyEvent(cudaEvent_t event) override;
  cudaError_t recordEvent(cudaEvent_t event, cudaStream_t stream) override;
  cudaError_t synchronizeEvent(cudaEvent_t event) override;
  cudaError_t queryEvent(cudaEvent_t event) override;
  cudaError_t elapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end) override;

private:
  cudaError_t loadPtx(const std::string& ptx, CUmodule* module, std::string* log);
  cudaError_t linkPtx(const std::vector<std::string>& units, CUmodule* module, std::string* log);

  const DriverApi& api_;
  CUdevice device_;
  std::string name_;
  fatbin::ComputeCapability capability_;
  std::mutex contextMutex_; ///< guards retaining and resetting the primary context
  std::atomic<CUcontext> context_{nullptr};
};

} // namespace ocelot::runtime::driver
