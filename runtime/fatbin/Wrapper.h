#pragma once

#include "runtime/fatbin/FatbinaryError.h"

#include <cstddef>
#include <cstdint>
#include <span>

namespace ocelot::runtime::fatbin {

/// The registration wrapper `__fatBinC_Wrapper_t` (fatbinary_section.h) that the host code nvcc
/// generates hands to __cudaRegisterFatBinary. Addresses are kept as numbers: following them is the
/// caller's business (the runtime checks that they lie inside a loaded image first).
struct RegistrationWrapper {
  uint32_t version = 0;
  /// Version 1: the translation unit's container. Version 2: the device-linked container.
  uintptr_t data = 0;
  /// Version 2 only: a null-terminated array of the per-unit (pre-link) container addresses, each
  /// in the __nv_relfatbin section. Version 1 keeps an unused file-name pointer here.
  uintptr_t prelinkedFatbins = 0;

  bool linked() const;
};

/// Decodes the wrapper's bytes (at least format::kWrapperSize of them): checks the magic and the
/// version (1 or 2) and that `data` is not null.
FatbinaryResult<RegistrationWrapper> decodeWrapper(std::span<const std::byte> bytes);

} // namespace ocelot::runtime::fatbin
