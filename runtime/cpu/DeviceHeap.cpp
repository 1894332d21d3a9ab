#include "runtime/cpu/DeviceMemory.h"
#include "runtime/cpu/LaunchServices.h"

#include <algorithm>

namespace ocelot::runtime::cpu {

uint64_t DeviceHeap::allocate(uint64_t bytes) {
  if (bytes == 0)
    return 0;
  std::lock_guard lock(mutex_);
  if (used_ + bytes > limit_)
    return 0; // device malloc() returns NULL when the heap is exhausted
  void* pointer = memory_.allocate(bytes, DeviceMemory::Kind::Heap);
  if (pointer == nullptr)
    return 0;
  used_ += bytes;
  live_.emplace_back(reinterpret_cast<uint64_t>(pointer), bytes);
  return reinterpret_cast<uint64_t>(pointer);
}

void DeviceHeap::release(uint64_t address) {
  if (address == 0)
    return;
  std::lock_guard lock(mutex_);
  auto it = std::find_if(live_.begin(), live_.end(),
                         [&](const auto& entry) { return entry.first == address; });
  if (it == live_.end())
    return; // free() of something malloc() did not return: ignored, as the GPU heap does
  used_ -= it->second;
  memory_.release(reinterpret_cast<void*>(address));
  live_.erase(it);
}

} // namespace ocelot::runtime::cpu
