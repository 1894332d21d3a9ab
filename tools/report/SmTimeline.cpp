#include "tools/report/SmTimeline.h"

#include "tools/report/Html.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace ocelot::report {

namespace {

std::vector<uint64_t> column(const nlohmann::json& ctas, const char* name) {
  std::vector<uint64_t> out;
  auto it = ctas.find(name);
  if (it == ctas.end() || !it->is_array())
    return out;
  for (const auto& v : *it)
    out.push_back((v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0))
                      ? v.get<uint64_t>()
                      : 0);
  return out;
}

} // namespace

std::vector<CtaSpan> ctaSpans(const nlohmann::json& ctaclock) {
  std::vector<CtaSpan> spans;
  auto ctas = ctaclock.find("ctas");
  if (ctas == ctaclock.end() || !ctas->is_object())
    return spans;
  auto sm = column(*ctas, "sm"), start = column(*ctas, "start_ns"), end = column(*ctas, "end_ns"),
       warps = column(*ctas, "warps_started");
  size_t n = std::min({sm.size(), start.size(), end.size()});
  for (size_t i = 0; i < n; ++i) {
    if (i < warps.size() && warps[i] == 0)
      continue; // never recorded
    spans.push_back({i, static_cast<uint32_t>(sm[i]), start[i], std::max(start[i], end[i])});
  }
  return spans;
}

std::vector<uint32_t> assignSlots(const std::vector<CtaSpan>& spans,
                                  std::vector<uint32_t>* slotsPerSm) {
  std::vector<size_t> order(spans.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return spans[a].startNs < spans[b].startNs; });
  std::map<uint32_t, std::vector<uint64_t>> freeAt; // per SM: when each slot is free again
  std::vector<uint32_t> slot(spans.size(), 0);
  for (size_t i : order) {
    auto& slots = freeAt[spans[i].sm];
    uint32_t s = 0;
    while (s < slots.size() && slots[s] > spans[i].startNs)
      ++s;
    if (s == slots.size())
      slots.push_back(0);
    slots[s] = spans[i].endNs;
    slot[i] = s;
  }
  if (slotsPerSm != nullptr) {
    uint32_t highest = 0;
    for (const auto& [sm, slots] : freeAt)
      highest = std::max(highest, sm + 1);
    slotsPerSm->assign(highest, 0);
    for (const auto& [sm, slots] : freeAt)
      (*slotsPerSm)[sm] = static_cast<uint32_t>(slots.size());
  }
  return slot;
}

std::string smTimelineSvg(const nlohmann::json& ctaclock, size_t maxCtas) {
  std::vector<CtaSpan> spans = ctaSpans(ctaclock);
  size_t smCount =
      ctaclock.contains("sms") && ctaclock["sms"].is_array() ? ctaclock["sms"].size() : 0;
  for (const auto& s : spans)
    smCount = std::max<size_t>(smCount, s.sm + 1);
  if (spans.empty() || smCount == 0)
    return "<p class=\"empty\">No CTA was recorded.</p>\n";
  uint64_t first = UINT64_MAX, last = 0;
  for (const auto& s : spans) {
    first = std::min(first, s.startNs);
    last = std::max(last, s.endNs);
  }
  const double span = static_cast<double>(std::max<uint64_t>(last - first, 1));
  std::vector<uint32_t> slotsPerSm;
  std::vector<uint32_t> slots = assignSlots(spans, &slotsPerSm);
  const double left = 58, right = 16, top = 10, plot = 900;
  const double laneHeight = smCount > 64 ? 6 : smCount > 16 ? 12 : 22;
  const double height = top + laneHeight * static_cast<double>(smCount) + 34;
  std::string svg = "<svg class=\"sm-timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    coordinate(left + plot + right) + "\" height=\"" + coordinate(height) +
                    "\" viewBox=\"0 0 " + coordinate(left + plot + right) + " " +
                    coordinate(height) + "\">\n";
  for (size_t sm = 0; sm < smCount; ++sm) {
    double y = top + laneHeight * static_cast<double>(sm);
    svg += "<rect x=\"" + coordinate(left) + "\" y=\"" + coordinate(y) + "\" width=\"" +
           coordinate(plot) + "\" height=\"" + coordinate(laneHeight) + "\" fill=\"" +
           (sm % 2 == 0 ? "#f6f6f6" : "#ffffff") + "\"/>";
    if (laneHeight >= 12 || sm % 8 == 0)
      svg += "<text x=\"" + coordinate(left - 4) + "\" y=\"" +
             coordinate(y + std::min(laneHeight, 12.0) - 2) +
             "\" text-anchor=\"end\" font-size=\"10\">SM " + std::to_string(sm) + "</text>";
    svg += "\n";
  }
  const size_t drawn = std::min(spans.size(), maxCtas);
  for (size_t i = 0; i < drawn; ++i) {
    const CtaSpan& s = spans[i];
    double sub = laneHeight / std::max<uint32_t>(slotsPerSm[s.sm], 1);
    double x = left + plot * static_cast<double>(s.startNs - first) / span;
    double w = std::max(0.5, plot * static_cast<double>(s.endNs - s.startNs) / span);
    double y = top + laneHeight * s.sm + sub * slots[i];
    svg += "<rect class=\"cta\" x=\"" + coordinate(x) + "\" y=\"" + coordinate(y + 0.5) +
           "\" width=\"" + coordinate(w) + "\" height=\"" + coordinate(std::max(sub - 1, 0.5)) +
           "\" fill=\"" + heatColour(0.25 + 0.6 * static_cast<double>(s.cta % 7) / 6) +
           "\" stroke=\"#7a3b00\" stroke-width=\"0.3\"><title>CTA " + std::to_string(s.cta) +
           " on SM " + std::to_string(s.sm) + ": " +
           formatNanoseconds(static_cast<double>(s.startNs - first)) + " to " +
           formatNanoseconds(static_cast<double>(s.endNs - first)) + "</title></rect>\n";
  }
  double axisY = top + laneHeight * static_cast<double>(smCount) + 4;
  for (int tick = 0; tick <= 4; ++tick) {
    double x = left + plot * tick / 4;
    svg += "<line x1=\"" + coordinate(x) + "\" y1=\"" + coordinate(axisY) + "\" x2=\"" +
           coordinate(x) + "\" y2=\"" + coordinate(axisY + 4) + "\" stroke=\"#333\"/>";
    svg += "<text x=\"" + coordinate(x) + "\" y=\"" + coordinate(axisY + 16) + "\" text-anchor=\"" +
           (tick == 0   ? "start"
            : tick == 4 ? "end"
                        : "middle") +
           "\" font-size=\"10\">" + formatNanoseconds(span * tick / 4) + "</text>";
  }
  svg += "\n</svg>\n";
  if (drawn < spans.size())
    svg += "<p class=\"note\">The first " + groupDigits(drawn) + " of " +
           groupDigits(spans.size()) + " CTAs are drawn.</p>\n";
  return svg;
}

std::string smLoadSvg(const nlohmann::json& ctaclock) {
  std::vector<uint64_t> busy;
  if (auto sms = ctaclock.find("sms"); sms != ctaclock.end() && sms->is_array())
    for (const auto& s : *sms)
      busy.push_back(s.value("busy_ns", uint64_t{0}));
  std::vector<CtaSpan> spans = ctaSpans(ctaclock);
  if (busy.empty() || spans.empty())
    return "<p class=\"empty\">No SM load was recorded.</p>\n";
  const double peak =
      static_cast<double>(std::max<uint64_t>(*std::max_element(busy.begin(), busy.end()), 1));
  const double mean =
      std::accumulate(busy.begin(), busy.end(), 0.0) / static_cast<double>(busy.size());
  const double left = 58, plot = 900, barsHeight = 110, gap = 40, activeHeight = 90;
  const double width = left + plot + 16, height = 10 + barsHeight + gap + activeHeight + 30;
  std::string svg = "<svg class=\"sm-load\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    coordinate(width) + "\" height=\"" + coordinate(height) + "\" viewBox=\"0 0 " +
                    coordinate(width) + " " + coordinate(height) + "\">\n";
  svg += "<text x=\"" + coordinate(left) +
         "\" y=\"9\" font-size=\"10\">busy time per SM "
         "(line: mean; imbalance " +
         coordinate(mean > 0 ? peak / mean : 0) + ")</text>\n";
  const double barWidth = plot / static_cast<double>(busy.size());
  for (size_t i = 0; i < busy.size(); ++i) {
    double h = barsHeight * static_cast<double>(busy[i]) / peak;
    svg += "<rect class=\"sm-bar\" x=\"" + coordinate(left + barWidth * i) + "\" y=\"" +
           coordinate(12 + barsHeight - h) + "\" width=\"" +
           coordinate(std::max(barWidth - 1, 0.5)) + "\" height=\"" + coordinate(h) +
           "\" fill=\"#fd8d3c\"><title>SM " + std::to_string(i) + ": busy " +
           formatNanoseconds(static_cast<double>(busy[i])) + "</title></rect>\n";
  }
  double meanY = 12 + barsHeight - barsHeight * mean / peak;
  svg += "<line x1=\"" + coordinate(left) + "\" y1=\"" + coordinate(meanY) + "\" x2=\"" +
         coordinate(left + plot) + "\" y2=\"" + coordinate(meanY) +
         "\" stroke=\"#333\" stroke-dasharray=\"5 3\"/>\n";
  svg += "<text x=\"" + coordinate(left - 4) + "\" y=\"" + coordinate(22) +
         "\" text-anchor=\"end\" font-size=\"10\">" + formatNanoseconds(peak) + "</text>\n";

  // Active SMs over time: +1 at each SM's first resident CTA, -1 when its last one leaves.
  std::map<uint32_t, std::vector<std::pair<uint64_t, uint64_t>>> perSm;
  uint64_t first = UINT64_MAX, last = 0;
  for (const auto& s : spans) {
    perSm[s.sm].emplace_back(s.startNs, s.endNs);
    first = std::min(first, s.startNs);
    last = std::max(last, s.endNs);
  }
  std::vector<std::pair<uint64_t, int>> changes;
  for (auto& [sm, intervals] : perSm) {
    std::sort(intervals.begin(), intervals.end());
    uint64_t start = intervals[0].first, end = intervals[0].second;
    for (size_t i = 1; i <= intervals.size(); ++i) {
      if (i < intervals.size() && intervals[i].first <= end) {
        end = std::max(end, intervals[i].second);
        continue;
      }
      changes.emplace_back(start, +1);
      changes.emplace_back(end, -1);
      if (i < intervals.size()) {
        start = intervals[i].first;
        end = intervals[i].second;
      }
    }
  }
  std::sort(changes.begin(), changes.end());
  const double span = static_cast<double>(std::max<uint64_t>(last - first, 1));
  const double top = 12 + barsHeight + gap;
  const double smCount = static_cast<double>(busy.size());
  svg += "<text x=\"" + coordinate(left) + "\" y=\"" + coordinate(top - 6) +
         "\" font-size=\"10\">SMs with a resident CTA over time (of " +
         std::to_string(busy.size()) + ")</text>\n";
  std::string path = "M" + coordinate(left) + "," + coordinate(top + activeHeight);
  int active = 0;
  double lastY = top + activeHeight;
  for (const auto& [at, delta] : changes) {
    double x = left + plot * static_cast<double>(at - first) / span;
    path += " L" + coordinate(x) + "," + coordinate(lastY);
    active += delta;
    lastY = top + activeHeight - activeHeight * active / smCount;
    path += " L" + coordinate(x) + "," + coordinate(lastY);
  }
  svg += "<path class=\"active-sms\" d=\"" + path +
         "\" fill=\"none\" stroke=\"#b10026\" stroke-width=\"1.5\"/>\n";
  svg += "<line x1=\"" + coordinate(left) + "\" y1=\"" + coordinate(top + activeHeight) +
         "\" x2=\"" + coordinate(left + plot) + "\" y2=\"" + coordinate(top + activeHeight) +
         "\" stroke=\"#333\"/>\n";
  svg += "<text x=\"" + coordinate(left - 4) + "\" y=\"" + coordinate(top + 8) +
         "\" text-anchor=\"end\" font-size=\"10\">" + std::to_string(busy.size()) + "</text>";
  svg += "<text x=\"" + coordinate(left + plot) + "\" y=\"" + coordinate(top + activeHeight + 14) +
         "\" text-anchor=\"end\" font-size=\"10\">" + formatNanoseconds(span) + "</text>\n";
  svg += "</svg>\n";
  return svg;
}

} // namespace ocelot::report
