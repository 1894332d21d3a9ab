#pragma once

#include "support/Expected.h"

#include <cstdint>
#include <string>

namespace ocelot::runtime::fatbin {

/// Why a fatbinary (or a part of one) could not be read: what was wrong and where. `offset` counts
/// bytes from the start of the buffer that was handed to the reader.
struct FatbinaryError {
  std::string what;
  uint64_t offset = 0;

  /// "fatbinary: <what> (at offset 0x<offset>)"
  std::string message() const;
};

template <class T> using FatbinaryResult = support::Expected<T, FatbinaryError>;

} // namespace ocelot::runtime::fatbin
