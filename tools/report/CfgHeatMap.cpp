#include "tools/report/CfgHeatMap.h"

#include "tools/report/CfgLayout.h"
#include "tools/report/Html.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ocelot::report {

std::string blockLines(const nlohmann::json& block, const nlohmann::json& files) {
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> ranges;
  if (auto lines = block.find("lines"); lines != block.end() && lines->is_array()) {
    for (const auto& l : *lines) {
      if (!l.is_array() || l.size() != 3)
        continue;
      uint32_t file = l[0].get<uint32_t>(), line = l[1].get<uint32_t>();
      auto [it, added] = ranges.emplace(file, std::make_pair(line, line));
      it->second.first = std::min(it->second.first, line);
      it->second.second = std::max(it->second.second, line);
    }
  }
  std::string out;
  for (const auto& [file, range] : ranges) {
    std::string name = file < files.size() && files[file].is_string()
                           ? files[file].get<std::string>()
                           : std::string("?");
    if (auto slash = name.find_last_of('/'); slash != std::string::npos)
      name = name.substr(slash + 1);
    if (!out.empty())
      out += ", ";
    out += name + ":" + std::to_string(range.first);
    if (range.second != range.first)
      out += "-" + std::to_string(range.second);
  }
  return out;
}

std::string cfgHeatMapSvg(const nlohmann::json& function, const nlohmann::json& files,
                          const KernelTotals& kernel, uint64_t hottest) {
  const std::string name = function.value("name", "");
  const nlohmann::json& blocks = function["blocks"];
  const size_t n = blocks.size();
  struct Box {
    std::string title, lines, count;
    const BlockTotal* total = nullptr;
    uint32_t loopDepth = 0;
    bool header = false, exits = false;
  };
  std::vector<Box> boxes(n);
  std::vector<CfgLayout::Node> sizes(n);
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  for (uint32_t b = 0; b < n; ++b) {
    const auto& block = blocks[b];
    Box& box = boxes[b];
    auto total = kernel.blocks.find({name, b});
    box.total = total == kernel.blocks.end() ? nullptr : &total->second;
    box.title = "B" + std::to_string(b);
    if (box.total != nullptr && !box.total->label.empty())
      box.title += " " + box.total->label;
    box.lines = blockLines(block, files);
    box.count = box.total == nullptr  ? "not counted"
                : !box.total->counted ? "not counted"
                                      : groupDigits(box.total->count) + " entries";
    box.loopDepth = block.value("loop_depth", 0u);
    box.header = block.value("loop_header", false);
    box.exits = block.value("exits", false);
    size_t longest = std::max({box.title.size(), box.lines.size(), box.count.size()});
    sizes[b] = {std::max(90.0, 7.0 * static_cast<double>(longest) + 16), 50};
    if (auto succ = block.find("successors"); succ != block.end() && succ->is_array())
      for (const auto& s : *succ)
        if ((s.is_number_unsigned() || (s.is_number_integer() && s.get<int64_t>() >= 0)))
          edges.emplace_back(b, s.get<uint32_t>());
  }
  CfgLayout layout(sizes, edges);
  const double margin = 16, marginX = 56, loopLane = 14;
  uint32_t backEdges = 0;
  for (size_t e = 0; e < layout.edges().size(); ++e)
    backEdges += layout.kind(e) == CfgLayout::EdgeKind::Back ? 1 : 0;
  const double width = layout.width() + marginX + margin + loopLane * (backEdges + 1);
  const double height = layout.height() + 2 * margin;
  const double logMax = std::log1p(static_cast<double>(hottest));

  std::string svg;
  svg += "<svg class=\"cfg-heatmap\" xmlns=\"http://www.w3.org/2000/svg\" data-function=\"" +
         escapeHtml(name) + "\" width=\"" + coordinate(width) + "\" height=\"" +
         coordinate(height) + "\" viewBox=\"0 0 " + coordinate(width) + " " + coordinate(height) +
         "\">\n";
  svg += "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
         "markerHeight=\"7\" markerUnits=\"userSpaceOnUse\" orient=\"auto-start-reverse\"><path "
         "d=\"M0,0 L10,5 L0,10 z\" "
         "fill=\"#555\"/></marker><marker id=\"arrow-back\" viewBox=\"0 0 10 10\" refX=\"9\" "
         "refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" markerUnits=\"userSpaceOnUse\" "
         "orient=\"auto-start-reverse\"><path "
         "d=\"M0,0 L10,5 L0,10 z\" fill=\"#b10026\"/></marker></defs>\n";
  auto at = [&](uint32_t v) {
    const auto& p = layout.positions()[v];
    return std::make_pair(p.x + marginX, p.y + margin);
  };
  // Edges first, under the blocks.
  uint32_t lane = 0;
  for (size_t e = 0; e < layout.edges().size(); ++e) {
    auto [from, to] = layout.edges()[e];
    auto kind = layout.kind(e);
    if (kind == CfgLayout::EdgeKind::Dropped)
      continue;
    auto [x1, y1] = at(from);
    auto [x2, y2] = at(to);
    if (kind == CfgLayout::EdgeKind::Forward) {
      double sy = y1 + sizes[from].height / 2, ty = y2 - sizes[to].height / 2;
      uint32_t span = layout.positions()[to].layer - layout.positions()[from].layer;
      std::string d;
      if (span <= 1) {
        double mid = (sy + ty) / 2;
        d = "M" + coordinate(x1) + "," + coordinate(sy) + " C" + coordinate(x1) + "," +
            coordinate(mid) + " " + coordinate(x2) + "," + coordinate(mid) + " " + coordinate(x2) +
            "," + coordinate(ty);
      } else {
        // An edge over several layers bends out to the left of the blocks it passes.
        double side = std::min(x1 - sizes[from].width / 2, x2 - sizes[to].width / 2) - 14 -
                      4.0 * static_cast<double>(span % 5);
        d = "M" + coordinate(x1 - sizes[from].width / 4) + "," + coordinate(sy) + " C" +
            coordinate(side) + "," + coordinate(sy + 30) + " " + coordinate(side) + "," +
            coordinate(ty - 30) + " " + coordinate(x2 - sizes[to].width / 4) + "," + coordinate(ty);
      }
      svg += "<path class=\"edge\" d=\"" + d +
             "\" fill=\"none\" stroke=\"#555\" stroke-width=\"1.2\" marker-end=\"url(#arrow)\"/>\n";
      continue;
    }
    // A loop: an arc on the right from the latch up to the header, wider for hotter loops.
    const BlockTotal* header = boxes[to].total;
    double heat = header != nullptr && logMax > 0
                      ? std::log1p(static_cast<double>(header->count)) / logMax
                      : 0;
    double strokeWidth = 1.5 + 4.5 * heat;
    std::string title = "loop back edge B" + std::to_string(from) + " -> B" + std::to_string(to);
    if (header != nullptr)
      title += ", header entered " + groupDigits(header->count) + " times";
    if (kind == CfgLayout::EdgeKind::Self) {
      double sx = x1 + sizes[from].width / 2;
      svg += "<path class=\"edge back-edge\" d=\"M" + coordinate(sx) + "," + coordinate(y1 - 8) +
             " C" + coordinate(sx + 30) + "," + coordinate(y1 - 30) + " " + coordinate(sx + 30) +
             "," + coordinate(y1 + 30) + " " + coordinate(sx) + "," + coordinate(y1 + 8) +
             "\" fill=\"none\" stroke=\"#b10026\" stroke-width=\"" + coordinate(strokeWidth) +
             "\" marker-end=\"url(#arrow-back)\"><title>" + escapeHtml(title) + "</title></path>\n";
      continue;
    }
    double right = layout.width() + marginX + loopLane * (++lane);
    double sx = x1 + sizes[from].width / 2, tx = x2 + sizes[to].width / 2;
    svg += "<path class=\"edge back-edge\" d=\"M" + coordinate(sx) + "," + coordinate(y1) + " L" +
           coordinate(right) + "," + coordinate(y1) + " L" + coordinate(right) + "," +
           coordinate(y2) + " L" + coordinate(tx) + "," + coordinate(y2) +
           "\" fill=\"none\" stroke=\"#b10026\" stroke-opacity=\"0.8\" stroke-width=\"" +
           coordinate(strokeWidth) + "\" marker-end=\"url(#arrow-back)\"><title>" +
           escapeHtml(title) + "</title></path>\n";
  }
  for (uint32_t b = 0; b < n; ++b) {
    const Box& box = boxes[b];
    auto [cx, cy] = at(b);
    double w = sizes[b].width, h = sizes[b].height;
    std::string fill = "#ffffff", stroke = "#888", dash;
    std::string heatText = "not counted";
    if (box.total != nullptr && box.total->counted) {
      if (box.total->count == 0) {
        fill = "#e3e3e3";
        heatText = "never executed";
      } else {
        double fraction =
            logMax > 0 ? std::log1p(static_cast<double>(box.total->count)) / logMax : 1.0;
        fill = heatColour(fraction);
        heatText = coordinate(100.0 * static_cast<double>(box.total->count) /
                              static_cast<double>(std::max<uint64_t>(hottest, 1))) +
                   "% of the hottest block";
      }
    } else {
      dash = " stroke-dasharray=\"4 3\"";
    }
    double strokeWidth = box.header ? 1.5 + box.loopDepth : 1.0;
    if (box.header)
      stroke = "#b10026";
    std::string title = box.title + (box.lines.empty() ? "" : "\n" + box.lines) + "\n" + box.count +
                        " (" + heatText + ")";
    if (box.total != nullptr) {
      title += "\n" + std::to_string(box.total->instructions) + " PTX instructions";
      if (box.total->derived)
        title += "\ncount derived from an equivalent block";
    }
    if (box.loopDepth > 0)
      title += "\nloop depth " + std::to_string(box.loopDepth) + (box.header ? " (header)" : "");
    svg += "<g class=\"block\" data-block=\"" + std::to_string(b) + "\" data-count=\"" +
           std::to_string(box.total != nullptr ? box.total->count : 0) + "\"><title>" +
           escapeHtml(title) + "</title>";
    svg += "<rect x=\"" + coordinate(cx - w / 2) + "\" y=\"" + coordinate(cy - h / 2) +
           "\" width=\"" + coordinate(w) + "\" height=\"" + coordinate(h) + "\" rx=\"5\" fill=\"" +
           fill + "\" stroke=\"" + stroke + "\" stroke-width=\"" + coordinate(strokeWidth) + "\"" +
           dash + "/>";
    double textColour = 0;
    if (box.total != nullptr && box.total->count > 0 && logMax > 0 &&
        std::log1p(static_cast<double>(box.total->count)) / logMax > 0.7)
      textColour = 1;
    std::string ink = textColour > 0 ? "#ffffff" : "#111111";
    svg += "<text x=\"" + coordinate(cx) + "\" y=\"" + coordinate(cy - 9) +
           "\" text-anchor=\"middle\" font-size=\"11\" font-weight=\"bold\" fill=\"" + ink + "\">" +
           escapeHtml(box.title) + "</text>";
    svg += "<text x=\"" + coordinate(cx) + "\" y=\"" + coordinate(cy + 4) +
           "\" text-anchor=\"middle\" font-size=\"10\" fill=\"" + ink + "\">" +
           escapeHtml(box.lines.empty() ? "(no line info)" : box.lines) + "</text>";
    svg += "<text x=\"" + coordinate(cx) + "\" y=\"" + coordinate(cy + 17) +
           "\" text-anchor=\"middle\" font-size=\"10\" fill=\"" + ink + "\">" +
           escapeHtml(box.count) + "</text></g>\n";
  }
  svg += "</svg>\n";
  return svg;
}

} // namespace ocelot::report
