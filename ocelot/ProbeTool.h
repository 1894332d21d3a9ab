#pragma once

// Probe tools: instrumentors whose instrumentation is CUDA C (probes, ocelot/probe.cuh) that
// Ocelot inlines into the application's kernels at PTX level. A probe tool is a plugin like any
// other (ocelot/Plugin.h); this header is all its host side needs, and it names no IR type:
//
//     #include "ocelot/ProbeTool.h"
//     ocelot::ProbeToolDefinition blockhits() {
//       ocelot::ProbeToolDefinition tool{"blockhits", "threads entering each basic block",
//                                        ocelot::embeddedProbeModules()};
//       return tool;                       // the default result: every region, as JSON
//     }
//     OCELOT_PROBE_TOOL(blockhits)
//
// docs/probes.md is the tutorial; ocelot_add_probe_tool (find_package(Ocelot)) builds one.

#include "ocelot/InstrumentorOptions.h"
#include "ocelot/InstrumentorResult.h"
#include "ocelot/LaunchInfo.h"
#include "ocelot/ProbeTypes.h"

#define OCELOT_PLUGIN_C_ONLY
#include "ocelot/Plugin.h"
#undef OCELOT_PLUGIN_C_ONLY

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ocelot {

/// One PTX instruction of the instrumented module: what `probe::instructionId()` indexes.
struct ProbeInstruction {
  std::string function; ///< the kernel or device function (PTX name)
  uint32_t block = 0;   ///< its basic block (ProbeData::blocks())
  uint32_t index = 0;   ///< its position among its function's instructions, from 0
  std::string opcode;   ///< the full spelling, "ld.global.v4.f32"
  probe::OpcodeClass opcodeClass = probe::kOther;
  probe::StateSpace space = probe::kNoSpace; ///< memory instructions
  probe::AccessKind access = probe::kNoAccess;
  uint32_t accessBytes = 0; ///< bytes per lane (vector width included)
  bool guarded = false;     ///< has a guard predicate (`@%p`)
  uint32_t file = 0;        ///< `.file` index of its `.loc`; 0 without line information
  uint32_t line = 0;
  /// Guarded branches (`@%p bra L`) only: the lanes whose guard is false (those that fall
  /// through) as block entries give them: the lanes that entered the blocks of `skippedFrom`, less
  /// those that entered the blocks of `skippedLess`. skippedFrom is empty where block entries do
  /// not determine them. A probe placed with `derivable=skip` is not placed here.
  std::vector<uint32_t> skippedFrom;
  std::vector<uint32_t> skippedLess;
  static constexpr uint32_t kNoBlock = UINT32_MAX;

  bool skipDerivable() const { return !skippedFrom.empty(); }
  /// The lanes that skipped this instruction, from the lanes that entered each block
  /// (OCELOT_BLOCK_COUNTS(name, "lanes")); skipDerivable() must hold.
  uint64_t derivedSkippedLanes(std::span<const uint64_t> laneEntries) const {
    uint64_t lanes = 0;
    for (uint32_t b : skippedFrom)
      lanes += laneEntries[b];
    for (uint32_t b : skippedLess)
      lanes -= laneEntries[b];
    return lanes;
  }
};

/// One basic block of the instrumented module: what `probe::blockId()` indexes.
struct ProbeBlock {
  std::string function;
  uint32_t index = 0; ///< layout index in its function (B<index> in `ocelot ptx cfg`, bbcount)
  std::string label;  ///< its first label; empty for blocks without one
  uint32_t firstInstruction = 0; ///< id of its first instruction
  uint32_t instructions = 0;     ///< PTX instructions of the application in it
  uint32_t file = 0, line = 0;   ///< of its first instruction with a `.loc`
};

/// Whether every lane that enters instruction `i`'s basic block reaches it: no call comes before it
/// in the block (a callee may exit). Then the block's entries (OCELOT_BLOCK_COUNTS) are the
/// instruction's executions, in warps and in lanes. `probe::blockEntriesReach()` is the same on
/// the device, so a probe can leave those counts to the host.
inline bool blockEntriesReach(std::span<const ProbeInstruction> instructions,
                              std::span<const ProbeBlock> blocks, uint32_t i) {
  for (uint32_t k = blocks[instructions[i].block].firstInstruction; k < i; ++k)
    if (instructions[k].opcodeClass == probe::kCall)
      return false;
  return true;
}

/// One place a probe was inlined: what `probe::siteId()` indexes.
struct ProbeSite {
  std::string probe;     ///< the probe's name
  uint32_t function = 0; ///< index into ProbeData::functions()
  uint32_t block = 0;    ///< block id
  /// The probed instruction's id; kNoInstruction for block and kernel entries and for the fall
  /// off the end of a kernel.
  uint32_t instruction = kNoInstruction;
  probe::When when = probe::kBefore;
  static constexpr uint32_t kNoInstruction = UINT32_MAX;
};

/// A kernel or device function of the module, and what the probes did to it.
struct ProbeFunction {
  std::string name;
  bool kernel = false;   ///< `.entry`; `probe::kernelId()` indexes the kernels among them
  uint32_t kernelId = 0; ///< for kernels
  uint32_t sites = 0;    ///< probe instances inlined
  /// Registers the largest inlined probe keeps live (32-bit units, from liveness on the probes'
  /// PTX plus a few for context values; the occupancy guard measures the real cost on the GPU).
  uint32_t probeRegisters = 0;
  /// Fresh PTX registers declared for the inlined probes (32-bit units; instances of one probe
  /// share theirs).
  uint32_t ptxRegisters = 0;
  /// Why probes were left out of it (a probe needing more registers than the kernel may have).
  std::vector<std::string> notes;
};

/// A region of the launch's buffer, as declared in the probes.
struct ProbeRegion {
  enum class Kind { Counters, Histogram, Stream };
  std::string name;
  Kind kind = Kind::Counters;
  std::string per;           ///< instruction, block, site, kernel, warp, cta, thread, sm, none
  std::string type;          ///< u32, u64, s32, s64, f32, f64, record
  uint32_t elementBytes = 0; ///< bytes of one element (one record)
  uint32_t stripes = 1;
  uint32_t bins = 1;
};

std::string_view probeRegionKindName(ProbeRegion::Kind kind);
std::string_view opcodeClassName(probe::OpcodeClass opcodeClass); ///< "load", "float" ...
std::string_view stateSpaceName(probe::StateSpace space);         ///< "global", "shared" ...
std::string_view accessKindName(probe::AccessKind kind);          ///< "load", "store", "atomic"

/// The tables of an instrumented module that probe results refer to. Shared by all its launches.
struct ProbeModuleTables {
  std::vector<ProbeFunction> functions;
  std::vector<ProbeBlock> blocks;
  std::vector<ProbeInstruction> instructions;
  std::vector<ProbeSite> sites;
  std::vector<std::string> files; ///< by `.file` index (0: none)
  std::vector<std::string> probes;
};

/// One launch's results: the contents of each region of its buffer, and the module's tables. The
/// region bytes are the launch's buffer: valid while the tool's result function runs (copy what
/// the result keeps, as counters() and records() do).
class ProbeData {
public:
  struct RegionBytes {
    ProbeRegion region;
    uint64_t elements = 0; ///< elements (records) the region holds, stripes and bins included
    uint64_t dropped = 0;  ///< updates outside the region, records that did not fit
    uint64_t written = 0;  ///< streams: records pushed (dropped included)
    std::span<const std::byte> bytes; ///< the elements
    /// Where `bytes` lies when it is not the launch's buffer: block counts (OCELOT_BLOCK_COUNTS)
    /// completed by Ocelot, owned by every copy of the data.
    std::shared_ptr<const std::vector<std::byte>> storage;
  };

  ProbeData(std::string tool, const LaunchInfo& launch, const DeviceFacts& device,
            const InstrumentorOptions& options, std::shared_ptr<const ProbeModuleTables> tables,
            std::vector<RegionBytes> regions, std::vector<std::string> errors);

  const std::string& tool() const { return tool_; }
  const LaunchInfo& launch() const { return launch_; }
  const DeviceFacts& device() const { return device_; }
  const InstrumentorOptions& options() const { return options_; }
  const ProbeModuleTables& tables() const { return *tables_; }
  std::shared_ptr<const ProbeModuleTables> sharedTables() const { return tables_; }
  const std::vector<ProbeFunction>& functions() const { return tables_->functions; }
  const std::vector<ProbeBlock>& blocks() const { return tables_->blocks; }
  const std::vector<ProbeInstruction>& instructions() const { return tables_->instructions; }
  const std::vector<ProbeSite>& sites() const { return tables_->sites; }
  /// ocelot::blockEntriesReach for an instruction id of this module.
  bool blockEntriesReach(uint32_t instruction) const {
    return ocelot::blockEntriesReach(instructions(), blocks(), instruction);
  }
  /// "file.cu:12" for an instruction id, empty without line information.
  std::string location(uint32_t instruction) const;
  std::string location(uint32_t file, uint32_t line) const;

  const std::vector<RegionBytes>& regions() const { return regions_; }
  /// The region named `name`; throws std::out_of_range naming it when there is none.
  const RegionBytes& region(std::string_view name) const;
  uint64_t dropped(std::string_view name) const { return region(name).dropped; }

  /// The counters of a counters or histogram region, stripes summed: element i (for histograms
  /// index * bins + bin). T must have the region's element size.
  template <class T> std::vector<T> counters(std::string_view name) const {
    const RegionBytes& r = checked(name, sizeof(T));
    uint64_t stripes = r.region.stripes == 0 ? 1 : r.region.stripes;
    std::vector<T> out(r.elements / stripes, T{});
    for (uint64_t i = 0; i < out.size(); ++i)
      for (uint64_t s = 0; s < stripes; ++s) {
        T value;
        std::memcpy(&value, r.bytes.data() + (i * stripes + s) * sizeof(T), sizeof(T));
        out[i] += value;
      }
    return out;
  }
  /// The records of a stream region that fit (dropped() says how many did not).
  template <class R> std::vector<R> records(std::string_view name) const {
    const RegionBytes& r = checked(name, sizeof(R));
    uint64_t count = r.written < r.elements ? r.written : r.elements;
    std::vector<R> out(count);
    if (count != 0)
      std::memcpy(out.data(), r.bytes.data(), count * sizeof(R));
    return out;
  }

  /// Problems of this launch: a probe that wrote outside the buffer (its writes were suppressed).
  const std::vector<std::string>& errors() const { return errors_; }

private:
  const RegionBytes& checked(std::string_view name, size_t elementBytes) const;

  std::string tool_;
  LaunchInfo launch_;
  DeviceFacts device_;
  InstrumentorOptions options_;
  std::shared_ptr<const ProbeModuleTables> tables_;
  std::vector<RegionBytes> regions_;
  std::vector<std::string> errors_;
};

/// The result of a probe tool that defines none of its own: every region decoded with the tables
/// it refers to. JSON: {"probes":[...], "regions":{name:{kind, per, type, dropped, values|records,
/// ...}}, "functions":[...], "blocks":[...], "instructions":[...], "sites":[...], "errors":[...]}
/// (tables only when a region is indexed by them).
class ProbeResult final : public InstrumentorResult {
public:
  explicit ProbeResult(const ProbeData& data);
  std::string_view instrumentor() const override { return tool_; }
  Json json() const override;
  std::string summary() const override;

  struct Region {
    ProbeRegion region;
    uint64_t dropped = 0;
    std::vector<uint64_t> integers; ///< counters (u32/u64/s32/s64 as two's complement)
    std::vector<double> reals;      ///< counters of f32/f64
    uint64_t records = 0;           ///< streams: records kept
    std::vector<std::byte> recordBytes;
  };
  const std::vector<Region>& regions() const { return regions_; }
  const Region* region(std::string_view name) const;
  const ProbeModuleTables& tables() const { return *tables_; }
  const std::vector<std::string>& errors() const { return errors_; }

private:
  std::string tool_;
  std::shared_ptr<const ProbeModuleTables> tables_;
  std::vector<Region> regions_;
  std::vector<std::string> errors_;
};

/// What a probe tool is: its probes, compiled to PTX, and how a launch's data becomes a result.
struct ProbeToolDefinition {
  std::string name;        ///< registered name: letters, digits, '-', '_'
  std::string description; ///< one line for `ocelot run --list`
  /// The probe modules: `nvcc -rdc=true -ptx` output of the tool's .cu files
  /// (embeddedProbeModules() with ocelot_add_probe_tool).
  std::vector<std::string> ptx;
  /// The tool's result for one launch; empty: a ProbeResult. Called on Ocelot's profile thread.
  std::function<std::shared_ptr<const InstrumentorResult>(const ProbeData&)> result;
  /// Option keys the tool accepts (`-i tool:key=value`) and reads through ProbeData::options();
  /// any other key is an error.
  std::vector<std::string> options;
};

/// Registers `definition` through a plugin host: what a probe tool's ocelot_plugin_entry_v1 does
/// (OCELOT_PROBE_TOOL writes that for you). 0 on success.
int registerProbeTool(const ocelot_plugin_host_v1* host, ProbeToolDefinition definition);

/// The probe modules ocelot_add_probe_tool compiled and embedded into the tool's library. Each
/// tool library defines its own (hidden: tools loaded side by side never see each other's).
__attribute__((visibility("hidden"))) std::vector<std::string> embeddedProbeModules();

} // namespace ocelot

/// The plugin entry points of a probe tool: `definition` is a function returning its
/// ProbeToolDefinition.
#define OCELOT_PROBE_TOOL(definition)                                                              \
  OCELOT_PLUGIN_DEFINE_ABI_VERSION()                                                               \
  extern "C" __attribute__((visibility("default"))) int ocelot_plugin_entry_v1(                    \
      const ocelot_plugin_host_v1* host) {                                                         \
    if (host == nullptr || host->abi_version != OCELOT_PLUGIN_ABI_VERSION)                         \
      return 1;                                                                                    \
    return ::ocelot::registerProbeTool(host, definition());                                        \
  }
