#pragma once

// The on-disk layout of NVIDIA fatbinaries as nvcc 13 writes them. The toolkit documents only the
// registration wrapper (fatbinary_section.h); the container and entry layouts below were
// determined from nvcc 13.0 output (every compress mode, -rdc, -G, LTO, arch- and
// family-specific targets) and are checked by tests/runtime on freshly built objects.
//
// Registration wrapper (what __cudaRegisterFatBinary receives, section .nvFatBinSegment):
//   0x00 u32 magic 0x466243B1   0x04 u32 version (1, or 2 for a device-linked -rdc program)
//   0x08 ptr data               0x10 ptr v1: file name (unused, null); v2: null-terminated array
//                                        of the per-unit (pre-link) fatbinary containers
//
// Container (sections .nv_fatbin and __nv_relfatbin; several may follow each other):
//   0x00 u32 magic 0xBA55ED50   0x04 u16 version (1)   0x06 u16 header size (16)
//   0x08 u64 size of the entries that follow the header
//
// Entry (one per PTX text, cubin or LTO-IR image; offsets are from the entry's first byte):
//   0x00 u16 kind (1 PTX, 2 ELF cubin, 8 LTO-IR)   0x02 u16 entry format (0x0101)
//   0x04 u32 header size                            0x08 u64 stored payload size (padded)
//   0x10 u32 compressed size (0: stored as is)      0x14 u32 header offset of an options
//                                                           descriptor (0: none)
//   0x18 u16 minor version  0x1A u16 major version  (PTX ISA for PTX, ELF format for cubins)
//   0x1C u32 architecture (75 for sm_75/compute_75)
//   0x20 u32 identifier offset  0x24 u32 identifier size  (header-relative; the source file
//                                                          name with -G, else empty)
//   0x28 u64 flags (see EntryFlag)                  0x30 u64 unused by the runtime
//   0x38 u64 uncompressed size (0 when not compressed)
//   0x40...  variable part up to the header size: identifier bytes and the options descriptor
//            {u32 offset, u32 size} (header-relative). PTX options are ptxas/JIT option text
//            ("--compile-only" for -rdc, "-maxrregcount=32 -g ..."); for cubins the bytes are
//            binary and opaque to Ocelot.
//   payload follows the header: the compressed bytes (compressed size of them), or the image
//   itself; PTX text ends at its first NUL byte.

#include <cstdint>

namespace ocelot::runtime::fatbin::format {

inline constexpr uint32_t kWrapperMagic = 0x466243B1;
inline constexpr uint32_t kWrapperVersion = 1;       ///< one translation unit
inline constexpr uint32_t kWrapperLinkedVersion = 2; ///< device-linked (-rdc) program
inline constexpr uint64_t kWrapperSize = 24;         ///< on LP64 hosts

inline constexpr uint32_t kContainerMagic = 0xBA55ED50;
inline constexpr uint64_t kContainerHeaderSize = 16; ///< the fields the reader needs

namespace container {
inline constexpr uint64_t kMagic = 0x00, kVersion = 0x04, kHeaderSize = 0x06, kPayloadSize = 0x08;
} // namespace container

namespace entry {
inline constexpr uint64_t kKind = 0x00, kFormat = 0x02, kHeaderSize = 0x04, kPayloadSize = 0x08,
                          kCompressedSize = 0x10, kOptionsDescriptor = 0x14, kMinorVersion = 0x18,
                          kMajorVersion = 0x1A, kArch = 0x1C, kIdentifierOffset = 0x20,
                          kIdentifierSize = 0x24, kFlags = 0x28, kUncompressedSize = 0x38;
/// The fixed part every entry header has; larger headers carry identifier and options.
inline constexpr uint64_t kFixedHeaderSize = 0x40;
} // namespace entry

/// Entry flag bits that matter to the runtime (others are kept verbatim in Entry::flags).
enum EntryFlag : uint64_t {
  k64Bit = 0x1,
  kDebug = 0x2, ///< built with -G
  kLinux = 0x10,
  kCompressedLz4 = 0x2000,    ///< raw LZ4 block (no frame), --compress-mode=speed
  kCompressedZstd = 0x8000,   ///< zstd frame, the CUDA 13 default
  kArchSpecific = 0x100000,   ///< sm_90a / compute_90a: only for exactly that architecture
  kFamilySpecific = 0x200000, ///< sm_100f / compute_100f: for that architecture family
};

} // namespace ocelot::runtime::fatbin::format
