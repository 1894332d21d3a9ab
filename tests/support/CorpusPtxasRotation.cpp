#include "tests/support/CorpusPtxasRotation.h"

#include <cstdlib>
#include <string>

namespace ocelot::test {

uint32_t fnv1a(std::string_view text) {
  uint32_t hash = 2166136261u;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 16777619u;
  }
  return hash;
}

std::optional<size_t> rotatedToolSet(std::string_view moduleName, size_t ptxBytes,
                                     size_t toolSets) {
  if (ptxBytes <= kCorpusRotationMinBytes || toolSets == 0)
    return std::nullopt;
  return fnv1a(moduleName) % toolSets;
}

bool corpusAssemblesToolSet(std::string_view moduleName, size_t ptxBytes, size_t index,
                            size_t toolSets) {
  const char* mode = std::getenv("OCELOT_CORPUS_PTXAS");
  if (mode != nullptr && std::string(mode) == "full")
    return true;
  const std::optional<size_t> chosen = rotatedToolSet(moduleName, ptxBytes, toolSets);
  return !chosen || *chosen == index;
}

} // namespace ocelot::test
