#include "runtime/instrumentation/ElfFunctionSymbols.h"

#include <algorithm>
#include <cstring>
#include <elf.h>
#include <fstream>

namespace ocelot::runtime::instrumentation {

namespace {

template <class T> std::optional<T> readAt(const std::vector<char>& bytes, uint64_t offset) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T))
    return std::nullopt;
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

} // namespace

ElfFunctionSymbols ElfFunctionSymbols::read(const std::string& path) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file)
    return {};
  std::streamoff size = file.tellg();
  if (size <= 0)
    return {};
  std::vector<char> bytes(static_cast<size_t>(size));
  file.seekg(0);
  if (!file.read(bytes.data(), size))
    return {};
  return parse(bytes);
}

ElfFunctionSymbols ElfFunctionSymbols::parse(const std::vector<char>& bytes) {
  ElfFunctionSymbols table;
  auto header = readAt<Elf64_Ehdr>(bytes, 0);
  if (!header || std::memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 ||
      header->e_ident[EI_CLASS] != ELFCLASS64 || header->e_ident[EI_DATA] != ELFDATA2LSB ||
      header->e_shentsize != sizeof(Elf64_Shdr))
    return table;
  table.relocatable_ = header->e_type != ET_EXEC;
  std::vector<Elf64_Shdr> sections;
  for (uint16_t i = 0; i < header->e_shnum; ++i) {
    auto section = readAt<Elf64_Shdr>(bytes, header->e_shoff + uint64_t{i} * sizeof(Elf64_Shdr));
    if (!section)
      return table;
    sections.push_back(*section);
  }
  // The full symbol table when the file has one (not stripped), else the dynamic one.
  const Elf64_Shdr* symbols = nullptr;
  for (const auto& section : sections)
    if (section.sh_type == SHT_SYMTAB)
      symbols = &section;
  if (symbols == nullptr)
    for (const auto& section : sections)
      if (section.sh_type == SHT_DYNSYM)
        symbols = &section;
  if (symbols == nullptr || symbols->sh_link >= sections.size() ||
      symbols->sh_entsize != sizeof(Elf64_Sym))
    return table;
  const Elf64_Shdr& strings = sections[symbols->sh_link];
  if (strings.sh_offset > bytes.size() || bytes.size() - strings.sh_offset < strings.sh_size)
    return table;
  const char* names = bytes.data() + strings.sh_offset;
  for (uint64_t i = 0; i < symbols->sh_size / sizeof(Elf64_Sym); ++i) {
    auto symbol = readAt<Elf64_Sym>(bytes, symbols->sh_offset + i * sizeof(Elf64_Sym));
    if (!symbol)
      break;
    if (ELF64_ST_TYPE(symbol->st_info) != STT_FUNC || symbol->st_size == 0 ||
        symbol->st_shndx == SHN_UNDEF || symbol->st_name >= strings.sh_size)
      continue;
    const char* name = names + symbol->st_name;
    size_t length = strnlen(name, strings.sh_size - symbol->st_name);
    table.functions_.push_back({symbol->st_value, symbol->st_size, std::string(name, length)});
  }
  std::sort(table.functions_.begin(), table.functions_.end(),
            [](const Function& a, const Function& b) { return a.address < b.address; });
  return table;
}

const ElfFunctionSymbols::Function* ElfFunctionSymbols::find(uint64_t fileAddress) const {
  auto after = std::upper_bound(
      functions_.begin(), functions_.end(), fileAddress,
      [](uint64_t address, const Function& function) { return address < function.address; });
  if (after == functions_.begin())
    return nullptr;
  const Function& function = *std::prev(after);
  return fileAddress - function.address < function.size ? &function : nullptr;
}

} // namespace ocelot::runtime::instrumentation
