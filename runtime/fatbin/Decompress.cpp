#include "runtime/fatbin/Decompress.h"

#include "runtime/fatbin/Format.h"

#include <lz4.h>
#include <zstd.h>

#include <limits>
#include <memory>

namespace ocelot::runtime::fatbin {
namespace {

FatbinaryError error(const Entry& entry, std::string what) {
  return {kindName(entry.kind) + " entry " + entry.archName() + ": " + what, entry.offset};
}

FatbinaryResult<std::vector<std::byte>> decompressZstd(const Entry& entry,
                                                       std::vector<std::byte> output) {
  // One context per call: decompression happens once per registered module, so reuse would buy
  // nothing and a shared context would need a lock.
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> context(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!context)
    return error(entry, "cannot create a zstd decompression context");
  size_t produced = ZSTD_decompressDCtx(context.get(), output.data(), output.size(),
                                        entry.payload.data(), entry.payload.size());
  if (ZSTD_isError(produced))
    return error(entry, std::string("zstd: ") + ZSTD_getErrorName(produced));
  if (produced != output.size())
    return error(entry, "zstd produced " + std::to_string(produced) +
                            " bytes, the header declares " + std::to_string(output.size()));
  return output;
}

FatbinaryResult<std::vector<std::byte>> decompressLz4(const Entry& entry,
                                                      std::vector<std::byte> output) {
  // nvcc stores LZ4 as one raw block, without the LZ4 frame format.
  constexpr uint64_t kIntMax = static_cast<uint64_t>(std::numeric_limits<int>::max());
  if (entry.payload.size() > kIntMax || output.size() > kIntMax)
    return error(entry, "LZ4 block larger than LZ4 can address");
  int produced = LZ4_decompress_safe(
      reinterpret_cast<const char*>(entry.payload.data()), reinterpret_cast<char*>(output.data()),
      static_cast<int>(entry.payload.size()), static_cast<int>(output.size()));
  if (produced < 0)
    return error(entry, "malformed LZ4 block");
  if (static_cast<uint64_t>(produced) != output.size())
    return error(entry, "LZ4 produced " + std::to_string(produced) +
                            " bytes, the header declares " + std::to_string(output.size()));
  return output;
}

} // namespace

FatbinaryResult<std::vector<std::byte>> decompressPayload(const Entry& entry,
                                                          const DecompressionLimits& limits) {
  if (entry.compression == Compression::None)
    return std::vector<std::byte>(entry.payload.begin(), entry.payload.end());
  if (entry.uncompressedSize > limits.maxOutputBytes)
    return FatbinaryError{kindName(entry.kind) + " entry " + entry.archName() +
                              ": declared uncompressed size " +
                              std::to_string(entry.uncompressedSize) + " exceeds the limit of " +
                              std::to_string(limits.maxOutputBytes) + " bytes",
                          entry.offset + format::entry::kUncompressedSize};
  std::vector<std::byte> output(static_cast<size_t>(entry.uncompressedSize));
  return entry.compression == Compression::Zstd ? decompressZstd(entry, std::move(output))
                                                : decompressLz4(entry, std::move(output));
}

FatbinaryResult<std::string> extractPtx(const Entry& entry, const DecompressionLimits& limits) {
  if (!entry.is(EntryKind::Ptx))
    return error(entry, "not a PTX entry");
  auto bytes = decompressPayload(entry, limits);
  if (!bytes)
    return bytes.error();
  std::string text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  text.resize(text.find('\0') == std::string::npos ? text.size() : text.find('\0'));
  return text;
}

} // namespace ocelot::runtime::fatbin
