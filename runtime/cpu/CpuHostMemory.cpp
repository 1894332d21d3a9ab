// The CPU device's page-locked host memory. Device and host share one address space here: pinned
// memory comes from the device's arena (DeviceMemory::Kind::Host), registered memory stays where it
// is, and both are mapped (the device pointer is the host pointer).

#include "runtime/cpu/CpuHostMemory.h"

#include "runtime/cpu/CpuDevice.h"

#include <algorithm>

namespace ocelot::runtime::cpu {

cudaError_t CpuHostMemory::allocate(void** pointer, size_t bytes, unsigned int flags) {
  DeviceMemory& memory = device_.memory();
  if (cudaError_t error = device_.sticky(); error != cudaSuccess)
    return error;
  *pointer = memory.allocate(std::max<size_t>(bytes, 1), DeviceMemory::Kind::Host);
  if (*pointer == nullptr)
    return cudaErrorMemoryAllocation;
  std::lock_guard lock(mutex_);
  allocations_[*pointer] = flags | cudaHostAllocMapped;
  return cudaSuccess;
}

cudaError_t CpuHostMemory::free(void* pointer) {
  DeviceMemory& memory = device_.memory();
  if (pointer == nullptr)
    return cudaSuccess;
  if (cudaError_t error = device_.checkUnsafeCall(); error != cudaSuccess)
    return error;
  device_.cpuStreams().drainAll(); // like cudaFree, cudaFreeHost synchronizes
  std::lock_guard lock(mutex_);
  auto it = allocations_.find(pointer);
  if (it == allocations_.end())
    return cudaErrorInvalidValue;
  allocations_.erase(it);
  memory.release(pointer);
  return cudaSuccess;
}

cudaError_t CpuHostMemory::registerRange(void* pointer, size_t bytes, unsigned int flags) {
  DeviceMemory& memory = device_.memory();
  if (memory.isRegisteredHost(pointer))
    return cudaErrorHostMemoryAlreadyRegistered;
  if (!memory.registerHost(pointer, bytes))
    return cudaErrorInvalidValue;
  std::lock_guard lock(mutex_);
  registered_[pointer] = (flags & cudaHostRegisterPortable) | cudaHostAllocMapped;
  return cudaSuccess;
}

cudaError_t CpuHostMemory::unregisterRange(void* pointer) {
  DeviceMemory& memory = device_.memory();
  {
    std::lock_guard lock(mutex_);
    registered_.erase(pointer);
  }
  return memory.unregisterHost(pointer) ? cudaSuccess : cudaErrorHostMemoryNotRegistered;
}

cudaError_t CpuHostMemory::devicePointer(void* host, void** device) {
  DeviceMemory& memory = device_.memory();
  // Host and device share one address space here: the device pointer is the host pointer.
  {
    std::lock_guard lock(mutex_);
    for (const auto& [base, flags] : allocations_) {
      (void)flags;
      auto allocation = memory.find(reinterpret_cast<uintptr_t>(base));
      if (allocation && reinterpret_cast<uintptr_t>(host) - allocation->base < allocation->size) {
        *device = host;
        return cudaSuccess;
      }
    }
  }
  if (memory.hostAccessible(reinterpret_cast<uintptr_t>(host), 1)) {
    *device = host;
    return cudaSuccess;
  }
  return cudaErrorInvalidValue;
}

cudaError_t CpuHostMemory::flags(void* host, unsigned int* flags) {
  DeviceMemory& memory = device_.memory();
  std::lock_guard lock(mutex_);
  if (memory.hostAccessible(reinterpret_cast<uintptr_t>(host), 1)) {
    // Registered memory is always mapped here.
    *flags = cudaHostAllocMapped;
    for (const auto& [base, value] : registered_)
      if (memory.hostAccessible(reinterpret_cast<uintptr_t>(base), 1) &&
          reinterpret_cast<uintptr_t>(host) >= reinterpret_cast<uintptr_t>(base))
        *flags = value;
    return cudaSuccess;
  }
  for (const auto& [base, value] : allocations_) {
    auto allocation = memory.find(reinterpret_cast<uintptr_t>(base));
    if (allocation && reinterpret_cast<uintptr_t>(host) - allocation->base < allocation->size) {
      *flags = value;
      return cudaSuccess;
    }
  }
  return cudaErrorInvalidValue;
}

void CpuHostMemory::reset() {
  std::lock_guard lock(mutex_);
  allocations_.clear();
  registered_.clear();
}

} // namespace ocelot::runtime::cpu
