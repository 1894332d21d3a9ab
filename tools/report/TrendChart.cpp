#include "tools/report/TrendChart.h"

#include "tools/report/Html.h"

#include <algorithm>
#include <cstdio>

namespace ocelot::report {

namespace {

const char* kColours[] = {"#b10026", "#2c7fb8", "#31a354", "#756bb1", "#e6550d", "#636363"};

std::string shortNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

} // namespace

std::string trendChartSvg(const std::string& title, const std::vector<TrendSeries>& series,
                          const std::string& unit) {
  double minX = 1e300, maxX = -1e300, maxY = 0;
  size_t points = 0;
  for (const auto& s : series)
    for (auto [x, y] : s.points) {
      minX = std::min(minX, x);
      maxX = std::max(maxX, x);
      maxY = std::max(maxY, y);
      ++points;
    }
  const double left = 54, top = 18, plotW = 280, plotH = 90;
  std::string svg = "<svg class=\"trend\" xmlns=\"http://www.w3.org/2000/svg\" width=\"350\" "
                    "height=\"135\" viewBox=\"0 0 350 135\">\n<text x=\"" +
                    coordinate(left) + "\" y=\"11\" font-size=\"11\" font-weight=\"bold\">" +
                    escapeHtml(title) + "</text>\n";
  if (points == 0) {
    svg +=
        "<text x=\"" + coordinate(left) + "\" y=\"60\" font-size=\"10\">no values</text></svg>\n";
    return svg;
  }
  if (maxY <= 0)
    maxY = 1;
  if (maxX <= minX)
    maxX = minX + 1;
  auto px = [&](double x) { return left + plotW * (x - minX) / (maxX - minX); };
  auto py = [&](double y) { return top + plotH - plotH * y / maxY; };
  svg += "<line x1=\"" + coordinate(left) + "\" y1=\"" + coordinate(top + plotH) + "\" x2=\"" +
         coordinate(left + plotW) + "\" y2=\"" + coordinate(top + plotH) +
         "\" stroke=\"#333\"/><line x1=\"" + coordinate(left) + "\" y1=\"" + coordinate(top) +
         "\" x2=\"" + coordinate(left) + "\" y2=\"" + coordinate(top + plotH) +
         "\" stroke=\"#333\"/>\n";
  svg += "<text x=\"" + coordinate(left - 3) + "\" y=\"" + coordinate(top + 8) +
         "\" text-anchor=\"end\" font-size=\"9\">" + escapeHtml(shortNumber(maxY)) +
         "</text><text x=\"" + coordinate(left - 3) + "\" y=\"" + coordinate(top + plotH) +
         "\" text-anchor=\"end\" font-size=\"9\">0</text>\n";
  svg += "<text x=\"" + coordinate(left) + "\" y=\"" + coordinate(top + plotH + 12) +
         "\" font-size=\"9\">launch " + shortNumber(minX) + "</text><text x=\"" +
         coordinate(left + plotW) + "\" y=\"" + coordinate(top + plotH + 12) +
         "\" text-anchor=\"end\" font-size=\"9\">" + shortNumber(maxX) + " (" + escapeHtml(unit) +
         ")</text>\n";
  for (size_t i = 0; i < series.size(); ++i) {
    const char* colour = kColours[i % (sizeof kColours / sizeof *kColours)];
    std::string path;
    for (auto [x, y] : series[i].points)
      path += (path.empty() ? "M" : " L") + coordinate(px(x)) + "," + coordinate(py(y));
    svg +=
        "<path d=\"" + path + "\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"1.3\"/>\n";
    if (series[i].points.size() <= 400)
      for (auto [x, y] : series[i].points)
        svg += "<circle cx=\"" + coordinate(px(x)) + "\" cy=\"" + coordinate(py(y)) +
               "\" r=\"2.2\" fill=\"" + colour + "\"><title>" + escapeHtml(series[i].label) +
               ", launch " + shortNumber(x) + ": " + shortNumber(y) + " " + escapeHtml(unit) +
               "</title></circle>";
    if (series.size() > 1)
      svg += "<text x=\"" + coordinate(left + plotW + 4) + "\" y=\"" +
             coordinate(top + 10 + 11 * i) + "\" font-size=\"9\" fill=\"" + colour + "\">" +
             escapeHtml(series[i].label) + "</text>";
    svg += "\n";
  }
  svg += "</svg>\n";
  return svg;
}

} // namespace ocelot::report
