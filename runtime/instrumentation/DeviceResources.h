#pragma once

#include "ocelot/LaunchInfo.h"
#include "runtime/core/Device.h"
#include "runtime/instrumentation/BufferPool.h"

#include <atomic>
#include <mutex>
#include <vector>

namespace ocelot::runtime::instrumentation {

/// What instrumented launches on one device reuse: device buffers, pinned staging buffers, and
/// events, all pooled so that the launch path allocates nothing once warm; and the device facts
/// finalize() gets. Everything goes through the Device interface (no driver calls), so the CPU
/// back end can provide it too.
class DeviceResources {
public:
  explicit DeviceResources(Device& device);
  DeviceResources(const DeviceResources&) = delete;
  DeviceResources& operator=(const DeviceResources&) = delete;

  Device& device() { return device_; }
  BufferPool& deviceBuffers() { return deviceBuffers_; }
  BufferPool& stagingBuffers() { return staging_; }
  const DeviceFacts& facts() const { return facts_; }

  /// An event with timing enabled, or nullptr when the device cannot make one.
  cudaEvent_t acquireEvent();
  /// Back into the pool, unless the device was reset since `generation` (then it is gone).
  void releaseEvent(cudaEvent_t event, uint64_t generation);

  /// Counts device resets (forget()): what a launch acquires in one generation is gone in the
  /// next, and its results with it.
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }

  /// Copies device memory into host memory for Ocelot's own use, on a private non-blocking
  /// stream: it never waits for the application's work (a kernel spinning on a host flag, say).
  cudaError_t read(void* host, const void* device, size_t bytes);

  /// After cudaDeviceReset: the device destroyed the memory and events; drop them unfreed.
  void forget();

private:
  Device& device_;
  /// The device has no pinned host memory: staging buffers are malloc'ed (decided at the first
  /// allocation, before any buffer exists, so frees always match).
  std::atomic<bool> pageable_{false};
  DeviceFacts facts_;
  BufferPool deviceBuffers_;
  BufferPool staging_;
  std::mutex eventsMutex_;
  std::vector<cudaEvent_t> events_;
  std::atomic<uint64_t> generation_{0};
  std::mutex readMutex_;
  cudaStream_t readStream_ = nullptr; ///< created at the first read()
};

} // namespace ocelot::runtime::instrumentation
