#include "ocelot/ProbeTool.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace ocelot {

std::string_view probeRegionKindName(ProbeRegion::Kind kind) {
  switch (kind) {
  case ProbeRegion::Kind::Counters:
    return "counters";
  case ProbeRegion::Kind::Histogram:
    return "histogram";
  case ProbeRegion::Kind::Stream:
    return "stream";
  }
  return "counters";
}

std::string_view opcodeClassName(probe::OpcodeClass opcodeClass) {
  switch (opcodeClass) {
  case probe::kIntegerArithmetic:
    return "integer";
  case probe::kFloatArithmetic:
    return "float";
  case probe::kDoubleArithmetic:
    return "double";
  case probe::kLogic:
    return "logic";
  case probe::kCompare:
    return "compare";
  case probe::kMove:
    return "move";
  case probe::kLoad:
    return "load";
  case probe::kStore:
    return "store";
  case probe::kAtomic:
    return "atomic";
  case probe::kBranch:
    return "branch";
  case probe::kCall:
    return "call";
  case probe::kReturn:
    return "return";
  case probe::kBarrier:
    return "barrier";
  case probe::kWarp:
    return "warp";
  case probe::kTensor:
    return "tensor";
  case probe::kTexture:
    return "texture";
  case probe::kOther:
  case probe::kOpcodeClassCount:
    break;
  }
  return "other";
}

std::string_view stateSpaceName(probe::StateSpace space) {
  switch (space) {
  case probe::kNoSpace:
    return "none";
  case probe::kGeneric:
    return "generic";
  case probe::kGlobal:
    return "global";
  case probe::kShared:
    return "shared";
  case probe::kLocal:
    return "local";
  case probe::kConst:
    return "const";
  case probe::kParam:
    return "param";
  case probe::kOtherSpace:
    break;
  }
  return "other";
}

std::string_view accessKindName(probe::AccessKind kind) {
  switch (kind) {
  case probe::kRead:
    return "load";
  case probe::kWrite:
    return "store";
  case probe::kAtomicAccess:
    return "atomic";
  case probe::kNoAccess:
    break;
  }
  return "none";
}

// The plugin's side of the registration: through the host's table, so that a probe tool refers
// to no symbol of the runtime (it is built with its own copy of this file's code).
int registerProbeTool(const ocelot_plugin_host_v1* host, ProbeToolDefinition definition) {
  if (host == nullptr || host->abi_version != OCELOT_PLUGIN_ABI_VERSION ||
      host->register_probe_tool == nullptr)
    return 1;
  return host->register_probe_tool(host->registry, &definition);
}

// --- ProbeData -----------------------------------------------------------------------------------

ProbeData::ProbeData(std::string tool, const LaunchInfo& launch, const DeviceFacts& device,
                     const InstrumentorOptions& options,
                     std::shared_ptr<const ProbeModuleTables> tables,
                     std::vector<RegionBytes> regions, std::vector<std::string> errors)
    : tool_(std::move(tool)), launch_(launch), device_(device), options_(options),
      tables_(std::move(tables)), regions_(std::move(regions)), errors_(std::move(errors)) {
  if (!tables_)
    tables_ = std::make_shared<ProbeModuleTables>();
}

std::string ProbeData::location(uint32_t file, uint32_t line) const {
  if (file == 0 || line == 0)
    return {};
  std::string_view path =
      file < tables_->files.size() ? std::string_view(tables_->files[file]) : std::string_view();
  if (auto slash = path.find_last_of("/\\"); slash != std::string_view::npos)
    path = path.substr(slash + 1);
  return std::string(path.empty() ? "?" : path) + ":" + std::to_string(line);
}

std::string ProbeData::location(uint32_t instruction) const {
  if (instruction >= tables_->instructions.size())
    return {};
  const ProbeInstruction& i = tables_->instructions[instruction];
  return location(i.file, i.line);
}

const ProbeData::RegionBytes& ProbeData::region(std::string_view name) const {
  for (const auto& r : regions_)
    if (r.region.name == name)
      return r;
  throw std::out_of_range(tool_ + ": no region named '" + std::string(name) + "'");
}

const ProbeData::RegionBytes& ProbeData::checked(std::string_view name, size_t elementBytes) const {
  const RegionBytes& r = region(name);
  if (r.region.elementBytes != elementBytes)
    throw std::invalid_argument(tool_ + ": region '" + std::string(name) + "' holds " +
                                std::to_string(r.region.elementBytes) + "-byte elements, not " +
                                std::to_string(elementBytes));
  return r;
}

// --- ProbeResult ---------------------------------------------------------------------------------

ProbeResult::ProbeResult(const ProbeData& data)
    : tool_(data.tool()), tables_(data.sharedTables()), errors_(data.errors()) {
  for (const auto& bytes : data.regions()) {
    Region r;
    r.region = bytes.region;
    r.dropped = bytes.dropped;
    const std::string& type = r.region.type;
    if (r.region.kind == ProbeRegion::Kind::Stream) {
      r.records = bytes.written < bytes.elements ? bytes.written : bytes.elements;
      auto kept = bytes.bytes.subspan(0, r.records * r.region.elementBytes);
      r.recordBytes.assign(kept.begin(), kept.end());
    } else if (type == "f32") {
      for (float v : data.counters<float>(r.region.name))
        r.reals.push_back(v);
    } else if (type == "f64") {
      r.reals = data.counters<double>(r.region.name);
    } else if (r.region.elementBytes == 4) {
      for (uint32_t v : data.counters<uint32_t>(r.region.name))
        r.integers.push_back(
            type == "s32" ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(v)))
                          : v);
    } else if (r.region.elementBytes == 8) {
      r.integers = data.counters<uint64_t>(r.region.name);
    }
    regions_.push_back(std::move(r));
  }
}

const ProbeResult::Region* ProbeResult::region(std::string_view name) const {
  for (const auto& r : regions_)
    if (r.region.name == name)
      return &r;
  return nullptr;
}

std::string ProbeResult::summary() const {
  std::string text = std::to_string(tables_->sites.size()) + " probe sites";
  for (const auto& r : regions_) {
    text += ", " + r.region.name + ": ";
    if (r.region.kind == ProbeRegion::Kind::Stream) {
      text += std::to_string(r.records) + " records";
    } else {
      long double sum = 0;
      for (uint64_t v : r.integers)
        sum += r.region.type[0] == 's' ? static_cast<long double>(static_cast<int64_t>(v))
                                       : static_cast<long double>(v);
      for (double v : r.reals)
        sum += v;
      text += "sum " + std::to_string(static_cast<double>(sum));
    }
    if (r.dropped != 0)
      text += " (" + std::to_string(r.dropped) + " dropped)";
  }
  for (const auto& e : errors_)
    text += "; " + e;
  return text;
}

Json ProbeResult::json() const {
  const ProbeModuleTables& t = *tables_;
  bool blocks = false, instructions = false, sites = false;
  Json out = Json::object();
  out["probes"] = t.probes;
  Json regions = Json::object();
  for (const auto& r : regions_) {
    Json region = Json::object();
    region["kind"] = probeRegionKindName(r.region.kind);
    region["per"] = r.region.per;
    region["type"] = r.region.type;
    region["dropped"] = r.dropped;
    if (r.region.bins > 1)
      region["bins"] = r.region.bins;
    if (r.region.kind == ProbeRegion::Kind::Stream) {
      region["record_bytes"] = r.region.elementBytes;
      region["records"] = r.records;
    } else {
      Json values = Json::array();
      for (uint64_t v : r.integers)
        if (r.region.type[0] == 's')
          values.push_back(static_cast<int64_t>(v));
        else
          values.push_back(v);
      for (double v : r.reals)
        values.push_back(v);
      region["values"] = std::move(values);
    }
    regions[r.region.name] = std::move(region);
    blocks = blocks || r.region.per == "block";
    instructions = instructions || r.region.per == "instruction";
    sites = sites || r.region.per == "site";
  }
  out["regions"] = std::move(regions);
  Json functions = Json::array();
  for (const auto& f : t.functions) {
    Json function = {{"name", f.name},
                     {"kernel", f.kernel},
                     {"sites", f.sites},
                     {"probe_registers", f.probeRegisters},
                     {"ptx_registers", f.ptxRegisters}};
    if (!f.notes.empty())
      function["notes"] = f.notes;
    functions.push_back(std::move(function));
  }
  out["functions"] = std::move(functions);
  if (blocks) {
    Json list = Json::array();
    for (const auto& b : t.blocks)
      list.push_back({{"function", b.function},
                      {"index", b.index},
                      {"label", b.label},
                      {"instructions", b.instructions},
                      {"line", b.line}});
    out["blocks"] = std::move(list);
  }
  if (instructions) {
    Json list = Json::array();
    for (const auto& i : t.instructions)
      list.push_back({{"function", i.function},
                      {"block", i.block},
                      {"opcode", i.opcode},
                      {"class", opcodeClassName(i.opcodeClass)},
                      {"line", i.line}});
    out["instructions"] = std::move(list);
  }
  if (sites) {
    Json list = Json::array();
    for (const auto& s : t.sites)
      list.push_back(
          {{"probe", s.probe},
           {"block", s.block},
           {"instruction",
            s.instruction == ProbeSite::kNoInstruction ? int64_t{-1} : int64_t{s.instruction}}});
    out["sites"] = std::move(list);
  }
  out["errors"] = errors_;
  return out;
}

} // namespace ocelot
