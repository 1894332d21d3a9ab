#include "tools/ocelot/ApplicationCheck.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string_view>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace ocelot::tools {

namespace {

/// A read-only mapping of a whole file; every read is bounds-checked.
class MappedFile {
public:
  explicit MappedFile(const fs::path& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      return;
    struct stat info {};
    if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
      void* memory =
          ::mmap(nullptr, static_cast<size_t>(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (memory != MAP_FAILED) {
        data_ = static_cast<const unsigned char*>(memory);
        size_ = static_cast<size_t>(info.st_size);
      }
    }
    ::close(fd);
  }
  ~MappedFile() {
    if (data_ != nullptr)
      ::munmap(const_cast<unsigned char*>(data_), size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  bool contains(uint64_t offset, uint64_t length) const {
    return offset <= size_ && length <= size_ - offset;
  }
  /// A little-endian integer of `bytes` bytes at `offset` (the caller checked the range).
  uint64_t read(uint64_t offset, unsigned bytes) const {
    uint64_t value = 0;
    for (unsigned i = 0; i < bytes; ++i)
      value |= uint64_t{data_[offset + i]} << (8 * i);
    return value;
  }
  /// The NUL-terminated string at `offset` inside [tableStart, tableEnd), or "" when it runs out.
  std::string_view string(uint64_t tableStart, uint64_t tableEnd, uint64_t offset) const {
    if (tableEnd > size_ || offset >= tableEnd - tableStart)
      return {};
    const char* start = reinterpret_cast<const char*>(data_ + tableStart + offset);
    const void* nul = std::memchr(start, '\0', tableEnd - tableStart - offset);
    return nul == nullptr ? std::string_view()
                          : std::string_view(start, static_cast<const char*>(nul) - start);
  }
  size_t size() const { return size_; }
  bool mapped() const { return data_ != nullptr; }

private:
  const unsigned char* data_ = nullptr;
  size_t size_ = 0;
};

struct Section {
  uint32_t name = 0;
  uint32_t type = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t link = 0;
  uint64_t entrySize = 0;
};

constexpr uint32_t kSymbolTable = 2;     // SHT_SYMTAB
constexpr uint32_t kDynamic = 6;         // SHT_DYNAMIC
constexpr uint32_t kNoBits = 8;          // SHT_NOBITS
constexpr uint32_t kDynamicSymbols = 11; // SHT_DYNSYM
constexpr uint64_t kNeeded = 1;          // DT_NEEDED

} // namespace

bool RuntimeLinkage::otherRuntimeVersion() const {
  constexpr std::string_view kVersioned = "libcudart.so.";
  if (!readable || !sharedRuntime.starts_with(kVersioned))
    return false;
  // The major version is what the dynamic loader matches on: libcudart.so.13 and, were an
  // application linked against the full name, libcudart.so.13.0.96.
  std::string_view version = std::string_view(sharedRuntime).substr(kVersioned.size());
  std::string_view major = version.substr(0, version.find('.'));
  return !major.empty() && major != "13";
}

RuntimeLinkage inspectApplication(const fs::path& file) {
  RuntimeLinkage linkage;
  MappedFile elf(file);
  if (!elf.mapped() || !elf.contains(0, 64))
    return linkage;
  // \x7fELF, 64-bit, little-endian.
  if (elf.read(0, 4) != 0x464c457fu || elf.read(4, 1) != 2 || elf.read(5, 1) != 1)
    return linkage;
  const uint64_t sectionOffset = elf.read(0x28, 8);
  const uint64_t entrySize = elf.read(0x3a, 2);
  uint64_t count = elf.read(0x3c, 2);
  uint64_t namesIndex = elf.read(0x3e, 2);
  if (sectionOffset == 0 || entrySize < 64 || !elf.contains(sectionOffset, entrySize))
    return linkage;
  // Extended numbering: section 0 holds the real count and name-table index.
  if (count == 0)
    count = elf.read(sectionOffset + 0x20, 8);
  if (namesIndex == 0xffff)
    namesIndex = elf.read(sectionOffset + 0x28, 4);
  if (count == 0 || count > elf.size() / entrySize ||
      !elf.contains(sectionOffset, count * entrySize))
    return linkage;
  auto section = [&](uint64_t index) {
    uint64_t at = sectionOffset + index * entrySize;
    Section s;
    s.name = static_cast<uint32_t>(elf.read(at, 4));
    s.type = static_cast<uint32_t>(elf.read(at + 4, 4));
    s.offset = elf.read(at + 0x18, 8);
    s.size = elf.read(at + 0x20, 8);
    s.link = static_cast<uint32_t>(elf.read(at + 0x28, 4));
    s.entrySize = elf.read(at + 0x38, 8);
    return s;
  };
  auto inFile = [&](const Section& s) {
    return s.type != kNoBits && elf.contains(s.offset, s.size);
  };
  linkage.readable = true;

  Section names = namesIndex < count ? section(namesIndex) : Section{};
  for (uint64_t i = 1; i < count; ++i) {
    Section s = section(i);
    if (inFile(names) &&
        elf.string(names.offset, names.offset + names.size, s.name) == ".nv_fatbin")
      linkage.hasFatbinary = true;
    if (!inFile(s) || s.link >= count)
      continue;
    Section strings = section(s.link);
    if (!inFile(strings))
      continue;
    const uint64_t stringsEnd = strings.offset + strings.size;
    if (s.type == kDynamic) {
      for (uint64_t at = s.offset; at + 16 <= s.offset + s.size; at += 16) {
        uint64_t tag = elf.read(at, 8);
        if (tag == 0)
          break;
        std::string_view needed = tag == kNeeded
                                      ? elf.string(strings.offset, stringsEnd, elf.read(at + 8, 8))
                                      : std::string_view();
        if (needed.starts_with("libcudart.so")) {
          linkage.needsSharedRuntime = true;
          linkage.sharedRuntime = std::string(needed);
        }
      }
    } else if (s.type == kSymbolTable || s.type == kDynamicSymbols) {
      const uint64_t step = s.entrySize >= 24 ? s.entrySize : 24;
      for (uint64_t at = s.offset; at + 24 <= s.offset + s.size; at += step) {
        const uint64_t sectionIndex = elf.read(at + 6, 2);
        if (sectionIndex != 0 && // SHN_UNDEF: imported, not defined here
            elf.string(strings.offset, stringsEnd, elf.read(at, 4)) == "__cudaRegisterFatBinary")
          linkage.definesRegistration = true;
      }
    }
  }
  return linkage;
}

std::optional<fs::path> resolveCommand(const std::string& command) {
  if (command.empty())
    return std::nullopt;
  if (command.find('/') != std::string::npos)
    return fs::path(command);
  const char* path = std::getenv("PATH");
  std::string folders = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= folders.size()) {
    size_t colon = folders.find(':', start);
    std::string dir = folders.substr(start, colon == std::string::npos ? colon : colon - start);
    fs::path candidate = fs::path(dir.empty() ? "." : dir) / command;
    std::error_code ignored;
    if (fs::is_regular_file(candidate, ignored) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    if (colon == std::string::npos)
      break;
    start = colon + 1;
  }
  return std::nullopt;
}

} // namespace ocelot::tools
