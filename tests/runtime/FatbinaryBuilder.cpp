#include "FatbinaryBuilder.h"

#include "runtime/fatbin/Format.h"

#include <lz4.h>
#include <zstd.h>

namespace ocelot::runtime::testing {
namespace {

void append(Bytes& out, const Bytes& data) {
  out.insert(out.end(), data.begin(), data.end());
}

void padTo8(Bytes& out) {
  while (out.size() % 8 != 0)
    out.push_back(std::byte{0});
}

} // namespace

Bytes toBytes(const std::string& text) {
  Bytes bytes(text.size());
  for (size_t i = 0; i < text.size(); ++i)
    bytes[i] = static_cast<std::byte>(text[i]);
  return bytes;
}

void put16(Bytes& bytes, size_t offset, uint16_t value) {
  for (size_t i = 0; i < 2; ++i)
    bytes[offset + i] = static_cast<std::byte>(value >> (8 * i));
}

void put32(Bytes& bytes, size_t offset, uint32_t value) {
  for (size_t i = 0; i < 4; ++i)
    bytes[offset + i] = static_cast<std::byte>(value >> (8 * i));
}

void put64(Bytes& bytes, size_t offset, uint64_t value) {
  for (size_t i = 0; i < 8; ++i)
    bytes[offset + i] = static_cast<std::byte>(value >> (8 * i));
}

Bytes compressZstd(const Bytes& data) {
  Bytes out(ZSTD_compressBound(data.size()));
  size_t size = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3);
  out.resize(size);
  return out;
}

Bytes compressLz4(const Bytes& data) {
  Bytes out(static_cast<size_t>(LZ4_compressBound(static_cast<int>(data.size()))));
  int size = LZ4_compress_default(reinterpret_cast<const char*>(data.data()),
                                  reinterpret_cast<char*>(out.data()),
                                  static_cast<int>(data.size()), static_cast<int>(out.size()));
  out.resize(static_cast<size_t>(size));
  return out;
}

EntrySpec makeEntry(uint16_t kind, uint32_t arch, const Bytes& image,
                    fatbin::Compression compression) {
  EntrySpec entry;
  entry.kind = kind;
  entry.arch = arch;
  switch (compression) {
  case fatbin::Compression::None:
    entry.stored = image;
    break;
  case fatbin::Compression::Zstd:
    entry.stored = compressZstd(image);
    entry.flags |= fatbin::format::kCompressedZstd;
    break;
  case fatbin::Compression::Lz4:
    entry.stored = compressLz4(image);
    entry.flags |= fatbin::format::kCompressedLz4;
    break;
  }
  if (compression != fatbin::Compression::None) {
    entry.compressedSize = static_cast<uint32_t>(entry.stored.size());
    entry.uncompressedSize = image.size();
  }
  return entry;
}

EntrySpec ptxEntry(const std::string& text, uint32_t arch, fatbin::Compression compression) {
  Bytes image = toBytes(text);
  image.push_back(std::byte{0}); // nvcc stores the terminating NUL
  return makeEntry(1, arch, image, compression);
}

Bytes buildContainer(const std::vector<EntrySpec>& entries) {
  namespace e = fatbin::format::entry;
  Bytes body;
  for (const EntrySpec& spec : entries) {
    Bytes header(e::kFixedHeaderSize);
    Bytes extra;
    uint32_t identifierOffset = 0, optionsDescriptor = 0;
    if (!spec.identifier.empty()) {
      identifierOffset = static_cast<uint32_t>(header.size() + extra.size());
      append(extra, toBytes(spec.identifier));
      padTo8(extra);
    }
    if (!spec.options.empty()) {
      optionsDescriptor = static_cast<uint32_t>(header.size() + extra.size());
      Bytes descriptor(8);
      put32(descriptor, 0, optionsDescriptor + 8);
      put32(descriptor, 4, static_cast<uint32_t>(spec.options.size()));
      append(extra, descriptor);
      append(extra, toBytes(spec.options));
      padTo8(extra);
    }
    append(header, extra);
    Bytes payload = spec.stored;
    padTo8(payload);
    put16(header, e::kKind, spec.kind);
    put16(header, e::kFormat, 0x0101);
    put32(header, e::kHeaderSize, static_cast<uint32_t>(header.size()));
    put64(header, e::kPayloadSize, payload.size());
    put32(header, e::kCompressedSize, spec.compressedSize);
    put32(header, e::kOptionsDescriptor, optionsDescriptor);
    put16(header, e::kMinorVersion, spec.minorVersion);
    put16(header, e::kMajorVersion, spec.majorVersion);
    put32(header, e::kArch, spec.arch);
    put32(header, e::kIdentifierOffset, identifierOffset);
    put32(header, e::kIdentifierSize, static_cast<uint32_t>(spec.identifier.size()));
    put64(header, e::kFlags, spec.flags);
    put64(header, e::kUncompressedSize, spec.uncompressedSize);
    append(body, header);
    append(body, payload);
  }
  Bytes container(16);
  put32(container, 0, fatbin::format::kContainerMagic);
  put16(container, 4, 1);
  put16(container, 6, 16);
  put64(container, 8, body.size());
  append(container, body);
  return container;
}

} // namespace ocelot::runtime::testing
