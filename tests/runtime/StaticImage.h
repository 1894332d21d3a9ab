#pragma once

// Registration data for tests that register fatbinaries the way nvcc's host code does.

#include "FatbinaryBuilder.h"
#include "runtime/fatbin/Format.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ocelot::runtime::testing {

/// Registration data must lie in a loaded image, as nvcc's does (the runtime bounds every read by
/// the segment that holds it). Define a StaticImage at namespace scope: it is then in the test
/// executable's .bss. It holds `Slots` containers of `SlotBytes` each, the registration wrapper
/// (`__fatBinC_Wrapper_t`) and, for device-linked programs, the list of prelinked containers.
template <size_t Slots = 1, size_t SlotBytes = 16384> struct StaticImage {
  static constexpr size_t kSlotBytes = SlotBytes;

  alignas(8) std::byte containers[Slots][SlotBytes];
  struct Wrapper {
    uint32_t magic, version;
    const void* data;
    const void* fatbins;
  } wrapper;
  const void* prelinked[Slots];

  /// Copies `container` into `slot`: the copy's address, or null (nothing copied) when it does
  /// not fit.
  const void* place(size_t slot, const Bytes& container) {
    if (slot >= Slots || container.size() > SlotBytes)
      return nullptr;
    std::memcpy(containers[slot], container.data(), container.size());
    return containers[slot];
  }

  /// Points the wrapper at `data` (and a device-linked program's `fatbins`): what
  /// __cudaRegisterFatBinary receives.
  void* wrap(const void* data, uint32_t version = fatbin::format::kWrapperVersion,
             const void* fatbins = nullptr) {
    wrapper = {fatbin::format::kWrapperMagic, version, data, fatbins};
    return &wrapper;
  }
};

} // namespace ocelot::runtime::testing
