#include "runtime/fatbin/Fatbinary.h"

#include "runtime/fatbin/Format.h"
#include "support/ByteReader.h"

#include <algorithm>

namespace ocelot::runtime::fatbin {
namespace {

std::string hex(uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  do {
    text.insert(text.begin(), kDigits[value & 0xF]);
    value >>= 4;
  } while (value != 0);
  return "0x" + text;
}

FatbinaryError error(std::string what, uint64_t offset) {
  return {std::move(what), offset};
}

/// A header-relative {offset, size} region that must lie inside the entry header.
struct HeaderRegion {
  uint32_t offset = 0, size = 0;
};

std::optional<std::span<const std::byte>> headerBytes(const support::ByteReader& reader,
                                                      uint64_t entry, uint32_t headerSize,
                                                      HeaderRegion region) {
  if (region.size == 0)
    return std::span<const std::byte>{};
  if (region.offset > headerSize || region.size > headerSize - region.offset)
    return std::nullopt;
  return reader.bytes(entry + region.offset, region.size);
}

/// Reads the entry at `at`; entries of the container end at `end` (exclusive).
FatbinaryResult<Entry> parseEntry(const support::ByteReader& reader, uint64_t at, uint64_t end) {
  namespace f = format::entry;
  if (end - at < f::kFixedHeaderSize)
    return error("entry header truncated: " + std::to_string(end - at) + " bytes left, " +
                     std::to_string(f::kFixedHeaderSize) + " needed",
                 at);
  // Every read below lies within [at, at + kFixedHeaderSize), which the check above (and the
  // container check that [.., end) is inside the buffer) proved readable.
  Entry entry;
  entry.offset = at;
  entry.kind = *reader.u16(at + f::kKind);
  entry.format = *reader.u16(at + f::kFormat);
  entry.headerSize = *reader.u32(at + f::kHeaderSize);
  entry.storedSize = *reader.u64(at + f::kPayloadSize);
  uint32_t compressedSize = *reader.u32(at + f::kCompressedSize);
  uint32_t optionsDescriptor = *reader.u32(at + f::kOptionsDescriptor);
  entry.minorVersion = *reader.u16(at + f::kMinorVersion);
  entry.majorVersion = *reader.u16(at + f::kMajorVersion);
  entry.arch = *reader.u32(at + f::kArch);
  HeaderRegion identifier{*reader.u32(at + f::kIdentifierOffset),
                          *reader.u32(at + f::kIdentifierSize)};
  entry.flags = *reader.u64(at + f::kFlags);
  entry.uncompressedSize = *reader.u64(at + f::kUncompressedSize);

  if (entry.headerSize < f::kFixedHeaderSize)
    return error("entry header size " + std::to_string(entry.headerSize) + " is below the " +
                     std::to_string(f::kFixedHeaderSize) + " bytes every entry header has",
                 at + f::kHeaderSize);
  if (entry.headerSize > end - at)
    return error("entry header size " + std::to_string(entry.headerSize) +
                     " runs past the end of its container",
                 at + f::kHeaderSize);
  uint64_t payloadAt = at + entry.headerSize;
  if (entry.storedSize > end - payloadAt)
    return error("entry payload size " + std::to_string(entry.storedSize) +
                     " runs past the end of " + "its container (" +
                     std::to_string(end - payloadAt) + " bytes left)",
                 at + f::kPayloadSize);

  bool lz4 = (entry.flags & format::kCompressedLz4) != 0;
  bool zstd = (entry.flags & format::kCompressedZstd) != 0;
  if (lz4 && zstd)
    return error("entry is flagged both LZ4- and zstd-compressed", at + f::kFlags);
  entry.compression = lz4 ? Compression::Lz4 : zstd ? Compression::Zstd : Compression::None;
  if (entry.compression == Compression::None) {
    if (compressedSize != 0)
      return error("entry has a compressed size but no compression flag", at + f::kCompressedSize);
    entry.payload = *reader.bytes(payloadAt, entry.storedSize);
  } else {
    if (compressedSize == 0 || compressedSize > entry.storedSize)
      return error("compressed size " + std::to_string(compressedSize) +
                       " does not fit the stored payload of " + std::to_string(entry.storedSize) +
                       " bytes",
                   at + f::kCompressedSize);
    if (entry.uncompressedSize == 0)
      return error("compressed entry declares an uncompressed size of 0",
                   at + f::kUncompressedSize);
    entry.payload = *reader.bytes(payloadAt, compressedSize);
  }

  auto identifierBytes = headerBytes(reader, at, entry.headerSize, identifier);
  if (!identifierBytes)
    return error("entry identifier lies outside the entry header", at + f::kIdentifierOffset);
  entry.identifier = std::string_view(reinterpret_cast<const char*>(identifierBytes->data()),
                                      identifierBytes->size());
  // The identifier is NUL-padded; keep only the text.
  entry.identifier = entry.identifier.substr(0, entry.identifier.find('\0'));

  if (optionsDescriptor != 0) {
    if (optionsDescriptor > entry.headerSize || entry.headerSize - optionsDescriptor < 8)
      return error("entry options descriptor lies outside the entry header",
                   at + f::kOptionsDescriptor);
    HeaderRegion options{*reader.u32(at + optionsDescriptor),
                         *reader.u32(at + optionsDescriptor + 4)};
    auto optionBytes = headerBytes(reader, at, entry.headerSize, options);
    if (!optionBytes)
      return error("entry options lie outside the entry header", at + optionsDescriptor);
    entry.options = *optionBytes;
  }
  return entry;
}

} // namespace

bool Entry::archSpecific() const {
  return (flags & format::kArchSpecific) != 0;
}
bool Entry::familySpecific() const {
  return (flags & format::kFamilySpecific) != 0;
}
bool Entry::debug() const {
  return (flags & format::kDebug) != 0;
}

std::string_view Entry::optionsText() const {
  std::string_view text(reinterpret_cast<const char*>(options.data()), options.size());
  text = text.substr(0, text.find('\0'));
  while (!text.empty() && (text.back() == ' ' || text.front() == ' ')) {
    if (text.back() == ' ')
      text.remove_suffix(1);
    else
      text.remove_prefix(1);
  }
  return text;
}

std::string Entry::archName() const {
  std::string name = is(EntryKind::Ptx) ? "compute_" : "sm_";
  name += std::to_string(arch);
  if (archSpecific())
    name += 'a';
  else if (familySpecific())
    name += 'f';
  return name;
}

std::vector<const Entry*> Fatbinary::entries() const {
  std::vector<const Entry*> all;
  for (const Container& container : containers)
    for (const Entry& entry : container.entries)
      all.push_back(&entry);
  return all;
}

bool startsWithContainer(std::span<const std::byte> bytes) {
  return support::ByteReader(bytes).u32(0) == format::kContainerMagic;
}

FatbinaryResult<Container> parseContainer(std::span<const std::byte> bytes, uint64_t offset) {
  namespace f = format::container;
  support::ByteReader reader(bytes);
  if (!reader.contains(offset, format::kContainerHeaderSize))
    return error("container header truncated: " +
                     std::to_string(offset <= reader.size() ? reader.size() - offset : 0) +
                     " bytes left, " + std::to_string(format::kContainerHeaderSize) + " needed",
                 offset);
  uint32_t magic = *reader.u32(offset + f::kMagic);
  if (magic != format::kContainerMagic)
    return error("bad container magic " + hex(magic) + ", expected " + hex(format::kContainerMagic),
                 offset);
  Container container;
  container.offset = offset;
  container.version = *reader.u16(offset + f::kVersion);
  container.headerSize = *reader.u16(offset + f::kHeaderSize);
  uint64_t payloadSize = *reader.u64(offset + f::kPayloadSize);
  if (container.version != 1)
    return error("unsupported container version " + std::to_string(container.version),
                 offset + f::kVersion);
  if (container.headerSize < format::kContainerHeaderSize)
    return error("container header size " + std::to_string(container.headerSize) + " is below " +
                     std::to_string(format::kContainerHeaderSize),
                 offset + f::kHeaderSize);
  if (!reader.contains(offset, container.headerSize))
    return error("container header size " + std::to_string(container.headerSize) +
                     " runs past the end of the buffer",
                 offset + f::kHeaderSize);
  uint64_t entriesAt = offset + container.headerSize;
  if (payloadSize > reader.size() - entriesAt)
    return error("container size " + std::to_string(payloadSize) +
                     " runs past the end of the buffer (" +
                     std::to_string(reader.size() - entriesAt) + " bytes left)",
                 offset + f::kPayloadSize);
  uint64_t end = entriesAt + payloadSize;
  container.totalSize = end - offset;

  for (uint64_t at = entriesAt; at < end;) {
    auto entry = parseEntry(reader, at, end);
    if (!entry)
      return entry.error();
    // headerSize >= kFixedHeaderSize > 0, so every iteration makes progress.
    at += entry->headerSize + entry->storedSize;
    container.entries.push_back(std::move(*entry));
  }
  return container;
}

FatbinaryResult<Fatbinary> parseFatbinary(std::span<const std::byte> bytes) {
  Fatbinary fatbinary;
  uint64_t at = 0;
  while (true) {
    // Sections are aligned and containers may be padded: zero bytes between containers and at the
    // end are padding, anything else must be the next container.
    while (at < bytes.size() && bytes[static_cast<size_t>(at)] == std::byte{0})
      ++at;
    if (at >= bytes.size())
      break;
    auto container = parseContainer(bytes, at);
    if (!container)
      return container.error();
    at += container->totalSize;
    fatbinary.containers.push_back(std::move(*container));
  }
  if (fatbinary.containers.empty())
    return error("no fatbinary container in " + std::to_string(bytes.size()) + " bytes", 0);
  return fatbinary;
}

std::string kindName(uint16_t kind) {
  switch (static_cast<EntryKind>(kind)) {
  case EntryKind::Ptx:
    return "ptx";
  case EntryKind::Cubin:
    return "cubin";
  case EntryKind::LtoIr:
    return "lto-ir";
  }
  return "kind-" + std::to_string(kind);
}

std::string_view compressionName(Compression compression) {
  switch (compression) {
  case Compression::None:
    return "none";
  case Compression::Lz4:
    return "lz4";
  case Compression::Zstd:
    return "zstd";
  }
  return "unknown";
}

} // namespace ocelot::runtime::fatbin
