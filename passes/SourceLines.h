#pragma once

#include "passes/LoopInfo.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ocelot::passes {

/// Where blocks and loops come from in the CUDA source, through the `.loc` directives nvcc emits
/// with -lineinfo or -G (every instruction carries the location of the last `.loc` before it).
/// Without line information every block maps to nothing.
class SourceLineMap {
public:
  using Node = ControlFlowGraph::Node;

  SourceLineMap(const ControlFlowGraph& cfg);

  /// The location of the block's first located instruction (file 0: none).
  const ir::SourceLoc& firstLocation(Node node) const { return first_[node]; }
  /// Every distinct (file, line) of the block's instructions, sorted; columns are 0.
  const std::vector<ir::SourceLoc>& lines(Node node) const { return lines_[node]; }
  /// The distinct (file, line) pairs of all blocks of `loop`, sorted.
  std::vector<ir::SourceLoc> lines(const Loop& loop) const;
  /// The path of `.file` number `index` as written, or "" if the module has no such `.file`.
  std::string_view fileName(uint32_t index) const;
  /// "file.cu:12-17" (or "file.cu:12", "" without locations) for a sorted list of lines.
  std::string describe(const std::vector<ir::SourceLoc>& lines) const;

private:
  std::vector<ir::SourceLoc> first_;
  std::vector<std::vector<ir::SourceLoc>> lines_;
  const ir::Module* module_ = nullptr;
};

struct SourceLineAnalysis {
  static AnalysisKey Key;
  static constexpr std::string_view Name = "source lines";
  using Result = SourceLineMap;
  Result run(ir::Function& function, AnalysisManager& am);
};

} // namespace ocelot::passes
