// The host-side API without a device: launch selection, instrumentor lists, the registry and
// plugins, KernelProfile JSON, the exit summary.

#include "InstrumentorTestSupport.h"
#include "ocelot/BasicBlockCounts.h"
#include "ocelot/CtaClockTimes.h"
#include "ocelot/KernelProfile.h"
#include "ocelot/KernelSelection.h"
#include "ocelot/ProfileSummary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <thread>
#include <nlohmann/json.hpp>

namespace ocelot::test {
namespace {

std::vector<bool> decisions(KernelSelection& selection, const std::vector<std::string>& kernels) {
  std::vector<bool> out;
  for (const auto& k : kernels)
    out.push_back(selection.decide(k, k).instrument);
  return out;
}

TEST(Selection, RegexMatchesMangledOrDemangledNames) {
  SelectionRules rules;
  rules.kernelRegex = "^add";
  KernelSelection selection(rules);
  EXPECT_TRUE(selection.decide("_Z3addPi", "add(int*)").instrument);
  EXPECT_FALSE(selection.decide("_Z3mulPi", "mul(int*)").instrument);
  EXPECT_NE(selection.decide("_Z3mulPi", "mul(int*)").reason, "");
}

TEST(Selection, LaunchRangeEveryNthAndMaxPerKernel) {
  SelectionRules range;
  ASSERT_FALSE(range.parseLaunchRange("2:3"));
  KernelSelection byRange(range);
  EXPECT_EQ(decisions(byRange, {"k", "k", "k", "k"}),
            (std::vector<bool>{false, true, true, false}));

  SelectionRules every;
  every.every = 2;
  KernelSelection byEvery(every);
  EXPECT_EQ(decisions(byEvery, {"k", "k", "k", "k", "k"}),
            (std::vector<bool>{true, false, true, false, true}));

  SelectionRules most;
  most.maxPerKernel = 2;
  KernelSelection byMost(most);
  EXPECT_EQ(decisions(byMost, {"a", "b", "a", "a", "b", "b"}),
            (std::vector<bool>{true, true, true, false, true, false}));
}

TEST(Selection, BadInputIsAClearError) {
  SelectionRules rules;
  EXPECT_TRUE(rules.parseLaunchRange("3:1"));
  EXPECT_TRUE(rules.parseLaunchRange("x"));
  EXPECT_TRUE(rules.parseLaunchRange("0:4"));
  EXPECT_FALSE(rules.parseLaunchRange("5"));
  EXPECT_EQ(rules.firstLaunch, 5u);
  EXPECT_EQ(rules.lastLaunch, 5u);
  SelectionRules badRegex;
  badRegex.kernelRegex = "(unclosed";
  EXPECT_THROW(KernelSelection{badRegex}, std::invalid_argument);
  SelectionRules zero;
  zero.every = 0;
  EXPECT_THROW(KernelSelection{zero}, std::invalid_argument);
}

// Launches from several host threads: without a regex or a per-kernel limit decide() counts
// with one atomic (no lock); with a range and `every`, each matching launch still gets its own
// number, and exactly the numbers the rules select are instrumented.
TEST(Selection, ThreadsNumberEveryLaunchOnceWithOrWithoutALock) {
  for (bool withRegex : {false, true}) {
    SCOPED_TRACE(withRegex ? "regex" : "lock-free");
    SelectionRules rules;
    ASSERT_FALSE(rules.parseLaunchRange("101:3100"));
    rules.every = 3;
    if (withRegex)
      rules.kernelRegex = "^k";
    KernelSelection selection(rules);
    constexpr int kThreads = 4, kEach = 1000;
    std::vector<std::vector<KernelSelection::Decision>> seen(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        for (int i = 0; i < kEach; ++i)
          seen[t].push_back(selection.decide("kernel", "kernel"));
      });
    for (auto& thread : threads)
      thread.join();
    std::vector<uint64_t> numbers;
    uint64_t instrumented = 0;
    for (const auto& decisions : seen)
      for (const auto& d : decisions) {
        numbers.push_back(d.matchingLaunch);
        const bool wanted = d.matchingLaunch >= 101 && d.matchingLaunch <= 3100 &&
                            (d.matchingLaunch - 101) % 3 == 0;
        EXPECT_EQ(d.instrument, wanted) << d.matchingLaunch;
        instrumented += d.instrument;
      }
    std::sort(numbers.begin(), numbers.end());
    for (size_t i = 0; i < numbers.size(); ++i)
      ASSERT_EQ(numbers[i], i + 1);
    EXPECT_EQ(instrumented, 1000u); // 101, 104, ..., 3098
  }
}

TEST(InstrumentorList, ParsesNamesPathsAndOptions) {
  auto specs =
      instrumentors::parseInstrumentorList("bbcount:mode=per-thread, ctaclock,./lib.so:k=v");
  ASSERT_EQ(specs.size(), 3u);
  EXPECT_EQ(specs[0].name, "bbcount");
  EXPECT_EQ(specs[0].options.text("mode"), "per-thread");
  EXPECT_FALSE(specs[1].isPath);
  EXPECT_TRUE(specs[2].isPath);
  EXPECT_EQ(specs[2].options.text("k"), "v");
  EXPECT_THROW(instrumentors::parseInstrumentorList("bbcount,,ctaclock"), std::invalid_argument);
}

TEST(Registry, UnknownNamesListWhatIsRegistered) {
  instrumentors::InstrumentorRegistry registry;
  try {
    registry.create("bbcuont", {});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("bbcount"), std::string::npos) << e.what();
  }
  EXPECT_THROW(registry.add("bbcount", "again",
                            [](const InstrumentorOptions&) {
                              return std::shared_ptr<const PTXInstrumentor>();
                            }),
               std::invalid_argument);
  EXPECT_THROW(registry.add("bad name", "",
                            [](const InstrumentorOptions&) {
                              return std::shared_ptr<const PTXInstrumentor>();
                            }),
               std::invalid_argument);
}

TEST(Plugins, MissingFileAndWrongAbiAreRefusedWithAReason) {
  instrumentors::InstrumentorRegistry registry;
  try {
    registry.loadPlugin("/nonexistent/libnothing.so");
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot load plugin"), std::string::npos) << e.what();
  }
  try {
    registry.loadPlugin(OCELOT_WRONG_ABI_PLUGIN);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("ABI 99"), std::string::npos) << e.what();
  }
}

TEST(Plugins, ExamplePluginRegistersAndInstruments) {
  instrumentors::InstrumentorRegistry registry;
  auto names = registry.loadPlugin(OCELOT_EXAMPLE_PLUGIN);
  ASSERT_EQ(names, std::vector<std::string>{"entrycount"});
  EXPECT_EQ(registry.loadPlugin(OCELOT_EXAMPLE_PLUGIN), names); // loaded once
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  auto out = instrumentWith(kLoopKernel, "entrycount,bbcount", &keep, &registry);
  ASSERT_TRUE(out.ok) << out.error;
  EXPECT_NE(out.ptx.find("__ocelot_instrumentation[16]"), std::string::npos); // two slots
  if (ptxasAvailable()) {
    PtxasRun run = runPtxas(out.ptx, "sm_90");
    EXPECT_TRUE(run.ok()) << run.output << out.ptx;
  }
  EXPECT_THROW(registry.create("entrycount", InstrumentorOptions::parse("x=1")),
               std::invalid_argument);
}

std::shared_ptr<const KernelProfile> sampleProfile() {
  LaunchInfo launch;
  launch.kernelName = "_Z4loopPii";
  launch.demangledName = "loop(int*, int)";
  launch.launchId = 7;
  launch.kernelLaunchIndex = 2;
  launch.grid = {2, 1, 1};
  launch.block = {32, 1, 1};
  std::vector<BasicBlockCounts::Block> blocks(2);
  blocks[0].function = "_Z4loopPii";
  blocks[0].index = 0;
  blocks[0].instructions = 5;
  blocks[0].count = 64;
  blocks[0].location = "loop.cu:3";
  blocks[1].function = "_Z4loopPii";
  blocks[1].index = 1;
  blocks[1].label = "$L__BB0_1";
  blocks[1].instructions = 3;
  blocks[1].count = 640;
  blocks[1].location = "loop.cu:5";
  auto counts = std::make_shared<BasicBlockCounts>(BasicBlockCounts::Mode::PerWarp, 64, blocks);
  std::vector<CtaClockTimes::Cta> ctas(2);
  for (uint32_t i = 0; i < 2; ++i) {
    ctas[i].index = i;
    ctas[i].sm = i;
    ctas[i].startCycle = 10;
    ctas[i].endCycle = 110 + 100 * i;
    ctas[i].warpsStarted = 1;
    ctas[i].threadsExited = 32;
  }
  auto clock = std::make_shared<CtaClockTimes>(launch, DeviceFacts{4, 0, 90}, ctas);
  KernelProfile::Timing timing;
  timing.gpuMilliseconds = 0.5;
  return std::make_shared<KernelProfile>(
      launch, timing, KernelProfile::Execution::Instrumented,
      std::vector<std::string>{"bbcount:mode=per-warp", "ctaclock"},
      std::vector<std::string>{"a note"},
      std::vector<std::shared_ptr<const InstrumentorResult>>{counts, clock});
}

TEST(KernelProfileJson, RoundTripsThroughTheParser) {
  auto profile = sampleProfile();
  const nlohmann::json json = nlohmann::json::parse(profile->toJson());
  EXPECT_EQ(json["schema"].get<uint64_t>(), uint64_t(kProfileSchemaVersion));
  EXPECT_EQ(json["kernel"], "_Z4loopPii");
  EXPECT_EQ(json["demangled"], "loop(int*, int)");
  EXPECT_EQ(json["launch_id"].get<uint64_t>(), 7u);
  EXPECT_EQ(json["execution"], "instrumented");
  EXPECT_EQ(json["grid"].size(), 3u);
  EXPECT_DOUBLE_EQ(json["gpu_ms"].get<double>(), 0.5);
  const nlohmann::json& bb = json["results"]["bbcount"];
  ASSERT_TRUE(bb.contains("blocks")) << profile->toJson();
  EXPECT_EQ(bb["blocks"].size(), 2u);
  EXPECT_EQ(bb["blocks"][1]["count"].get<uint64_t>(), 640u);
  EXPECT_EQ(bb["dynamic_instructions"].get<uint64_t>(), 64u * 5 + 640u * 3);
  const nlohmann::json& clock = json["results"]["ctaclock"];
  EXPECT_EQ(clock["sms"].size(), 4u);
  EXPECT_GT(clock["imbalance"].get<double>(), 1.0);
}

TEST(KernelProfileJson, IsOneLineInTheDocumentedOrder) {
  const std::string text = sampleProfile()->toJson();
  EXPECT_EQ(text.find('\n'), std::string::npos);
  EXPECT_EQ(text.rfind("{\"schema\":1,\"kernel\":\"_Z4loopPii\",\"demangled\":", 0), 0u) << text;
  EXPECT_LT(text.find("\"grid\":[2,1,1]"), text.find("\"results\"")) << text;
}

TEST(KernelProfileJson, CountersKeepTheirExactValue) {
  LaunchInfo launch;
  launch.kernelName = "k";
  std::vector<BasicBlockCounts::Block> blocks(1);
  blocks[0].function = "k";
  blocks[0].count = UINT64_MAX; // beyond a double's 53 bits
  auto counts = std::make_shared<BasicBlockCounts>(BasicBlockCounts::Mode::PerWarp, 1, blocks);
  KernelProfile profile(launch, {}, KernelProfile::Execution::Instrumented, {}, {}, {counts});
  const nlohmann::json json = nlohmann::json::parse(profile.toJson());
  EXPECT_EQ(json["results"]["bbcount"]["blocks"][0]["count"].get<uint64_t>(), UINT64_MAX);
  EXPECT_TRUE(json["gpu_ms"].is_null()); // unmeasured
}

TEST(KernelProfileJson, BadUtf8AndNonFiniteNumbersStillGiveValidJson) {
  LaunchInfo launch;
  launch.kernelName = "k\xff\xfe";
  launch.demangledName = "quote \" backslash \\ tab \t bell \a";
  std::vector<BasicBlockCounts::Block> blocks(1);
  blocks[0].function = launch.kernelName;
  blocks[0].location = "caf\xc3\xa9.cu:3"; // valid UTF-8 passes through
  auto counts = std::make_shared<BasicBlockCounts>(BasicBlockCounts::Mode::PerWarp, 1, blocks);
  KernelProfile::Timing timing;
  timing.gpuMilliseconds = std::nan("");
  KernelProfile profile(launch, timing, KernelProfile::Execution::Original, {}, {"n\xc3"},
                        {counts});
  std::string text;
  ASSERT_NO_THROW(text = profile.toJson());
  nlohmann::json json;
  ASSERT_NO_THROW(json = nlohmann::json::parse(text)) << text;
  EXPECT_EQ(json["kernel"], "k\xef\xbf\xbd\xef\xbf\xbd"); // U+FFFD for each bad byte
  EXPECT_EQ(json["demangled"], launch.demangledName);
  EXPECT_EQ(json["results"]["bbcount"]["blocks"][0]["location"], "caf\xc3\xa9.cu:3");
  EXPECT_TRUE(json["gpu_ms"].is_null()) << text;
  EXPECT_EQ(json["execution"], "original");
}

TEST(Summary, NamesKernelsHotBlocksAndImbalance) {
  ProfileSummary summary;
  EXPECT_TRUE(summary.empty());
  summary.add(*sampleProfile());
  summary.add(*sampleProfile());
  std::string text = summary.format();
  EXPECT_NE(text.find("loop(int*, int)"), std::string::npos) << text;
  EXPECT_NE(text.find("hottest basic blocks"), std::string::npos) << text;
  EXPECT_NE(text.find("loop.cu:5"), std::string::npos) << text;
  EXPECT_NE(text.find("per-SM load"), std::string::npos) << text;
  EXPECT_NE(text.find("2 launches profiled"), std::string::npos) << text;
  // The hottest block comes first: 2 x 640 x 3 instructions.
  EXPECT_LT(text.find("loop.cu:5"), text.find("loop.cu:3")) << text;
}

// Issue 14: every summary says how much ran instrumented (kernels, launches, GPU time) and why the
// rest did not, each reason once with its count; launches without a profile (graph launches) too.
TEST(Summary, CoverageCountsWhatRanUninstrumentedAndWhy) {
  ProfileSummary summary;
  auto instrumented = sampleProfile();
  summary.add(*instrumented);
  auto original = [&](const std::string& kernel, const std::string& why, double ms) {
    LaunchInfo launch = instrumented->launch();
    launch.kernelName = kernel;
    launch.demangledName = kernel;
    KernelProfile::Timing timing;
    timing.gpuMilliseconds = ms;
    return std::make_shared<KernelProfile>(
        launch, timing, KernelProfile::Execution::Original, std::vector<std::string>{"bbcount"},
        std::vector<std::string>{why}, std::vector<std::shared_ptr<const InstrumentorResult>>{});
  };
  summary.add(*original("other", "no PTX to instrument: SASS only", 2.0));
  summary.add(*original("other", "no PTX to instrument: SASS only", 2.0));
  summary.add(*original("third", "the stream is being captured into a graph", 1.0));
  summary.addUnprofiled("graph launch", 3);
  std::string text = summary.format(10, 15, 0);
  const double instrumentedMs = instrumented->timing().gpuMilliseconds.value_or(0);
  char expected[256];
  std::snprintf(expected, sizeof expected,
                "coverage: 1 of 3 kernels, 1 of 7 launches, %.3f of %.3f GPU ms instrumented",
                instrumentedMs, instrumentedMs + 5.0);
  EXPECT_NE(text.find(expected), std::string::npos) << text;
  EXPECT_NE(text.find("  2: no PTX to instrument: SASS only\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  1: the stream is being captured into a graph\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  3, no profile: graph launch\n"), std::string::npos) << text;
}

std::shared_ptr<const KernelProfile> profileNamed(const std::string& demangled) {
  auto base = sampleProfile();
  LaunchInfo launch = base->launch();
  launch.demangledName = demangled;
  return std::make_shared<KernelProfile>(launch, base->timing(), base->execution(),
                                         base->instrumentors(), base->notes(), base->results());
}

TEST(Summary, KernelNamesUseTheWidthTheyAreGiven) {
  const std::string name = "void ns::kernel<float, 256u, ns::Functor<double>>(float const*, "
                           "float*, unsigned long)"; // 90 characters
  ProfileSummary summary;
  summary.add(*profileNamed(name));
  // No limit (a file or a pipe): whole names.
  std::string unlimited = summary.format(10, 15, 0);
  EXPECT_NE(unlimited.find(name + " "), std::string::npos) << unlimited;
  // A wide terminal: whole names too, and no line is wider than the terminal.
  std::string wide = summary.format(10, 15, 200);
  EXPECT_NE(wide.find(name + " "), std::string::npos) << wide;
  // A narrow one: names are cut so that the kernel tables fit (the notes below them are prose
  // and wrap).
  std::string narrow = summary.format(10, 15, 100);
  EXPECT_EQ(narrow.substr(0, narrow.find("\nnotes\n")).find(name), std::string::npos) << narrow;
  EXPECT_NE(narrow.find("void ns::kernel<float, 256u"), std::string::npos) << narrow;
  size_t start = narrow.find("top kernels");
  size_t end = narrow.find("hottest basic blocks");
  for (size_t at = narrow.find('\n', start) + 1; at < end;) {
    size_t next = narrow.find('\n', at);
    EXPECT_LE(next - at, 100u) << narrow.substr(at, next - at);
    at = next + 1;
  }
}

/// A launch of loop(int*, int) from `path` on `device`, enqueued at `enqueuedMs` and delivered
/// at `completedMs` (ms of the host clock), `gpuMs` long on the device.
std::shared_ptr<const KernelProfile> timedLaunch(std::vector<std::string> path, int device,
                                                 double enqueuedMs, double completedMs,
                                                 double gpuMs) {
  auto base = sampleProfile();
  LaunchInfo launch = base->launch();
  launch.callPath = std::move(path);
  launch.device = device;
  KernelProfile::Timing timing;
  timing.enqueuedNs = static_cast<int64_t>(enqueuedMs * 1e6);
  timing.completedNs = static_cast<int64_t>(completedMs * 1e6);
  timing.gpuMilliseconds = gpuMs;
  return std::make_shared<KernelProfile>(launch, timing, base->execution(), base->instrumentors(),
                                         base->notes(), base->results());
}

TEST(Summary, LaunchSitesAreKernelCallPathDeviceAndStream) {
  ProfileSummary summary;
  std::vector<std::string> fromA = {"__device_stub__Z4loopPii(int*, int)", "runA()", "main"};
  std::vector<std::string> fromB = {"__device_stub__Z4loopPii(int*, int)", "runB()", "main"};
  summary.add(*timedLaunch(fromA, 0, 0, 1, 0.25));
  summary.add(*timedLaunch(fromA, 0, 1, 2, 0.25));
  summary.add(*timedLaunch(fromB, 0, 2, 3, 0.125));
  summary.add(*timedLaunch(fromB, 1, 3, 4, 0.125));
  std::string text = summary.format(10, 15, 0);
  ASSERT_NE(text.find("launch sites"), std::string::npos) << text;
  // Outermost first; the most launches first within the kernel.
  size_t a = text.find("    at main > runA() > __device_stub__Z4loopPii(int*, int)\n");
  size_t b = text.find("    at main > runB() > __device_stub__Z4loopPii(int*, int)\n");
  ASSERT_NE(a, std::string::npos) << text;
  ASSERT_NE(b, std::string::npos) << text;
  EXPECT_LT(a, b);
  // runB's launches on devices 0 and 1 are two sites.
  EXPECT_NE(text.find("    at main > runB()", b + 1), std::string::npos) << text;
  EXPECT_NE(text.find("         0                  0         2      0.500\n    at main > runA()"),
            std::string::npos)
      << text;
  // Without call paths (sampleProfile) there is no such section.
  ProfileSummary none;
  none.add(*sampleProfile());
  EXPECT_EQ(none.format().find("launch sites"), std::string::npos);
}

TEST(Summary, GcpAndGlbPerDeviceOverTheProfiledSpan) {
  ProfileSummary summary;
  // Launch calls from 0 ms, the last delivery at 10 ms: device 0 ran kernels 2 + 1 ms, device 1
  // 0.5 ms. GLB = device time / 10 ms; no transfers are recorded, so GCP = 1.
  summary.add(*timedLaunch({}, 0, 0, 4, 2));
  summary.add(*timedLaunch({}, 0, 4, 10, 1));
  summary.add(*timedLaunch({}, 1, 5, 6, 0.5));
  std::string text = summary.format(10, 15, 0);
  EXPECT_NE(text.find("over the profiled span of 10.000 ms"), std::string::npos) << text;
  EXPECT_NE(text.find("  GPU 0            2          3.000   not recorded    1.000    0.300\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  GPU 1            1          0.500   not recorded    1.000    0.050\n"),
            std::string::npos)
      << text;
}

TEST(Summary, GcpAndGlbWithTransfersUnprofiledKernelsAndHostApi) {
  // Host measures on. Device 0: a profiled kernel of 2 ms (called at 0, delivered at 4 ms), a
  // copy of 1 ms and an unprofiled kernel of 1 ms; device 1: a profiled kernel of 0.5 ms
  // (delivered at 10 ms) and a peer copy of 2 ms called at 6 ms. Span 10 ms.
  ProfileSummary summary;
  summary.setDeviceWorkRecorded();
  summary.add(*timedLaunch({}, 0, 0, 4, 2));
  summary.addDeviceWork(DeviceInterval::Kind::Transfer, 0, 1000000, 1e6);
  summary.addDeviceWork(DeviceInterval::Kind::Kernel, 0, 5000000, 1e6);
  summary.addDeviceWork(DeviceInterval::Kind::Transfer, 1, 6000000, 2e6);
  summary.add(*timedLaunch({}, 1, 2, 10, 0.5));
  summary.setHostApi({12, 2, 3e6, 1.5e6});
  std::string text = summary.format(10, 15, 0);
  EXPECT_NE(text.find("over the profiled span of 10.000 ms"), std::string::npos) << text;
  // GCP = kernel / (kernel + transfer); GLB = (kernel + transfer) / 10 ms.
  EXPECT_NE(text.find("  GPU 0            2          3.000          1.000    0.750    0.400\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  GPU 1            1          0.500          2.000    0.200    0.250\n"),
            std::string::npos)
      << text;
  // Across devices: GCP of the sums (3.5 / 6.5), GLB the mean of the devices' (0.325).
  EXPECT_NE(text.find("  all              3          3.500          3.000    0.538    0.325\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  transfers (copies, memsets): GPU 0 1, GPU 1 1; kernels without a "
                      "profile: 1 (1.000 ms, in the kernel times)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("host API: 12 calls on 2 threads, 3.000 ms in calls, 1.500 ms of them "
                      "waiting for the device"),
            std::string::npos)
      << text;
  // A transfer extends the span past the last delivery when it ends later.
  ProfileSummary later;
  later.setDeviceWorkRecorded();
  later.add(*timedLaunch({}, 0, 0, 4, 1));
  later.addDeviceWork(DeviceInterval::Kind::Transfer, 0, 5000000, 3e6);
  EXPECT_NE(later.format(10, 15, 0).find("over the profiled span of 8.000 ms"), std::string::npos);
}

TEST(Summary, ColumnsComeFromTheEnvironment) {
  ::setenv("COLUMNS", "123", 1);
  EXPECT_EQ(ProfileSummary::defaultColumns(), 123u);
  ::setenv("COLUMNS", "wide", 1);
  size_t fallback = ProfileSummary::defaultColumns(); // the terminal's, or 0 without one
  EXPECT_NE(fallback, 123u);
  ::unsetenv("COLUMNS");
}

} // namespace
} // namespace ocelot::test
