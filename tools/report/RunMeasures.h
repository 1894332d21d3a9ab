#pragma once

#include "ocelot/HostMeasures.h"
#include "tools/report/ProfileSet.h"

#include <optional>
#include <string>
#include <vector>

namespace ocelot::report {

/// A kernel launch or a device operation (copy, memset, unprofiled kernel) placed on its stream's
/// timeline. Profiles carry the host time of the call and the device time, not the start in host
/// time: work starts at its call or when its stream's previous work ended, whichever is later.
struct PlacedWork {
  int rank = 0;
  int device = 0;
  uint64_t stream = 0;
  const Launch* launch = nullptr;       ///< a profiled launch, or
  const Operation* operation = nullptr; ///< an operation of the file's `operations`
  /// ns from workOrigin(set): host clock values near 1.8e18 ns would lose 8 bits in a double
  double startNs = 0, durationNs = 0;
  /// Where the duration comes from: "events" (around it), "ctaclock span", "not measured".
  const char* durationFrom = "events";
  bool kernel() const { return launch != nullptr || operation->kind == "kernel"; }
};

/// The earliest call of the set (enqueued_ns of launches and operations), the origin of
/// placeWork's times; 0 for an empty set.
int64_t workOrigin(const ProfileSet& set);

/// Every launch and operation of `rank` (all ranks: nullopt), per (rank, device, stream) in call
/// order.
std::vector<PlacedWork> placeWork(const ProfileSet& set, std::optional<int> rank = std::nullopt);

/// The host-side measures (GCP, GLB, overlap: ocelot/HostMeasures.h, seed 001) of one rank's
/// profiles: kernels (profiled launches and the file's unprofiled kernels) and transfers (the
/// file's copies and memsets), placed as placeWork places them. The wall clock is the file's
/// `wall` (the process, from the runtime's start to its exit), else the profiled span (first call
/// to the last work's end), which `wallFromFile` tells apart.
struct RunMeasures {
  int rank = 0;
  HostMeasures measures;
  bool wallFromFile = false;
  /// Whether the file records transfers (host measures were on): without, GCP is kernels only.
  bool transfersRecorded = false;
  /// Whether the file records API calls: then the host's busy time is the wall clock minus the
  /// calls that wait for the device (ApiCall::blocking) and the overlap is known.
  bool hostRecorded = false;
  uint64_t untimedKernels = 0; ///< launches with neither a GPU time nor a ctaclock span
};

std::vector<DeviceInterval> deviceIntervals(const ProfileSet& set, int rank,
                                            uint64_t* untimed = nullptr);
std::vector<RunMeasures> runMeasures(const ProfileSet& set);

} // namespace ocelot::report
