#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ocelot::report {

/// A small line chart of a value across launches: one series per rank, x = the launch's number
/// among the kernel's launches, dots on every point.
struct TrendSeries {
  std::string label; ///< "rank 0"
  std::vector<std::pair<double, double>> points;
};
std::string trendChartSvg(const std::string& title, const std::vector<TrendSeries>& series,
                          const std::string& unit);

} // namespace ocelot::report
