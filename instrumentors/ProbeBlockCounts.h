#pragma once

// Block counts of probe tools (OCELOT_BLOCK_COUNTS): the regions the framework fills itself with
// bbcount's counting (placeCounters and PerWarpCountPass) instead of a probe at every block entry,
// so that a tool derived from block counts (instmix, warpeff) costs what bbcount costs.

#include "instrumentors/BlockCountState.h"
#include "instrumentors/ProbeLayout.h"
#include "instrumentors/ProbeProgram.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <vector>

namespace ocelot::instrumentors {

/// One block-count region of a module: the counting passes' state, whose rows are the module's
/// block ids (ProbeData::blocks()), and how each block is counted.
struct ProbeBlockCounting {
  size_t region = 0; ///< index in the program's regions
  /// Per-warp mode, the region's stripes (a pointer: the passes keep a reference).
  std::unique_ptr<BlockCountState> counters = std::make_unique<BlockCountState>();
  /// By block id; Derived blocks' source is a block id. Blocks of functions the buffer does not
  /// reach stay Atomic with nothing counting them (0).
  std::vector<BlockCounter> blocks;
  /// The region's counters as the counting passes address them (made by instrument()).
  std::unique_ptr<BufferAccess> access;
};

/// Places the counters of every OCELOT_BLOCK_COUNTS region of `program` in the functions of
/// `module` that `buffer` reaches; `firstBlock` gives each function's first block id. Reads the
/// module only.
std::vector<ProbeBlockCounting>
placeProbeBlockCounts(ir::Module& module, passes::AnalysisManager& analyses,
                      const ProbeProgram& program, const BufferAccess& buffer,
                      const InstrumentationTarget& target,
                      const std::map<const ir::Function*, uint32_t>& firstBlock);

/// Adds the counting passes of `counts` (their buffer access at each region's counters in the
/// fixed `layout`).
void addProbeBlockCountPasses(std::vector<ProbeBlockCounting>& counts, const ProbeLayout& layout,
                              passes::PassManager& passes, const BufferAccess& buffer);

/// The region bytes of a launch with every derived block's counters copied from its source's and
/// unreachable blocks' set to 0, so that each block reads its exact count. `bytes` is the region's
/// elements (block ids times stripes, 8 bytes each).
std::vector<std::byte> completeBlockCounts(const ProbeBlockCounting& counts,
                                           std::span<const std::byte> bytes);

} // namespace ocelot::instrumentors
