#pragma once

#include "tools/report/ProfileSet.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace ocelot::report {

/// One NVTX range of a rank, all its occurrences together, with the device work launched inside
/// it (nested ranges included).
struct NvtxRangeTotals {
  int rank = 0;
  std::string kind;  ///< "push" (push/pop) or "start" (start/end)
  std::string label; ///< the range's name, `domain@name` outside the default domain
  uint64_t occurrences = 0;
  uint64_t open = 0; ///< occurrences still open at exit (counted to the rank's last event)
  double hostNs = 0; ///< the occurrences' lengths, summed
  std::set<uint32_t> threads;
  uint64_t kernels = 0; ///< kernel launches made inside, profiled or not
  double kernelGpuNs = 0;
  uint64_t transfers = 0; ///< copies and memsets made inside (host measures on)
  double transferGpuNs = 0;
};

/// Kernels by the push/pop range stack their launch call was made in: the innermost range is the
/// one the launch is attributed to.
struct NvtxKernelTotals {
  int rank = 0;
  std::string path;   ///< the stack, outermost first, joined by " > "; empty: outside every range
  std::string kernel; ///< demangled where the profile has it
  uint64_t launches = 0;
  uint64_t instrumented = 0;
  double gpuNs = 0;
};

struct NvtxAttribution {
  std::vector<NvtxRangeTotals> ranges;   ///< per rank, by first occurrence
  std::vector<NvtxKernelTotals> kernels; ///< per rank, path, then kernel
};

/// Which device work ran inside which NVTX range (docs/report.md, "NVTX"). A profiled launch is
/// inside the push/pop ranges its profile names (`nvtx`: the launching thread's stack); a copy,
/// memset or unprofiled kernel inside those of the thread whose API call enqueued it (the file's
/// `api_calls`), open at that call. Start/end ranges belong to no thread: work is inside one when
/// its call falls between start and end.
NvtxAttribution attributeToNvtxRanges(const ProfileSet& set);

/// The rank's NVTX timeline as SVG: per host thread and domain its push/pop ranges (one row per
/// nesting depth), the start/end ranges (sub-rows where they overlap) and marks, and below, per
/// device and stream, the kernels and transfers placed as the trace places them (placeWork), on
/// one time axis. Empty without NVTX records for the rank.
std::string nvtxTimelineSvg(const ProfileSet& set, int rank);

/// The report's NVTX section: the timeline per rank, the per-range table and the kernels by
/// range. Empty when the set has no NVTX records.
std::string nvtxPanel(const ProfileSet& set);

} // namespace ocelot::report
