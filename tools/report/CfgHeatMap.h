#pragma once

#include "tools/report/KernelTotals.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ocelot::report {

/// The control-flow graph of one function as an SVG heat map: blocks coloured by how often
/// threads entered them (log scale, over the hottest block of the kernel), labelled with their
/// label, `.loc` lines and count; loop headers framed by depth and back edges drawn as arcs whose
/// width grows with the loop's count, so hot loops stand out. `function` is one entry of the
/// module structure's `functions` (bbcount's `cfg`); `files` its `files`.
std::string cfgHeatMapSvg(const nlohmann::json& function, const nlohmann::json& files,
                          const KernelTotals& kernel, uint64_t hottest);

/// "file.cu:12-17" from a structure block's `lines` ([file, line, instructions] triples), with
/// base names; "" without lines.
std::string blockLines(const nlohmann::json& block, const nlohmann::json& files);

} // namespace ocelot::report
