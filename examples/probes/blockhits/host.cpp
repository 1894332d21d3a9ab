// blockhits, the host side: the counters of a launch as a result (JSON and a summary line).
#include "ocelot/ProbeTool.h"

#include <nlohmann/json.hpp>

class BlockHits final : public ocelot::InstrumentorResult {
public:
  explicit BlockHits(const ocelot::ProbeData& data)
      : blocks_(data.blocks()), counts_(data.counters<uint64_t>("entries")) {}
  std::string_view instrumentor() const override { return "blockhits"; }
  ocelot::Json json() const override {
    ocelot::Json blocks = ocelot::Json::array();
    for (size_t b = 0; b < counts_.size(); ++b)
      blocks.push_back({{"function", blocks_[b].function},
                        {"index", blocks_[b].index},
                        {"threads", counts_[b]}});
    return {{"blocks", blocks}}; // a result is a JSON object (docs/profile.schema.json)
  }
  std::string summary() const override {
    uint64_t total = 0;
    for (uint64_t c : counts_)
      total += c;
    return std::to_string(total) + " block entries";
  }

private:
  std::vector<ocelot::ProbeBlock> blocks_;
  std::vector<uint64_t> counts_;
};

static ocelot::ProbeToolDefinition blockhits() {
  ocelot::ProbeToolDefinition tool{
      "blockhits", "threads entering each basic block", ocelot::embeddedProbeModules(), {}, {}};
  tool.result = [](const ocelot::ProbeData& data) { return std::make_shared<BlockHits>(data); };
  return tool;
}
OCELOT_PROBE_TOOL(blockhits)
