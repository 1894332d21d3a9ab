// The CPU device's managed memory: host memory from the device's arena
// (DeviceMemory::Kind::Managed) that never moves. The hints are remembered and reported by
// cudaMemRangeGetAttribute.

#include "runtime/cpu/CpuManagedMemory.h"

#include "runtime/cpu/CpuDevice.h"

#include <algorithm>
#include <cstring>

namespace ocelot::runtime::cpu {
namespace {

/// The device id the legacy range attributes report for a location.
int legacyLocation(const cudaMemLocation& location) {
  switch (location.type) {
  case cudaMemLocationTypeDevice:
    return location.id;
  case cudaMemLocationTypeHost:
  case cudaMemLocationTypeHostNuma:
  case cudaMemLocationTypeHostNumaCurrent:
    return cudaCpuDeviceId;
  default:
    return cudaInvalidDeviceId;
  }
}

} // namespace

cudaError_t CpuManagedMemory::allocate(void** pointer, size_t bytes, unsigned int) {
  DeviceMemory& memory = device_.memory();
  if (cudaError_t error = device_.sticky(); error != cudaSuccess)
    return error;
  *pointer = memory.allocate(std::max<size_t>(bytes, 1), DeviceMemory::Kind::Managed);
  if (*pointer != nullptr)
    std::memset(*pointer, 0, bytes);
  return *pointer != nullptr ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t CpuManagedMemory::prefetch(const void* pointer, size_t, cudaMemLocation location,
                                       unsigned int, Stream&) {
  DeviceMemory& memory = device_.memory();
  // Only managed memory migrates (a GPU without HMM refuses anything else, as does this device).
  auto allocation = memory.find(reinterpret_cast<uintptr_t>(pointer));
  if (!allocation || allocation->kind != DeviceMemory::Kind::Managed)
    return cudaErrorInvalidValue;
  std::lock_guard lock(mutex_);
  advice_[allocation->base].lastPrefetch = location;
  return device_.sticky();
}

cudaError_t CpuManagedMemory::advise(const void* pointer, size_t, cudaMemoryAdvise advice,
                                     cudaMemLocation location) {
  DeviceMemory& memory = device_.memory();
  auto allocation = memory.find(reinterpret_cast<uintptr_t>(pointer));
  if (!allocation || allocation->kind != DeviceMemory::Kind::Managed)
    return cudaErrorInvalidValue; // advice applies to managed memory only
  std::lock_guard lock(mutex_);
  Advice& state = advice_[allocation->base];
  switch (advice) {
  case cudaMemAdviseSetReadMostly:
    state.readMostly = true;
    break;
  case cudaMemAdviseUnsetReadMostly:
    state.readMostly = false;
    break;
  case cudaMemAdviseSetPreferredLocation:
    state.preferred = location;
    break;
  case cudaMemAdviseUnsetPreferredLocation:
    state.preferred = {cudaMemLocationTypeInvalid, 0};
    break;
  default:
    break; // accessed-by: every processor accesses everything here
  }
  return cudaSuccess;
}

cudaError_t CpuManagedMemory::rangeAttributes(void** data, size_t* dataSizes,
                                              cudaMemRangeAttribute* attributes, size_t count,
                                              const void* pointer, size_t) {
  DeviceMemory& memory = device_.memory();
  auto allocation = memory.find(reinterpret_cast<uintptr_t>(pointer));
  if (!allocation || allocation->kind != DeviceMemory::Kind::Managed)
    return cudaErrorInvalidValue;
  Advice state;
  {
    std::lock_guard lock(mutex_);
    if (auto it = advice_.find(allocation->base); it != advice_.end())
      state = it->second;
  }
  for (size_t i = 0; i < count; ++i) {
    auto* values = static_cast<int*>(data[i]);
    const size_t slots = dataSizes[i] / sizeof(int);
    if (slots == 0)
      return cudaErrorInvalidValue;
    int value = 0;
    switch (attributes[i]) {
    case cudaMemRangeAttributeReadMostly:
      value = state.readMostly ? 1 : 0;
      break;
    case cudaMemRangeAttributePreferredLocation:
      value = legacyLocation(state.preferred);
      break;
    case cudaMemRangeAttributeAccessedBy:
      for (size_t s = 0; s < slots; ++s)
        values[s] = cudaInvalidDeviceId;
      continue;
    case cudaMemRangeAttributeLastPrefetchLocation:
      value = legacyLocation(state.lastPrefetch);
      break;
    case cudaMemRangeAttributePreferredLocationType:
      value = state.preferred.type;
      break;
    case cudaMemRangeAttributePreferredLocationId:
      value = state.preferred.id;
      break;
    case cudaMemRangeAttributeLastPrefetchLocationType:
      value = state.lastPrefetch.type;
      break;
    case cudaMemRangeAttributeLastPrefetchLocationId:
      value = state.lastPrefetch.id;
      break;
    default:
      return cudaErrorInvalidValue;
    }
    values[0] = value;
  }
  return cudaSuccess;
}

void CpuManagedMemory::reset() {
  std::lock_guard lock(mutex_);
  advice_.clear();
}

} // namespace ocelot::runtime::cpu
