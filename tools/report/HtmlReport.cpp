#include "tools/report/HtmlReport.h"

#include "tools/report/CfgHeatMap.h"
#include "tools/report/Html.h"
#include "tools/report/KernelTotals.h"
#include "tools/report/NvtxView.h"
#include "tools/report/RunMeasures.h"
#include "tools/report/SmTimeline.h"
#include "tools/report/SourceView.h"
#include "tools/report/TrendChart.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace ocelot::report {

namespace {

const char* kStyle = R"CSS(
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1a1a1a;
       background: #fafafa; }
header { background: #2b2b2b; color: #fff; padding: 12px 24px; }
header h1 { margin: 0 0 4px 0; font-size: 20px; }
header p { margin: 0; font-size: 13px; color: #ddd; }
nav { padding: 6px 24px; background: #eee; font-size: 13px; position: sticky; top: 0; z-index: 2; }
nav a { margin-right: 14px; }
main { padding: 8px 24px 40px 24px; }
h2 { font-size: 17px; margin: 22px 0 8px 0; border-bottom: 1px solid #ccc; }
h3 { font-size: 15px; margin: 14px 0 6px 0; word-break: break-all; }
h4 { font-size: 13px; margin: 10px 0 4px 0; }
table { border-collapse: collapse; font-size: 12px; background: #fff; }
th, td { border: 1px solid #ddd; padding: 3px 6px; vertical-align: top; }
th { background: #f0f0f0; text-align: left; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th.sorted-asc::after { content: " \25B2"; }
table.sortable th.sorted-desc::after { content: " \25BC"; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.name { word-break: break-all; max-width: 520px; }
.mangled { color: #777; font-size: 11px; }
td.call-path div { font-family: monospace; font-size: 12px; }
.panel { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 8px 12px;
         margin: 8px 0; overflow-x: auto; }
.note, .empty { color: #666; font-size: 12px; }
.reasons { font-size: 11px; color: #7a3b00; }
table.source td.code { border: none; padding: 0 8px; }
table.source pre { margin: 0; font-size: 11px; }
.trends { display: flex; flex-wrap: wrap; gap: 8px; }
details > summary { cursor: pointer; font-weight: 600; }
.legend span { display: inline-block; width: 40px; height: 10px; }
.bar { display: inline-block; height: 10px; background: #fd8d3c; vertical-align: middle; }
)CSS";

// Sorting of the tables marked "sortable" (numbers by data-v, text otherwise), then the
// page marks itself ready: the browser test reads data-ready and data-script-errors.
const char* kScript = R"JS(
(function () {
  'use strict';
  var errors = 0;
  window.addEventListener('error', function () {
    errors += 1;
    document.body.setAttribute('data-script-errors', String(errors));
  });
  function cellValue(row, index) {
    var cell = row.cells[index];
    if (!cell) { return ''; }
    var v = cell.getAttribute('data-v');
    if (v !== null && v !== '' && !isNaN(Number(v))) { return Number(v); }
    return cell.textContent.trim().toLowerCase();
  }
  function sortTable(table, index, header) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var descending = !header.classList.contains('sorted-desc');
    rows.sort(function (a, b) {
      var x = cellValue(a, index), y = cellValue(b, index);
      var order = (typeof x === 'number' && typeof y === 'number') ? x - y
                : String(x).localeCompare(String(y));
      return descending ? -order : order;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) {
      c.classList.remove('sorted-asc', 'sorted-desc');
    });
    header.classList.add(descending ? 'sorted-desc' : 'sorted-asc');
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (header, index) {
      header.addEventListener('click', function () { sortTable(table, index, header); });
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll('a.kernel-link'), function (link) {
    link.addEventListener('click', function () {
      var target = document.getElementById(link.getAttribute('href').slice(1));
      if (target && target.tagName === 'DETAILS') { target.open = true; }
    });
  });
  var heatMaps = document.querySelectorAll('svg.cfg-heatmap').length;
  var timelines = document.querySelectorAll('svg.sm-timeline').length;
  var nvtx = document.querySelectorAll('svg.nvtx-timeline').length;
  document.body.setAttribute('data-nvtx-timelines', String(nvtx));
  document.body.setAttribute('data-heatmaps', String(heatMaps));
  document.body.setAttribute('data-timelines', String(timelines));
  document.body.setAttribute('data-ready', errors === 0 ? 'ok' : 'errors');
})();
)JS";

std::string number(double v, int decimals = 3) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  return text;
}

std::string numericCell(double sortValue, const std::string& text) {
  return "<td class=\"num\" data-v=\"" + number(sortValue, 6) + "\">" + escapeHtml(text) + "</td>";
}

std::string anchor(size_t index) {
  return "k" + std::to_string(index);
}

/// The launch whose SM timeline the report draws: the instrumented ctaclock launch with the
/// longest span (the most to see), nullptr without one.
const Launch* timelineLaunch(const KernelTotals& kernel) {
  const Launch* best = nullptr;
  uint64_t longest = 0;
  for (const Launch* l : kernel.launchList) {
    if (l->ctaclock == nullptr)
      continue;
    uint64_t ns = l->ctaclock->value("kernel_ns", uint64_t{0});
    if (best == nullptr || ns > longest) {
      best = l;
      longest = ns;
    }
  }
  return best;
}

std::string kernelTable(const std::vector<KernelTotals>& kernels, const std::vector<int>& ranks) {
  const bool multiRank = ranks.size() > 1;
  std::string html = "<table id=\"kernel-table\" class=\"sortable kernels\"><thead><tr>"
                     "<th>kernel</th><th>launches</th><th>instrumented</th>"
                     "<th>instrumented share</th><th>GPU ms</th><th>ms / launch</th>"
                     "<th>dynamic PTX instructions</th><th>SM imbalance mean / max</th>";
  if (multiRank)
    html += "<th>GPU ms across ranks min / mean / max</th><th>rank imbalance</th>";
  html += "<th>reasons and notes</th></tr></thead><tbody>\n";
  for (size_t i = 0; i < kernels.size(); ++i) {
    const KernelTotals& k = kernels[i];
    html += "<tr><td class=\"name\" data-v=\"\"><a class=\"kernel-link\" href=\"#" + anchor(i) +
            "\">" + escapeHtml(k.demangled) + "</a>";
    if (k.demangled != k.kernel)
      html += "<div class=\"mangled\">" + escapeHtml(k.kernel) + "</div>";
    html += "</td>";
    html += numericCell(static_cast<double>(k.launches), groupDigits(k.launches));
    html += numericCell(static_cast<double>(k.instrumented), groupDigits(k.instrumented));
    html += numericCell(k.instrumentedShare(), number(100 * k.instrumentedShare(), 1) + "%");
    html += numericCell(k.gpuMs, k.timedLaunches == 0 ? "-" : number(k.gpuMs));
    double perLaunch = k.timedLaunches == 0 ? 0 : k.gpuMs / static_cast<double>(k.timedLaunches);
    html += numericCell(perLaunch, k.timedLaunches == 0 ? "-" : number(perLaunch));
    html += numericCell(static_cast<double>(k.instructions),
                        k.instructions == 0 ? "-" : groupDigits(k.instructions));
    html += numericCell(k.meanImbalance(),
                        k.clockLaunches == 0
                            ? "-"
                            : number(k.meanImbalance(), 2) + " / " + number(k.imbalanceMax, 2));
    if (multiRank) {
      RankSpread s = spreadAcrossRanks(k, ranks, [](const RankTotal& r) { return r.gpuMs; });
      html += numericCell(s.mean, number(s.min) + " (rank " + std::to_string(s.minRank) + ") / " +
                                      number(s.mean) + " / " + number(s.max) + " (rank " +
                                      std::to_string(s.maxRank) + ")");
      html += numericCell(s.imbalance, number(s.imbalance, 2));
    }
    html += "<td class=\"reasons\">";
    for (const auto& [reason, count] : k.reasons)
      html += "<div>original kernel in " + groupDigits(count) + " launch" +
              (count == 1 ? "" : "es") + ": " + escapeHtml(reason) + "</div>";
    for (const auto& [note, count] : k.notes)
      html += "<div>" + groupDigits(count) + " x " + escapeHtml(note) + "</div>";
    html += "</td></tr>\n";
  }
  html += "</tbody></table>\n";
  return html;
}

std::string trendsHtml(const KernelTotals& k, const std::vector<int>& ranks) {
  std::vector<TrendSeries> time, instructions, imbalance;
  for (int r : ranks) {
    TrendSeries t{"rank " + std::to_string(r), {}}, in = t, im = t;
    double x = 0;
    for (const Launch* l : k.launchList) {
      if (l->rank != r)
        continue;
      x = l->kernelLaunch != 0 ? static_cast<double>(l->kernelLaunch) : x + 1;
      if (l->gpuMs)
        t.points.emplace_back(x, *l->gpuMs);
      if (auto v = launchInstructions(*l))
        in.points.emplace_back(x, *v);
      if (auto v = launchImbalance(*l))
        im.points.emplace_back(x, *v);
    }
    if (!t.points.empty())
      time.push_back(std::move(t));
    if (!in.points.empty())
      instructions.push_back(std::move(in));
    if (!im.points.empty())
      imbalance.push_back(std::move(im));
  }
  std::string html = "<div class=\"trends\">";
  html += trendChartSvg("GPU time per launch", time, "ms");
  if (!instructions.empty())
    html += trendChartSvg("dynamic PTX instructions per launch", instructions, "instructions");
  if (!imbalance.empty())
    html += trendChartSvg("SM imbalance per launch", imbalance, "busiest / mean");
  html += "</div>\n";
  return html;
}

std::string kernelSection(const ProfileSet& set, const KernelTotals& k, size_t index,
                          const std::vector<int>& ranks, const HtmlReportOptions& options) {
  std::string html = "<details class=\"kernel\" id=\"" + anchor(index) + "\"" +
                     (index == 0 ? " open" : "") + "><summary>" + escapeHtml(k.demangled) +
                     "</summary>\n";
  if (k.demangled != k.kernel)
    html += "<div class=\"mangled\">" + escapeHtml(k.kernel) + "</div>\n";
  html += "<p class=\"note\">" + groupDigits(k.launches) + " launches, " +
          groupDigits(k.instrumented) + " instrumented";
  if (k.timedLaunches > 0)
    html += ", " + number(k.gpuMs) + " ms on the GPU";
  html += ".</p>\n";

  const nlohmann::json* structure = k.moduleId.empty() ? nullptr : set.structure(k.moduleId);
  html += "<div class=\"panel\"><h4>Control-flow graph, blocks coloured by executions</h4>\n";
  if (structure == nullptr) {
    html += "<p class=\"empty\">No CFG: " +
            std::string(k.blocks.empty() ? "bbcount did not count this kernel"
                                         : "the profile has no code structure for its module") +
            ".</p>\n";
  } else {
    uint64_t hottest = 0;
    std::set<std::string> functions;
    for (const auto& [key, b] : k.blocks) {
      hottest = std::max(hottest, b.count);
      functions.insert(key.first);
    }
    html += "<p class=\"legend note\">cold <span style=\"background:linear-gradient(90deg," +
            heatColour(0) + "," + heatColour(0.5) + "," + heatColour(1) +
            ")\"></span> hot (log scale); grey: never executed; dashed: not counted; red frame: "
            "loop header (thicker: deeper); red arcs: loop back edges (thicker: hotter)</p>\n";
    for (const auto& f : (*structure)["functions"]) {
      std::string name = f.value("name", "");
      if (!functions.count(name))
        continue;
      if (name != k.kernel)
        html += "<h4>device function " + escapeHtml(name) + "</h4>\n";
      html += cfgHeatMapSvg(f, (*structure)["files"], k, hottest);
    }
  }
  html += "</div>\n";

  html += "<div class=\"panel\"><h4>Source lines</h4>\n" +
          sourceViewHtml(sourceLines(set, k), options.sourceDirs) + "</div>\n";

  html += "<div class=\"panel\"><h4>SM timeline and load (ctaclock)</h4>\n";
  if (const Launch* l = timelineLaunch(k)) {
    html += "<p class=\"note\">Launch " + std::to_string(l->kernelLaunch) + " of the kernel" +
            (ranks.size() > 1 ? " on rank " + std::to_string(l->rank) : "") + " (the longest), " +
            groupDigits(l->ctas) + " CTAs, SM imbalance " +
            number(l->ctaclock->value("imbalance", 0.0), 2) + ".</p>\n";
    html += smTimelineSvg(*l->ctaclock);
    html += smLoadSvg(*l->ctaclock);
  } else {
    html += "<p class=\"empty\">No CTA clocks: run with <code>-i ctaclock</code>.</p>\n";
  }
  html += "</div>\n";
  html += "<div class=\"panel\"><h4>Per-launch trends</h4>\n" + trendsHtml(k, ranks) + "</div>\n";
  html += "</details>\n";
  return html;
}

std::string coveragePanel(const ProfileSet& set, const std::vector<KernelTotals>& kernels) {
  std::string html = "<table class=\"sortable coverage\"><thead><tr><th>kernel</th>"
                     "<th>blocks executed</th><th>PTX instructions covered</th>"
                     "<th>source lines executed</th><th>never executed</th></tr></thead><tbody>\n";
  for (size_t i = 0; i < kernels.size(); ++i) {
    const KernelTotals& k = kernels[i];
    html += "<tr><td class=\"name\"><a class=\"kernel-link\" href=\"#" + anchor(i) + "\">" +
            escapeHtml(k.demangled) + "</a></td>";
    if (k.blocks.empty()) {
      html += "<td class=\"num\" data-v=\"-1\">-</td><td class=\"num\" data-v=\"-1\">-</td>"
              "<td class=\"num\" data-v=\"-1\">-</td><td class=\"note\">" +
              std::string(k.instrumented == 0 ? "never instrumented" : "not counted (no bbcount)") +
              "</td></tr>\n";
      continue;
    }
    uint64_t counted = 0, executed = 0, staticInstructions = 0, coveredInstructions = 0;
    std::vector<std::string> never;
    for (const auto& [key, b] : k.blocks) {
      if (!b.counted)
        continue;
      ++counted;
      staticInstructions += b.instructions;
      if (b.count > 0) {
        ++executed;
        coveredInstructions += b.instructions;
      } else {
        never.push_back("B" + std::to_string(b.index) +
                        (key.first != k.kernel ? " of " + key.first : "") +
                        (b.location.empty() ? "" : " (" + b.location + ")"));
      }
    }
    // Lines: every line of a counted block; executed when a block at it ran.
    std::set<std::pair<uint32_t, uint32_t>> lines, executedLines;
    if (const nlohmann::json* structure = set.structure(k.moduleId)) {
      for (const auto& f : (*structure)["functions"]) {
        std::string name = f.value("name", "");
        for (uint32_t b = 0; b < f["blocks"].size(); ++b) {
          auto total = k.blocks.find({name, b});
          if (total == k.blocks.end() || !total->second.counted)
            continue;
          for (const auto& l : f["blocks"][b]["lines"]) {
            std::pair<uint32_t, uint32_t> line{l[0].get<uint32_t>(), l[1].get<uint32_t>()};
            lines.insert(line);
            if (total->second.count > 0)
              executedLines.insert(line);
          }
        }
      }
    }
    auto share = [](uint64_t part, uint64_t whole) {
      return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
    };
    auto bar = [&](double percent) {
      return "<span class=\"bar\" style=\"width:" + coordinate(percent * 0.6) + "px\"></span> ";
    };
    html += "<td class=\"num\" data-v=\"" + number(share(executed, counted), 3) + "\">" +
            bar(share(executed, counted)) + std::to_string(executed) + " / " +
            std::to_string(counted) + "</td>";
    html += "<td class=\"num\" data-v=\"" +
            number(share(coveredInstructions, staticInstructions), 3) + "\">" +
            bar(share(coveredInstructions, staticInstructions)) +
            number(share(coveredInstructions, staticInstructions), 1) + "%</td>";
    html += lines.empty() ? std::string("<td class=\"num\" data-v=\"-1\">-</td>")
                          : "<td class=\"num\" data-v=\"" +
                                number(share(executedLines.size(), lines.size()), 3) + "\">" +
                                bar(share(executedLines.size(), lines.size())) +
                                std::to_string(executedLines.size()) + " / " +
                                std::to_string(lines.size()) + "</td>";
    html += "<td class=\"note\">";
    for (size_t n = 0; n < never.size() && n < 12; ++n)
      html += escapeHtml(never[n]) + (n + 1 < never.size() ? ", " : "");
    if (never.size() > 12)
      html += "and " + std::to_string(never.size() - 12) + " more";
    html += "</td></tr>\n";
  }
  html += "</tbody></table>\n";
  return html;
}

std::string ranksPanel(const ProfileSet& set, const std::vector<KernelTotals>& kernels,
                       const std::vector<int>& ranks) {
  std::string html = "<p class=\"note\">" + std::to_string(ranks.size()) +
                     " ranks. Per kernel: GPU time and launches on each rank; imbalance = the "
                     "busiest rank / the mean over ranks (1.00 = even).</p>\n";
  html += "<table class=\"sortable ranks\"><thead><tr><th>kernel</th>";
  for (int r : ranks)
    html += "<th>rank " + std::to_string(r) + " ms</th>";
  html += "<th>min</th><th>mean</th><th>max</th><th>imbalance</th>"
          "<th>dynamic PTX instructions min / mean / max</th><th>instruction imbalance</th>"
          "</tr></thead><tbody>\n";
  for (size_t i = 0; i < kernels.size(); ++i) {
    const KernelTotals& k = kernels[i];
    html += "<tr><td class=\"name\"><a class=\"kernel-link\" href=\"#" + anchor(i) + "\">" +
            escapeHtml(k.demangled) + "</a></td>";
    for (int r : ranks) {
      auto it = k.ranks.find(r);
      double ms = it == k.ranks.end() ? 0 : it->second.gpuMs;
      uint64_t launches = it == k.ranks.end() ? 0 : it->second.launches;
      html += numericCell(ms, number(ms) + " (" + groupDigits(launches) + ")");
    }
    RankSpread s = spreadAcrossRanks(k, ranks, [](const RankTotal& r) { return r.gpuMs; });
    html += numericCell(s.min, number(s.min)) + numericCell(s.mean, number(s.mean)) +
            numericCell(s.max, number(s.max)) + numericCell(s.imbalance, number(s.imbalance, 2));
    // Instructions are exact where times vary from run to run.
    RankSpread in = spreadAcrossRanks(
        k, ranks, [](const RankTotal& r) { return static_cast<double>(r.instructions); });
    html += numericCell(in.mean, groupDigits(static_cast<uint64_t>(in.min)) + " (rank " +
                                     std::to_string(in.minRank) + ") / " + number(in.mean, 1) +
                                     " / " + groupDigits(static_cast<uint64_t>(in.max)) +
                                     " (rank " + std::to_string(in.maxRank) + ")");
    html += numericCell(in.imbalance, number(in.imbalance, 2));
    html += "</tr>\n";
  }
  html += "</tbody></table>\n";
  (void)set;
  return html;
}

} // namespace

/// The launch sites: per (kernel, host call path, device, stream) launches and GPU time; the path
/// outermost first, one function per line.
std::string launchSitesTable(const std::vector<LaunchSiteTotals>& sites) {
  std::string html = "<table id=\"launch-sites\" class=\"sortable sites\"><thead><tr>"
                     "<th>kernel</th><th>host call path (outermost first)</th><th>device</th>"
                     "<th>stream</th><th>launches</th><th>GPU ms</th></tr></thead><tbody>\n";
  for (const LaunchSiteTotals& site : sites) {
    html += "<tr><td class=\"name\" data-v=\"\">" + escapeHtml(site.demangled) +
            "</td><td class=\"call-path\" data-v=\"\">";
    for (auto frame = site.callPath.rbegin(); frame != site.callPath.rend(); ++frame)
      html += "<div>" + escapeHtml(*frame) + "</div>";
    html += "</td>";
    html += numericCell(site.device, std::to_string(site.device));
    char stream[32];
    std::snprintf(stream, sizeof stream, "0x%llx", static_cast<unsigned long long>(site.stream));
    html += numericCell(static_cast<double>(site.stream), stream);
    html += numericCell(static_cast<double>(site.launches), groupDigits(site.launches));
    html += numericCell(site.gpuMs, site.timedLaunches == 0 ? "-" : number(site.gpuMs));
    html += "</tr>\n";
  }
  html += "</tbody></table>\n";
  return html;
}

std::string ratio(const std::optional<double>& value) {
  return value ? number(*value, 3) : "-";
}

/// GCP and GLB (seed 001) per rank and device and across devices, with the times they come from.
std::string hostMeasuresPanel(const std::vector<RunMeasures>& runs) {
  std::string html =
      "<table id=\"host-measures\" class=\"sortable measures\"><thead><tr><th>rank</th>"
      "<th>device</th><th>kernels</th><th>kernel device ms</th><th>transfers</th>"
      "<th>transfer device ms</th><th>device ms</th><th>busy ms</th><th>wall ms</th>"
      "<th>GCP</th><th>GLB</th></tr></thead><tbody>\n";
  for (const RunMeasures& run : runs) {
    const HostMeasures& m = run.measures;
    auto row = [&](const DeviceTimes& d, const std::string& device, std::optional<double> glb) {
      html +=
          "<tr>" + numericCell(run.rank, std::to_string(run.rank)) +
          "<td class=\"device\" data-v=\"\">" + escapeHtml(device) + "</td>" +
          numericCell(static_cast<double>(d.kernels), groupDigits(d.kernels)) +
          numericCell(d.kernelNs / 1e6, number(d.kernelNs / 1e6)) +
          numericCell(static_cast<double>(d.transfers),
                      run.transfersRecorded ? groupDigits(d.transfers) : "not recorded") +
          numericCell(d.transferNs / 1e6, number(d.transferNs / 1e6)) +
          numericCell(d.deviceNs() / 1e6, number(d.deviceNs() / 1e6)) +
          numericCell(d.busyNs / 1e6, number(d.busyNs / 1e6)) +
          numericCell(m.wallNs / 1e6,
                      number(m.wallNs / 1e6) + (run.wallFromFile ? "" : " (profiled span)")) +
          numericCell(d.gcp().value_or(0),
                      run.transfersRecorded ? ratio(d.gcp()) : ratio(d.gcp()) + " (kernels only)") +
          numericCell(glb.value_or(0), ratio(glb)) + "</tr>\n";
    };
    for (const DeviceTimes& d : m.devices)
      row(d, "GPU " + std::to_string(d.device), d.glb(m.wallNs));
    if (m.devices.size() > 1)
      row(m.all, "all " + std::to_string(m.devices.size()) + " devices", m.glbAcrossDevices());
  }
  html += "</tbody></table>\n";
  for (const RunMeasures& run : runs) {
    if (!run.hostRecorded)
      continue;
    const HostMeasures& m = run.measures;
    html += "<p class=\"note overlap\" data-rank=\"" + std::to_string(run.rank) + "\">Rank " +
            std::to_string(run.rank) + ": the host worked " + number(m.hostBusyNs / 1e6) +
            " ms of the " + number(m.wallNs / 1e6) +
            " ms (outside synchronizations and synchronous copies), a device was busy " +
            number(m.gpuBusyNs / 1e6) +
            " ms; both at once (overlap of CPU and GPU work): " + number(m.overlapNs / 1e6) +
            " ms.</p>\n";
  }
  return html;
}

std::string htmlReport(const ProfileSet& set, const HtmlReportOptions& options) {
  std::vector<KernelTotals> kernels = aggregateKernels(set);
  std::vector<LaunchSiteTotals> sites = aggregateLaunchSites(set);
  std::vector<int> ranks = set.ranks();
  uint64_t launches = 0, instrumented = 0;
  double gpuMs = 0;
  for (const auto& k : kernels) {
    launches += k.launches;
    instrumented += k.instrumented;
    gpuMs += k.gpuMs;
  }
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                     "<title>" +
                     escapeHtml(options.title) + "</title>\n<style>" + kStyle + "</style></head>\n";
  html += "<body data-ready=\"no\">\n<header><h1>" + escapeHtml(options.title) + "</h1><p>" +
          std::to_string(kernels.size()) + " kernels, " + groupDigits(launches) + " launches (" +
          groupDigits(instrumented) + " instrumented), " + number(gpuMs) + " ms of GPU time";
  if (ranks.size() > 1)
    html += ", " + std::to_string(ranks.size()) + " ranks";
  html += ". From ";
  for (size_t i = 0; i < set.sources().size(); ++i)
    html += (i ? ", " : "") + escapeHtml(set.sources()[i]);
  html += ".</p></header>\n<nav><a href=\"#kernels\">kernels</a><a href=\"#details\">per kernel"
          "</a><a href=\"#coverage\">coverage</a>";
  if (ranks.size() > 1)
    html += "<a href=\"#ranks\">ranks</a>";
  if (!sites.empty())
    html += "<a href=\"#sites\">launch sites</a>";
  html += "<a href=\"#measures\">GCP / GLB</a>";
  const std::string nvtx = nvtxPanel(set);
  if (!nvtx.empty())
    html += "<a href=\"#nvtx\">NVTX</a>";
  html += "</nav>\n<main>\n";
  html += "<h2 id=\"kernels\">Kernels</h2>\n<p class=\"note\">Click a column to sort; click a "
          "kernel for its CFG, source lines, SM timeline and trends.</p>\n";
  html += kernelTable(kernels, ranks);
  if (!sites.empty()) {
    html += "<h2 id=\"sites\">Launch sites</h2>\n<p class=\"note\">Launches by kernel, host "
            "call path, device and stream: where in the application each kernel was launched "
            "from.</p>\n";
    html += launchSitesTable(sites);
  }
  html +=
      "<h2 id=\"measures\">Host-side measures: GCP and GLB</h2>\n<p class=\"note\">As "
      "seed 001 defines them (sections 3.2, 3.3): device time = kernel device time + data "
      "movement device time (sums of each operation's GPU time); GCP = kernel device time / "
      "device time; GLB = device time / wall clock time, per device, and across devices the "
      "sums over devices with each device having the whole wall time (the mean of the "
      "devices' GLB). Busy = the union of the device's intervals (concurrent streams count "
      "once). Kernel times of instrumented launches include the instrumentation's cost. Transfers "
      "(copies, memsets) and kernels without a profile are recorded with host measures on "
      "(by default with a profile file; OCELOT_HOST_MEASURES).</p>\n";
  html += hostMeasuresPanel(runMeasures(set));
  if (!nvtx.empty())
    html += "<h2 id=\"nvtx\">NVTX ranges</h2>\n" + nvtx;
  html += "<h2 id=\"details\">Per kernel</h2>\n";
  for (size_t i = 0; i < kernels.size(); ++i)
    html += kernelSection(set, kernels[i], i, ranks, options);
  html += "<h2 id=\"coverage\">Coverage</h2>\n<p class=\"note\">Basic blocks, PTX instructions and "
          "source lines of the code bbcount counted that ran at least once, over every launch."
          "</p>\n";
  html += coveragePanel(set, kernels);
  if (ranks.size() > 1) {
    html += "<h2 id=\"ranks\">Ranks</h2>\n";
    html += ranksPanel(set, kernels, ranks);
  }
  html += "</main>\n<script>" + std::string(kScript) + "</script>\n</body></html>\n";
  return html;
}

} // namespace ocelot::report
