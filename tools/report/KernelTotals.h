#pragma once

#include "tools/report/ProfileSet.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ocelot::report {

/// One basic block's counts summed over a kernel's launches.
struct BlockTotal {
  std::string function;
  uint32_t index = 0;
  std::string label;
  uint32_t instructions = 0;
  std::string location;
  uint64_t count = 0;
  bool counted = true;
  bool derived = false;
};

/// What one rank contributed to a kernel.
struct RankTotal {
  uint64_t launches = 0;
  double gpuMs = 0;
  uint64_t instructions = 0;
};

/// A kernel over every launch of every rank: the rows of the report's kernel table and the data
/// of its per-kernel panels.
struct KernelTotals {
  std::string kernel, demangled;
  uint64_t launches = 0, instrumented = 0;
  double gpuMs = 0;           ///< summed over launches with a measured time
  uint64_t timedLaunches = 0; ///< launches with a measured time
  uint64_t blockExecutions = 0, instructions = 0;
  uint64_t clockLaunches = 0;
  double imbalanceSum = 0, imbalanceMax = 0;
  /// Why launches ran the original kernel (their notes), with how many launches said so.
  std::map<std::string, uint64_t> reasons;
  /// Notes of instrumented launches (mode switches, incomplete results).
  std::map<std::string, uint64_t> notes;
  /// (function, block index) -> counts summed over the launches bbcount measured.
  std::map<std::pair<std::string, uint32_t>, BlockTotal> blocks;
  std::string moduleId; ///< bbcount's module id (CodeStructure), empty without bbcount
  std::vector<const Launch*> launchList; ///< in rank, then launch order
  std::map<int, RankTotal> ranks;

  double instrumentedShare() const {
    return launches == 0 ? 0 : static_cast<double>(instrumented) / static_cast<double>(launches);
  }
  double meanImbalance() const {
    return clockLaunches == 0 ? 0 : imbalanceSum / static_cast<double>(clockLaunches);
  }
};

/// Every kernel of `set`, the most GPU time first (then the most instructions, then the name).
std::vector<KernelTotals> aggregateKernels(const ProfileSet& set);

/// A value across ranks: min, mean, max, and the imbalance max / mean (1 = even; 0 when the mean
/// is 0). Ranks that never launched the kernel count as 0.
struct RankSpread {
  double min = 0, mean = 0, max = 0, imbalance = 0;
  int minRank = 0, maxRank = 0;
};
RankSpread spreadAcrossRanks(const KernelTotals& kernel, const std::vector<int>& ranks,
                             const std::function<double(const RankTotal&)>& value);

/// Per-launch values the trends chart plots; nullopt where the launch has none.
std::optional<double> launchInstructions(const Launch& launch);
std::optional<double> launchImbalance(const Launch& launch);

} // namespace ocelot::report
