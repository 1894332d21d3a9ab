// instmix, the host side: the opcode-class histogram of a launch, per kernel and per source line,
// in thread-level counts (lanes that ran each instruction, guards applied) and warp-level counts
// (warps that issued it).
#include "ocelot/ProbeTool.h"

#include <array>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

namespace {

using ocelot::Json;
constexpr size_t kClasses = ocelot::probe::kOther + 1;
using Mix = std::array<uint64_t, kClasses>;

Json mixJson(const Mix& threads, const Mix& warps) {
  Json out = Json::object();
  for (size_t c = 0; c < kClasses; ++c)
    if (warps[c] != 0)
      out[std::string(ocelot::opcodeClassName(ocelot::probe::OpcodeClass(c)))] = {
          {"threads", threads[c]}, {"warps", warps[c]}};
  return out;
}

class InstructionMix final : public ocelot::InstrumentorResult {
public:
  explicit InstructionMix(const ocelot::ProbeData& data) {
    auto warpEntries = data.counters<uint64_t>("warpEntries");
    auto laneEntries = data.counters<uint64_t>("laneEntries");
    auto skipped = data.counters<uint64_t>("skippedLanes");
    // Lanes whose guard was false: counted by the guardFalse probe, or derived from the block
    // entries where the probe was left out (derivable=skip).
    auto skippedLanes = [&](const ocelot::ProbeInstruction& inst, size_t i) {
      return inst.skipDerivable() ? inst.derivedSkippedLanes(laneEntries) : skipped[i];
    };
    std::map<std::pair<std::string, uint32_t>, std::pair<Mix, Mix>> byLine;
    for (size_t i = 0; i < data.instructions().size(); ++i) {
      const ocelot::ProbeInstruction& inst = data.instructions()[i];
      uint64_t warps = warpEntries[inst.block];
      if (warps == 0)
        continue;
      uint64_t threads = laneEntries[inst.block] - skippedLanes(inst, i);
      threads_[inst.opcodeClass] += threads;
      warps_[inst.opcodeClass] += warps;
      if (inst.line != 0 && inst.file < data.tables().files.size()) {
        auto& [t, w] = byLine[{data.tables().files[inst.file], inst.line}];
        t[inst.opcodeClass] += threads;
        w[inst.opcodeClass] += warps;
      }
    }
    Json lines = Json::array(), sourceLines = Json::array();
    for (const auto& [where, mix] : byLine) {
      uint64_t total = 0;
      for (uint64_t t : mix.first)
        total += t;
      lines.push_back(
          {{"file", where.first}, {"line", where.second}, {"mix", mixJson(mix.first, mix.second)}});
      // The report's source view: thread-level instructions executed at the line.
      sourceLines.push_back({{"file", where.first}, {"line", where.second}, {"value", total}});
    }
    uint64_t threads = 0, warps = 0;
    for (size_t c = 0; c < kClasses; ++c)
      threads += threads_[c], warps += warps_[c];
    json_ = {{"mix", mixJson(threads_, warps_)},
             {"threads", threads},
             {"warps", warps},
             {"lines", std::move(lines)},
             {"source_lines", std::move(sourceLines)},
             {"errors", data.errors()}};
  }
  std::string_view instrumentor() const override { return "instmix"; }
  Json json() const override { return json_; }
  std::string summary() const override {
    // The three largest classes, in thread-level instructions.
    uint64_t total = 0;
    for (uint64_t t : threads_)
      total += t;
    std::string out = std::to_string(total) + " thread instructions";
    Mix rest = threads_;
    for (int k = 0; k < 3 && total != 0; ++k) {
      size_t top = 0;
      for (size_t c = 1; c < kClasses; ++c)
        if (rest[c] > rest[top])
          top = c;
      if (rest[top] == 0)
        break;
      char part[64];
      std::snprintf(part, sizeof part, "%s %s %.1f%%", k == 0 ? ":" : ",",
                    std::string(ocelot::opcodeClassName(ocelot::probe::OpcodeClass(top))).c_str(),
                    100.0 * static_cast<double>(rest[top]) / total);
      out += part;
      rest[top] = 0;
    }
    return out;
  }

private:
  Json json_;
  Mix threads_{}, warps_{};
};

ocelot::ProbeToolDefinition instmix() {
  ocelot::ProbeToolDefinition tool{"instmix",
                                   "opcode-class histogram per kernel and source line, thread- and "
                                   "warp-level, from block counts",
                                   ocelot::embeddedProbeModules(),
                                   {},
                                   {}};
  tool.result = [](const ocelot::ProbeData& data) {
    return std::make_shared<InstructionMix>(data);
  };
  return tool;
}

} // namespace

OCELOT_PROBE_TOOL(instmix)
