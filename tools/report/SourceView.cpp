#include "tools/report/SourceView.h"

#include "tools/report/Html.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

namespace ocelot::report {

SourceLines sourceLines(const ProfileSet& set, const KernelTotals& kernel) {
  SourceLines out;
  const nlohmann::json* structure =
      kernel.moduleId.empty() ? nullptr : set.structure(kernel.moduleId);
  std::vector<std::string> tools;
  for (const Launch* l : kernel.launchList)
    for (const auto& [name, result] : l->otherResults)
      if (result->contains("source_lines") &&
          std::find(tools.begin(), tools.end(), name) == tools.end())
        tools.push_back(name);
  if (structure != nullptr) {
    out.columns = {"bbcount: instructions executed", "bbcount: entries"};
  }
  for (const auto& t : tools)
    out.columns.push_back(t);
  const size_t width = out.columns.size();
  auto cell = [&](const std::string& file, uint32_t line) -> std::vector<double>& {
    auto& row = out.values[file][line];
    row.resize(width, 0);
    return row;
  };
  if (structure != nullptr) {
    const auto& files = (*structure)["files"];
    for (const auto& function : (*structure)["functions"]) {
      std::string name = function.value("name", "");
      const auto& blocks = function["blocks"];
      for (uint32_t b = 0; b < blocks.size(); ++b) {
        auto total = kernel.blocks.find({name, b});
        if (total == kernel.blocks.end())
          continue; // not a function this kernel calls
        double count = static_cast<double>(total->second.count);
        for (const auto& l : blocks[b]["lines"]) {
          uint32_t file = l[0].get<uint32_t>();
          if (file >= files.size())
            continue;
          auto& row = cell(files[file].get<std::string>(), l[1].get<uint32_t>());
          row[0] += count * l[2].get<double>();
          row[1] = std::max(row[1], count);
        }
      }
    }
  }
  for (const Launch* l : kernel.launchList) {
    for (const auto& [name, result] : l->otherResults) {
      auto column = std::find(out.columns.begin(), out.columns.end(), name) - out.columns.begin();
      if (static_cast<size_t>(column) >= width || !(*result)["source_lines"].is_array())
        continue;
      for (const auto& v : (*result)["source_lines"]) {
        if (!v.is_object() || !v.contains("file") || !v.contains("line"))
          continue;
        cell(v.value("file", ""), v.value("line", 0u))[column] += v.value("value", 0.0);
      }
    }
  }
  return out;
}

namespace {

std::vector<std::string> readSource(const std::string& path,
                                    const std::vector<std::string>& searchDirs) {
  std::vector<std::filesystem::path> candidates{path};
  for (const auto& dir : searchDirs)
    candidates.push_back(std::filesystem::path(dir) / std::filesystem::path(path).filename());
  for (const auto& candidate : candidates) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(candidate, error) ||
        std::filesystem::file_size(candidate, error) > (8u << 20))
      continue;
    std::ifstream in(candidate);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
      lines.push_back(line);
    return lines;
  }
  return {};
}

std::string cellText(double v) {
  if (v == 0)
    return "";
  if (v == std::floor(v) && v < 1e15)
    return groupDigits(static_cast<uint64_t>(v));
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

} // namespace

std::string sourceViewHtml(const SourceLines& lines, const std::vector<std::string>& searchDirs) {
  if (lines.values.empty())
    return "<p class=\"empty\">No source lines: compile with <code>-lineinfo</code> and run with "
           "<code>-i bbcount</code>.</p>\n";
  std::string html;
  for (const auto& [file, rows] : lines.values) {
    std::vector<std::string> text = readSource(file, searchDirs);
    double peak = 0;
    for (const auto& [line, values] : rows)
      peak = std::max(peak, values.empty() ? 0 : values[0]);
    html += "<h4 class=\"source-file\">" + escapeHtml(file) +
            (text.empty() ? " <span class=\"note\">(source not found)</span>" : "") + "</h4>\n";
    html += "<table class=\"source\"><thead><tr><th>line</th>";
    for (const auto& c : lines.columns)
      html += "<th>" + escapeHtml(c) + "</th>";
    html += "<th class=\"code\">source</th></tr></thead><tbody>\n";
    uint32_t first = rows.begin()->first, last = rows.rbegin()->first;
    first = first > 3 ? first - 2 : 1;
    last += 2;
    if (!text.empty())
      last = std::min<uint32_t>(last, static_cast<uint32_t>(text.size()));
    uint32_t shown = 0;
    for (uint32_t line = first; line <= last && shown < 600; ++line) {
      auto row = rows.find(line);
      if (text.empty() && row == rows.end())
        continue;
      ++shown;
      double v = row == rows.end() || row->second.empty() ? 0 : row->second[0];
      std::string style;
      if (v > 0 && peak > 0)
        style = " style=\"background:" + heatColour(std::log1p(v) / std::log1p(peak)) + "\"";
      html += "<tr" + style + "><td class=\"num\">" + std::to_string(line) + "</td>";
      for (size_t c = 0; c < lines.columns.size(); ++c)
        html += "<td class=\"num\">" +
                (row == rows.end() || c >= row->second.size() ? "" : cellText(row->second[c])) +
                "</td>";
      html += "<td class=\"code\"><pre>" +
              (line - 1 < text.size() ? escapeHtml(text[line - 1]) : "") + "</pre></td></tr>\n";
    }
    html += "</tbody></table>\n";
  }
  return html;
}

} // namespace ocelot::report
