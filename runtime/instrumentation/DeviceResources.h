#pragma once

#include "ocelot/LaunchInfo.h"
#include "runtime/core/Device.h"
#include "runtime/core/Event.h"
#include "runtime/core/Stream.h"
#include "runtime/instrumentation/BufferPool.h"
#include "runtime/instrumentation/ResultRing.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_set>
#include <utility>
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

  /// An event with timing enabled, or (`timed` false) one without timing, which tells only that
  /// the work before it finished: a timing event after a kernel costs the GPU about 2 us per launch
  /// (H200: a 50 us kernel launched back to back, 49.4 -> 51.5 us with one after each; none
  /// without timing). Nullptr when the device cannot make one.
  Event* acquireEvent(bool timed = true);
  /// Back into the pool, unless the device was reset since `generation` (then it is gone).
  void releaseEvent(Event* event, uint64_t generation);

  /// Counts device resets (forget()): what a launch acquires in one generation is gone in the
  /// next, and its results with it.
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }

  /// Copies device memory into host memory for Ocelot's own use, on a private non-blocking
  /// stream: it never waits for the application's work (a kernel spinning on a host flag, say).
  cudaError_t read(void* host, const void* device, size_t bytes);

  /// The result ring launches take their buffers from (created at the first call), or null when
  /// the device cannot hold one (launches then fill and copy pooled buffers in their stream).
  std::shared_ptr<ResultRing> ring();
  /// Why there is no ring (cudaSuccess while there is one or none was tried yet).
  cudaError_t ringError() const { return ringError_.load(std::memory_order_relaxed); }
  /// Ocelot's own non-blocking stream (created at the first call), or null when the device has
  /// none: result rings are zeroed and read back on it.
  Stream* ownStream();

  /// After cudaDeviceReset: the device destroyed the memory and events; drop them unfreed.
  void forget();
  /// Around cudaDeviceReset (each forgets): while it runs, launches take no ring and results are
  /// not read, and every launch made meanwhile is disturbed.
  void beginReset();
  void endReset();
  /// Ocelot's use of what a device reset destroys (result buffers, Ocelot's stream): an
  /// instrumented launch holds one from taking its buffers until its kernel and copies are
  /// enqueued, the profile worker from its check that a launch is not disturbed() until its read
  /// back is synchronized. beginReset() waits for the uses in progress, and none begins until
  /// endReset(): use() then gives an empty one. So a reset never frees memory between a check and
  /// the use it allowed, and a kernel is never enqueued with buffers a reset already freed (it
  /// would write into whatever takes their memory next: another launch's results).
  class Use {
  public:
    Use() = default;
    Use(Use&& other) noexcept : owner_(std::exchange(other.owner_, nullptr)) {}
    Use& operator=(Use&& other) noexcept {
      release();
      owner_ = std::exchange(other.owner_, nullptr);
      return *this;
    }
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;
    ~Use() { release(); }
    explicit operator bool() const { return owner_ != nullptr; }
    void release() {
      if (owner_ != nullptr)
        owner_->users_.fetch_sub(1, std::memory_order_seq_cst);
      owner_ = nullptr;
    }

  private:
    friend class DeviceResources;
    explicit Use(DeviceResources* owner) : owner_(owner) {}
    DeviceResources* owner_ = nullptr;
  };
  Use use();
  /// Between beginReset() and endReset().
  bool resetting() const { return resetting_.load(std::memory_order_seq_cst) > 0; }
  /// Whether a launch of `generation` lost its buffers to a device reset (or runs into one).
  bool disturbed(uint64_t generation) const {
    return resetting() || generation != generation_.load(std::memory_order_acquire);
  }

  /// The result ring's size: small results (a few hundred bytes for a block-count or CTA-clock
  /// launch) of thousands of launches in flight.
  static constexpr uint64_t kRingBytes = 32ull << 20;

private:
  Stream* ownStreamLocked(); ///< readMutex_ held

  Device& device_;
  /// The device has no pinned host memory: staging buffers are malloc'ed (decided at the first
  /// allocation, before any buffer exists, so frees always match).
  std::atomic<bool> pageable_{false};
  DeviceFacts facts_;
  BufferPool deviceBuffers_;
  BufferPool staging_;
  std::mutex eventsMutex_;
  std::vector<Event*> events_;
  std::vector<Event*> untimedEvents_;
  /// Every untimed event made (pooled or out), so that releaseEvent puts each in its own pool.
  std::unordered_set<const Event*> untimed_;
  std::atomic<uint64_t> generation_{0};
  /// Resets in progress (threads may reset one device at once) and uses in progress (see Use):
  /// sequentially consistent, so that a reset and a use never both pass each other's check.
  std::atomic<int> resetting_{0};
  std::atomic<int> users_{0};
  std::mutex readMutex_;
  Stream* readStream_ = nullptr; ///< created at the first read() or ownStream()
  /// Under ringMutex_ (taken before readMutex_, which its creation also needs for readStream_);
  /// `ringTried_`: created once, or failed once.
  std::mutex ringMutex_;
  std::shared_ptr<ResultRing> ring_;
  bool ringTried_ = false;
  std::atomic<cudaError_t> ringError_{cudaSuccess};
};

} // namespace ocelot::runtime::instrumentation
