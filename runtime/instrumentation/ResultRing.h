#pragma once

#include "runtime/core/Device.h"
#include "runtime/core/Stream.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace ocelot::runtime::instrumentation {

/// Where instrumented launches' results land without a command of Ocelot's in the application's
/// stream: one device allocation that is zero wherever no launch owns it, and a pinned host mirror
/// of the same size. A launch takes a chunk (its instrumentors' buffers one after the other); once
/// its kernel has finished, Ocelot's profile worker copies the chunk into the mirror and zeroes it
/// again, both on Ocelot's own stream, and gives it back. Chunks are taken in ring order and given
/// back in any order: the oldest chunk still out bounds the free space. A request the ring cannot
/// hold right now gets nothing (the launch then fills and copies a pooled buffer in its stream).
/// Taking and giving back hold a mutex for a few comparisons; neither allocates once the list of
/// chunks has grown to the number of launches in flight.
class ResultRing {
public:
  /// Chunks start at multiples of this (each instrumentor's part of a chunk too).
  static constexpr uint64_t kAlignment = 256;

  struct Chunk {
    uint64_t position = 0; ///< where it starts in the ring's endless address space
    uint64_t bytes = 0;
  };

  /// A ring of `capacity` bytes on `device`, zeroed through `stream` (Ocelot's own), or the error
  /// that prevented it.
  static cudaError_t create(Device& device, Stream& stream, uint64_t capacity,
                            std::unique_ptr<ResultRing>* ring);
  ResultRing(const ResultRing&) = delete;
  ResultRing& operator=(const ResultRing&) = delete;
  ~ResultRing();

  uint64_t capacity() const { return capacity_; }
  static uint64_t aligned(uint64_t bytes) {
    return (bytes + kAlignment - 1) / kAlignment * kAlignment;
  }

  /// A zeroed chunk of `bytes` (a multiple of kAlignment), or nothing while the ring lacks room.
  std::optional<Chunk> take(uint64_t bytes);
  /// Back into the ring: zero again on the device (readBack, or a kernel that never ran).
  void give(const Chunk& chunk);

  void* device(const Chunk& chunk) const { return deviceBase_ + offset(chunk); }
  const std::byte* host(const Chunk& chunk) const { return hostBase_ + offset(chunk); }

  /// The chunk's completion word (instrumentors/LaunchClock.h): one 32-bit word of host memory
  /// mapped into the device per kAlignment bytes of the ring, so each chunk out has its own. Zero
  /// while the chunk is out until its kernel writes 1; give() zeroes it again. Null (and address
  /// 0) when the device cannot map host memory: launches then wait for an event.
  uint32_t* word(const Chunk& chunk) const {
    return words_ != nullptr ? words_ + offset(chunk) / kAlignment : nullptr;
  }
  uint64_t wordAddress(const Chunk& chunk) const {
    return words_ != nullptr ? wordsDevice_ + offset(chunk) / kAlignment * sizeof(uint32_t) : 0;
  }
  /// Whether the kernel has written the chunk's word (with release: its results are visible).
  bool signalled(const Chunk& chunk) const;

  /// After the chunk's kernel finished: copies it into the mirror and zeroes it on the device, on
  /// `stream`; the caller synchronizes the stream before reading host() or giving the chunk back.
  cudaError_t readBack(const Chunk& chunk, Stream& stream);
  /// Zeroes the chunk on the device (a failed launch's, whose contents nobody reads).
  cudaError_t clear(const Chunk& chunk, Stream& stream);

  /// The device memory can no longer be trusted to be zero (a clear failed): take() gives nothing.
  void poison();
  /// cudaDeviceReset destroyed the device memory: the destructor must not free it.
  void forgetDeviceMemory() { deviceMemoryGone_.store(true, std::memory_order_release); }
  /// Whether forgetDeviceMemory() was called: a ring of an earlier device generation.
  bool deviceMemoryGone() const { return deviceMemoryGone_.load(std::memory_order_acquire); }
  /// Chunks out (for tests).
  size_t outstanding() const;

private:
  ResultRing(Device& device, uint64_t capacity) : device_(device), capacity_(capacity) {}
  uint64_t offset(const Chunk& chunk) const { return chunk.position % capacity_; }
  void mapWords(); ///< at creation: the completion words, where the device can map them

  struct Entry {
    uint64_t position = 0, end = 0;
    bool returned = false;
  };

  Device& device_;
  const uint64_t capacity_;
  std::byte* deviceBase_ = nullptr;
  std::byte* hostBase_ = nullptr;
  bool hostRegistered_ = false;
  uint32_t* words_ = nullptr; ///< see word(); page-aligned, registered (mapped)
  uint64_t wordsDevice_ = 0;  ///< their device address
  size_t wordsBytes_ = 0;
  std::atomic<bool> deviceMemoryGone_{false};

  mutable std::mutex mutex_;
  uint64_t head_ = 0; ///< the next chunk's position (before wrapping)
  bool poisoned_ = false;
  /// Chunks out in position order, as a circular list (first_, count_) over a growing vector.
  std::vector<Entry> entries_;
  size_t first_ = 0, count_ = 0;
};

} // namespace ocelot::runtime::instrumentation
