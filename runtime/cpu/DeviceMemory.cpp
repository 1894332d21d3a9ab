#include "runtime/cpu/DeviceMemory.h"

#include <algorithm>
#include <array>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

namespace ocelot::runtime::cpu {
namespace {

void* reserve(size_t bytes, int protection) {
  void* address =
      mmap(nullptr, bytes, protection, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return address == MAP_FAILED ? nullptr : address;
}

size_t roundUp(size_t value, size_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

size_t pageSize() {
  long size = sysconf(_SC_PAGESIZE);
  return size > 0 ? static_cast<size_t>(size) : 4096;
}

} // namespace

std::unique_ptr<DeviceMemory> DeviceMemory::create(std::string* error) {
  std::unique_ptr<DeviceMemory> memory(new DeviceMemory());
  // Pages are committed only when touched, so a large reservation costs nothing; strict
  // overcommit accounting refuses large ones, hence the fallbacks.
  constexpr std::array<size_t, 5> kSizes = {size_t{64} << 30, size_t{16} << 30, size_t{4} << 30,
                                            size_t{1} << 30, size_t{256} << 20};
  for (size_t size : kSizes) {
    if (void* base = reserve(size, PROT_READ | PROT_WRITE)) {
      memory->base_ = reinterpret_cast<uintptr_t>(base);
      memory->size_ = size;
      break;
    }
  }
  void* windows = reserve(2 * kWindowSize, PROT_NONE);
  if (memory->base_ == 0 || windows == nullptr) {
    if (error != nullptr)
      *error = "cannot reserve address space for the CPU device's memory";
    if (windows != nullptr)
      munmap(windows, 2 * kWindowSize);
    return nullptr;
  }
  memory->sharedWindow_ = reinterpret_cast<uintptr_t>(windows);
  memory->localWindow_ = memory->sharedWindow_ + kWindowSize;
  long pages = sysconf(_SC_PHYS_PAGES);
  memory->physical_ = pages > 0 ? static_cast<size_t>(pages) * pageSize() : memory->size_;
  return memory;
}

DeviceMemory::~DeviceMemory() {
  if (base_ != 0)
    munmap(reinterpret_cast<void*>(base_), size_);
  if (sharedWindow_ != 0)
    munmap(reinterpret_cast<void*>(sharedWindow_), 2 * kWindowSize);
}

void* DeviceMemory::allocate(size_t bytes, Kind kind) {
  if (bytes == 0 || bytes > size_)
    return nullptr;
  const size_t rounded = roundUp(bytes, kAlignment);
  // The guard after the allocation belongs to none: a write just past its end lands there, not in
  // the next allocation (which may be runtime state: a launch's parameters), and the memory
  // checker reports it.
  const size_t span = rounded + kGuardBytes;
  std::unique_lock lock(mutex_);
  uintptr_t offset = UINTPTR_MAX;
  // The untouched tail first: freed addresses are handed out again only once the address space
  // runs out, so a stale pointer to freed memory stays invalid (copies through it are refused, as
  // on a GPU, and the memory checker reports kernel accesses) instead of naming a new allocation.
  // Freed pages go back to the system, so this costs address space only.
  if (span <= size_ - top_) {
    offset = top_;
    top_ += span;
  }
  for (auto it = free_.begin(); offset == UINTPTR_MAX && it != free_.end(); ++it) {
    if (it->second < span)
      continue;
    offset = it->first;
    size_t remaining = it->second - span;
    free_.erase(it);
    if (remaining != 0)
      free_.emplace(offset + span, remaining);
    break;
  }
  if (offset == UINTPTR_MAX)
    return nullptr;
  const uintptr_t address = base_ + offset;
  live_.emplace(address, Allocation{address, bytes, kind});
  used_ += rounded;
  return reinterpret_cast<void*>(address);
}

bool DeviceMemory::release(void* pointer) {
  const auto address = reinterpret_cast<uintptr_t>(pointer);
  std::unique_lock lock(mutex_);
  auto it = live_.find(address);
  if (it == live_.end())
    return false;
  const size_t rounded = roundUp(it->second.size, kAlignment);
  live_.erase(it);
  used_ -= rounded;
  uintptr_t offset = address - base_;
  size_t length = rounded + kGuardBytes;
  const uintptr_t freedEnd = address + length;
  // Coalesce with the neighbours.
  auto next = free_.lower_bound(offset);
  if (next != free_.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == offset) {
      offset = previous->first;
      length += previous->second;
      free_.erase(previous);
    }
  }
  next = free_.lower_bound(offset);
  if (next != free_.end() && offset + length == next->first) {
    length += next->second;
    free_.erase(next);
  }
  free_.emplace(offset, length); // not given back to the tail: see allocate
  // Give back to the system the pages this release left wholly free (with its free neighbours);
  // the range stays mapped (reads see zeros).
  const size_t page = pageSize();
  const uintptr_t freeBegin = base_ + offset, freeEnd = base_ + offset + length;
  const uintptr_t firstPage = std::max(address / page * page, roundUp(freeBegin, page));
  const uintptr_t lastPage = std::min(roundUp(freedEnd, page), freeEnd / page * page);
  if (lastPage > firstPage)
    madvise(reinterpret_cast<void*>(firstPage), lastPage - firstPage, MADV_DONTNEED);
  return true;
}

std::optional<DeviceMemory::Allocation> DeviceMemory::find(uintptr_t address) const {
  std::shared_lock lock(mutex_);
  auto it = live_.upper_bound(address);
  if (it == live_.begin())
    return std::nullopt;
  --it;
  if (address - it->second.base < it->second.size)
    return it->second;
  return std::nullopt;
}

void DeviceMemory::releaseAll() {
  std::unique_lock lock(mutex_);
  if (top_ != 0)
    madvise(reinterpret_cast<void*>(base_), top_, MADV_DONTNEED);
  live_.clear();
  free_.clear();
  top_ = 0;
  used_ = 0;
  registered_.clear();
}

bool DeviceMemory::registerHost(void* pointer, size_t bytes) {
  const auto address = reinterpret_cast<uintptr_t>(pointer);
  std::unique_lock lock(mutex_);
  auto it = registered_.upper_bound(address);
  if (it != registered_.begin()) {
    auto previous = std::prev(it);
    if (address < previous->first + previous->second)
      return false; // overlaps a registered range
  }
  if (it != registered_.end() && it->first < address + bytes)
    return false;
  registered_.emplace(address, bytes);
  return true;
}

bool DeviceMemory::unregisterHost(void* pointer) {
  std::unique_lock lock(mutex_);
  return registered_.erase(reinterpret_cast<uintptr_t>(pointer)) != 0;
}

bool DeviceMemory::isRegisteredHost(const void* pointer) const {
  return hostAccessible(reinterpret_cast<uintptr_t>(pointer), 1);
}

bool DeviceMemory::hostAccessible(uintptr_t address, size_t bytes) const {
  std::shared_lock lock(mutex_);
  auto it = registered_.upper_bound(address);
  if (it == registered_.begin())
    return false;
  --it;
  return address - it->first < it->second && bytes <= it->second - (address - it->first);
}

bool DeviceMemory::accessible(uintptr_t address, size_t bytes) const {
  if (auto allocation = find(address))
    return bytes <= allocation->size - (address - allocation->base);
  return hostAccessible(address, bytes);
}

bool DeviceMemory::copyable(uintptr_t address, size_t bytes) const {
  if (bytes == 0 || address + bytes < address)
    return false;
  if (address < base_ + size_ && address + bytes > base_) { // overlaps the arena
    auto allocation = find(address);
    return allocation && allocation->kind != Kind::Parameters &&
           bytes <= allocation->size - (address - allocation->base);
  }
  // The shared and local windows are never mapped.
  if (address + bytes > sharedWindow_ && address < sharedWindow_ + 2 * kWindowSize)
    return false;
  if (hostAccessible(address, bytes))
    return true;
  // Host memory: msync fails with ENOMEM where part of the range is not mapped (MS_ASYNC writes
  // nothing back; it only walks the mappings).
  const size_t page = pageSize();
  const uintptr_t first = address / page * page;
  return msync(reinterpret_cast<void*>(first), address + bytes - first, MS_ASYNC) == 0;
}

size_t DeviceMemory::totalBytes() const {
  return std::min<size_t>(size_, physical_);
}

size_t DeviceMemory::usedBytes() const {
  std::shared_lock lock(mutex_);
  return used_;
}

} // namespace ocelot::runtime::cpu
