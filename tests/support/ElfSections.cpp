#include "tests/support/ElfSections.h"

#include <cstring>
#include <fstream>

namespace ocelot::test {

namespace {

// ELF64 layout (System V gABI): offsets into the file header and a section header.
constexpr size_t kFileHeaderSize = 64;
constexpr size_t kSectionHeaderSize = 64;
constexpr uint32_t kShtNobits = 8;
constexpr uint16_t kShnXindex = 0xffff;

template <class T> T readLittle(std::span<const uint8_t> bytes, size_t offset) {
  T value = 0;
  for (size_t i = 0; i < sizeof(T); ++i)
    value |= static_cast<T>(static_cast<T>(bytes[offset + i]) << (8 * i));
  return value;
}

/// True when [offset, offset + size) lies inside `total` bytes (without overflowing).
bool fits(uint64_t offset, uint64_t size, uint64_t total) {
  return offset <= total && size <= total - offset;
}

struct SectionHeader {
  uint32_t name;
  uint32_t type;
  uint64_t offset;
  uint64_t size;
  uint32_t link;
};

SectionHeader sectionHeader(std::span<const uint8_t> bytes, size_t at) {
  SectionHeader h;
  h.name = readLittle<uint32_t>(bytes, at + 0x00);
  h.type = readLittle<uint32_t>(bytes, at + 0x04);
  h.offset = readLittle<uint64_t>(bytes, at + 0x18);
  h.size = readLittle<uint64_t>(bytes, at + 0x20);
  h.link = readLittle<uint32_t>(bytes, at + 0x28);
  return h;
}

ElfReadResult failure(std::string message) {
  ElfReadResult result;
  result.error = std::move(message);
  return result;
}

} // namespace

ElfReadResult parseElf(std::span<const uint8_t> bytes) {
  if (bytes.size() < kFileHeaderSize)
    return failure("truncated ELF header (" + std::to_string(bytes.size()) + " bytes)");
  if (std::memcmp(bytes.data(),
                  "\x7f"
                  "ELF",
                  4) != 0)
    return failure("not an ELF file");
  if (bytes[4] != 2)
    return failure("not a 64-bit ELF file");
  if (bytes[5] != 1)
    return failure("not a little-endian ELF file");

  ElfFile file;
  file.type = readLittle<uint16_t>(bytes, 0x10);
  uint64_t shoff = readLittle<uint64_t>(bytes, 0x28);
  uint16_t shentsize = readLittle<uint16_t>(bytes, 0x3A);
  uint64_t shnum = readLittle<uint16_t>(bytes, 0x3C);
  uint32_t shstrndx = readLittle<uint16_t>(bytes, 0x3E);
  if (shoff == 0)
    return ElfReadResult{std::move(file), {}}; // no section header table: no sections
  if (shentsize < kSectionHeaderSize)
    return failure("section header entries of " + std::to_string(shentsize) +
                   " bytes are too small");
  if (!fits(shoff, kSectionHeaderSize, bytes.size()))
    return failure("truncated section header table");
  // With 0xff00 sections or more, the real count and string table index live in section 0.
  SectionHeader first = sectionHeader(bytes, shoff);
  if (shnum == 0)
    shnum = first.size;
  if (shstrndx == kShnXindex)
    shstrndx = first.link;
  if (shnum > (bytes.size() - shoff) / shentsize)
    return failure("truncated section header table (" + std::to_string(shnum) + " sections)");
  if (shstrndx >= shnum)
    return failure("section name table index " + std::to_string(shstrndx) + " is out of range");

  SectionHeader names = sectionHeader(bytes, shoff + shstrndx * uint64_t{shentsize});
  if (names.type == kShtNobits || !fits(names.offset, names.size, bytes.size()))
    return failure("truncated section name table");
  std::span<const uint8_t> nameTable = bytes.subspan(names.offset, names.size);

  for (uint64_t i = 0; i < shnum; ++i) {
    SectionHeader h = sectionHeader(bytes, shoff + i * shentsize);
    if (h.name >= nameTable.size() && !(i == 0 && h.name == 0))
      return failure("section " + std::to_string(i) + " has a name outside the name table");
    std::string name;
    if (h.name < nameTable.size()) {
      const uint8_t* begin = nameTable.data() + h.name;
      const void* nul = std::memchr(begin, 0, nameTable.size() - h.name);
      if (nul == nullptr)
        return failure("section " + std::to_string(i) + " has an unterminated name");
      name.assign(reinterpret_cast<const char*>(begin), static_cast<const uint8_t*>(nul) - begin);
    }
    std::vector<uint8_t> content;
    if (h.type != kShtNobits) {
      if (!fits(h.offset, h.size, bytes.size()))
        return failure("section '" + name + "' extends past the end of the file");
      content.assign(bytes.begin() + static_cast<std::ptrdiff_t>(h.offset),
                     bytes.begin() + static_cast<std::ptrdiff_t>(h.offset + h.size));
    }
    std::string key = name;
    for (int copy = 2; file.sections.count(key) != 0; ++copy)
      key = name + "#" + std::to_string(copy);
    file.sections.emplace(std::move(key), std::move(content));
  }
  return ElfReadResult{std::move(file), {}};
}

ElfReadResult readElf(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in)
    return failure(path.string() + ": cannot open");
  std::streamoff size = in.tellg();
  if (size < 0)
    return failure(path.string() + ": cannot determine the size");
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(bytes.data()), size))
    return failure(path.string() + ": read error");
  ElfReadResult result = parseElf(bytes);
  if (!result.ok())
    result.error = path.string() + ": " + result.error;
  return result;
}

} // namespace ocelot::test
