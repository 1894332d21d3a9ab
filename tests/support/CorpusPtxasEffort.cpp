#include "tests/support/CorpusPtxasEffort.h"

#include <cstdlib>
#include <string>

namespace ocelot::test {

bool inCorpusFullPtxasSample(std::string_view moduleName) {
  // FNV-1a: a fixed, well-spread hash (std::hash may differ between standard libraries).
  uint32_t hash = 2166136261u;
  for (unsigned char c : moduleName) {
    hash ^= c;
    hash *= 16777619u;
  }
  return hash % kCorpusFullPtxasSampleEvery == 0;
}

bool corpusFullPtxas(std::string_view moduleName) {
  const char* mode = std::getenv("OCELOT_CORPUS_PTXAS");
  if (mode != nullptr && std::string(mode) == "full")
    return true;
  return inCorpusFullPtxasSample(moduleName);
}

PtxasResult assembleCorpusModule(const std::string& ptx, const std::string& arch,
                                 std::string_view moduleName) {
  return runPtxas(ptx, arch, corpusFullPtxas(moduleName) ? PtxasEffort::Full : PtxasEffort::Fast);
}

} // namespace ocelot::test
