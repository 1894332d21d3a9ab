#pragma once

#include "instrumentors/ProbeSpec.h"
#include "ir/Module.h"
#include "ocelot/InstrumentorOptions.h"
#include "passes/ProbeInliner.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ocelot::instrumentors {

/// A probe tool's probes as Ocelot uses them: the PTX modules nvcc (or NVRTC) made of the tool's
/// .cu files, parsed once; the placement and region specs they carry; each probe function checked
/// and prepared for inlining. Immutable after construction, shared by every module the tool
/// instruments.
class ProbeProgram {
public:
  struct Probe {
    ProbeSpec spec;
    passes::InlineTemplate body;
  };

  /// Throws std::invalid_argument listing every problem, one per line, each naming the probe or
  /// region and the reason (a spec without its function, a probe that recurses ...).
  explicit ProbeProgram(const std::vector<std::string>& ptx);

  /// This program with the settings `options` overrides: `PROBE.sample-warps=N`,
  /// `PROBE.sample-launches=N`, `PROBE.kernel=REGEX` and `REGION.count=N` (the elements of a
  /// per=none region, the capacity of a stream); other keys are left to the caller. Throws
  /// std::invalid_argument for a bad value.
  ProbeProgram configured(const InstrumentorOptions& options) const;
  /// Whether `key` is one of the override keys configured() reads.
  bool isOverride(std::string_view key) const;

  const std::vector<Probe>& probes() const { return probes_; }
  const std::vector<RegionSpec>& regions() const { return regions_; }
  /// The region with this id (regionId of its name), or nullptr.
  const RegionSpec* region(uint32_t id) const;
  size_t regionIndex(const RegionSpec& region) const { return &region - regions_.data(); }
  /// The highest `.target sm_XX` of the probe modules: modules for older GPUs are not instrumented.
  unsigned architecture() const { return architecture_; }

  /// The intrinsics ocelot/probe.cuh declares (`__ocelot_probe_address` ...).
  static bool isIntrinsic(std::string_view name);

private:
  /// Shared by configured copies: the probes' templates point into them.
  std::vector<std::shared_ptr<const ir::Module>> modules_;
  std::vector<Probe> probes_;
  std::vector<RegionSpec> regions_;
  unsigned architecture_ = 0;
};

/// The `.target` architecture as a number (90 for sm_90a), 0 when none is named.
unsigned architectureNumber(const ir::Module& module);

} // namespace ocelot::instrumentors
