#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ocelot::test {

/// The sections of a 64-bit little-endian ELF file (a cubin), by name. Enough to compare two
/// cubins section by section; nothing is interpreted beyond the section headers.
struct ElfFile {
  static constexpr uint16_t kRelocatable = 1; ///< ET_REL: `ptxas -c` output
  static constexpr uint16_t kExecutable = 2;  ///< ET_EXEC: whole-program `ptxas` output

  uint16_t type = 0; ///< e_type
  /// Section contents by name. SHT_NOBITS sections (.bss-like, .nv.shared.*) have no bytes.
  /// A name that occurs more than once gets `#2`, `#3`... appended to its later occurrences.
  std::map<std::string, std::vector<uint8_t>> sections;

  bool isRelocatable() const { return type == kRelocatable; }
};

struct ElfReadResult {
  std::optional<ElfFile> file;
  std::string error; ///< why `file` is empty: "truncated section header table", ...

  bool ok() const { return file.has_value(); }
};

/// Parses `bytes`. Never reads outside them: truncated or inconsistent input gives an error.
ElfReadResult parseElf(std::span<const uint8_t> bytes);

/// Reads and parses a file; errors are prefixed with the path.
ElfReadResult readElf(const std::filesystem::path& path);

/// The names of the sections whose presence or bytes differ between `a` and `b`, in name order,
/// leaving out those for which `ignore(name)` is true.
template <class Ignore>
std::vector<std::string> differingSections(const ElfFile& a, const ElfFile& b, Ignore&& ignore) {
  std::vector<std::string> names;
  auto ia = a.sections.begin(), ib = b.sections.begin();
  while (ia != a.sections.end() || ib != b.sections.end()) {
    std::string_view name;
    bool differs = true;
    if (ib == b.sections.end() || (ia != a.sections.end() && ia->first < ib->first)) {
      name = (ia++)->first;
    } else if (ia == a.sections.end() || ib->first < ia->first) {
      name = (ib++)->first;
    } else {
      name = ia->first;
      differs = ia->second != ib->second;
      ++ia;
      ++ib;
    }
    if (differs && !ignore(name))
      names.emplace_back(name);
  }
  return names;
}

} // namespace ocelot::test
