#pragma once

#include "runtime/core/Device.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>

namespace ocelot::runtime::instrumentation {

/// Per kernel, the most registers per thread its instrumented code may use (`.maxnreg`).
using RegisterCaps = std::map<std::string, uint32_t>;

/// The most registers per thread (a multiple of 8, below 256) with which `blocks` CTAs of
/// `threadsPerBlock` threads still fit on one multiprocessor, registers being allocated per warp in
/// units of 256 (8 per thread); 0 when not even 8 fit.
uint32_t registerCapForBlocks(int blocks, uint64_t threadsPerBlock, int registersPerMultiprocessor,
                              int registersPerBlock);

/// Keeps instrumented kernels at the occupancy of the application's kernels. Counters and timers
/// need registers; a kernel that used all the registers its occupancy allowed (a grid-stride kernel
/// sized to fill the GPU exactly, common after cudaOccupancyMaxActiveBlocksPerMultiprocessor) then
/// fits fewer CTAs per SM, runs in more waves, and the slowdown measures instrumentation's
/// register pressure instead of its work. At the first launch of each (kernel, block size, dynamic
/// shared memory) the guard compares the CTAs per SM of the original and the instrumented kernel;
/// when the instrumented one fits fewer, the kernel gets a register cap (`.maxnreg`) that restores
/// the original's count and its module is built again with it: ptxas then spills or
/// rematerializes where it must, which costs far less than a lost wave. Thread safe.
class OccupancyGuard {
public:
  /// The caps the modules of `moduleKey` (registration, device and instrumentors) are built with.
  /// They outlive device resets: the same code needs the same registers.
  RegisterCaps caps(const std::string& moduleKey) const;

  /// At a launch of `kernel` through `instrumented` (from the module built with caps(moduleKey)):
  /// true when the kernel got a new cap and its module must be built again. `why` then says what
  /// changed, for the log.
  bool check(const std::string& moduleKey, const std::string& kernel, Device& device,
             DeviceFunction original, DeviceFunction instrumented, const LaunchParams& params,
             std::string* why);

  /// Forgets the cap of `kernel` (its capped module could not be built); the kernel stays checked.
  void dropCap(const std::string& moduleKey, const std::string& kernel);

  /// Changes whenever a cap is set or dropped: modules chosen under the old caps are stale.
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }

private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, RegisterCaps> caps_;
  /// "moduleKey|kernel|threads|shared" already compared.
  std::set<std::string> checked_;
  std::atomic<uint64_t> generation_{0};
};

} // namespace ocelot::runtime::instrumentation
