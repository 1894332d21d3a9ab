#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ocelot::runtime::instrumentation {

/// The function symbols of one ELF file (.symtab, else .dynsym), to name host return addresses.
/// dladdr() alone only sees exported symbols, and an executable exports almost none, so the
/// launch-site call paths read the file's own symbol table, once per loaded object.
class ElfFunctionSymbols {
public:
  struct Function {
    uint64_t address = 0; ///< the symbol's value in the file (st_value)
    uint64_t size = 0;
    std::string name; ///< as in the file (mangled)
  };

  /// Reads `path`; an unreadable or non-ELF64 file gives an empty table (lookups find nothing).
  static ElfFunctionSymbols read(const std::string& path);
  /// From the bytes of an ELF64 little-endian file (what read() parses; for tests).
  static ElfFunctionSymbols parse(const std::vector<char>& bytes);

  /// The function whose [address, address + size) holds `fileAddress`.
  const Function* find(uint64_t fileAddress) const;
  /// ET_DYN (shared objects, position-independent executables): addresses are relative to the
  /// load base; ET_EXEC: absolute.
  bool relocatable() const { return relocatable_; }
  size_t size() const { return functions_.size(); }

private:
  std::vector<Function> functions_; ///< sorted by address
  bool relocatable_ = true;
};

} // namespace ocelot::runtime::instrumentation
