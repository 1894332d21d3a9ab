#pragma once

#include "runtime/core/Device.h"
#include "runtime/driver/DriverApi.h"
#include "runtime/driver/DriverArray.h"
#include "runtime/driver/DriverCopies.h"
#include "runtime/driver/DriverEvent.h"
#include "runtime/driver/DriverExternalResource.h"
#include "runtime/driver/DriverGraph.h"
#include "runtime/driver/DriverHostMemory.h"
#include "runtime/driver/DriverIpc.h"
#include "runtime/driver/DriverKernelFunctions.h"
#include "runtime/driver/DriverLibraries.h"
#include "runtime/driver/DriverManagedMemory.h"
#include "runtime/driver/DriverMemoryPool.h"
#include "runtime/driver/DriverPeers.h"
#include "runtime/driver/DriverStream.h"
#include "runtime/driver/DriverTexture.h"

#include <atomic>
#include <mutex>
#include <vector>

namespace ocelot::runtime::driver {

/// The driver's launch configuration for a launch; `storage` keeps the attributes it points to.
CUlaunchConfig toLaunchConfig(const LaunchParams& params, std::vector<CUlaunchAttribute>* storage);

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
  cudaError_t copy(void* destination, const void* source, size_t bytes, Stream& queue,
                   bool async) override;
  cudaError_t fill(void* destination, unsigned char value, size_t bytes, Stream& queue,
                   bool async) override;

  cudaError_t loadModule(const ModuleImage& image, DeviceModule* module, std::string* log) override;
  cudaError_t unloadModule(DeviceModule module) override;
  cudaError_t function(DeviceModule module, const char* name, DeviceFunction* function) override;
  cudaError_t global(DeviceModule module, const char* name, void** address, size_t* bytes) override;

  cudaError_t launch(const LaunchParams& params) override;

  // --- Identity, context state (DriverDeviceState.cpp) ---------------------------------------
  cudaError_t uuid(cudaUUID_t* uuid) override;
  cudaError_t totalMemory(size_t* bytes) override;
  cudaError_t setFlags(unsigned int flags) override;
  cudaError_t flags(unsigned int* flags) override;
  cudaError_t limit(cudaLimit limit, size_t* value) override;
  cudaError_t setLimit(cudaLimit limit, size_t value) override;
  cudaError_t cacheConfig(cudaFuncCache* config) override;
  cudaError_t setCacheConfig(cudaFuncCache config) override;
  cudaError_t resetPersistingL2Cache() override;
  cudaError_t flushRemoteWrites(cudaFlushGPUDirectRDMAWritesTarget target,
                                cudaFlushGPUDirectRDMAWritesScope scope) override;
  cudaError_t profilerControl(bool start) override;

  cudaError_t allocatePitch(void** pointer, size_t* pitch, size_t width, size_t height) override;
  cudaError_t pointerAttributes(cudaPointerAttributes* attributes, const void* pointer) override;
  cudaError_t checkCopyKind(const void* destination, const void* source, int kind) override;

  /// The driver's handle of this device and its primary context (retained on first use, not made
  /// current), for calls that name two devices (peer access and copies).
  CUdevice handle() const { return device_; }
  const DriverApi& api() const { return api_; }
  DriverGraphs& driverGraphs() { return graphs_; }
  cudaError_t primaryContext(CUcontext* context);

private:
  /// What a failed cuDevicePrimaryCtxRetain means to the application (DriverDevice.cpp).
  static cudaError_t contextCreationError(CUresult result);
  cudaError_t loadPtx(const std::string& ptx, CUmodule* module, std::string* log);
  cudaError_t linkPtx(const std::vector<std::string>& units, CUmodule* module, std::string* log);

  const DriverApi& api_;
  CUdevice device_;
  DriverStreams streams_;
  DriverEvents events_;
  DriverHostMemory hostMemory_;
  DriverMemoryPools memoryPools_;
  DriverManagedMemory managedMemory_;
  DriverCopies copies_;
  DriverIpc ipc_;
  DriverGraphs graphs_;
  DriverArrays arrays_;
  DriverTextures textures_;
  DriverExternalResources externalResources_;
  DriverKernelFunctions kernelFunctions_;
  DriverLibraries libraries_;
  DriverPeers peers_;
  std::string name_;
  fatbin::ComputeCapability capability_;
  std::mutex contextMutex_; ///< guards retaining and resetting the primary context
  std::atomic<CUcontext> context_{nullptr};
  /// cudaSetDeviceFlags was called since the last reset: NVIDIA's runtime then reports
  /// cudaDeviceMapHost with the flags (host memory is always mappable), which the driver's
  /// cuDevicePrimaryCtxSetFlags does not accept.
  std::atomic<bool> flagsSet_{false};
};

} // namespace ocelot::runtime::driver
