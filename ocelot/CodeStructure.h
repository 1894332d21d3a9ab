#pragma once

#include "ocelot/Json.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ocelot {

/// The static shape of one instrumented module, as bbcount saw it before instrumenting: for every
/// function with a body, its basic blocks in layout order with their successors, loop nesting and
/// `.loc` source lines. Counts of a launch (BasicBlockCounts) refer to it by function name and
/// block index; reports draw control-flow graphs and source views from it. Shared by every launch
/// of the module and written to the profile file once per module (`cfg` of the bbcount result).
class CodeStructure {
public:
  /// Instructions of a block attributed to one source line (`.loc`).
  struct Line {
    uint32_t file = 0; ///< index into files()
    uint32_t line = 0;
    uint32_t instructions = 0;
  };
  struct Block {
    std::vector<uint32_t> successors; ///< block indices in the same function, layout order
    bool exits = false;               ///< `ret`/`exit`/`trap` (or falling off the end)
    uint32_t loopDepth = 0;           ///< natural loops containing it (0: none)
    bool loopHeader = false;
    std::vector<Line> lines; ///< sorted by (file, line)
  };
  struct Function {
    std::string name;
    bool entry = false; ///< a kernel (.entry), not a device function
    std::vector<Block> blocks;
  };

  CodeStructure(std::vector<std::string> files, std::vector<Function> functions);

  /// Source files as the module's `.file` directives name them.
  const std::vector<std::string>& files() const { return files_; }
  const std::vector<Function>& functions() const { return functions_; }
  const Function* function(const std::string& name) const;
  /// 16 hex digits identifying the content (a hash of files, functions, blocks, edges and lines):
  /// the same module gives the same id in every process and rank.
  const std::string& id() const { return id_; }

  Json json() const;

private:
  std::vector<std::string> files_;
  std::vector<Function> functions_;
  std::string id_;
};

} // namespace ocelot
