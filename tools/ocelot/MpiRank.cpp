#include "tools/ocelot/MpiRank.h"

#include <cstdlib>
#include <filesystem>

namespace ocelot::tools {

std::optional<int> mpiRank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    const char* text = std::getenv(name);
    if (text == nullptr || *text == '\0')
      continue;
    char* end = nullptr;
    long rank = std::strtol(text, &end, 10);
    if (*end == '\0' && rank >= 0 && rank < (1L << 30))
      return static_cast<int>(rank);
  }
  return std::nullopt;
}

std::string rankedPath(const std::string& path, int rank) {
  std::filesystem::path p(path);
  std::string stem = p.stem().string(), extension = p.extension().string();
  if (stem.empty()) { // ".json" alone, or a folder-like path: append
    stem = p.filename().string();
    extension.clear();
  }
  return (p.parent_path() / (stem + ".rank" + std::to_string(rank) + extension)).string();
}

} // namespace ocelot::tools
