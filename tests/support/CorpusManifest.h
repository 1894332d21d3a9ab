#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ocelot::test {

/// How nvcc compiled a corpus module.
enum class CorpusVariant {
  Plain,    ///< no debug information
  LineInfo, ///< -lineinfo: `.loc`/`.file` and a .debug_line-only debug section set
  Debug,    ///< -G: `.target sm_XX, debug`, full DWARF sections, `.weak` templates
};

std::string_view corpusVariantName(CorpusVariant variant); ///< "plain", "lineinfo", "debug"

/// One line of `${CMAKE_BINARY_DIR}/tests/corpus/manifest.tsv`:
/// `<absolute ptx path>\t<ptxas arch>\t<plain|lineinfo|debug>\t<absolute original cubin path>`.
struct CorpusEntry {
  std::filesystem::path ptx;
  std::string arch; ///< what `ptxas -arch=` takes: "sm_75", "sm_90", "sm_90a"
  CorpusVariant variant = CorpusVariant::Plain;
  /// What `ptxas -arch=<arch>` made of `ptx` at build time. Modules compiled with -rdc were
  /// assembled with `ptxas -c` (their cubin is a relocatable ELF, ElfFile::isRelocatable()).
  std::filesystem::path originalCubin;

  /// The module's name: the PTX file name without `.ptx` (`atomics.sm_90.debug`).
  std::string name() const;
  /// The module's PTX text; empty when the file cannot be read.
  std::string text() const;
  /// Whether the module is a unit of a device-linked (-rdc) program: it declares `.extern .func`,
  /// or its program is one of the corpus's -rdc ones. `ptx` is text().
  bool linkedUnit(const std::string& ptx) const;
  /// name() as a gtest parameter name (letters, digits and '_').
  static std::string testName(const CorpusEntry& entry);
};

/// The ptxas options (without input and output) that made `entry.originalCubin` of `entry.ptx`:
/// `-arch=<arch>`, plus `-c` for relocatable (-rdc) modules, which the cubin's ELF type tells.
/// ptxas records its options in the cubin (.note.nv.tkinfo): reassembling a module with other
/// options never gives the original's bytes.
std::vector<std::string> ptxasOptions(const CorpusEntry& entry);

struct CorpusManifest {
  std::vector<CorpusEntry> entries;
  std::string error; ///< empty when the manifest was read completely

  bool ok() const { return error.empty(); }
};

/// Where the build writes the manifest (baked in at compile time).
std::filesystem::path corpusManifestPath();

/// Reads a manifest. An unreadable file or a malformed line ("manifest.tsv:12: expected 4
/// tab-separated fields") gives an error and the entries read before it.
CorpusManifest readCorpusManifest(const std::filesystem::path& path);

/// The entries of this build's corpus; empty when the corpus was not built (no nvcc) or the
/// manifest is unreadable. Tests that need the corpus should skip when this is empty.
std::vector<CorpusEntry> corpusEntries();

} // namespace ocelot::test
