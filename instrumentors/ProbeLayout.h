#pragma once

// Where each region of a probe tool lies in a launch's buffer. The host computes it before the
// launch (the buffer's size) and after it (to read the regions); the inlined probes compute the
// same offsets, as constants, or from %nctaid and %ntid for regions sized by the launch.
//
//   [header: word 0 unused, word 1 + p set when probe p wrote outside the regions] (256-aligned)
//   [region: word 0 dropped updates, word 1 stream records pushed, then the elements] (256-aligned)
//   ... regions of a fixed size first, in declaration order, then those sized by the launch.

#include "instrumentors/ProbeSpec.h"
#include "ocelot/LaunchInfo.h"

#include <cstdint>
#include <vector>

namespace ocelot::instrumentors {

/// The module's sizes the fixed regions depend on.
struct ProbeModuleCounts {
  uint64_t instructions = 0, blocks = 0, sites = 0, kernels = 0;
};

/// A launch's shape, the sizes of the launch-sized regions.
struct ProbeLaunchShape {
  uint64_t ctas = 0, warpsPerCta = 0, threadsPerCta = 0;
  static ProbeLaunchShape of(const LaunchInfo& launch) {
    return {launch.ctas(), launch.warpsPerCta(), launch.threadsPerCta()};
  }
};

struct ProbeLayout {
  static constexpr uint64_t kAlignment = 256;
  static constexpr uint64_t kRegionHeader = 16;
  struct Region {
    uint64_t offset = 0;   ///< of the region header
    uint64_t elements = 0; ///< stripes and bins included
    uint64_t bytes = 0;    ///< header and elements, before alignment
  };
  uint64_t headerBytes = 0;
  std::vector<Region> regions; ///< by index in the program's regions
  uint64_t totalBytes = 0;
  /// Where the fixed regions end (the first launch-sized region begins).
  uint64_t fixedEnd = 0;

  static ProbeLayout compute(const std::vector<RegionSpec>& regions, size_t probes,
                             const ProbeModuleCounts& counts, const ProbeLaunchShape& shape);
  static uint64_t headerSize(size_t probes);
  static uint64_t align(uint64_t bytes) {
    return (bytes + kAlignment - 1) / kAlignment * kAlignment;
  }
};

/// Elements of a region per index (1 for per=none counters, the capacity for streams) times
/// stripes and bins, for a module and a launch.
uint64_t regionElements(const RegionSpec& region, const ProbeModuleCounts& counts,
                        const ProbeLaunchShape& shape);
/// The indices (before stripes and bins): instructions, blocks ... of the module or the launch.
uint64_t regionIndices(const RegionSpec& region, const ProbeModuleCounts& counts,
                       const ProbeLaunchShape& shape);

} // namespace ocelot::instrumentors
