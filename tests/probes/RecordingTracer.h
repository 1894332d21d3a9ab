#pragma once
// The CPU device's execution trace, recorded for comparison with what probes measure (the oracle of
// ProbeOracleTest and ProbeToolsExactnessTest).

#include "runtime/cpu/ExecutionTracer.h"

#include <bit>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace ocelot::runtime::cpu::test {

/// What the trace says, in the original module's terms: (function, PTX line) per pc, (function,
/// IR block) per program block.
class RecordingTracer final : public ExecutionTracer {
public:
  struct Access {
    uint32_t pc, cta, warp, lane;
    uint64_t address;
  };
  void launchBegin(const DecodedKernel& kernel) override {
    std::lock_guard lock(mutex);
    pcs.clear();
    blocks.clear();
    accesses.clear();
    for (size_t pc = 0; pc < kernel.sources.size(); ++pc)
      pcs.emplace_back(kernel.functions[kernel.sources[pc].function].name,
                       kernel.sources[pc].ptxLine);
    for (const auto& block : kernel.blocks)
      blocks.emplace_back(kernel.functions[block.function].name, block.irBlock);
    blockCounts.assign(kernel.blocks.size(), 0);
    blockWarps.assign(kernel.blocks.size(), 0);
    executed.assign(kernel.sources.size(), 0);
    taken.assign(kernel.sources.size(), 0);
    notTaken.assign(kernel.sources.size(), 0);
    divergent.assign(kernel.sources.size(), 0);
    issued.assign(kernel.sources.size(), 0);
    warpsRan.assign(kernel.sources.size(), 0);
  }
  void blockEntered(const TraceSite&, uint32_t block, LaneMask active) override {
    std::lock_guard lock(mutex);
    blockCounts[block] += static_cast<uint64_t>(std::popcount(active));
    blockWarps[block] += 1;
  }
  void instruction(const TraceSite&, uint32_t pc, LaneMask active, LaneMask ran) override {
    std::lock_guard lock(mutex);
    executed[pc] += static_cast<uint64_t>(std::popcount(ran));
    taken[pc] += static_cast<uint64_t>(std::popcount(ran));
    notTaken[pc] += static_cast<uint64_t>(std::popcount(active & ~ran));
    divergent[pc] += (ran != 0 && ran != active) ? 1 : 0;
    issued[pc] += 1;
    warpsRan[pc] += ran != 0 ? 1 : 0;
  }
  void memoryAccess(const TraceSite& site, uint32_t pc, uint32_t lane, uint64_t address) override {
    std::lock_guard lock(mutex);
    accesses.push_back({pc, site.cta, site.warp, lane, address});
  }

  std::mutex mutex;
  std::vector<std::pair<std::string, uint32_t>> pcs;
  std::vector<std::pair<std::string, uint32_t>> blocks;
  std::vector<uint64_t> blockCounts, executed, taken, notTaken, divergent;
  /// Per block: warp entries (the warp entered it with some lanes).
  std::vector<uint64_t> blockWarps;
  /// Per pc: warp-level executions (the warp reached it), and those where some lane ran it.
  std::vector<uint64_t> issued, warpsRan;
  std::vector<Access> accesses;
};

} // namespace ocelot::runtime::cpu::test
