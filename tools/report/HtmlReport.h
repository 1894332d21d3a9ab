#pragma once

#include "tools/report/ProfileSet.h"

#include <string>
#include <vector>

namespace ocelot::report {

struct HtmlReportOptions {
  std::string title = "Ocelot report";
  /// Folders searched (by base name) for source files the profile's paths do not reach.
  std::vector<std::string> sourceDirs;
};

/// The whole report as one self-contained HTML page (inline CSS, JavaScript and SVG; nothing
/// loaded from anywhere): the sortable kernel table, per kernel the CFG heat map, the source
/// view, the SM timeline and load chart and the per-launch trends, the coverage panel, and the
/// ranks panel when the profiles come from several processes.
std::string htmlReport(const ProfileSet& set, const HtmlReportOptions& options);

} // namespace ocelot::report
