// warpeff, the host side: active lanes per executed instruction (warp execution efficiency), per
// kernel and per source line: the lanes that ran each instruction (guards applied) over the warps
// that issued it.
#include "ocelot/ProbeTool.h"

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

namespace {

using ocelot::Json;

double ratio(uint64_t a, uint64_t b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / b;
}

class WarpEfficiency final : public ocelot::InstrumentorResult {
public:
  explicit WarpEfficiency(const ocelot::ProbeData& data) {
    auto warpEntries = data.counters<uint64_t>("warpEntries");
    auto laneEntries = data.counters<uint64_t>("laneEntries");
    auto skipped = data.counters<uint64_t>("skippedLanes");
    // Lanes whose guard was false: counted by the guardFalse probe, or derived from the block
    // entries where the probe was left out (derivable=skip).
    auto skippedLanes = [&](const ocelot::ProbeInstruction& inst, size_t i) {
      return inst.skipDerivable() ? inst.derivedSkippedLanes(laneEntries) : skipped[i];
    };
    std::map<std::pair<std::string, uint32_t>, std::pair<uint64_t, uint64_t>> byLine;
    for (size_t i = 0; i < data.instructions().size(); ++i) {
      const ocelot::ProbeInstruction& inst = data.instructions()[i];
      uint64_t warps = warpEntries[inst.block];
      uint64_t lanes = laneEntries[inst.block] - skippedLanes(inst, i);
      lanes_ += lanes;
      warps_ += warps;
      if (warps != 0 && inst.line != 0 && inst.file < data.tables().files.size()) {
        auto& [l, w] = byLine[{data.tables().files[inst.file], inst.line}];
        l += lanes;
        w += warps;
      }
    }
    Json lines = Json::array(), sourceLines = Json::array();
    for (const auto& [where, counts] : byLine) {
      lines.push_back({{"file", where.first},
                       {"line", where.second},
                       {"lanes", counts.first},
                       {"warp_instructions", counts.second},
                       {"lanes_per_instruction", ratio(counts.first, counts.second)}});
      // The report's source view sums values over launches: the idle lane slots at the line.
      sourceLines.push_back({{"file", where.first},
                             {"line", where.second},
                             {"value", 32 * counts.second - counts.first}});
    }
    json_ = {{"lanes", lanes_},
             {"warp_instructions", warps_},
             {"lanes_per_instruction", ratio(lanes_, warps_)},
             {"efficiency", ratio(lanes_, 32 * warps_)},
             {"lines", std::move(lines)},
             {"source_lines", std::move(sourceLines)},
             {"errors", data.errors()}};
  }
  std::string_view instrumentor() const override { return "warpeff"; }
  Json json() const override { return json_; }
  std::string summary() const override {
    char line[128];
    std::snprintf(line, sizeof line, "%.2f active lanes per warp instruction (%.1f%%)",
                  ratio(lanes_, warps_), 100.0 * ratio(lanes_, 32 * warps_));
    return line;
  }

private:
  Json json_;
  uint64_t lanes_ = 0, warps_ = 0;
};

ocelot::ProbeToolDefinition warpeff() {
  ocelot::ProbeToolDefinition tool{
      "warpeff",
      "active lanes per executed instruction, per kernel and source line",
      ocelot::embeddedProbeModules(),
      {},
      {}};
  tool.result = [](const ocelot::ProbeData& data) {
    return std::make_shared<WarpEfficiency>(data);
  };
  return tool;
}

} // namespace

OCELOT_PROBE_TOOL(warpeff)
