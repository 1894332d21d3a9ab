#pragma once

#include "runtime/fatbin/Fatbinary.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ocelot::runtime {

struct FatbinaryRegistration;

/// A kernel registered with __cudaRegisterFunction: the host stub's address identifies it in
/// launches; `deviceName` is the (mangled) name in the module.
struct RegisteredFunction {
  FatbinaryRegistration* owner = nullptr;
  const void* hostFunction = nullptr;
  std::string deviceName;

  /// The kernel's device function (a DeviceFunction) per device ordinal, stored on the first
  /// launch so that later launches read it without a lock. Devices with higher ordinals take the
  /// module cache's locked path. Cleared when the device is reset.
  static constexpr int kCachedDevices = 8;
  mutable std::array<std::atomic<void*>, kCachedDevices> deviceFunctions{};
};

/// A __device__, __constant__ or __managed__ variable (__cudaRegisterVar, __cudaRegisterManagedVar)
/// or a host variable the device code refers to (__cudaRegisterHostVar).
struct RegisteredVariable {
  enum class Kind { Device, Constant, Managed, Host };

  FatbinaryRegistration* owner = nullptr;
  Kind kind = Kind::Device;
  /// The host shadow variable (what cudaMemcpyToSymbol receives). For a managed variable: the
  /// address of the host pointer through which host code reaches the variable.
  const void* hostAddress = nullptr;
  /// Managed variables only: that host pointer, which __cudaInitModule points at the storage.
  void** managedPointer = nullptr;
  std::string deviceName;
  size_t size = 0;
  bool external = false; ///< declared `extern` in its unit (-rdc)
};

/// One fatbinary container as registered: its bytes in the application's image and the parsed
/// headers (payloads are decompressed only when a module is built).
struct FatbinaryUnit {
  std::span<const std::byte> bytes;
  fatbin::Container container;
};

/// One __cudaRegisterFatBinary call and everything registered against its handle.
struct FatbinaryRegistration {
  /// The address returned to the application as the `void**` handle. The application only stores
  /// it and passes it back; it never dereferences it.
  void* handleSlot = nullptr;
  uint64_t id = 0; ///< 1, 2, ... in registration order
  const void* wrapperAddress = nullptr;
  uint32_t wrapperVersion = 0; ///< 1, or 2 for a device-linked (-rdc) program
  std::string imagePath;       ///< the executable or shared library it came from
  /// Version 1: the unit's container. Version 2: the device-linked container (cubins).
  std::vector<FatbinaryUnit> mainUnits;
  /// Version 2: the per-unit containers nvlink linked (their PTX is what Ocelot JIT-links).
  std::vector<FatbinaryUnit> prelinkedUnits;
  /// Why the fatbinary could not be read; empty when it was. A registration that failed to read
  /// still gets a valid handle so that the application's registration calls succeed; its kernels
  /// then fail to launch like those of a module the driver refuses.
  std::string readError;
  bool ended = false; ///< __cudaRegisterFatBinaryEnd was called

  // Owned here; the Registry indexes them by host address.
  std::vector<std::unique_ptr<RegisteredFunction>> functions;
  std::vector<std::unique_ptr<RegisteredVariable>> variables;

  void** handle() { return &handleSlot; }
  bool linked() const { return wrapperVersion == 2; }
};

} // namespace ocelot::runtime
