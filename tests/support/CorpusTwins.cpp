#include "tests/support/CorpusTwins.h"

#include <cstdlib>

namespace ocelot::test {

namespace {

/// `ptx` without its `.target` line, and that line (empty when there is none).
std::pair<std::string, std::string> splitTarget(const std::string& ptx) {
  size_t at = ptx.find("\n.target ");
  if (at == std::string::npos)
    return {ptx, ""};
  size_t end = ptx.find('\n', at + 1);
  if (end == std::string::npos)
    end = ptx.size();
  return {ptx.substr(0, at) + ptx.substr(end), ptx.substr(at + 1, end - at - 1)};
}

} // namespace

bool samePtxButTarget(const std::string& ptx, const std::string& arch, const std::string& basePtx,
                      const std::string& baseArch) {
  auto [body, target] = splitTarget(ptx);
  auto [baseBody, baseTarget] = splitTarget(basePtx);
  if (target.empty() || baseTarget.empty() || body != baseBody)
    return false;
  // `.target sm_90a` / `.target sm_90a, debug`: the base line with the arch renamed, nothing else.
  size_t at = baseTarget.find(baseArch);
  if (at == std::string::npos)
    return false;
  std::string renamed = baseTarget;
  renamed.replace(at, baseArch.size(), arch);
  return renamed == target;
}

std::optional<CorpusEntry> baseTargetTwin(const CorpusEntry& entry, const std::string& ptx,
                                          const std::vector<CorpusEntry>& all) {
  if (entry.arch.size() < 2 || entry.arch.back() != 'a')
    return std::nullopt;
  const std::string baseArch = entry.arch.substr(0, entry.arch.size() - 1);
  // The module's name has its arch as a component: sorting.sm_90a(.debug|.lineinfo).
  std::string baseName = entry.name();
  size_t at = baseName.find("." + entry.arch);
  if (at == std::string::npos)
    return std::nullopt;
  baseName.replace(at + 1, entry.arch.size(), baseArch);
  for (const CorpusEntry& other : all)
    if (other.name() == baseName && other.arch == baseArch && other.variant == entry.variant) {
      if (samePtxButTarget(ptx, entry.arch, other.text(), baseArch))
        return other;
      return std::nullopt;
    }
  return std::nullopt;
}

std::optional<CorpusEntry> corpusTwinBase(const CorpusEntry& entry, const std::string& ptx,
                                          const std::vector<CorpusEntry>& all) {
  const char* twins = std::getenv("OCELOT_CORPUS_ASSEMBLE_TWINS");
  if (twins != nullptr && std::string(twins) == "1")
    return std::nullopt;
  return baseTargetTwin(entry, ptx, all);
}

} // namespace ocelot::test
