#include "tools/report/NvtxView.h"

#include "tools/report/Html.h"
#include "tools/report/RunMeasures.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <tuple>

namespace ocelot::report {

namespace {

std::string labelOf(const NvtxRecord& r) {
  return r.domain.empty() ? r.name : r.domain + "@" + r.name;
}

/// The last thing that happened on each rank, in host ns: where a range still open at exit ends.
std::map<int, int64_t> lastEvents(const ProfileSet& set) {
  std::map<int, int64_t> last;
  auto note = [&](int rank, int64_t ns) {
    auto [it, added] = last.try_emplace(rank, ns);
    if (!added)
      it->second = std::max(it->second, ns);
  };
  for (const NvtxRecord& r : set.nvtx())
    note(r.rank, r.endNs.value_or(r.beginNs));
  for (const ApiCall& c : set.apiCalls())
    note(c.rank, c.endNs);
  const int64_t origin = workOrigin(set);
  for (const PlacedWork& w : placeWork(set))
    note(w.rank, origin + static_cast<int64_t>(w.startNs + w.durationNs));
  return last;
}

int64_t endOf(const NvtxRecord& r, int64_t last) {
  return r.endNs.value_or(std::max(last, r.beginNs));
}

/// The thread whose API call was running at a time, per rank: calls sorted by begin, searched
/// back from the time as far as the longest call reaches.
class CallingThreads {
public:
  explicit CallingThreads(const ProfileSet& set) {
    for (const ApiCall& c : set.apiCalls()) {
      Rank& r = ranks_[c.rank];
      r.calls.push_back(&c);
      r.longest = std::max(r.longest, c.endNs - c.beginNs);
    }
    for (auto& [rank, r] : ranks_)
      std::sort(r.calls.begin(), r.calls.end(),
                [](const ApiCall* a, const ApiCall* b) { return a->beginNs < b->beginNs; });
  }
  std::optional<uint32_t> at(int rank, int64_t ns) const {
    auto it = ranks_.find(rank);
    if (it == ranks_.end())
      return std::nullopt;
    const Rank& r = it->second;
    auto after = std::upper_bound(r.calls.begin(), r.calls.end(), ns,
                                  [](int64_t t, const ApiCall* c) { return t < c->beginNs; });
    while (after != r.calls.begin()) {
      --after;
      if ((*after)->beginNs < ns - r.longest)
        break;
      if ((*after)->endNs >= ns)
        return (*after)->thread;
    }
    return std::nullopt;
  }

private:
  struct Rank {
    std::vector<const ApiCall*> calls;
    int64_t longest = 0;
  };
  std::map<int, Rank> ranks_;
};

/// The ranges open at each of a series of ascending times: a sweep over ranges sorted by begin
/// that keeps those begun and not yet ended, in order of begin (outermost first where they nest).
class OpenRanges {
public:
  void add(const NvtxRecord* r) { ranges_.push_back(r); }
  const std::vector<const NvtxRecord*>& at(int64_t ns, int64_t last) {
    if (!sorted_) {
      std::stable_sort(ranges_.begin(), ranges_.end(),
                       [](const auto* a, const auto* b) { return a->beginNs < b->beginNs; });
      sorted_ = true;
    }
    while (next_ < ranges_.size() && ranges_[next_]->beginNs <= ns)
      open_.push_back(ranges_[next_++]);
    std::erase_if(open_, [&](const NvtxRecord* r) { return endOf(*r, last) < ns; });
    return open_;
  }

private:
  std::vector<const NvtxRecord*> ranges_, open_;
  size_t next_ = 0;
  bool sorted_ = false;
};

std::string ms(double ns) {
  char text[48];
  std::snprintf(text, sizeof text, "%.3f", ns / 1e6);
  return text;
}

std::string numericCell(double sortValue, const std::string& text) {
  char value[48];
  std::snprintf(value, sizeof value, "%.6f", sortValue);
  return "<td class=\"num\" data-v=\"" + std::string(value) + "\">" + escapeHtml(text) + "</td>";
}

} // namespace

NvtxAttribution attributeToNvtxRanges(const ProfileSet& set) {
  NvtxAttribution out;
  std::map<int, int64_t> last = lastEvents(set);

  // Every range, in order of first occurrence per rank.
  std::map<std::tuple<int, std::string, std::string>, size_t> index;
  std::vector<const NvtxRecord*> records;
  for (const NvtxRecord& r : set.nvtx())
    if (r.kind != "mark")
      records.push_back(&r);
  std::stable_sort(records.begin(), records.end(), [](const auto* a, const auto* b) {
    return a->rank != b->rank ? a->rank < b->rank : a->beginNs < b->beginNs;
  });
  for (const NvtxRecord* r : records) {
    auto key = std::make_tuple(r->rank, r->kind, labelOf(*r));
    auto [it, added] = index.try_emplace(key, out.ranges.size());
    if (added) {
      NvtxRangeTotals t;
      t.rank = r->rank;
      t.kind = r->kind;
      t.label = labelOf(*r);
      out.ranges.push_back(std::move(t));
    }
    NvtxRangeTotals& t = out.ranges[it->second];
    ++t.occurrences;
    if (!r->endNs)
      ++t.open;
    t.hostNs += static_cast<double>(endOf(*r, last[r->rank]) - r->beginNs);
    if (r->kind == "push")
      t.threads.insert(r->thread);
  }

  // Push/pop ranges per (rank, thread), start/end ranges per rank, swept in call order.
  std::map<std::pair<int, uint32_t>, OpenRanges> pushed;
  std::map<int, OpenRanges> started;
  for (const NvtxRecord* r : records)
    (r->kind == "push" ? pushed[{r->rank, r->thread}] : started[r->rank]).add(r);
  const CallingThreads threads(set);
  std::vector<PlacedWork> work = placeWork(set);
  auto called = [](const PlacedWork& w) {
    return w.launch ? w.launch->enqueuedNs : w.operation->enqueuedNs;
  };
  std::stable_sort(work.begin(), work.end(),
                   [&](const PlacedWork& a, const PlacedWork& b) { return called(a) < called(b); });

  std::map<std::tuple<int, std::string, std::string>, NvtxKernelTotals> kernels;
  for (const PlacedWork& w : work) {
    const int64_t at = called(w);
    // The push/pop stack, outermost first: the profile's own, else the calling thread's ranges
    // open at the call.
    std::vector<std::string> stack;
    if (w.launch != nullptr) {
      stack = w.launch->nvtx;
    } else if (auto thread = threads.at(w.rank, at)) {
      if (auto it = pushed.find({w.rank, *thread}); it != pushed.end())
        for (const NvtxRecord* r : it->second.at(at, last[w.rank]))
          stack.push_back(labelOf(*r));
    }
    std::vector<size_t> inside;
    for (const std::string& label : stack)
      if (auto it = index.find({w.rank, "push", label}); it != index.end())
        inside.push_back(it->second);
    if (auto it = started.find(w.rank); it != started.end())
      for (const NvtxRecord* r : it->second.at(at, last[w.rank]))
        inside.push_back(index.at({r->rank, r->kind, labelOf(*r)}));
    // A range entered twice (recursion, overlapping start/end ranges of one name) counts once.
    std::sort(inside.begin(), inside.end());
    inside.erase(std::unique(inside.begin(), inside.end()), inside.end());
    for (size_t i : inside) {
      NvtxRangeTotals& t = out.ranges[i];
      if (w.kernel()) {
        ++t.kernels;
        t.kernelGpuNs += w.durationNs;
      } else {
        ++t.transfers;
        t.transferGpuNs += w.durationNs;
      }
    }
    if (!w.kernel())
      continue;
    std::string path;
    for (const std::string& label : stack)
      path += (path.empty() ? "" : " > ") + label;
    std::string name = w.launch ? w.launch->demangled : w.operation->name;
    NvtxKernelTotals& k = kernels[{w.rank, path, name}];
    k.rank = w.rank;
    k.path = path;
    k.kernel = name;
    ++k.launches;
    if (w.launch != nullptr && w.launch->instrumented)
      ++k.instrumented;
    k.gpuNs += w.durationNs;
  }
  for (auto& [key, k] : kernels)
    out.kernels.push_back(std::move(k));
  return out;
}

std::string nvtxTimelineSvg(const ProfileSet& set, int rank) {
  std::vector<const NvtxRecord*> records;
  for (const NvtxRecord& r : set.nvtx())
    if (r.rank == rank)
      records.push_back(&r);
  if (records.empty())
    return "";
  std::stable_sort(records.begin(), records.end(),
                   [](const auto* a, const auto* b) { return a->beginNs < b->beginNs; });
  const int64_t origin = workOrigin(set);
  const int64_t last = lastEvents(set)[rank];
  std::vector<PlacedWork> work = placeWork(set, rank);
  std::stable_sort(work.begin(), work.end(),
                   [](const PlacedWork& a, const PlacedWork& b) { return a.startNs < b.startNs; });
  // A page stays usable: the earliest kMaxBars ranges and kMaxBars work items (the tables count
  // everything; the trace has every event).
  constexpr size_t kMaxBars = 10000;
  const size_t allRanges = records.size(), allWork = work.size();
  if (records.size() > kMaxBars)
    records.resize(kMaxBars);
  if (work.size() > kMaxBars)
    work.resize(kMaxBars);

  // Lanes, each with rows: push/pop ranges per (thread, domain), one row per depth; start/end
  // ranges per domain in the first row free at their start; marks per domain; work per (device,
  // stream).
  struct Bar {
    double begin, end; // ns from origin
    size_t row;
    std::string label, tip, cls;
  };
  struct Lane {
    std::string name;
    size_t rows = 1;
    std::vector<Bar> bars;
  };
  std::map<std::tuple<int, uint32_t, std::string>, Lane> lanes; // (order, thread, domain)
  std::map<std::tuple<int, uint32_t, std::string>, std::vector<int64_t>> openEnds;
  double first = 0, end = static_cast<double>(last - origin);
  for (const NvtxRecord* r : records) {
    const double b = static_cast<double>(r->beginNs - origin);
    const double e = static_cast<double>(endOf(*r, last) - origin);
    first = std::min(first, b);
    end = std::max(end, e);
    std::string domain = r->domain.empty() ? "" : " " + r->domain;
    std::string what = r->kind == "mark" ? "mark" : r->kind == "push" ? "push/pop" : "start/end";
    std::string tip = labelOf(*r) + " (" + what + ", thread " + std::to_string(r->thread) + ")";
    if (r->kind != "mark")
      tip += ": " + formatNanoseconds(e - b) + (r->endNs ? "" : ", still open at exit");
    std::tuple<int, uint32_t, std::string> key;
    size_t row = 0;
    if (r->kind == "push") {
      key = {0, r->thread, r->domain};
      lanes[key].name = "thread " + std::to_string(r->thread) + domain;
      // Depth: the ranges of this thread and domain still open at its begin (they nest).
      auto& ends = openEnds[key];
      while (!ends.empty() && ends.back() <= r->beginNs)
        ends.pop_back();
      row = ends.size();
      ends.push_back(endOf(*r, last));
    } else {
      key = {r->kind == "mark" ? 2 : 1, 0, r->domain};
      lanes[key].name = std::string(r->kind == "mark" ? "marks" : "start/end") + domain;
      auto& ends = openEnds[key];
      while (row < ends.size() && ends[row] > r->beginNs)
        ++row;
      if (row == ends.size())
        ends.push_back(0);
      ends[row] = r->kind == "mark" ? r->beginNs + 1 : endOf(*r, last);
    }
    Lane& lane = lanes[key];
    lane.rows = std::max(lane.rows, row + 1);
    lane.bars.push_back({b, e, row, r->name, tip, r->kind == "mark" ? "nvtx-mark" : "nvtx-range"});
  }
  for (const PlacedWork& w : work) {
    char name[64];
    std::snprintf(name, sizeof name, "GPU %d stream 0x%llx", w.device,
                  static_cast<unsigned long long>(w.stream));
    Lane& lane = lanes[{3 + w.device, static_cast<uint32_t>(w.stream & 0xffffffff), name}];
    lane.name = name;
    std::string label =
        w.launch ? w.launch->demangled
                 : (w.operation->kind == "kernel"
                        ? w.operation->name
                        : w.operation->name + " " + std::to_string(w.operation->bytes) + " B");
    first = std::min(first, w.startNs);
    end = std::max(end, w.startNs + w.durationNs);
    lane.bars.push_back({w.startNs, w.startNs + w.durationNs, 0, label,
                         label + ": " + formatNanoseconds(w.durationNs),
                         w.kernel() ? "kernel" : "transfer"});
  }

  const double labelWidth = 190, plotWidth = 900, rowHeight = 16, top = 22;
  const double span = std::max(end - first, 1.0);
  auto x = [&](double ns) { return labelWidth + (ns - first) / span * plotWidth; };
  size_t totalRows = 0;
  for (const auto& [key, lane] : lanes)
    totalRows += lane.rows;
  const double height = top + static_cast<double>(totalRows) * rowHeight + 6;
  std::string svg = "<svg class=\"nvtx-timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    coordinate(labelWidth + plotWidth + 10) + "\" height=\"" + coordinate(height) +
                    "\" font-size=\"10\">\n";
  // The time axis: 5 ticks.
  for (int t = 0; t <= 4; ++t) {
    double ns = first + span * t / 4;
    svg += "<line x1=\"" + coordinate(x(ns)) + "\" y1=\"14\" x2=\"" + coordinate(x(ns)) +
           "\" y2=\"" + coordinate(height) + "\" stroke=\"#e4e4e4\"/><text x=\"" +
           coordinate(x(ns)) + "\" y=\"11\" text-anchor=\"" + (t == 4 ? "end" : "middle") +
           "\" fill=\"#666\">" + escapeHtml(formatNanoseconds(ns)) + "</text>\n";
  }
  double y = top;
  for (const auto& [key, lane] : lanes) {
    svg += "<text x=\"4\" y=\"" + coordinate(y + 11) + "\">" + escapeHtml(lane.name) + "</text>\n";
    for (const Bar& bar : lane.bars) {
      const double by = y + static_cast<double>(bar.row) * rowHeight + 1;
      const double bx = x(bar.begin);
      if (bar.cls == "nvtx-mark") {
        svg += "<g class=\"nvtx-mark\"><title>" + escapeHtml(bar.tip) + "</title><path d=\"M" +
               coordinate(bx) + " " + coordinate(by) + " l4 7 l-4 7 l-4 -7 z\" fill=\"#333\"/>" +
               "</g>\n";
        continue;
      }
      const double width = std::max(1.0, x(bar.end) - bx);
      const char* fill = bar.cls == "kernel"     ? "#fd8d3c"
                         : bar.cls == "transfer" ? "#6baed6"
                         : bar.row % 2 == 0      ? "#9e9ac8"
                                                 : "#bcbddc";
      svg += "<g class=\"" + bar.cls + "\"><title>" + escapeHtml(bar.tip) + "</title><rect x=\"" +
             coordinate(bx) + "\" y=\"" + coordinate(by) + "\" width=\"" + coordinate(width) +
             "\" height=\"" + coordinate(rowHeight - 2) + "\" fill=\"" + fill +
             "\" stroke=\"#555\" stroke-width=\"0.5\"/>";
      // The name inside the bar where it fits (about 6 px a character).
      if (width > 6.0 * static_cast<double>(bar.label.size()) + 4)
        svg += "<text x=\"" + coordinate(bx + 2) + "\" y=\"" + coordinate(by + 10) + "\">" +
               escapeHtml(bar.label) + "</text>";
      svg += "</g>\n";
    }
    y += static_cast<double>(lane.rows) * rowHeight;
  }
  svg += "</svg>\n";
  if (allRanges > records.size() || allWork > work.size())
    svg += "<p class=\"note\">The timeline shows the first " + groupDigits(records.size()) +
           " of " + groupDigits(allRanges) + " NVTX ranges and marks and the first " +
           groupDigits(work.size()) + " of " + groupDigits(allWork) +
           " kernels and transfers; the trace (--trace) has them all.</p>\n";
  return svg;
}

std::string nvtxPanel(const ProfileSet& set) {
  if (set.nvtx().empty())
    return "";
  const std::vector<int> ranks = set.ranks();
  std::set<int> nvtxRanks;
  for (const NvtxRecord& r : set.nvtx())
    nvtxRanks.insert(r.rank);
  std::string html;
  for (int rank : nvtxRanks) {
    html += "<div class=\"panel\"><h4>Timeline" +
            (nvtxRanks.size() > 1 || ranks.size() > 1 ? " of rank " + std::to_string(rank) : "") +
            "</h4>\n<p class=\"note\">Per host thread its push/pop ranges (one row per nesting "
            "depth), start/end ranges and marks; below, per device and stream, kernels "
            "(orange) and copies and memsets (blue), each starting at its call or when its "
            "stream's previous work ended. Hover for names and times.</p>\n" +
            nvtxTimelineSvg(set, rank) + "</div>\n";
  }
  NvtxAttribution attribution = attributeToNvtxRanges(set);
  html += "<div class=\"panel\"><h4>Ranges</h4>\n<p class=\"note\">Per range, all occurrences "
          "together: host time between push and pop (start and end), and the device work "
          "called inside it, nested ranges included.</p>\n";
  html += "<table id=\"nvtx-ranges\" class=\"sortable nvtx\"><thead><tr><th>rank</th>"
          "<th>range</th><th>kind</th><th>threads</th><th>occurrences</th><th>host ms</th>"
          "<th>kernels</th><th>kernel GPU ms</th><th>transfers</th><th>transfer GPU ms</th>"
          "</tr></thead><tbody>\n";
  for (const NvtxRangeTotals& t : attribution.ranges) {
    std::string threads;
    for (uint32_t thread : t.threads)
      threads += (threads.empty() ? "" : ", ") + std::to_string(thread);
    html += "<tr data-range=\"" + escapeHtml(t.label) + "\">" +
            numericCell(t.rank, std::to_string(t.rank)) + "<td class=\"name\" data-v=\"\">" +
            escapeHtml(t.label) + "</td><td data-v=\"\">" +
            (t.kind == "push" ? "push/pop" : "start/end") + "</td><td data-v=\"\">" +
            (threads.empty() ? "any" : threads) + "</td>" +
            numericCell(static_cast<double>(t.occurrences),
                        std::to_string(t.occurrences) +
                            (t.open ? " (" + std::to_string(t.open) + " open at exit)" : "")) +
            numericCell(t.hostNs / 1e6, ms(t.hostNs)) +
            numericCell(static_cast<double>(t.kernels), groupDigits(t.kernels)) +
            numericCell(t.kernelGpuNs / 1e6, ms(t.kernelGpuNs)) +
            numericCell(static_cast<double>(t.transfers), groupDigits(t.transfers)) +
            numericCell(t.transferGpuNs / 1e6, ms(t.transferGpuNs)) + "</tr>\n";
  }
  html += "</tbody></table></div>\n";
  html += "<div class=\"panel\"><h4>Kernels by range</h4>\n<p class=\"note\">Each kernel launch "
          "attributed to the push/pop range stack it was launched in (outermost first; the "
          "innermost range gets it).</p>\n";
  html += "<table id=\"nvtx-kernels\" class=\"sortable nvtx\"><thead><tr><th>rank</th>"
          "<th>range stack</th><th>kernel</th><th>launches</th><th>instrumented</th>"
          "<th>GPU ms</th></tr></thead><tbody>\n";
  for (const NvtxKernelTotals& k : attribution.kernels)
    html += "<tr>" + numericCell(k.rank, std::to_string(k.rank)) +
            "<td class=\"name\" data-v=\"\">" +
            (k.path.empty() ? std::string("<span class=\"note\">(outside every range)</span>")
                            : escapeHtml(k.path)) +
            "</td><td class=\"name\" data-v=\"\">" + escapeHtml(k.kernel) + "</td>" +
            numericCell(static_cast<double>(k.launches), groupDigits(k.launches)) +
            numericCell(static_cast<double>(k.instrumented), groupDigits(k.instrumented)) +
            numericCell(k.gpuNs / 1e6, ms(k.gpuNs)) + "</tr>\n";
  html += "</tbody></table></div>\n";
  return html;
}

} // namespace ocelot::report
