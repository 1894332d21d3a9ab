#include "instrumentors/ProbeLayout.h"

namespace ocelot::instrumentors {

uint64_t regionIndices(const RegionSpec& region, const ProbeModuleCounts& counts,
                       const ProbeLaunchShape& shape) {
  switch (region.per) {
  case RegionSpec::Per::Instruction:
    return counts.instructions;
  case RegionSpec::Per::Block:
    return counts.blocks;
  case RegionSpec::Per::Site:
    return counts.sites;
  case RegionSpec::Per::Kernel:
    return counts.kernels;
  case RegionSpec::Per::Warp:
    return shape.ctas * shape.warpsPerCta;
  case RegionSpec::Per::Cta:
    return shape.ctas;
  case RegionSpec::Per::Thread:
    return shape.ctas * shape.threadsPerCta;
  case RegionSpec::Per::Sm:
    return region.sms;
  case RegionSpec::Per::None:
    return region.count;
  }
  return 0;
}

uint64_t regionElements(const RegionSpec& region, const ProbeModuleCounts& counts,
                        const ProbeLaunchShape& shape) {
  return regionIndices(region, counts, shape) * region.stripes * region.bins;
}

uint64_t ProbeLayout::headerSize(size_t probes) {
  return align(8 * (1 + uint64_t{probes}));
}

ProbeLayout ProbeLayout::compute(const std::vector<RegionSpec>& regions, size_t probes,
                                 const ProbeModuleCounts& counts, const ProbeLaunchShape& shape) {
  ProbeLayout layout;
  layout.headerBytes = headerSize(probes);
  layout.regions.resize(regions.size());
  uint64_t offset = layout.headerBytes;
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t r = 0; r < regions.size(); ++r) {
      if (regions[r].perLaunch() != (pass == 1))
        continue;
      Region& region = layout.regions[r];
      region.offset = offset;
      region.elements = regionElements(regions[r], counts, shape);
      region.bytes = kRegionHeader + region.elements * regions[r].bytes;
      offset += align(region.bytes);
    }
    if (pass == 0)
      layout.fixedEnd = offset;
  }
  layout.totalBytes = offset;
  return layout;
}

} // namespace ocelot::instrumentors
