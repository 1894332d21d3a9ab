#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>

namespace ocelot::runtime::cpu {

/// The CPU device's memory: one large reserved range of the process's address space (the arena)
/// from which every device allocation, page-locked host allocation, module variable and launch
/// parameter buffer is carved. Device pointers are therefore ordinary host addresses, which is what
/// unified addressing promises, and yet they are recognizable: an address is device memory exactly
/// when it lies in the arena. Kernels reach global memory with one range check per access; any
/// address inside the arena can be read or written without crashing the process (freed memory
/// stays mapped), so wild accesses inside it are only caught by the memory checker, while
/// addresses outside it fail the launch with an illegal-address error.
///
/// Two further reserved ranges, never accessible, give the generic addresses of shared and local
/// memory (cvta.shared / cvta.local) their own windows.
class DeviceMemory {
public:
  enum class Kind : uint8_t {
    Device,     ///< cudaMalloc
    Host,       ///< cudaMallocHost / cudaHostAlloc: page-locked, mapped
    Managed,    ///< cudaMallocManaged and __managed__ variables
    Module,     ///< a module's .global and .const variables
    Parameters, ///< a launch's parameter buffer
    Heap,       ///< the device malloc() heap
  };

  struct Allocation {
    uintptr_t base = 0;
    size_t size = 0; ///< as requested
    Kind kind = Kind::Device;
  };

  static constexpr size_t kAlignment = 256;
  /// Bytes after every allocation that belong to no allocation (see allocate).
  static constexpr size_t kGuardBytes = 256;
  static constexpr uint64_t kWindowSize = uint64_t{1} << 32;

  /// Reserves the arena (the largest of a few sizes the system grants) and the two windows.
  static std::unique_ptr<DeviceMemory> create(std::string* error);
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  /// A new allocation of `bytes` (> 0), 256-byte aligned and followed by kGuardBytes that no
  /// allocation owns; nullptr when the arena is exhausted.
  void* allocate(size_t bytes, Kind kind);
  /// Frees the allocation that starts at `pointer`; false if none does (or of another kind set).
  bool release(void* pointer);
  /// The live allocation containing `address`, if any.
  std::optional<Allocation> find(uintptr_t address) const;
  /// Frees everything of the given kinds (cudaDeviceReset).
  void releaseAll();

  uintptr_t arenaBase() const { return base_; }
  uintptr_t arenaSize() const { return size_; }
  bool inArena(uintptr_t address, size_t bytes) const {
    return address - base_ < size_ && bytes <= size_ - (address - base_);
  }
  uintptr_t sharedWindow() const { return sharedWindow_; }
  uintptr_t localWindow() const { return localWindow_; }

  /// Host memory registered for device access (cudaHostRegister).
  bool registerHost(void* pointer, size_t bytes);
  bool unregisterHost(void* pointer);
  bool isRegisteredHost(const void* pointer) const;
  /// Whether [address, address + bytes) is registered host memory.
  bool hostAccessible(uintptr_t address, size_t bytes) const;
  /// Exact check: the range lies within one live allocation or registered host range.
  bool accessible(uintptr_t address, size_t bytes) const;
  /// Whether a runtime copy or fill may touch [address, address + bytes) (bytes > 0): inside the
  /// arena, only within one live allocation the application made (not a launch's parameters, not
  /// freed memory); outside it, host memory that is mapped. Never-allocated, freed and overlong
  /// ranges would otherwise crash the stream thread or write into other allocations.
  bool copyable(uintptr_t address, size_t bytes) const;

  /// Bytes the device reports as total (the arena, capped by physical memory) and in use.
  size_t totalBytes() const;
  size_t usedBytes() const;

private:
  DeviceMemory() = default;

  uintptr_t base_ = 0;
  uintptr_t size_ = 0;
  uintptr_t sharedWindow_ = 0;
  uintptr_t localWindow_ = 0;
  size_t physical_ = 0;

  mutable std::shared_mutex mutex_;
  std::map<uintptr_t, Allocation> live_; ///< by base address
  std::map<uintptr_t, size_t> free_;     ///< free ranges below top_, by offset, coalesced
  uintptr_t top_ = 0;                    ///< offset of the untouched tail of the arena
  size_t used_ = 0;
  std::map<uintptr_t, size_t> registered_; ///< registered host ranges by base
};

} // namespace ocelot::runtime::cpu
