#pragma once

#include <cstddef>
#include <cstdint>
#include <driver_types.h>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

namespace ocelot::runtime::instrumentation {

/// Memory blocks reused across launches, so that an instrumented launch allocates nothing once
/// the pool is warm: blocks are rounded up to a power of two (at least 256 bytes) and kept in a
/// free list per size when released. Used for the device buffers and for the pinned host staging
/// buffers the results are copied into. Thread safe.
class BufferPool {
public:
  using Allocate = std::function<cudaError_t(void** pointer, size_t bytes)>;
  using Free = std::function<void(void* pointer)>;

  /// `freeForgotten`: release() frees blocks handed out before forget() (host memory outlives a
  /// device reset); otherwise they are dropped (device memory went with the reset, and freeing
  /// its address could free a new allocation that got it).
  BufferPool(Allocate allocate, Free free, bool freeForgotten = false)
      : allocate_(std::move(allocate)), free_(std::move(free)), freeForgotten_(freeForgotten) {}
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;
  ~BufferPool();

  struct Block {
    void* pointer = nullptr;
    size_t capacity = 0;
    uint64_t generation = 0; ///< the pool's generation when it was handed out
  };

  /// A block of at least `bytes` bytes.
  cudaError_t acquire(size_t bytes, Block* block);
  /// Back into the pool; a block handed out before the last forget() never is (see the
  /// constructor).
  void release(Block block);
  /// Frees every free block (after a device reset the memory is gone: `forget` drops the blocks
  /// without freeing them and starts a new generation).
  void trim();
  void forget();

  /// Blocks handed out and not yet released; bytes held in total (for tests and reports).
  size_t outstanding() const;
  size_t heldBytes() const;

  static size_t sizeClass(size_t bytes);

private:
  Allocate allocate_;
  Free free_;
  bool freeForgotten_ = false;
  uint64_t generation_ = 0;
  mutable std::mutex mutex_;
  std::map<size_t, std::vector<void*>> freeLists_;
  size_t outstanding_ = 0;
  size_t held_ = 0;
};

} // namespace ocelot::runtime::instrumentation
