// memaccess, the host side: a launch's counters as, per memory instruction and per source line,
// requests, sectors and lines per request (global and generic; local in the hardware's interleaved
// layout), ways per request (shared).
#include "ocelot/ProbeTool.h"

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>

namespace {

using ocelot::Json;

double ratio(uint64_t a, uint64_t b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / b;
}

class MemoryAccesses final : public ocelot::InstrumentorResult {
public:
  explicit MemoryAccesses(const ocelot::ProbeData& data) {
    auto warpEntries = data.counters<uint64_t>("warpEntries");
    auto laneEntries = data.counters<uint64_t>("laneEntries");
    auto counted = data.counters<uint64_t>("requests");
    auto countedLanes = data.counters<uint64_t>("lanes");
    auto sectors = data.counters<uint64_t>("sectors");
    auto lines = data.counters<uint64_t>("lines");
    auto extraWavefronts = data.counters<uint64_t>("extraWavefronts");
    // The instructions a probe is at (not those of kernels it was left out of).
    std::set<uint32_t> probed;
    for (const ocelot::ProbeSite& site : data.sites())
      if (site.instruction != ocelot::ProbeSite::kNoInstruction)
        probed.insert(site.instruction);
    struct Line {
      uint64_t requests = 0, sectors = 0, lines = 0, sharedRequests = 0, wavefronts = 0;
    };
    std::map<std::pair<std::string, uint32_t>, Line> byLine;
    Json instructions = Json::array();
    for (uint32_t i : probed) {
      const ocelot::ProbeInstruction& inst = data.instructions()[i];
      // The block entries, where every lane that enters the block executes the instruction (as
      // the probe decided at the site); else what the probe counted.
      const bool derived = data.blockEntriesReach(i) && !inst.guarded;
      const uint64_t requests = derived ? warpEntries[inst.block] : counted[i];
      const uint64_t lanes = derived ? laneEntries[inst.block] : countedLanes[i];
      if (requests == 0)
        continue;
      bool shared = inst.space == ocelot::probe::kShared;
      bool local = inst.space == ocelot::probe::kLocal;
      Json entry = {{"function", inst.function},
                    {"instruction", i},
                    {"opcode", inst.opcode},
                    {"space", ocelot::stateSpaceName(inst.space)},
                    {"location", data.location(i)},
                    {"requests", requests},
                    {"lanes", lanes}};
      Line* line = nullptr;
      if (inst.line != 0 && inst.file < data.tables().files.size())
        line = &byLine[{data.tables().files[inst.file], inst.line}];
      if (shared) {
        // One wavefront per request, and those the conflicts added.
        const uint64_t wavefronts = requests + extraWavefronts[i];
        entry["wavefronts"] = wavefronts;
        entry["ways_per_request"] = ratio(wavefronts, requests);
        shared_.first += requests;
        shared_.second += wavefronts;
        if (line != nullptr)
          line->sharedRequests += requests, line->wavefronts += wavefronts;
      } else {
        entry["sectors"] = sectors[i];
        entry["lines"] = lines[i];
        entry["sectors_per_request"] = ratio(sectors[i], requests);
        // Bytes the lanes asked for over the bytes of the sectors moved.
        entry["efficiency"] = ratio(lanes * inst.accessBytes, sectors[i] * 32);
        auto& totals = local ? local_ : global_;
        totals.first += requests;
        totals.second += sectors[i];
        if (line != nullptr)
          line->requests += requests, line->sectors += sectors[i], line->lines += lines[i];
      }
      instructions.push_back(std::move(entry));
    }
    Json perLine = Json::array(), sourceLines = Json::array();
    for (const auto& [where, l] : byLine) {
      Json entry = {{"file", where.first}, {"line", where.second}};
      if (l.requests != 0) {
        entry["requests"] = l.requests;
        entry["sectors"] = l.sectors;
        entry["lines"] = l.lines;
        entry["sectors_per_request"] = ratio(l.sectors, l.requests);
        // The report's source view sums values over launches: sectors add up, ratios do not.
        sourceLines.push_back(
            {{"file", where.first}, {"line", where.second}, {"value", l.sectors}});
      }
      if (l.sharedRequests != 0) {
        entry["shared_requests"] = l.sharedRequests;
        entry["wavefronts"] = l.wavefronts;
        entry["ways_per_request"] = ratio(l.wavefronts, l.sharedRequests);
      }
      perLine.push_back(std::move(entry));
    }
    json_ = {{"instructions", std::move(instructions)},
             {"lines", std::move(perLine)},
             {"source_lines", std::move(sourceLines)},
             {"global",
              {{"requests", global_.first},
               {"sectors", global_.second},
               {"sectors_per_request", ratio(global_.second, global_.first)}}},
             {"local",
              {{"requests", local_.first},
               {"sectors", local_.second},
               {"sectors_per_request", ratio(local_.second, local_.first)}}},
             {"shared",
              {{"requests", shared_.first},
               {"wavefronts", shared_.second},
               {"ways_per_request", ratio(shared_.second, shared_.first)}}},
             {"errors", data.errors()}};
  }
  std::string_view instrumentor() const override { return "memaccess"; }
  Json json() const override { return json_; }
  std::string summary() const override {
    char line[224];
    std::snprintf(
        line, sizeof line,
        "%llu global requests, %.2f sectors/request; %llu shared requests, %.2f "
        "ways/request",
        static_cast<unsigned long long>(global_.first), ratio(global_.second, global_.first),
        static_cast<unsigned long long>(shared_.first), ratio(shared_.second, shared_.first));
    std::string text = line;
    if (local_.first != 0) {
      std::snprintf(line, sizeof line, "; %llu local requests, %.2f sectors/request",
                    static_cast<unsigned long long>(local_.first),
                    ratio(local_.second, local_.first));
      text += line;
    }
    return text;
  }

private:
  Json json_;
  std::pair<uint64_t, uint64_t> global_{0, 0}; ///< requests, sectors
  std::pair<uint64_t, uint64_t> local_{0, 0};  ///< requests, sectors
  std::pair<uint64_t, uint64_t> shared_{0, 0}; ///< requests, wavefronts
};

ocelot::ProbeToolDefinition memaccess() {
  ocelot::ProbeToolDefinition tool{
      "memaccess",
      "per memory instruction and source line: requests, sectors and lines per request (global, "
      "generic, local), shared bank conflicts",
      ocelot::embeddedProbeModules(),
      {},
      {}};
  tool.result = [](const ocelot::ProbeData& data) {
    return std::make_shared<MemoryAccesses>(data);
  };
  return tool;
}

} // namespace

OCELOT_PROBE_TOOL(memaccess)
