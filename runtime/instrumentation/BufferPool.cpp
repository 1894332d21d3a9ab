#include "runtime/instrumentation/BufferPool.h"

#include <bit>

namespace ocelot::runtime::instrumentation {

BufferPool::~BufferPool() {
  trim();
}

size_t BufferPool::sizeClass(size_t bytes) {
  constexpr size_t kSmallest = 256;
  if (bytes <= kSmallest)
    return kSmallest;
  return std::bit_ceil(bytes);
}

cudaError_t BufferPool::acquire(size_t bytes, Block* block) {
  size_t capacity = sizeClass(bytes);
  uint64_t generation = 0;
  {
    std::lock_guard lock(mutex_);
    generation = generation_;
    auto& list = freeLists_[capacity];
    if (!list.empty()) {
      block->pointer = list.back();
      block->capacity = capacity;
      block->generation = generation_;
      list.pop_back();
      ++outstanding_;
      return cudaSuccess;
    }
  }
  void* pointer = nullptr;
  if (cudaError_t error = allocate_(&pointer, capacity); error != cudaSuccess)
    return error;
  std::lock_guard lock(mutex_);
  block->pointer = pointer;
  block->capacity = capacity;
  // Allocated before a concurrent forget(): in the old generation, so release() drops it.
  block->generation = generation;
  ++outstanding_;
  held_ += capacity;
  return cudaSuccess;
}

void BufferPool::release(Block block) {
  if (block.pointer == nullptr)
    return;
  {
    std::lock_guard lock(mutex_);
    if (block.generation == generation_) {
      freeLists_[block.capacity].push_back(block.pointer);
      if (outstanding_ > 0)
        --outstanding_;
      return;
    }
  }
  if (freeForgotten_)
    free_(block.pointer);
}

void BufferPool::trim() {
  std::map<size_t, std::vector<void*>> lists;
  {
    std::lock_guard lock(mutex_);
    lists.swap(freeLists_);
    for (const auto& [capacity, list] : lists)
      held_ -= capacity * list.size();
  }
  for (const auto& [capacity, list] : lists)
    for (void* pointer : list)
      free_(pointer);
}

void BufferPool::forget() {
  std::lock_guard lock(mutex_);
  ++generation_;
  freeLists_.clear();
  held_ = 0;
  outstanding_ = 0;
}

size_t BufferPool::outstanding() const {
  std::lock_guard lock(mutex_);
  return outstanding_;
}

size_t BufferPool::heldBytes() const {
  std::lock_guard lock(mutex_);
  return held_;
}

} // namespace ocelot::runtime::instrumentation
