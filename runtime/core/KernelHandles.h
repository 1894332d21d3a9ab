#pragma once

#include "runtime/core/Device.h"

#include <driver_types.h>
#include <shared_mutex>
#include <unordered_map>

namespace ocelot::runtime {

/// The kernels an application names besides its registered ones, and the way back from a device
/// function to the application's name for it.
///
/// - Library kernels: the cudaKernel_t handles of libraries the application loaded itself
///   (cudaLibraryGetKernel, cudaLibraryEnumerateKernels). They are the device's own handles; only
///   handles listed here are ever passed to a device, so that a stray pointer an application passes
///   as a kernel gets cudaErrorInvalidResourceHandle instead of reaching the driver.
/// - Origins: which host stub or kernel handle a DeviceFunction was resolved from, so that
///   cudaGraphKernelNodeGetParams reports the application's own function pointer.
class KernelHandles {
public:
  void addLibraryKernel(cudaKernel_t kernel, cudaLibrary_t library);
  bool isLibraryKernel(const void* handle) const;
  void forgetLibrary(cudaLibrary_t library);

  void remember(DeviceFunction function, int ordinal, const void* applicationHandle);
  /// The host stub or kernel handle `function` was resolved from, or null.
  const void* origin(DeviceFunction function) const;
  /// After a device reset its device functions are gone (and their addresses may come back).
  void forgetDevice(int ordinal);

private:
  struct Origin {
    int ordinal;
    const void* handle;
  };

  mutable std::shared_mutex mutex_;
  std::unordered_map<const void*, cudaLibrary_t> libraryKernels_;
  std::unordered_map<DeviceFunction, Origin> origins_;
};

} // namespace ocelot::runtime
