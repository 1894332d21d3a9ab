#include "runtime/core/DriverModuleImage.h"

#include "runtime/fatbin/Format.h"
#include "runtime/fatbin/Wrapper.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace ocelot::runtime {
namespace {

namespace format = fatbin::format;

/// Images larger than this are refused instead of copied: no driver module comes near it, and a
/// header that claims more is corrupt.
constexpr uint64_t kMaxImageBytes = uint64_t{4} << 30;

template <class T> T readAt(const std::byte* base, uint64_t offset) {
  T value;
  std::memcpy(&value, base + offset, sizeof value);
  return value;
}

std::unique_ptr<std::vector<std::byte>> copyOf(const void* image, uint64_t size) {
  const auto* begin = static_cast<const std::byte*>(image);
  return std::make_unique<std::vector<std::byte>>(begin, begin + size);
}

/// The bytes an ELF64 image spans: the furthest of its headers and section contents. (The driver
/// API passes no size; an ELF says where its parts are.)
support::Expected<uint64_t, std::string> elfSize(const std::byte* elf) {
  if (readAt<uint8_t>(elf, 4) != 2) // EI_CLASS: ELFCLASS64
    return std::string("a 32-bit ELF image is no cubin");
  const uint64_t phoff = readAt<uint64_t>(elf, 0x20), shoff = readAt<uint64_t>(elf, 0x28);
  const uint64_t phentsize = readAt<uint16_t>(elf, 0x36), phnum = readAt<uint16_t>(elf, 0x38);
  const uint64_t shentsize = readAt<uint16_t>(elf, 0x3A), shnum = readAt<uint16_t>(elf, 0x3C);
  if (shoff > kMaxImageBytes || phoff > kMaxImageBytes || shentsize < 0x40)
    return std::string("the ELF image's headers lie outside any plausible cubin");
  uint64_t end = std::max<uint64_t>({0x40, phoff + phentsize * phnum, shoff + shentsize * shnum});
  for (uint64_t i = 0; i < shnum; ++i) {
    const std::byte* section = elf + shoff + i * shentsize;
    if (readAt<uint32_t>(section, 0x04) == 8) // SHT_NOBITS occupies no bytes in the file
      continue;
    const uint64_t offset = readAt<uint64_t>(section, 0x18), size = readAt<uint64_t>(section, 0x20);
    if (offset > kMaxImageBytes || size > kMaxImageBytes)
      return std::string("an ELF section lies outside any plausible cubin");
    end = std::max(end, offset + size);
  }
  return end;
}

/// `.target sm_90a` -> 90 and the arch-specific flag; nothing found -> 0 (selection then refuses
/// the text on every device, and the driver gets it unchanged).
void readTarget(std::string_view text, fatbin::Entry& entry) {
  if (size_t at = text.find(".version"); at != std::string_view::npos) {
    const char* begin = text.data() + at + 8;
    while (begin < text.data() + text.size() && (*begin == ' ' || *begin == '\t'))
      ++begin;
    unsigned major = 0, minor = 0;
    auto [next, error] = std::from_chars(begin, text.data() + text.size(), major);
    if (error == std::errc() && next < text.data() + text.size() && *next == '.')
      std::from_chars(next + 1, text.data() + text.size(), minor);
    entry.majorVersion = static_cast<uint16_t>(major);
    entry.minorVersion = static_cast<uint16_t>(minor);
  }
  size_t at = text.find(".target");
  if (at == std::string_view::npos)
    return;
  at = text.find("sm_", at);
  if (at == std::string_view::npos)
    return;
  const char* begin = text.data() + at + 3;
  unsigned arch = 0;
  auto [next, error] = std::from_chars(begin, text.data() + text.size(), arch);
  if (error != std::errc())
    return;
  entry.arch = arch;
  if (next < text.data() + text.size() && *next == 'a')
    entry.flags |= format::kArchSpecific;
  else if (next < text.data() + text.size() && *next == 'f')
    entry.flags |= format::kFamilySpecific;
}

/// One entry whose payload is the whole image.
DriverModuleImage wholeImage(std::unique_ptr<std::vector<std::byte>> bytes, fatbin::EntryKind kind,
                             std::string name) {
  DriverModuleImage image;
  fatbin::Entry entry;
  entry.kind = static_cast<uint16_t>(kind);
  entry.flags = format::k64Bit | format::kLinux;
  entry.payload = std::span<const std::byte>(*bytes);
  entry.storedSize = bytes->size();
  if (kind == fatbin::EntryKind::Ptx)
    readTarget(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()),
               entry);
  image.container.version = 1;
  image.container.totalSize = bytes->size();
  image.container.entries.push_back(entry);
  image.bytes = std::move(bytes);
  image.kind = std::move(name);
  image.hasPtx = kind == fatbin::EntryKind::Ptx;
  return image;
}

support::Expected<DriverModuleImage, std::string> containerImage(const std::byte* data) {
  const uint64_t payload = readAt<uint64_t>(data, format::container::kPayloadSize);
  const uint64_t header = readAt<uint16_t>(data, format::container::kHeaderSize);
  if (payload > kMaxImageBytes || header > 4096)
    return std::string("the fatbinary's header claims " + std::to_string(payload) + " bytes");
  DriverModuleImage image;
  image.bytes = copyOf(data, header + payload);
  auto container = fatbin::parseContainer(*image.bytes, 0);
  if (!container)
    return "corrupt fatbinary: " + container.error().message();
  image.container = std::move(*container);
  image.kind = "fatbinary";
  for (const fatbin::Entry& entry : image.container.entries)
    image.hasPtx = image.hasPtx || entry.is(fatbin::EntryKind::Ptx);
  return image;
}

} // namespace

support::Expected<DriverModuleImage, std::string> readDriverModuleImage(const void* image) {
  const auto* data = static_cast<const std::byte*>(image);
  const auto* text = static_cast<const char*>(image);
  // No magic number contains a zero byte: a NUL among the first four bytes means a (short) text,
  // and nothing beyond it may be read.
  const bool shortText = strnlen(text, 4) < 4;
  if (!shortText && std::memcmp(data,
                                "\x7f"
                                "ELF",
                                4) == 0) {
    auto size = elfSize(data);
    if (!size)
      return size.error();
    return wholeImage(copyOf(image, *size), fatbin::EntryKind::Cubin, "cubin");
  }
  const uint32_t magic = shortText ? 0 : readAt<uint32_t>(data, 0);
  if (magic == format::kContainerMagic)
    return containerImage(data);
  if (magic == format::kWrapperMagic) {
    auto wrapper = fatbin::decodeWrapper(std::span<const std::byte>(data, format::kWrapperSize));
    if (!wrapper)
      return "corrupt fatbinary wrapper: " + wrapper.error().message();
    const auto* container = reinterpret_cast<const std::byte*>(wrapper->data);
    if (readAt<uint32_t>(container, 0) != format::kContainerMagic)
      return std::string("the fatbinary wrapper points at no fatbinary");
    return containerImage(container);
  }
  // Anything else must be NUL-terminated PTX text, as the driver requires.
  const size_t length = std::strlen(text);
  if (std::string_view(text, length).find(".version") == std::string_view::npos)
    return std::string("the image is no PTX text (no .version), fatbinary or ELF cubin");
  return wholeImage(copyOf(image, length + 1), fatbin::EntryKind::Ptx, "PTX");
}

} // namespace ocelot::runtime
