#include "runtime/instrumentation/OccupancyGuard.h"

#include "runtime/core/Functions.h"

#include <algorithm>

namespace ocelot::runtime::instrumentation {

uint32_t registerCapForBlocks(int blocks, uint64_t threadsPerBlock, int registersPerMultiprocessor,
                              int registersPerBlock) {
  if (blocks <= 0 || threadsPerBlock == 0 || registersPerMultiprocessor <= 0)
    return 0;
  constexpr uint64_t kThreadsPerWarp = 32, kPerThreadUnit = 8, kMostPerThread = 255;
  const uint64_t warps = (threadsPerBlock + kThreadsPerWarp - 1) / kThreadsPerWarp;
  // A multiple of 8 per thread is a multiple of 256 per warp: allocated exactly.
  uint64_t perThread =
      uint64_t(registersPerMultiprocessor) / (uint64_t(blocks) * warps * kThreadsPerWarp);
  if (registersPerBlock > 0)
    perThread =
        std::min<uint64_t>(perThread, uint64_t(registersPerBlock) / (warps * kThreadsPerWarp));
  perThread = std::min(perThread, kMostPerThread);
  return static_cast<uint32_t>(perThread / kPerThreadUnit * kPerThreadUnit);
}

RegisterCaps OccupancyGuard::caps(const std::string& moduleKey) const {
  std::lock_guard lock(mutex_);
  auto it = caps_.find(moduleKey);
  return it != caps_.end() ? it->second : RegisterCaps{};
}

bool OccupancyGuard::check(const std::string& moduleKey, const std::string& kernel, Device& device,
                           DeviceFunction original, DeviceFunction instrumented,
                           const LaunchParams& params, std::string* why) {
  const uint64_t threads = uint64_t{params.block.x} * params.block.y * params.block.z;
  std::string config = moduleKey + "|" + kernel + "|" + std::to_string(threads) + "|" +
                       std::to_string(params.sharedMem);
  {
    std::lock_guard lock(mutex_);
    if (!checked_.insert(config).second)
      return false;
  }
  // Outside the lock: occupancy queries go to the driver. Two launches of a new configuration
  // cannot both get here (the insert above), so what follows runs once per configuration.
  int originalBlocks = 0, instrumentedBlocks = 0;
  const int blockSize = static_cast<int>(threads);
  Functions* functions = device.functions();
  if (functions == nullptr ||
      functions->maxActiveBlocks(original, blockSize, params.sharedMem, 0, &originalBlocks) !=
          cudaSuccess ||
      functions->maxActiveBlocks(instrumented, blockSize, params.sharedMem, 0,
                                 &instrumentedBlocks) != cudaSuccess ||
      instrumentedBlocks >= originalBlocks)
    return false;
  cudaFuncAttributes attributes{};
  int perMultiprocessor = 0, perBlock = 0;
  if (functions->attributes(instrumented, &attributes) != cudaSuccess ||
      device.attribute(cudaDevAttrMaxRegistersPerMultiprocessor, &perMultiprocessor) !=
          cudaSuccess ||
      device.attribute(cudaDevAttrMaxRegistersPerBlock, &perBlock) != cudaSuccess)
    return false;
  uint32_t cap = registerCapForBlocks(originalBlocks, threads, perMultiprocessor, perBlock);
  // Registers are not what limits it (shared memory, say): a cap would not help.
  if (cap == 0 || uint32_t(attributes.numRegs) <= cap)
    return false;
  std::lock_guard lock(mutex_);
  RegisterCaps& caps = caps_[moduleKey];
  auto existing = caps.find(kernel);
  if (existing != caps.end() && existing->second <= cap)
    return false;
  caps[kernel] = cap;
  generation_.fetch_add(1, std::memory_order_acq_rel);
  if (why != nullptr)
    *why = "registers capped at " + std::to_string(cap) + " (the instrumented kernel used " +
           std::to_string(attributes.numRegs) + ") to keep " + std::to_string(originalBlocks) +
           " CTAs of " + std::to_string(threads) + " threads per SM instead of " +
           std::to_string(instrumentedBlocks);
  return true;
}

void OccupancyGuard::dropCap(const std::string& moduleKey, const std::string& kernel) {
  std::lock_guard lock(mutex_);
  if (auto it = caps_.find(moduleKey); it != caps_.end())
    it->second.erase(kernel);
  generation_.fetch_add(1, std::memory_order_acq_rel);
}

} // namespace ocelot::runtime::instrumentation
