#include "passes/SourceLines.h"

#include "ir/Casting.h"
#include "ir/Module.h"
#include "passes/AnalysisManager.h"

#include <algorithm>
#include <map>

namespace ocelot::passes {

AnalysisKey SourceLineAnalysis::Key;

SourceLineMap SourceLineAnalysis::run(ir::Function& function, AnalysisManager& am) {
  return SourceLineMap(am.getResult<ControlFlowGraphAnalysis>(function));
}

namespace {

bool lineOrder(const ir::SourceLoc& a, const ir::SourceLoc& b) {
  return a.file != b.file ? a.file < b.file : a.line < b.line;
}

void normalize(std::vector<ir::SourceLoc>& lines) {
  std::sort(lines.begin(), lines.end(), lineOrder);
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
}

} // namespace

SourceLineMap::SourceLineMap(const ControlFlowGraph& cfg) {
  first_.assign(cfg.size(), ir::SourceLoc{});
  lines_.assign(cfg.size(), {});
  for (Node n = 0; n < cfg.blockCount(); ++n) {
    auto& lines = lines_[n];
    cfg.block(n)->forEachInstruction([&](const ir::Instruction& inst) {
      const ir::SourceLoc& loc = inst.sourceLoc();
      if (loc.file == 0 || loc.line == 0)
        return; // line 0: code the compiler attributes to no particular line
      if (first_[n].file == 0)
        first_[n] = loc;
      ir::SourceLoc line{loc.file, loc.line, 0};
      if (lines.empty() || !(lines.back() == line))
        lines.push_back(line);
    });
    normalize(lines);
  }
  module_ = &cfg.function().module();
}

std::vector<ir::SourceLoc> SourceLineMap::lines(const Loop& loop) const {
  std::vector<ir::SourceLoc> all;
  for (Node n : loop.nodes())
    if (n < lines_.size())
      all.insert(all.end(), lines_[n].begin(), lines_[n].end());
  normalize(all);
  return all;
}

std::string_view SourceLineMap::fileName(uint32_t index) const {
  return module_ != nullptr ? module_->filePath(index) : std::string_view();
}

std::string SourceLineMap::describe(const std::vector<ir::SourceLoc>& lines) const {
  // One "file:first-last" per file, the file's base name only.
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> ranges;
  for (const auto& loc : lines) {
    auto [it, inserted] = ranges.emplace(loc.file, std::make_pair(loc.line, loc.line));
    if (!inserted) {
      it->second.first = std::min(it->second.first, loc.line);
      it->second.second = std::max(it->second.second, loc.line);
    }
  }
  std::string text;
  for (const auto& [file, range] : ranges) {
    std::string_view name = fileName(file);
    if (auto slash = name.find_last_of("/\\"); slash != std::string_view::npos)
      name.remove_prefix(slash + 1);
    if (!text.empty())
      text += ", ";
    text += name.empty() ? "file" + std::to_string(file) : std::string(name);
    text += ":" + std::to_string(range.first);
    if (range.second != range.first)
      text += "-" + std::to_string(range.second);
  }
  return text;
}

} // namespace ocelot::passes
