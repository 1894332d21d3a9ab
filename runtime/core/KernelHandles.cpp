#include "runtime/core/KernelHandles.h"

#include <mutex>

namespace ocelot::runtime {

void KernelHandles::addLibraryKernel(cudaKernel_t kernel, cudaLibrary_t library) {
  std::unique_lock lock(mutex_);
  libraryKernels_[kernel] = library;
}

bool KernelHandles::isLibraryKernel(const void* handle) const {
  std::shared_lock lock(mutex_);
  return libraryKernels_.count(handle) != 0;
}

void KernelHandles::forgetLibrary(cudaLibrary_t library) {
  std::unique_lock lock(mutex_);
  std::erase_if(libraryKernels_, [&](const auto& entry) { return entry.second == library; });
}

void KernelHandles::remember(DeviceFunction function, int ordinal, const void* applicationHandle) {
  {
    std::shared_lock lock(mutex_);
    auto it = origins_.find(function);
    if (it != origins_.end() && it->second.handle == applicationHandle)
      return;
  }
  std::unique_lock lock(mutex_);
  origins_[function] = {ordinal, applicationHandle};
}

const void* KernelHandles::origin(DeviceFunction function) const {
  std::shared_lock lock(mutex_);
  auto it = origins_.find(function);
  return it != origins_.end() ? it->second.handle : nullptr;
}

void KernelHandles::forgetDevice(int ordinal) {
  std::unique_lock lock(mutex_);
  std::erase_if(origins_, [&](const auto& entry) { return entry.second.ordinal == ordinal; });
  // Libraries are context objects of the driver: a reset unloads them too.
  libraryKernels_.clear();
}

} // namespace ocelot::runtime
