#include "tests/support/CorpusTwins.h"

#include "tests/support/CorpusPtxasRotation.h"

#include <cstdlib>
#include <string_view>

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

/// `ptx` without its line table (see samePtxButLineTable).
std::string withoutLineTable(const std::string& ptx) {
  std::string out;
  out.reserve(ptx.size());
  bool inDebugStrings = false;
  size_t begin = 0;
  while (begin < ptx.size()) {
    size_t end = ptx.find('\n', begin);
    if (end == std::string::npos)
      end = ptx.size();
    const std::string_view line(ptx.data() + begin, end - begin);
    const size_t first = line.find_first_not_of(" \t");
    const std::string_view text = first == std::string_view::npos ? "" : line.substr(first);
    // Blank lines go too: -lineinfo moves the module's last one before the .debug_str section.
    bool keep = !inDebugStrings && !text.empty() && !text.starts_with(".loc") &&
                !text.starts_with(".file");
    if (text.starts_with(".section") && text.find(".debug_str") != std::string_view::npos) {
      inDebugStrings = true;
      keep = false;
    } else if (inDebugStrings && text.starts_with("}")) {
      inDebugStrings = false;
    }
    if (keep) {
      out.append(line);
      out.push_back('\n');
    }
    begin = end + 1;
  }
  return out;
}

// Where the rotation assembles one tool set per module (smaller -lineinfo modules are assembled).
constexpr size_t kLineInfoTwinBytes = kCorpusRotationMinBytes;

} // namespace

bool samePtxButLineTable(const std::string& ptx, const std::string& basePtx) {
  return withoutLineTable(ptx) == withoutLineTable(basePtx);
}

bool sameCodeAsTwin(const std::string& ptx, const CorpusEntry& entry, const std::string& basePtx,
                    const CorpusEntry& base) {
  if (entry.arch != base.arch)
    return samePtxButTarget(ptx, entry.arch, basePtx, base.arch);
  return samePtxButLineTable(ptx, basePtx);
}

std::optional<CorpusEntry> lineInfoTwin(const CorpusEntry& entry, const std::string& ptx,
                                        const std::vector<CorpusEntry>& all) {
  if (entry.variant != CorpusVariant::LineInfo || ptx.size() <= kLineInfoTwinBytes)
    return std::nullopt;
  std::string baseName = entry.name();
  const std::string suffix = ".lineinfo";
  if (!baseName.ends_with(suffix))
    return std::nullopt;
  baseName.resize(baseName.size() - suffix.size());
  for (const CorpusEntry& other : all)
    if (other.name() == baseName && other.arch == entry.arch &&
        other.variant == CorpusVariant::Plain) {
      if (samePtxButLineTable(ptx, other.text()))
        return other;
      return std::nullopt;
    }
  return std::nullopt;
}

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
  if (auto base = baseTargetTwin(entry, ptx, all))
    return base;
  return lineInfoTwin(entry, ptx, all);
}

} // namespace ocelot::test
