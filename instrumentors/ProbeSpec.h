#pragma once

// The declarative side of probes: where a probe goes (the placement string of OCELOT_PROBE) and
// what a region is (OCELOT_COUNTERS, OCELOT_HISTOGRAM, OCELOT_STREAM). docs/probes.md lists the
// keys. Parsing is strict: an unknown key or value is an error that names it.

#include "ir/Opcode.h"
#include "ocelot/ProbeTool.h"

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace ocelot::instrumentors {

struct Placement {
  enum class At : uint8_t { KernelEntry, KernelExit, BlockEntry, Instruction };
  At at = At::BlockEntry;
  bool before = true; ///< Instruction: run before the instruction
  bool after = false; ///< Instruction: run after it (not after branches, returns, exits)
  // Filters (empty: any). An instruction matches when it passes every filter given.
  std::vector<probe::OpcodeClass> classes;
  std::vector<ir::Opcode> opcodes; ///< opcode=ld,atom (the opcode without modifiers)
  std::vector<probe::StateSpace> spaces;
  std::vector<probe::AccessKind> kinds;
  /// guarded=yes: only instructions with a guard predicate (`@%p`); no: only those without.
  std::optional<bool> guarded;
  std::optional<std::regex> kernel; ///< searched in the function's mangled and demangled names
  std::optional<std::regex> file;   ///< searched in the instruction's (block's) source file
  std::string kernelText, fileText;
  /// Skip: the probe runs only for lanes whose guard holds (the lanes that execute the
  /// instruction). Receive: it runs for every active lane and reads the guard with predicate().
  bool receiveGuard = false;
  /// derivable=skip: not at guarded branches whose guard-false lanes block entries give
  /// (ProbeInstruction::skippedFrom); the tool derives them from OCELOT_BLOCK_COUNTS instead.
  bool skipDerivable = false;
  uint32_t sampleWarps = 1;    ///< only in warps whose global warp index is a multiple of N
  uint32_t sampleLaunches = 1; ///< only in every N-th launch of each kernel (1st, N+1th ...)
};

struct ProbeSpec {
  std::string name;
  Placement placement;
  std::string text; ///< as written, for messages and the result
};

struct RegionSpec {
  enum class Per : uint8_t { Instruction, Block, Site, Kernel, Warp, Cta, Thread, Sm, None };
  std::string name;
  uint32_t id = 0; ///< FNV-1a of the name, as the device header computes it
  ProbeRegion::Kind kind = ProbeRegion::Kind::Counters;
  std::string type;   ///< u32 ... f64, record
  uint32_t bytes = 0; ///< element (record) size
  uint32_t align = 1;
  Per per = Per::None;
  uint64_t count = 1;   ///< Per::None: elements (streams: records)
  uint32_t stripes = 1; ///< power of two
  uint32_t bins = 1;    ///< histograms
  uint32_t sms = 1024;  ///< Per::Sm: SM ids below this are counted
  /// OCELOT_BLOCK_COUNTS (`entries=`): the framework counts the block entries of every block with
  /// bbcount's counter placement; no probe writes the region.
  enum class Entries : uint8_t { None, Lanes, Warps };
  Entries entries = Entries::None;
  std::string text;
  /// Whether the size depends on the launch (warps, CTAs, threads).
  bool perLaunch() const { return per == Per::Warp || per == Per::Cta || per == Per::Thread; }
};

std::string_view perName(RegionSpec::Per per);

/// "probe NAME; key=value; ..." as OCELOT_PROBE writes it. Throws std::invalid_argument.
ProbeSpec parseProbeSpec(std::string_view text);
/// "region NAME; kind=...; type=...; bytes=...; align=...; key=value ..." (OCELOT_COUNTERS ...).
RegionSpec parseRegionSpec(std::string_view text);

/// FNV-1a, 32 bits (ocelot::probe::detail::regionId).
uint32_t regionId(std::string_view name);

} // namespace ocelot::instrumentors
