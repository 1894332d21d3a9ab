// branchdiv, the host side: per conditional branch and per source line, warp executions taken,
// not taken and divergent, and the lanes on each side.
#include "ocelot/ProbeTool.h"

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

namespace {

using ocelot::Json;

class BranchDivergence final : public ocelot::InstrumentorResult {
public:
  explicit BranchDivergence(const ocelot::ProbeData& data) {
    auto outcomes = data.counters<uint64_t>("outcomes"); // 3 bins per instruction
    auto taken = data.counters<uint64_t>("takenLanes");
    auto fall = data.counters<uint64_t>("fallLanes");
    struct Line {
      uint64_t warps = 0, divergent = 0;
    };
    std::map<std::pair<std::string, uint32_t>, Line> byLine;
    Json branches = Json::array();
    for (size_t i = 0; i < taken.size(); ++i) {
      uint64_t uniformTaken = outcomes[3 * i], uniformFall = outcomes[3 * i + 1],
               divergent = outcomes[3 * i + 2];
      uint64_t warps = uniformTaken + uniformFall + divergent;
      if (warps == 0)
        continue;
      const ocelot::ProbeInstruction& inst = data.instructions()[i];
      branches.push_back({{"function", inst.function},
                          {"instruction", i},
                          {"block", data.blocks()[inst.block].index},
                          {"location", data.location(static_cast<uint32_t>(i))},
                          {"warps", warps},
                          {"taken", uniformTaken},
                          {"not_taken", uniformFall},
                          {"divergent", divergent},
                          {"taken_lanes", taken[i]},
                          {"not_taken_lanes", fall[i]}});
      warps_ += warps;
      divergent_ += divergent;
      if (inst.line != 0 && inst.file < data.tables().files.size()) {
        Line& l = byLine[{data.tables().files[inst.file], inst.line}];
        l.warps += warps;
        l.divergent += divergent;
      }
    }
    Json lines = Json::array(), sourceLines = Json::array();
    for (const auto& [where, l] : byLine) {
      lines.push_back({{"file", where.first},
                       {"line", where.second},
                       {"warps", l.warps},
                       {"divergent", l.divergent}});
      // The report's source view sums values over launches: divergent warp executions.
      sourceLines.push_back(
          {{"file", where.first}, {"line", where.second}, {"value", l.divergent}});
    }
    json_ = {{"branches", std::move(branches)},
             {"lines", std::move(lines)},
             {"source_lines", std::move(sourceLines)},
             {"warps", warps_},
             {"divergent", divergent_},
             {"errors", data.errors()}};
  }
  std::string_view instrumentor() const override { return "branchdiv"; }
  Json json() const override { return json_; }
  std::string summary() const override {
    char line[128];
    std::snprintf(line, sizeof line, "%llu conditional branch executions, %.1f%% divergent",
                  static_cast<unsigned long long>(warps_),
                  warps_ == 0 ? 0.0 : 100.0 * static_cast<double>(divergent_) / warps_);
    return line;
  }

private:
  Json json_;
  uint64_t warps_ = 0, divergent_ = 0;
};

ocelot::ProbeToolDefinition branchdiv() {
  ocelot::ProbeToolDefinition tool{
      "branchdiv",
      "per conditional branch: warp executions taken, not taken and divergent",
      ocelot::embeddedProbeModules(),
      {},
      {}};
  tool.result = [](const ocelot::ProbeData& data) {
    return std::make_shared<BranchDivergence>(data);
  };
  return tool;
}

} // namespace

OCELOT_PROBE_TOOL(branchdiv)
