#include "runtime/core/ModuleCache.h"

#include "runtime/core/ErrorTable.h"

#include <chrono>
#include <cstdio>

namespace ocelot::runtime {
namespace {

using Clock = std::chrono::steady_clock;

std::string millisecondsSince(Clock::time_point start, Clock::time_point end) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f ms",
                std::chrono::duration<double, std::milli>(end - start).count());
  return text;
}

} // namespace

cudaError_t LoadedModule::function(Device& device, const std::string& name,
                                   DeviceFunction* function) {
  std::lock_guard lock(mutex_);
  if (auto it = functions_.find(name); it != functions_.end()) {
    *function = it->second;
    return cudaSuccess;
  }
  DeviceFunction found = nullptr;
  if (cudaError_t error = device.function(handle_, name.c_str(), &found); error != cudaSuccess)
    return error;
  functions_.emplace(name, found);
  *function = found;
  return cudaSuccess;
}

cudaError_t ModuleCache::get(const FatbinaryRegistration& registration, int ordinal, Device& device,
                             LoadedModule** module) {
  LoadedModule* entry = nullptr;
  {
    std::lock_guard lock(mutex_);
    auto& slot = modules_[{registration.id, ordinal}];
    if (!slot)
      slot = std::make_unique<LoadedModule>();
    entry = slot.get();
  }
  // Threads that need the same module wait for one load; other modules load concurrently.
  std::lock_guard lock(entry->mutex_);
  if (!entry->attempted_) {
    entry->attempted_ = true;
    entry->loadError_ = load(registration, device, *entry);
  }
  *module = entry;
  return entry->loadError_;
}

cudaError_t ModuleCache::load(const FatbinaryRegistration& registration, Device& device,
                              LoadedModule& module) {
  const std::string label = ModulePipeline::label(registration);
  // Both phases are timed for the info log: what Ocelot adds (the pipeline) next to what the
  // driver would spend anyway (its JIT), the comparison issue #4's module-load bar is about.
  const Clock::time_point start = Clock::now();
  auto built = pipeline_.build(registration, device.computeCapability(), device.runsIr());
  const Clock::time_point builtAt = Clock::now();
  if (built) {
    std::string log;
    cudaError_t error = device.loadModule(*built, &module.handle_, &log);
    if (error == cudaSuccess) {
      module.fromPipeline_ = true;
      if (logger_.enabled(LogLevel::Info))
        logger_.info(label + ": loaded Ocelot's module on " + device.name() + " (pipeline " +
                     millisecondsSince(start, builtAt) + ", device load " +
                     millisecondsSince(builtAt, Clock::now()) + ")");
      return cudaSuccess;
    }
    logger_.warn(label + ": the device refused Ocelot's module (" + errorName(error) +
                 (log.empty() ? "" : ": " + log) + "); loading the original code");
  } else {
    logger_.warn(label + ": " + built.error().reason + "; loading the original code");
  }
  ModuleImage original = ModulePipeline::original(registration);
  if (original.original.empty())
    return cudaErrorInvalidKernelImage;
  std::string log;
  cudaError_t error = device.loadModule(original, &module.handle_, &log);
  if (error != cudaSuccess)
    logger_.warn(label + ": the original code does not load either (" + errorName(error) + ")");
  // A device that runs only Ocelot's PTX (the CPU device) refuses every original as invalid PTX:
  // the application should learn why the PTX itself failed (an unsupported version, the memory
  // budget), as the driver's JIT would tell it.
  if (error == cudaErrorInvalidPtx && !built)
    error = built.error().error;
  return error;
}

void ModuleCache::forgetDevice(int ordinal) {
  std::lock_guard lock(mutex_);
  for (auto it = modules_.begin(); it != modules_.end();) {
    if (it->first.second == ordinal) {
      retired_.push_back(std::move(it->second));
      it = modules_.erase(it);
    } else {
      ++it;
    }
  }
}

std::vector<std::pair<int, std::unique_ptr<LoadedModule>>>
ModuleCache::take(uint64_t registrationId) {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<int, std::unique_ptr<LoadedModule>>> taken;
  for (auto it = modules_.begin(); it != modules_.end();) {
    if (it->first.first == registrationId) {
      taken.emplace_back(it->first.second, std::move(it->second));
      it = modules_.erase(it);
    } else {
      ++it;
    }
  }
  return taken;
}

} // namespace ocelot::runtime
