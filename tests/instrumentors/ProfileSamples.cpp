// Prints a profile document (docs/profile.schema.json) whose profiles use every optional part of
// the format: both bbcount modes and their per-block flags, ctaclock with an incomplete launch, a
// plugin's result, an original launch with notes, an unmeasured GPU time, bytes that are not
// UTF-8. tests/support/profile_schema.py --self-check validates it (CTest
// instrumentation.profile_schema).

#include "ocelot/BasicBlockCounts.h"
#include "ocelot/CtaClockTimes.h"
#include "ocelot/KernelProfile.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace {

using namespace ocelot;

class PluginResult final : public InstrumentorResult {
public:
  std::string_view instrumentor() const override { return "entrycount"; }
  Json json() const override { return Json{{"threads", 64}, {"by_sm", {32, 32}}}; }
  std::string summary() const override { return "64 threads"; }
};

LaunchInfo launch(std::string name, uint64_t id) {
  LaunchInfo l;
  l.kernelName = name;
  l.demangledName = name;
  l.launchId = id;
  l.kernelLaunchIndex = id;
  l.grid = {2, 1, 1};
  l.block = {32, 1, 1};
  l.stream = 0x5555aaaa0000;
  return l;
}

std::vector<BasicBlockCounts::Block> blocks(const std::string& function) {
  std::vector<BasicBlockCounts::Block> out(4);
  for (uint32_t i = 0; i < out.size(); ++i) {
    out[i].function = function;
    out[i].index = i;
    out[i].label = i == 0 ? "" : "$L__BB0_" + std::to_string(i);
    out[i].instructions = 3 + i;
    out[i].location = "sample.cu:" + std::to_string(10 + i);
    out[i].count = 64 * (i + 1);
    out[i].activeThreads = 64;
  }
  out[1].derived = true;
  out[2].mayHaveWrapped = true;
  out[3].function = "_Z6helperv";
  out[3].index = 0;
  out[3].counted = false;
  out[3].count = 0;
  return out;
}

std::vector<CtaClockTimes::Cta> ctas(bool complete) {
  std::vector<CtaClockTimes::Cta> out(2);
  for (uint32_t i = 0; i < out.size(); ++i) {
    out[i].index = i;
    out[i].sm = i;
    out[i].startCycle = 100;
    out[i].endCycle = 1100 + 500 * i;
    out[i].startNs = 1'000'000;
    out[i].endNs = 1'000'800 + 400 * i;
    out[i].warpsStarted = 1;
    out[i].threadsExited = complete ? 32 : 31;
  }
  return out;
}

std::shared_ptr<const CodeStructure> structure() {
  std::vector<CodeStructure::Function> functions(2);
  functions[0].name = "_Z4loopPii";
  functions[0].entry = true;
  functions[0].blocks.resize(3);
  functions[0].blocks[0].successors = {1};
  functions[0].blocks[0].lines = {{0, 10, 3}};
  functions[0].blocks[1].successors = {1, 2};
  functions[0].blocks[1].loopDepth = 1;
  functions[0].blocks[1].loopHeader = true;
  functions[0].blocks[1].lines = {{0, 11, 2}, {0, 12, 2}};
  functions[0].blocks[2].exits = true;
  functions[1].name = "_Z6helperv";
  functions[1].blocks.resize(1);
  functions[1].blocks[0].exits = true;
  return std::make_shared<CodeStructure>(std::vector<std::string>{"/src/sample.cu"},
                                         std::move(functions));
}

} // namespace

int main() {
  std::vector<std::shared_ptr<const KernelProfile>> profiles;
  KernelProfile::Timing measured{1'763'752'000'000'000'000, 1'763'752'000'001'000'000, 0.25};

  LaunchInfo first = launch("_Z4loopPii", 1);
  first.nvtxRanges = {"compute", "mylib@solve"};
  profiles.push_back(std::make_shared<KernelProfile>(
      first, measured, KernelProfile::Execution::Instrumented,
      std::vector<std::string>{"bbcount:mode=per-warp", "ctaclock", "entrycount"},
      std::vector<std::string>{},
      std::vector<std::shared_ptr<const InstrumentorResult>>{
          std::make_shared<BasicBlockCounts>(BasicBlockCounts::Mode::PerWarp, 64,
                                             blocks(first.kernelName), std::vector<uint64_t>{},
                                             structure(), true),
          std::make_shared<CtaClockTimes>(first, DeviceFacts{4, 1'980'000, 90}, ctas(true)),
          std::make_shared<PluginResult>()}));

  LaunchInfo second = launch("_Z4loopPii", 2);
  std::vector<uint64_t> perThread(4 * 64, 1);
  profiles.push_back(std::make_shared<KernelProfile>(
      second, KernelProfile::Timing{}, KernelProfile::Execution::Instrumented,
      std::vector<std::string>{"bbcount:mode=per-thread", "ctaclock"},
      std::vector<std::string>{"1 CTA recorded a number of thread exits other than 32"},
      std::vector<std::shared_ptr<const InstrumentorResult>>{
          std::make_shared<BasicBlockCounts>(BasicBlockCounts::Mode::PerThread, 64,
                                             blocks(second.kernelName), perThread, structure()),
          std::make_shared<CtaClockTimes>(second, DeviceFacts{4, 0, 90}, ctas(false))}));

  LaunchInfo original = launch("k\xff\xfe", 3);
  profiles.push_back(std::make_shared<KernelProfile>(
      original, measured, KernelProfile::Execution::Original,
      std::vector<std::string>{"bbcount:mode=per-warp"},
      std::vector<std::string>{"the instrumented module failed to JIT: \"out of memory\"\n"},
      std::vector<std::shared_ptr<const InstrumentorResult>>{}));

  Json document = Json::object();
  document["schema"] = kProfileSchemaVersion;
  document["profiles"] = Json::array();
  for (const auto& p : profiles)
    document["profiles"].push_back(p->json());
  // What the runtime adds at exit with host measures and NVTX (runtime/instrumentation/ProfileHub).
  document["operations"] = Json::array({Json{{"kind", "copy"},
                                             {"name", "copy"},
                                             {"device", 0},
                                             {"stream", 0},
                                             {"bytes", 4096},
                                             {"enqueued_ns", 1'763'752'000'000'000'000},
                                             {"gpu_ns", 1250.5}},
                                        Json{{"kind", "kernel"},
                                             {"name", "_Z4loopPii"},
                                             {"device", 1},
                                             {"stream", 7},
                                             {"bytes", 0},
                                             {"enqueued_ns", 1'763'752'000'000'100'000},
                                             {"gpu_ns", nullptr}}});
  document["api_calls_dropped"] = 0;
  document["api_calls"] = Json::array({Json{{"name", "cudaMemcpy"},
                                            {"thread", 4242},
                                            {"begin_ns", 1'763'752'000'000'000'000},
                                            {"end_ns", 1'763'752'000'000'002'000}}});
  document["nvtx"] = Json::array({Json{{"kind", "push"},
                                       {"domain", ""},
                                       {"name", "compute"},
                                       {"thread", 4242},
                                       {"begin_ns", 1'763'752'000'000'000'000},
                                       {"end_ns", 1'763'752'000'000'500'000}},
                                  Json{{"kind", "start"},
                                       {"domain", "mylib"},
                                       {"name", "load"},
                                       {"thread", 4242},
                                       {"begin_ns", 1'763'752'000'000'000'000},
                                       {"end_ns", nullptr}}});
  document["wall"] =
      Json{{"start_ns", 1'763'751'999'000'000'000}, {"end_ns", 1'763'752'001'000'000'000}};
  std::puts(dumpJson(document).c_str());
  return 0;
}
