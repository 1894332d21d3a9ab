#pragma once

#include "runtime/fatbin/Fatbinary.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ocelot::runtime::fatbin {

/// Bounds on what decompression may produce. A compressed entry declares its uncompressed size;
/// a declaration above the limit is refused before any memory is allocated, and output is never
/// written beyond the declared size, so a decompression bomb costs at most `maxOutputBytes`.
struct DecompressionLimits {
  uint64_t maxOutputBytes = uint64_t{1} << 30; ///< 1 GiB: far above any real PTX or cubin
};

/// The entry's image: decompressed (LZ4 raw block or zstd frame) when it is stored compressed,
/// else a copy of the stored bytes (with their padding). Decompressed output must have exactly the
/// declared uncompressed size.
FatbinaryResult<std::vector<std::byte>> decompressPayload(const Entry& entry,
                                                          const DecompressionLimits& limits = {});

/// The PTX text of a PTX entry (decompressed if needed), up to its first NUL byte.
FatbinaryResult<std::string> extractPtx(const Entry& entry, const DecompressionLimits& limits = {});

} // namespace ocelot::runtime::fatbin
