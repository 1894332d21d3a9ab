// blockhits, the host side: the counters of a launch as a result (JSON and a summary line).
#include "ocelot/JsonWriter.h"
#include "ocelot/ProbeTool.h"

class BlockHits final : public ocelot::InstrumentorResult {
public:
  explicit BlockHits(const ocelot::ProbeData& data)
      : blocks_(data.blocks()), counts_(data.counters<uint64_t>("entries")) {}
  std::string_view instrumentor() const override { return "blockhits"; }
  void writeJson(ocelot::JsonWriter& out) const override {
    out.beginArray();
    for (size_t b = 0; b < counts_.size(); ++b)
      out.beginObject().key("function").value(blocks_[b].function).key("index")
          .value(blocks_[b].index).key("threads").value(counts_[b]).endObject();
    out.endArray();
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
  ocelot::ProbeToolDefinition tool{"blockhits", "threads entering each basic block",
                                   ocelot::embeddedProbeModules(), {}, {}};
  tool.result = [](const ocelot::ProbeData& data) { return std::make_shared<BlockHits>(data); };
  return tool;
}
OCELOT_PROBE_TOOL(blockhits)
