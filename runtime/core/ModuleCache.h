#pragma once

#include "runtime/core/Device.h"
#include "runtime/core/Logger.h"
#include "runtime/core/ModulePipeline.h"
#include "runtime/core/Registration.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ocelot::runtime {

/// One registered fatbinary loaded on one device, with the kernels looked up in it so far.
class LoadedModule {
public:
  DeviceModule handle() const { return handle_; }
  /// Whether the device runs Ocelot's module (else the application's original code).
  bool fromPipeline() const { return fromPipeline_; }

  /// The device function for a kernel name, looked up once and then cached.
  cudaError_t function(Device& device, const std::string& name, DeviceFunction* function);

private:
  friend class ModuleCache;

  std::mutex mutex_; ///< held while loading, then while looking up functions
  bool attempted_ = false;
  cudaError_t loadError_ = cudaSuccess;
  DeviceModule handle_ = nullptr;
  bool fromPipeline_ = false;
  std::unordered_map<std::string, DeviceFunction> functions_;
};

/// The modules of every registered fatbinary on every device, loaded on first use (like CUDA's
/// lazy loading): the first launch or symbol access of a fatbinary on a device runs the module
/// pipeline and loads the result; if the pipeline fails or the device refuses Ocelot's module,
/// one log line says why and the original code is loaded instead.
class ModuleCache {
public:
  ModuleCache(const Logger& logger, const ModulePipeline& pipeline)
      : logger_(logger), pipeline_(pipeline) {}

  /// The module of `registration` on device `ordinal`, loading it if needed. A module that failed
  /// to load keeps failing with the same error (without retrying the JIT on every launch).
  cudaError_t get(const FatbinaryRegistration& registration, int ordinal, Device& device,
                  LoadedModule** module);

  /// Forgets every module of a device (after cudaDeviceReset destroyed them). The objects are kept
  /// (retired) until the cache goes: a thread that got one just before may still be using it.
  void forgetDevice(int ordinal);
  /// Removes the modules of an unregistered fatbinary; returns them (by device) for unloading.
  std::vector<std::pair<int, std::unique_ptr<LoadedModule>>> take(uint64_t registrationId);

private:
  cudaError_t load(const FatbinaryRegistration& registration, Device& device, LoadedModule& module);

  const Logger& logger_;
  const ModulePipeline& pipeline_;
  std::mutex mutex_; ///< guards the map; loading holds only the module's own lock
  std::map<std::pair<uint64_t, int>, std::unique_ptr<LoadedModule>> modules_;
  std::vector<std::unique_ptr<LoadedModule>> retired_; ///< forgotten by device resets
};

} // namespace ocelot::runtime
