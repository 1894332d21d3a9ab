#pragma once

#include "runtime/fatbin/FatbinaryError.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ocelot::runtime::fatbin {

/// What an entry holds (the raw kind is kept in Entry::kind, so unknown kinds survive).
enum class EntryKind : uint16_t { Ptx = 1, Cubin = 2, LtoIr = 8 };

enum class Compression : uint8_t { None, Lz4, Zstd };

/// One image inside a container. Spans and views point into the bytes that were parsed: they stay
/// valid as long as those bytes do (for registered fatbinaries: the application's image).
struct Entry {
  uint64_t offset = 0; ///< of the entry header, from the start of the parsed buffer
  uint16_t kind = 0;   ///< raw kind; compare with EntryKind
  uint16_t format = 0; ///< entry format word (0x0101 in CUDA 13)
  uint32_t headerSize = 0;
  uint32_t arch = 0;                           ///< 90 for sm_90 / compute_90
  uint16_t majorVersion = 0, minorVersion = 0; ///< PTX ISA (PTX) or ELF format (cubin) version
  uint64_t flags = 0;                          ///< see format::EntryFlag
  Compression compression = Compression::None;
  uint64_t uncompressedSize = 0; ///< declared size after decompression (0 when not compressed)
  /// The payload's meaningful bytes: the compressed bytes, or the image with any trailing padding.
  std::span<const std::byte> payload;
  uint64_t storedSize = 0;            ///< bytes reserved after the header (payload plus padding)
  std::string_view identifier;        ///< e.g. the source file name under -G; often empty
  std::span<const std::byte> options; ///< PTX: JIT option text; cubin: opaque bytes

  bool is(EntryKind k) const { return kind == static_cast<uint16_t>(k); }
  bool archSpecific() const;   ///< sm_90a-style: usable only on exactly `arch`
  bool familySpecific() const; ///< sm_100f-style: usable within the architecture family
  bool debug() const;          ///< built with -G
  /// Options as text with trailing padding removed (meaningful for PTX entries).
  std::string_view optionsText() const;
  /// "sm_90", "sm_90a", "sm_100f" (cubin, LTO-IR) or "compute_90", ... (PTX).
  std::string archName() const;
};

/// A container: header plus entries. A fatbinary section holds one or more of them.
struct Container {
  uint64_t offset = 0; ///< of the container header, from the start of the parsed buffer
  uint16_t version = 0;
  uint16_t headerSize = 0;
  uint64_t totalSize = 0; ///< header and entries: the container's bytes end at offset+totalSize
  std::vector<Entry> entries;
};

/// All containers of a buffer, in order.
struct Fatbinary {
  std::vector<Container> containers;

  /// Every entry of every container, in order.
  std::vector<const Entry*> entries() const;
};

/// True when `bytes` begins with the container magic.
bool startsWithContainer(std::span<const std::byte> bytes);

/// Reads the one container that starts at `offset` in `bytes`. Never reads outside `bytes`:
/// anything that does not fit (a truncated buffer, a size that lies) is an error naming the offset.
FatbinaryResult<Container> parseContainer(std::span<const std::byte> bytes, uint64_t offset = 0);

/// Reads every container of `bytes` (a whole .nv_fatbin or __nv_relfatbin section): containers
/// follow each other, optionally separated or followed by zero padding. An empty buffer or one
/// that holds nothing but padding is an error: there is no fatbinary in it.
FatbinaryResult<Fatbinary> parseFatbinary(std::span<const std::byte> bytes);

/// A readable name for an entry kind: "ptx", "cubin", "lto-ir", or "kind-<n>".
std::string kindName(uint16_t kind);
/// "none", "lz4" or "zstd".
std::string_view compressionName(Compression compression);

} // namespace ocelot::runtime::fatbin
