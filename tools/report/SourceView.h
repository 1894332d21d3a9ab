#pragma once

#include "tools/report/KernelTotals.h"
#include "tools/report/ProfileSet.h"

#include <map>
#include <string>
#include <vector>

namespace ocelot::report {

/// Per-line values of one kernel, one column per measure of every tool that produced them:
/// bbcount gives the PTX instructions executed at the line (block count x the block's
/// instructions there) and the entries of the hottest block at the line; another instrumentor
/// (a plugin, a probe) contributes a column when its result has `source_lines`, a list of
/// {"file", "line", "value"} objects.
struct SourceLines {
  std::vector<std::string> columns; ///< "bbcount: instructions executed", ...
  /// file path -> line -> one value per column
  std::map<std::string, std::map<uint32_t, std::vector<double>>> values;
};

SourceLines sourceLines(const ProfileSet& set, const KernelTotals& kernel);

/// The source view as HTML: per file, the lines around those with values, with the source text
/// when the file can be read (as written in `.file`, else its base name in one of `searchDirs`),
/// each line shaded by its first column.
std::string sourceViewHtml(const SourceLines& lines, const std::vector<std::string>& searchDirs);

} // namespace ocelot::report
