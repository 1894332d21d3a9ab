// The report library (tools/report) on hand-made profiles: layout, aggregation and rank merging,
// the HTML page, the trace, TAU files; and MPI rank file names (tools/ocelot/MpiRank).

#include "tools/ocelot/MpiRank.h"
#include "tools/report/CfgLayout.h"
#include "tools/report/HtmlReport.h"
#include "tools/report/KernelTotals.h"
#include "tools/report/NvtxView.h"
#include "tools/report/ProfileSet.h"
#include "tools/report/ProfileTrace.h"
#include "tools/report/SmTimeline.h"
#include "tools/report/SourceView.h"
#include "tools/report/TauProfile.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace ocelot::report {
namespace {

using nlohmann::json;

/// A launch of kernel `name` on `rank`: bbcount over a loop (B0 -> B1 <-> B1 -> B2) and
/// ctaclock of 4 CTAs on 2 SMs.
json launch(const std::string& name, uint64_t id, double gpuMs, uint64_t loopCount, bool withCfg) {
  json blocks = json::array();
  uint64_t counts[3] = {64, loopCount, 64};
  for (uint32_t b = 0; b < 3; ++b)
    blocks.push_back({{"function", name},
                      {"index", b},
                      {"label", b ? "$L" + std::to_string(b) : ""},
                      {"instructions", 4},
                      {"location", "k.cu:" + std::to_string(10 + b)},
                      {"count", counts[b]}});
  json bbcount = {{"mode", "per-warp"},
                  {"threads", 64},
                  {"block_executions", 128 + loopCount},
                  {"dynamic_instructions", 4 * (128 + loopCount)},
                  {"blocks", blocks},
                  {"module", "00000000000000aa"}};
  if (withCfg)
    bbcount["cfg"] = {
        {"id", "00000000000000aa"},
        {"files", {"/nonexistent/k.cu"}},
        {"functions",
         {{{"name", name},
           {"entry", true},
           {"blocks",
            {{{"successors", {1}}, {"lines", {{0, 10, 4}}}},
             {{"successors", {1, 2}},
              {"loop_depth", 1},
              {"loop_header", true},
              {"lines", {{0, 11, 4}}}},
             {{"successors", json::array()}, {"exits", true}, {"lines", {{0, 12, 4}}}}}}}}}};
  json ctaclock = {{"kernel_ns", 3000},
                   {"imbalance", 1.5},
                   {"complete", true},
                   {"problems", json::array()},
                   {"sms",
                    {{{"sm", 0}, {"ctas", 3}, {"busy_cycles", 3000}, {"busy_ns", 3000}},
                     {{"sm", 1}, {"ctas", 1}, {"busy_cycles", 1000}, {"busy_ns", 1000}}}},
                   {"ctas",
                    {{"sm", {0, 0, 1, 0}},
                     {"start_cycle", {0, 500, 0, 1000}},
                     {"end_cycle", {1000, 2000, 1000, 3000}},
                     {"start_ns", {100, 600, 100, 1100}},
                     {"end_ns", {1100, 2100, 1100, 3100}},
                     {"warps_started", {2, 2, 2, 2}},
                     {"threads_exited", {32, 32, 32, 32}}}}};
  return {{"schema", 1},
          {"kernel", name},
          {"demangled", name == "_Z1kv" ? "k<int>(char const*)" : name},
          {"launch_id", id},
          {"kernel_launch", id},
          {"device", 0},
          {"grid", {4, 1, 1}},
          {"block", {16, 1, 1}},
          {"dynamic_shared_memory", 0},
          {"stream", 0},
          {"enqueued_ns", 1000000 + 10000 * id},
          {"completed_ns", 2000000 + 10000 * id},
          {"gpu_ms", gpuMs},
          {"execution", "instrumented"},
          {"instrumentors", {"bbcount", "ctaclock"}},
          {"notes", json::array()},
          {"results", {{"bbcount", bbcount}, {"ctaclock", ctaclock}}}};
}

json document(std::vector<json> profiles) {
  return {{"schema", 1}, {"profiles", std::move(profiles)}};
}

ProfileSet twoRanks() {
  ProfileSet set;
  set.add("profile.rank0.json", 0,
          document({launch("_Z1kv", 1, 1.0, 640, true), launch("_Z1kv", 2, 1.0, 640, false)}));
  json original = launch("_Z4tailv", 3, 0.5, 0, false);
  original["execution"] = "original";
  original["results"] = json::object();
  original["notes"] = {"the instrumented module failed to JIT"};
  set.add("profile.rank1.json", 1, document({launch("_Z1kv", 1, 3.0, 1280, true), original}));
  return set;
}

TEST(CfgLayout, FindsLoopsAndLayersForwardEdgesDownward) {
  // 0 -> 1 -> 2 -> 1 (loop), 1 -> 3, 0 -> 3
  CfgLayout layout(std::vector<CfgLayout::Node>(4, {80, 40}),
                   {{0, 1}, {1, 2}, {2, 1}, {1, 3}, {0, 3}, {3, 3}, {3, 9}});
  EXPECT_EQ(layout.kind(2), CfgLayout::EdgeKind::Back);
  EXPECT_EQ(layout.kind(5), CfgLayout::EdgeKind::Self);
  EXPECT_EQ(layout.kind(6), CfgLayout::EdgeKind::Dropped);
  for (size_t e = 0; e < layout.edges().size(); ++e) {
    if (layout.kind(e) != CfgLayout::EdgeKind::Forward)
      continue;
    auto [from, to] = layout.edges()[e];
    EXPECT_LT(layout.positions()[from].layer, layout.positions()[to].layer) << from << "->" << to;
    EXPECT_LT(layout.positions()[from].y, layout.positions()[to].y);
  }
  for (uint32_t a = 0; a < 4; ++a) {
    for (uint32_t b = a + 1; b < 4; ++b) {
      if (layout.positions()[a].layer == layout.positions()[b].layer) {
        EXPECT_GE(std::abs(layout.positions()[a].x - layout.positions()[b].x), 80.0);
      }
    }
  }
  EXPECT_GT(layout.width(), 0);
}

TEST(ProfileSet, RanksComeFromFileNamesAndBadFilesAreClearErrors) {
  EXPECT_EQ(rankFromFileName("/a/b/profile.rank12.json"), 12);
  EXPECT_EQ(rankFromFileName("out.rank3"), 3);
  EXPECT_EQ(rankFromFileName("profile.json"), std::nullopt);
  EXPECT_EQ(rankFromFileName("ranking.json"), std::nullopt);
  auto dir = std::filesystem::temp_directory_path() / "ocelot-report-test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "bad.json") << "{\"schema\":1,\"profiles\":[";
  std::ofstream(dir / "v2.json") << "{\"schema\":2,\"profiles\":[]}";
  try {
    ProfileSet::load({(dir / "bad.json").string()});
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json: not JSON"), std::string::npos) << e.what();
  }
  try {
    ProfileSet::load({(dir / "v2.json").string()});
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("schema 2"), std::string::npos) << e.what();
  }
}

TEST(KernelTotals, MergeRanksWithMinMeanMaxAndImbalance) {
  ProfileSet set = twoRanks();
  ASSERT_EQ(set.ranks(), (std::vector<int>{0, 1}));
  auto kernels = aggregateKernels(set);
  ASSERT_EQ(kernels.size(), 2u);
  const KernelTotals& k = kernels[0]; // the most GPU time first
  EXPECT_EQ(k.kernel, "_Z1kv");
  EXPECT_EQ(k.launches, 3u);
  EXPECT_DOUBLE_EQ(k.gpuMs, 5.0);
  EXPECT_EQ(k.blocks.at({"_Z1kv", 1}).count, 640u + 640u + 1280u);
  EXPECT_EQ(k.instructions, 4u * (3 * 128 + 2560));
  RankSpread s = spreadAcrossRanks(k, set.ranks(), [](const RankTotal& r) { return r.gpuMs; });
  EXPECT_DOUBLE_EQ(s.min, 2.0);
  EXPECT_EQ(s.minRank, 0);
  EXPECT_DOUBLE_EQ(s.max, 3.0);
  EXPECT_EQ(s.maxRank, 1);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.imbalance, 1.2);
  const KernelTotals& tail = kernels[1];
  EXPECT_EQ(tail.instrumented, 0u);
  EXPECT_EQ(tail.reasons.at("the instrumented module failed to JIT"), 1u);
  // A kernel only rank 1 ran counts as 0 on rank 0.
  RankSpread t = spreadAcrossRanks(tail, set.ranks(), [](const RankTotal& r) { return r.gpuMs; });
  EXPECT_DOUBLE_EQ(t.min, 0);
  EXPECT_DOUBLE_EQ(t.imbalance, 2.0);
}

TEST(KernelTotals, LaunchSitesByKernelCallPathDeviceAndStream) {
  auto at = [](uint64_t id, double ms, std::vector<std::string> path, int device, uint64_t stream) {
    json l = launch("_Z1kv", id, ms, 1, false);
    l["call_path"] = path;
    l["device"] = device;
    l["stream"] = stream;
    return l;
  };
  std::vector<std::string> fromA = {"__device_stub__Z1kv()", "runA()", "main"};
  std::vector<std::string> fromB = {"__device_stub__Z1kv()", "runB(int)", "main"};
  ProfileSet set;
  set.add("p.json", 0,
          document({at(1, 1.0, fromA, 0, 0), at(2, 2.0, fromA, 0, 0), at(3, 4.0, fromB, 0, 0),
                    at(4, 8.0, fromB, 1, 0), at(5, 0.5, fromB, 1, 0x42),
                    launch("_Z1kv", 6, 16.0, 1, false)})); // no call path: not a site
  auto sites = aggregateLaunchSites(set);
  ASSERT_EQ(sites.size(), 4u);
  // The most GPU time first: (runB, device 1, stream 0), (runB, 0, 0), (runA, 0, 0), (runB, 1,
  // 0x42).
  EXPECT_EQ(sites[0].callPath, fromB);
  EXPECT_EQ(sites[0].device, 1);
  EXPECT_EQ(sites[0].launches, 1u);
  EXPECT_DOUBLE_EQ(sites[0].gpuMs, 8.0);
  EXPECT_EQ(sites[1].callPath, fromB);
  EXPECT_EQ(sites[1].device, 0);
  EXPECT_DOUBLE_EQ(sites[1].gpuMs, 4.0);
  EXPECT_EQ(sites[2].callPath, fromA);
  EXPECT_EQ(sites[2].launches, 2u);
  EXPECT_DOUBLE_EQ(sites[2].gpuMs, 3.0);
  EXPECT_EQ(sites[3].stream, 0x42u);
  std::string html = htmlReport(set, {});
  EXPECT_NE(html.find("id=\"launch-sites\""), std::string::npos);
  // Outermost first, one function per line.
  EXPECT_NE(html.find("<div>main</div><div>runA()</div><div>__device_stub__Z1kv()</div>"),
            std::string::npos);
  // The trace's launch calls carry their call path.
  TraceEvents trace;
  addProfilesToTrace(set, trace, 0);
  std::string text = trace.json().dump();
  EXPECT_NE(text.find("main > runA() > __device_stub__Z1kv()"), std::string::npos) << text;
  // Without call paths there is no such section.
  EXPECT_EQ(htmlReport(twoRanks(), {}).find("id=\"launch-sites\""), std::string::npos);
}

// The source view: per line, bbcount's instructions executed (block count x the block's
// instructions at the line) and entries, summed over the kernel's launches, and a column for
// every other tool whose result has `source_lines`; the page shows the source text around them.
TEST(SourceView, PerLineCountsFromEveryToolThatProducedThem) {
  json first = launch("_Z1kv", 1, 1.0, 640, true);
  json second = launch("_Z1kv", 2, 1.0, 640, false);
  for (json* l : {&first, &second})
    (*l)["results"]["memaccess"] = {{"source_lines",
                                     {{{"file", "/nonexistent/k.cu"}, {"line", 11}, {"value", 5}},
                                      {{"file", "other.cu"}, {"line", 3}, {"value", 0.75}}}}};
  ProfileSet set;
  set.add("profile.json", 0, document({first, second}));
  auto kernels = aggregateKernels(set);
  ASSERT_EQ(kernels.size(), 1u);
  SourceLines lines = sourceLines(set, kernels[0]);
  EXPECT_EQ(lines.columns, (std::vector<std::string>{"bbcount: instructions executed",
                                                     "bbcount: entries", "memaccess"}));
  using Row = std::vector<double>;
  // Two launches: B0 and B2 64 + 64 entries, the loop B1 640 + 640; 4 instructions each.
  const auto& k = lines.values.at("/nonexistent/k.cu");
  EXPECT_EQ(k.at(10), (Row{512, 128, 0}));
  EXPECT_EQ(k.at(11), (Row{5120, 1280, 10}));
  EXPECT_EQ(k.at(12), (Row{512, 128, 0}));
  EXPECT_EQ(lines.values.at("other.cu").at(3), (Row{0, 0, 1.5}));
  EXPECT_EQ(lines.values.size(), 2u);

  // The page: the source text where it can be found (here by its base name in a search folder),
  // a note where it cannot, each counted line with its values.
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ocelot-source-view-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream source(dir / "k.cu");
    for (int line = 1; line <= 20; ++line)
      source << "int line" << line << " = " << line << "; // <" << line << ">\n";
  }
  const std::string html = sourceViewHtml(lines, {dir.string()});
  std::filesystem::remove_all(dir);
  EXPECT_NE(html.find("<th>memaccess</th>"), std::string::npos) << html;
  EXPECT_NE(html.find("<td class=\"num\">11</td><td class=\"num\">5,120</td><td "
                      "class=\"num\">1,280</td><td class=\"num\">10</td>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("int line11 = 11; // &lt;11&gt;"), std::string::npos) << html;
  EXPECT_NE(html.find("int line8 = 8;"), std::string::npos) << "two lines of context before";
  EXPECT_EQ(html.find("int line7 = 7;"), std::string::npos) << "no more context than that";
  EXPECT_NE(html.find("other.cu <span class=\"note\">(source not found)</span>"), std::string::npos)
      << html;
  EXPECT_NE(html.find("<td class=\"num\">1.5</td>"), std::string::npos) << html;
}

TEST(SmTimeline, CtasResidentTogetherGetTheirOwnSlots) {
  json clock = launch("_Z1kv", 1, 1, 1, false)["results"]["ctaclock"];
  auto spans = ctaSpans(clock);
  ASSERT_EQ(spans.size(), 4u);
  std::vector<uint32_t> perSm;
  auto slots = assignSlots(spans, &perSm);
  // SM 0: CTA 0 [100,1100], CTA 1 [600,2100] overlap; CTA 3 [1100,3100] reuses CTA 0's slot.
  EXPECT_EQ(slots[0], 0u);
  EXPECT_EQ(slots[1], 1u);
  EXPECT_EQ(slots[3], 0u);
  EXPECT_EQ(perSm, (std::vector<uint32_t>{2, 1}));
}

TEST(HtmlReport, SelfContainedWithHeatMapTimelineAndEscapedNames) {
  ProfileSet set = twoRanks();
  std::string html = htmlReport(set, {});
  EXPECT_NE(html.find("class=\"cfg-heatmap\""), std::string::npos);
  EXPECT_NE(html.find("class=\"sm-timeline\""), std::string::npos);
  EXPECT_NE(html.find("class=\"sm-load\""), std::string::npos);
  EXPECT_NE(html.find("class=\"trend\""), std::string::npos);
  EXPECT_NE(html.find("id=\"coverage\""), std::string::npos);
  EXPECT_NE(html.find("id=\"ranks\""), std::string::npos);
  // GCP and GLB per rank and device (values: HostMeasuresTest).
  EXPECT_NE(html.find("id=\"host-measures\""), std::string::npos);
  EXPECT_NE(html.find("1.000 (kernels only)"), std::string::npos);
  EXPECT_NE(html.find("back-edge"), std::string::npos);                 // the loop
  EXPECT_NE(html.find("k&lt;int&gt;(char const*)"), std::string::npos); // full, escaped
  EXPECT_EQ(html.find("k<int>"), std::string::npos);
  EXPECT_NE(html.find("the instrumented module failed to JIT"), std::string::npos);
  EXPECT_NE(html.find("(rank 0) / 2.500 / 3.000 (rank 1)"), std::string::npos);
  // Instructions per rank: rank 0 2 x 4 x (128 + 640), rank 1 4 x (128 + 1280).
  EXPECT_NE(html.find("5,632 (rank 1) / 5888.0 / 6,144 (rank 0)"), std::string::npos) << html;
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);
  EXPECT_EQ(html.find("href=\"http"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
}

// Per-launch trends (issue 16): for each kernel, a point per launch and rank of its GPU time,
// dynamic instructions and SM imbalance, each with its value in the point's tooltip.
TEST(HtmlReport, TrendsGiveEachLaunchsValuesPerRank) {
  std::string html = htmlReport(twoRanks(), {});
  for (const char* point :
       {"rank 0, launch 1: 1 ms", "rank 0, launch 2: 1 ms", "rank 1, launch 1: 3 ms",
        "rank 0, launch 1: 3072 instructions", "rank 0, launch 2: 3072 instructions",
        "rank 1, launch 1: 5632 instructions", "rank 1, launch 1: 1.5 busiest / mean"})
    EXPECT_NE(html.find(std::string("<title>") + point + "</title>"), std::string::npos) << point;
  // Rank 1 ran _Z1kv once: no second point of its own.
  EXPECT_EQ(html.find("rank 1, launch 2: "), std::string::npos);
  EXPECT_NE(html.find("GPU time per launch"), std::string::npos);
  EXPECT_NE(html.find("dynamic PTX instructions per launch"), std::string::npos);
  EXPECT_NE(html.find("SM imbalance per launch"), std::string::npos);
}

// The coverage panel (issue 16): per kernel, blocks, instructions and source lines executed, and
// the blocks that never ran with their source location; a kernel never instrumented says so.
TEST(HtmlReport, CoverageNamesTheBlocksThatNeverRan) {
  json original = launch("_Z4tailv", 2, 0.5, 0, false);
  original["execution"] = "original";
  original["results"] = json::object();
  ProfileSet set;
  set.add("profile.json", 0, document({launch("_Z1kv", 1, 1.0, 0, true), original}));
  const std::string html = htmlReport(set, {});
  const size_t start = html.find("<table class=\"sortable coverage\">");
  ASSERT_NE(start, std::string::npos);
  const std::string panel = html.substr(start, html.find("</table>", start) - start);
  // The loop B1 never ran: 2 of 3 blocks, 8 of 12 instructions, 2 of 3 lines.
  const size_t k = panel.find("k&lt;int&gt;(char const*)");
  ASSERT_NE(k, std::string::npos) << panel;
  const std::string row = panel.substr(k, panel.find("</tr>", k) - k);
  const std::string twoOfThree = "</span> 2 / 3</td>";
  const size_t blocks = row.find(twoOfThree);
  ASSERT_NE(blocks, std::string::npos) << row;
  EXPECT_NE(row.find(twoOfThree, blocks + 1), std::string::npos) << "lines: " << row;
  EXPECT_NE(row.find("66.7%</td>"), std::string::npos) << row;
  EXPECT_NE(row.find("<td class=\"note\">B1 (k.cu:11)</td>"), std::string::npos) << row;
  const size_t tail = panel.find("_Z4tailv");
  ASSERT_NE(tail, std::string::npos) << panel;
  EXPECT_NE(panel.find("never instrumented", tail), std::string::npos) << panel;
}

/// One rank with NVTX: thread 7 pushes `outer` [0, 10000) with `inner` [1000, 5000) and the
/// domain lib's `solve` [6000, 8000) inside; thread 8 starts `io` [500, 9000); a mark at 3000.
/// Profiled launches of k at 2000 (in outer > inner) and 7000 (outer > lib@solve), 1000 ns each;
/// thread 7 copies at 1500 (500 ns), thread 9 memsets at 9500 (inside outer's time, but on
/// another thread), an unprofiled kernel at 12000 (300 ns) outside every range. Host ns from
/// kBase.
ProfileSet nvtxSet() {
  constexpr int64_t kBase = 1795726127928281636;
  auto at = [&](uint64_t id, int64_t ns, std::vector<std::string> stack) {
    json l = launch("_Z1kv", id, 0.001, 640, id == 1);
    l["enqueued_ns"] = kBase + ns;
    l["completed_ns"] = kBase + ns + 5000;
    l["nvtx"] = stack;
    return l;
  };
  auto range = [&](const char* kind, const char* domain, const char* name, uint32_t thread,
                   int64_t begin, int64_t end) {
    json r = {{"kind", kind},
              {"domain", domain},
              {"name", name},
              {"thread", thread},
              {"begin_ns", kBase + begin}};
    if (end >= 0)
      r["end_ns"] = kBase + end;
    return r;
  };
  auto operation = [&](const char* kind, const char* name, int64_t ns, double gpuNs) {
    return json{{"kind", kind},   {"name", name},  {"device", 0},
                {"stream", 0},    {"bytes", 4096}, {"enqueued_ns", kBase + ns},
                {"gpu_ns", gpuNs}};
  };
  auto call = [&](const char* name, uint32_t thread, int64_t begin, int64_t end) {
    return json{
        {"name", name}, {"thread", thread}, {"begin_ns", kBase + begin}, {"end_ns", kBase + end}};
  };
  json file = document({at(1, 2000, {"outer", "inner"}), at(2, 7000, {"outer", "lib@solve"})});
  file["nvtx"] = {range("push", "", "outer", 7, 0, 10000),
                  range("push", "", "inner", 7, 1000, 5000),
                  range("push", "lib", "solve", 7, 6000, 8000),
                  range("start", "", "io", 8, 500, 9000), range("mark", "", "m", 7, 3000, 3000)};
  file["operations"] = {operation("copy", "copy", 1500, 500),
                        operation("memset", "memset", 9500, 200),
                        operation("kernel", "_Z6unseenv", 12000, 300)};
  file["api_calls"] = {
      call("__cudaLaunchKernel", 7, 1990, 2010), call("cudaMemcpyAsync", 7, 1400, 1600),
      call("__cudaLaunchKernel", 7, 6990, 7010), call("cudaMemsetAsync", 9, 9400, 9600),
      call("__cudaLaunchKernel", 7, 11900, 12100)};
  ProfileSet set;
  set.add("nvtx.json", 0, file);
  return set;
}

TEST(NvtxView, WorkIsAttributedToTheRangesItWasCalledIn) {
  ProfileSet set = nvtxSet();
  NvtxAttribution a = attributeToNvtxRanges(set);
  ASSERT_EQ(a.ranges.size(), 4u); // outer, io, inner, lib@solve; the mark is no range
  std::map<std::string, const NvtxRangeTotals*> by;
  for (const auto& r : a.ranges)
    by[r.label] = &r;
  ASSERT_EQ(by.size(), 4u);
  EXPECT_EQ(a.ranges[0].label, "outer"); // first occurrence first
  EXPECT_EQ(by["outer"]->kind, "push");
  EXPECT_DOUBLE_EQ(by["outer"]->hostNs, 10000);
  EXPECT_EQ(by["outer"]->threads, std::set<uint32_t>{7});
  // Both launches; the copy of its thread, not the memset of thread 9 in its time.
  EXPECT_EQ(by["outer"]->kernels, 2u);
  EXPECT_DOUBLE_EQ(by["outer"]->kernelGpuNs, 2000);
  EXPECT_EQ(by["outer"]->transfers, 1u);
  EXPECT_DOUBLE_EQ(by["outer"]->transferGpuNs, 500);
  EXPECT_EQ(by["inner"]->kernels, 1u);
  EXPECT_EQ(by["inner"]->transfers, 1u);
  EXPECT_EQ(by["lib@solve"]->kernels, 1u);
  EXPECT_EQ(by["lib@solve"]->transfers, 0u);
  // Start/end: by time, on any thread (the memset at 9500 is after its end).
  EXPECT_EQ(by["io"]->kind, "start");
  EXPECT_TRUE(by["io"]->threads.empty());
  EXPECT_EQ(by["io"]->kernels, 2u);
  EXPECT_EQ(by["io"]->transfers, 1u);
  EXPECT_DOUBLE_EQ(by["io"]->hostNs, 8500);

  ASSERT_EQ(a.kernels.size(), 3u);
  std::map<std::string, const NvtxKernelTotals*> paths;
  for (const auto& k : a.kernels)
    paths[k.path + " | " + k.kernel] = &k;
  ASSERT_TRUE(paths.contains("outer > inner | k<int>(char const*)"));
  ASSERT_TRUE(paths.contains("outer > lib@solve | k<int>(char const*)"));
  ASSERT_TRUE(paths.contains(" | _Z6unseenv"));
  EXPECT_EQ(paths["outer > inner | k<int>(char const*)"]->launches, 1u);
  EXPECT_EQ(paths["outer > inner | k<int>(char const*)"]->instrumented, 1u);
  EXPECT_DOUBLE_EQ(paths[" | _Z6unseenv"]->gpuNs, 300);
  EXPECT_EQ(paths[" | _Z6unseenv"]->instrumented, 0u);
}

TEST(NvtxView, TimelineAndTablesInTheReport) {
  ProfileSet set = nvtxSet();
  std::string svg = nvtxTimelineSvg(set, 0);
  // Lanes: thread 7, thread 7 lib, start/end, marks, the device's stream.
  for (const char* lane :
       {">thread 7<", ">thread 7 lib<", ">start/end<", ">marks<", ">GPU 0 stream 0x0<"})
    EXPECT_NE(svg.find(lane), std::string::npos) << lane << "\n" << svg;
  // inner nests one row below outer: rows are 16 px from y 22 (+1).
  EXPECT_NE(svg.find("<title>inner (push/pop, thread 7): 4 us</title><rect x=\""),
            std::string::npos)
      << svg;
  size_t inner = svg.find("<title>inner");
  EXPECT_NE(svg.find("y=\"39\"", inner), std::string::npos);
  EXPECT_NE(svg.find("<g class=\"nvtx-mark\"><title>m (mark, thread 7)</title>"), std::string::npos)
      << svg;
  EXPECT_EQ(nvtxTimelineSvg(set, 1), "");

  std::string html = htmlReport(set, {});
  EXPECT_NE(html.find("<a href=\"#nvtx\">NVTX</a>"), std::string::npos);
  EXPECT_NE(html.find("class=\"nvtx-timeline\""), std::string::npos);
  EXPECT_NE(html.find("<tr data-range=\"outer\"><td class=\"num\" data-v=\"0.000000\">0</td>"
                      "<td class=\"name\" data-v=\"\">outer</td><td data-v=\"\">push/pop</td>"
                      "<td data-v=\"\">7</td>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("id=\"nvtx-kernels\""), std::string::npos);
  EXPECT_NE(html.find("outer &gt; lib@solve"), std::string::npos);
  // Without NVTX records: no section.
  EXPECT_EQ(htmlReport(twoRanks(), {}).find("id=\"nvtx\""), std::string::npos);
}

TEST(NvtxView, ManyOperationsAreAttributedInOneSweep) {
  // 20,000 memsets, each in an API call of thread 1 (inside its push range `r`) or thread 2 (no
  // ranges), alternating; a start/end range `half` over the first half of them. Quadratic
  // matching would take seconds here; the timeline keeps the first 10,000 work items.
  constexpr int64_t kBase = 1795726127928281636;
  constexpr int kOperations = 20000;
  json file = document({});
  file["nvtx"] = {{{"kind", "push"},
                   {"domain", ""},
                   {"name", "r"},
                   {"thread", 1},
                   {"begin_ns", kBase},
                   {"end_ns", kBase + 100LL * kOperations}},
                  {{"kind", "start"},
                   {"domain", ""},
                   {"name", "half"},
                   {"thread", 1},
                   {"begin_ns", kBase},
                   {"end_ns", kBase + 50LL * kOperations}}};
  file["operations"] = json::array();
  file["api_calls"] = json::array();
  for (int i = 0; i < kOperations; ++i) {
    int64_t at = kBase + 100LL * i + 50;
    file["operations"].push_back({{"kind", "memset"},
                                  {"name", "memset"},
                                  {"device", 0},
                                  {"stream", 1 + i % 2},
                                  {"bytes", 64},
                                  {"enqueued_ns", at},
                                  {"gpu_ns", 10}});
    file["api_calls"].push_back({{"name", "cudaMemsetAsync"},
                                 {"thread", 1 + i % 2},
                                 {"begin_ns", at - 10},
                                 {"end_ns", at + 10}});
  }
  ProfileSet set;
  set.add("many.json", 0, file);
  NvtxAttribution a = attributeToNvtxRanges(set);
  ASSERT_EQ(a.ranges.size(), 2u);
  EXPECT_EQ(a.ranges[0].label == "r" ? a.ranges[0].transfers : a.ranges[1].transfers,
            static_cast<uint64_t>(kOperations / 2));
  EXPECT_EQ(a.ranges[0].label == "half" ? a.ranges[0].transfers : a.ranges[1].transfers,
            static_cast<uint64_t>(kOperations / 2));
  std::string svg = nvtxTimelineSvg(set, 0);
  EXPECT_NE(svg.find("the first 10,000 of 20,000 kernels and transfers"), std::string::npos);
}

TEST(NvtxView, TauCallpathsFromRangesToKernels) {
  ProfileSet set = nvtxSet();
  auto directory = std::filesystem::temp_directory_path() / "ocelot-report-test-tau-nvtx";
  std::filesystem::remove_all(directory);
  auto files = writeTauProfiles(set, directory.string());
  ASSERT_EQ(files.size(), 1u);
  std::ifstream in(files[0]);
  std::stringstream text;
  text << in.rdbuf();
  // The flat kernel (2 launches, 1 us each), and one callpath per range stack.
  EXPECT_NE(text.str().find("3 templated_functions_MULTI_TIME\n"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("\"k<int>(char const*)\" 2 0 2 2 0 GROUP=\"TAU_GPU\"\n"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("\"outer => inner => k<int>(char const*)\" 1 0 1 1 0 "
                            "GROUP=\"TAU_GPU | TAU_CALLPATH\"\n"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("\"outer => lib@solve => k<int>(char const*)\" 1 0 1 1 0 "),
            std::string::npos)
      << text.str();
  std::filesystem::remove_all(directory);
}

TEST(Trace, KernelsFollowTheirStreamAndFlowsLinkLaunchesToThem) {
  ProfileSet set = twoRanks();
  TraceEvents trace;
  EXPECT_EQ(addProfilesToTrace(set, trace), 4u);
  auto document = trace.json();
  double last = -1;
  std::map<std::pair<uint64_t, uint64_t>, std::vector<std::pair<double, double>>> kernels;
  int flows = 0;
  for (const auto& e : document["traceEvents"]) {
    if (e["ph"] == "M")
      continue;
    double ts = e["ts"].get<double>();
    EXPECT_GE(ts, last);
    last = ts;
    if (e["ph"] == "s")
      ++flows;
    if (e["ph"] == "X" && e["cat"] == "kernel")
      kernels[{e["pid"].get<uint64_t>(), e["tid"].get<uint64_t>()}].emplace_back(
          ts, ts + e["dur"].get<double>());
  }
  EXPECT_EQ(flows, 4);
  // Rank 0's two launches of one stream: the second starts when the first ends (1 ms later).
  bool sawSerialized = false;
  for (const auto& [lane, spans] : kernels)
    for (size_t i = 1; i < spans.size(); ++i) {
      EXPECT_GE(spans[i].first, spans[i - 1].second - 1e-9);
      sawSerialized = sawSerialized || spans[i].first == spans[i - 1].second;
    }
  EXPECT_TRUE(sawSerialized);
}

TEST(Tau, OneFilePerStreamInTausGrammar) {
  ProfileSet set = twoRanks();
  auto dir = std::filesystem::temp_directory_path() / "ocelot-report-tau";
  std::filesystem::remove_all(dir);
  auto files = writeTauProfiles(set, dir.string());
  ASSERT_EQ(files.size(), 2u);
  EXPECT_TRUE(std::filesystem::exists(dir / "profile.0.0.0"));
  EXPECT_TRUE(std::filesystem::exists(dir / "profile.1.0.0"));
  std::ifstream in(dir / "profile.0.0.0");
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  EXPECT_EQ(s.rfind("1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl "
                    "ProfileCalls<metadata>",
                    0),
            0u)
      << s;
  EXPECT_NE(s.find("\n\"k<int>(char const*)\" 2 0 2000 2000 0 GROUP=\"TAU_GPU\"\n0 aggregates\n"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("3 userevents\n# eventname numevents max min mean sumsqr\n"), std::string::npos);
  EXPECT_NE(s.find("\"SM load imbalance : k<int>(char const*)\" 2 1.5 1.5 1.5 4.5\n"),
            std::string::npos)
      << s;
  EXPECT_EQ(tauName("operator\"\" _x(char)\n"), "operator'' _x(char) ");
}

TEST(MpiRank, LaunchersEnvironmentNamesTheRank) {
  ::unsetenv("OMPI_COMM_WORLD_RANK");
  ::unsetenv("PMI_RANK");
  ::unsetenv("SLURM_PROCID");
  EXPECT_EQ(tools::mpiRank(), std::nullopt);
  ::setenv("PMI_RANK", "5", 1);
  EXPECT_EQ(tools::mpiRank(), 5);
  ::setenv("OMPI_COMM_WORLD_RANK", "2", 1);
  EXPECT_EQ(tools::mpiRank(), 2); // Open MPI's own variable first
  ::setenv("OMPI_COMM_WORLD_RANK", "x", 1);
  EXPECT_EQ(tools::mpiRank(), 5);
  ::unsetenv("OMPI_COMM_WORLD_RANK");
  ::unsetenv("PMI_RANK");
  EXPECT_EQ(tools::rankedPath("/out/profile.json", 3), "/out/profile.rank3.json");
  EXPECT_EQ(tools::rankedPath("summary", 0), "summary.rank0");
  EXPECT_EQ(tools::rankedPath("a.b.json", 1), "a.b.rank1.json");
}

} // namespace
} // namespace ocelot::report
