#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>

namespace ocelot::runtime {

/// Where a pointer handed to the runtime lies in the loaded program.
struct ImageRegion {
  /// From the address to the end of the readable segment that contains it: the most the runtime
  /// may read there.
  std::span<const std::byte> bytes;
  /// The executable or shared library that holds the segment.
  std::string imagePath;
};

/// Finds the loaded ELF segment (of the executable or of any shared library) that contains
/// `address`. Registration data always lies in such a segment, so this bounds every read of a
/// fatbinary: a header that claims more bytes than its segment has is caught before it is read.
/// Nothing when the address is in no readable segment (heap, stack, unmapped).
std::optional<ImageRegion> findImageRegion(const void* address);

} // namespace ocelot::runtime
