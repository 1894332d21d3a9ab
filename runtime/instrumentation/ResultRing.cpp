#include "runtime/instrumentation/ResultRing.h"

#include "runtime/core/HostMemory.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace ocelot::runtime::instrumentation {

namespace {
constexpr size_t kPageBytes = 4096;
}

cudaError_t ResultRing::create(Device& device, Stream& stream, uint64_t capacity,
                               std::unique_ptr<ResultRing>* ring) {
  capacity = (capacity + kPageBytes - 1) / kPageBytes * kPageBytes;
  std::unique_ptr<ResultRing> made(new ResultRing(device, capacity));
  void* memory = nullptr;
  if (cudaError_t error = device.allocate(&memory, capacity); error != cudaSuccess)
    return error;
  made->deviceBase_ = static_cast<std::byte*>(memory);
  // The mirror is Ocelot's own page-aligned memory registered with the device, never
  // cudaHostAlloc (see DeviceResources: the driver's shared pinned chunks would change what the
  // application's allocations report). A device that cannot register gets ordinary memory.
  made->hostBase_ = static_cast<std::byte*>(std::aligned_alloc(kPageBytes, capacity));
  if (made->hostBase_ == nullptr)
    return cudaErrorMemoryAllocation;
  if (HostMemory* host = device.hostMemory(); host != nullptr) {
    cudaError_t error = host->registerRange(made->hostBase_, capacity, cudaHostRegisterDefault);
    if (error == cudaSuccess)
      made->hostRegistered_ = true;
    else if (error != cudaErrorNotSupported)
      return error;
  }
  made->mapWords();
  // Zero is what every chunk holds when it is taken.
  if (cudaError_t error = device.fill(made->deviceBase_, 0, capacity, stream, true);
      error != cudaSuccess)
    return error;
  if (cudaError_t error = stream.synchronize(); error != cudaSuccess)
    return error;
  *ring = std::move(made);
  return cudaSuccess;
}

void ResultRing::mapWords() {
  // Like the mirror: Ocelot's own pages, registered (the driver maps registered memory), never
  // cudaHostAlloc. Without a device address for them the ring works as before, with events.
  HostMemory* host = device_.hostMemory();
  if (host == nullptr)
    return;
  const size_t bytes =
      (capacity_ / kAlignment * sizeof(uint32_t) + kPageBytes - 1) / kPageBytes * kPageBytes;
  auto* words = static_cast<uint32_t*>(std::aligned_alloc(kPageBytes, bytes));
  if (words == nullptr)
    return;
  std::memset(words, 0, bytes);
  void* mapped = nullptr;
  if (host->registerRange(words, bytes, cudaHostRegisterMapped) != cudaSuccess) {
    std::free(words);
    return;
  }
  if (host->devicePointer(words, &mapped) != cudaSuccess || mapped == nullptr) {
    host->unregisterRange(words);
    std::free(words);
    return;
  }
  words_ = words;
  wordsDevice_ = reinterpret_cast<uint64_t>(mapped);
  wordsBytes_ = bytes;
}

ResultRing::~ResultRing() {
  if (deviceBase_ != nullptr && !deviceMemoryGone_)
    device_.free(deviceBase_);
  if (hostRegistered_)
    device_.hostMemory()->unregisterRange(hostBase_); // after a reset it fails harmlessly
  std::free(hostBase_);
  if (words_ != nullptr) {
    device_.hostMemory()->unregisterRange(words_);
    std::free(words_);
  }
}

bool ResultRing::signalled(const Chunk& chunk) const {
  uint32_t* w = word(chunk);
  return w != nullptr && std::atomic_ref<uint32_t>(*w).load(std::memory_order_acquire) != 0;
}

std::optional<ResultRing::Chunk> ResultRing::take(uint64_t bytes) {
  bytes = aligned(bytes == 0 ? 1 : bytes);
  std::lock_guard lock(mutex_);
  if (poisoned_ || bytes > capacity_)
    return std::nullopt;
  uint64_t position = head_;
  // A chunk never wraps: it starts over at the ring's beginning (the skipped tail is free again
  // once the chunks before it are given back).
  if (const uint64_t at = position % capacity_; at + bytes > capacity_)
    position += capacity_ - at;
  const uint64_t oldest = count_ > 0 ? entries_[first_].position : position; // none out: all free
  if (position + bytes - oldest > capacity_)
    return std::nullopt;
  if (count_ == entries_.size()) {
    // Grow the circular list, oldest first.
    std::vector<Entry> grown;
    grown.reserve(entries_.empty() ? 64 : 2 * entries_.size());
    for (size_t i = 0; i < count_; ++i)
      grown.push_back(entries_[(first_ + i) % entries_.size()]);
    grown.resize(grown.capacity());
    entries_ = std::move(grown);
    first_ = 0;
  }
  entries_[(first_ + count_) % entries_.size()] = {position, position + bytes, false};
  ++count_;
  head_ = position + bytes;
  return Chunk{position, bytes};
}

void ResultRing::give(const Chunk& chunk) {
  std::lock_guard lock(mutex_);
  // Chunks are out in position order: find this one by bisection, then let the oldest ones go.
  size_t low = 0, high = count_;
  while (low < high) {
    const size_t middle = (low + high) / 2;
    if (entries_[(first_ + middle) % entries_.size()].position < chunk.position)
      low = middle + 1;
    else
      high = middle;
  }
  if (low == count_)
    return;
  Entry& entry = entries_[(first_ + low) % entries_.size()];
  if (entry.position != chunk.position)
    return;
  // Zero again for the next launch given this chunk (its kernel, enqueued after the take, sees it).
  if (uint32_t* w = word(chunk))
    std::atomic_ref<uint32_t>(*w).store(0, std::memory_order_relaxed);
  entry.returned = true;
  while (count_ > 0 && entries_[first_].returned) {
    first_ = (first_ + 1) % entries_.size();
    --count_;
  }
}

cudaError_t ResultRing::readBack(const Chunk& chunk, Stream& stream) {
  if (cudaError_t error = device_.copy(hostBase_ + offset(chunk), deviceBase_ + offset(chunk),
                                       chunk.bytes, stream, true);
      error != cudaSuccess)
    return error;
  return clear(chunk, stream);
}

cudaError_t ResultRing::clear(const Chunk& chunk, Stream& stream) {
  return device_.fill(deviceBase_ + offset(chunk), 0, chunk.bytes, stream, true);
}

void ResultRing::poison() {
  std::lock_guard lock(mutex_);
  poisoned_ = true;
}

size_t ResultRing::outstanding() const {
  std::lock_guard lock(mutex_);
  return count_;
}

} // namespace ocelot::runtime::instrumentation
