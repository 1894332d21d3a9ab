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

  BufferPool(Allocate allocate, Free free)
      : allocate_(std::move(allocate)), free_(std::move(free)) {}
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;
  ~BufferPool();

  struct Block {
    void* pointer = nullptr;
    size_t capacity = 0;
  };

  /// A block of at least `bytes` bytes.
  cudaError_t acquire(size_t bytes, Block* block);
  void release(Block block);
  /// Frees every free block (after a device reset the memory is gone: `forget` drops the blocks
  /// without freeing them).
  void trim();
  void forget();

  /// Blocks handed out and not yet released; bytes held in total (for tests and reports).
  size_t outstanding() const;
  size_t heldBytes() const;

  static size_t sizeClass(size_t bytes);

private:
  Allocate allocate_;
  Free free_;
  mutable std::mutex mutex_;
  std::map<size_t, std::vector<void*>> freeLists_;
  size_t outstanding_ = 0;
  size_t held_ = 0;
};

} // namespace ocelot::runtime::instrumentation
