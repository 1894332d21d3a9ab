#pragma once
// Which instrumented modules of a large corpus module ptxas assembles. ptxas' time grows with the
// instrumented module (2-5 MB from a 90 KB module: most of CorpusProbes' CPU time, CI's largest
// share), while what it checks (Ocelot's output is valid PTX for the target) depends on the
// instrumentation, not on which module carries it. So a module over kCorpusRotationMinBytes is
// instrumented and verified with every tool set as before, but assembled with one of them, chosen
// by a fixed hash of its name: across the corpus every tool set is assembled on some large
// modules, and every large module with one. Smaller modules assemble every tool set;
// OCELOT_CORPUS_PTXAS=full assembles every tool set everywhere.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ocelot::test {

/// Modules whose PTX is larger than this (bytes) assemble one tool set.
inline constexpr size_t kCorpusRotationMinBytes = 64 * 1024;

/// FNV-1a (32-bit) of `text`: fixed across standard libraries, unlike std::hash.
uint32_t fnv1a(std::string_view text);

/// The one tool set of `toolSets` (an index) that ptxas assembles for the module `moduleName`
/// whose PTX is `ptxBytes` long; nullopt when every one is assembled (small modules, no tool sets).
std::optional<size_t> rotatedToolSet(std::string_view moduleName, size_t ptxBytes, size_t toolSets);

/// Whether ptxas assembles tool set `index` of `toolSets` for the module: rotatedToolSet, or every
/// one when OCELOT_CORPUS_PTXAS=full.
bool corpusAssemblesToolSet(std::string_view moduleName, size_t ptxBytes, size_t index,
                            size_t toolSets);

} // namespace ocelot::test
