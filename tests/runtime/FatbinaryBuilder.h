#pragma once

// Builds fatbinary containers byte by byte, in the layout nvcc 13 writes (runtime/fatbin/Format.h),
// so that tests control every field: compression, sizes, identifiers, options and corruptions.

#include "runtime/fatbin/Fatbinary.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ocelot::runtime::testing {

using Bytes = std::vector<std::byte>;

Bytes toBytes(const std::string& text);

struct EntrySpec {
  uint16_t kind = 1;
  uint32_t arch = 90;
  uint16_t majorVersion = 9, minorVersion = 0;
  uint64_t flags = 0x11; ///< 64-bit, Linux
  Bytes stored;          ///< the payload as stored (compressed or not)
  uint32_t compressedSize = 0;
  uint64_t uncompressedSize = 0;
  std::string identifier;
  std::string options;
};

/// A PTX (kind 1) or cubin-like (kind 2) entry holding `image`, compressed as asked.
EntrySpec makeEntry(uint16_t kind, uint32_t arch, const Bytes& image,
                    fatbin::Compression compression);
EntrySpec ptxEntry(const std::string& text, uint32_t arch,
                   fatbin::Compression compression = fatbin::Compression::None);

/// One container holding `entries` (each padded to 8 bytes, as nvcc does).
Bytes buildContainer(const std::vector<EntrySpec>& entries);

Bytes compressZstd(const Bytes& data);
Bytes compressLz4(const Bytes& data);

void put16(Bytes& bytes, size_t offset, uint16_t value);
void put32(Bytes& bytes, size_t offset, uint32_t value);
void put64(Bytes& bytes, size_t offset, uint64_t value);

/// Offsets of the first entry of a container built by buildContainer.
inline constexpr size_t kFirstEntry = 16;

} // namespace ocelot::runtime::testing
