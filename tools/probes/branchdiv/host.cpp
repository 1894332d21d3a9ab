// branchdiv, the host side: per conditional branch and per source line, warp executions taken,
// not taken and divergent, and the lanes on each side.
#include "ocelot/ProbeTool.h"

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

namespace {

using ocelot::Json;

class BranchDivergence final : public ocelot::InstrumentorResult {
public:
  explicit BranchDivergence(const ocelot::ProbeData& data) {
    auto warpEntries = data.counters<uint64_t>("warpEntries");
    auto laneEntries = data.counters<uint64_t>("laneEntries");
    auto allTaken = data.counters<uint64_t>("allTaken");
    auto divergentWarps = data.counters<uint64_t>("divergent");
    auto noneTaken = data.counters<uint64_t>("noneTaken");
    auto takenLanes = data.counters<uint64_t>("takenLanes");
    auto fallLanes = data.counters<uint64_t>("fallLanes");
    // The branches the vote probe is at (not those of kernels it was left out of).
    std::set<uint32_t> probed;
    for (const ocelot::ProbeSite& site : data.sites())
      if (site.probe == "vote" && site.instruction != ocelot::ProbeSite::kNoInstruction)
        probed.insert(site.instruction);
    struct Line {
      uint64_t warps = 0, divergent = 0;
    };
    std::map<std::pair<std::string, uint32_t>, Line> byLine;
    Json branches = Json::array();
    for (uint32_t i : probed) {
      const ocelot::ProbeInstruction& inst = data.instructions()[i];
      // What the probe did not count, the block entries give (as the probe decided at the site).
      const bool reach = data.blockEntriesReach(i);
      const uint64_t uniformTaken = allTaken[i], divergent = divergentWarps[i];
      const uint64_t warps =
          reach ? warpEntries[inst.block] : uniformTaken + divergent + noneTaken[i];
      const uint64_t uniformFall = reach ? warps - uniformTaken - divergent : noneTaken[i];
      const uint64_t fall =
          inst.skipDerivable() ? inst.derivedSkippedLanes(laneEntries) : fallLanes[i];
      const uint64_t taken = reach ? laneEntries[inst.block] - fall : takenLanes[i];
      if (warps == 0)
        continue;
      branches.push_back({{"function", inst.function},
                          {"instruction", i},
                          {"block", data.blocks()[inst.block].index},
                          {"location", data.location(i)},
                          {"warps", warps},
                          {"taken", uniformTaken},
                          {"not_taken", uniformFall},
                          {"divergent", divergent},
                          {"taken_lanes", taken},
                          {"not_taken_lanes", fall}});
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
