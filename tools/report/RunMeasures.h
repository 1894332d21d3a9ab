#pragma once

#include "ocelot/HostMeasures.h"
#include "tools/report/ProfileSet.h"

#include <string>
#include <vector>

namespace ocelot::report {

/// The host-side measures (GCP, GLB, overlap: ocelot/HostMeasures.h, seed 001) of one rank's
/// profiles. Kernels are placed as the trace places them: a kernel starts at its launch call or
/// when its stream's previous kernel ended, whichever is later, and lasts its GPU time (events
/// around the kernel, else ctaclock's span). The wall clock is the file's `wall` (the process,
/// from the runtime's start to its exit), else the profiled span (first launch call to the last
/// kernel's end), which `wallFromFile` tells apart.
struct RunMeasures {
  int rank = 0;
  HostMeasures measures;
  bool wallFromFile = false;
  uint64_t untimedKernels = 0; ///< launches with neither a GPU time nor a ctaclock span
};

std::vector<DeviceInterval> kernelIntervals(const ProfileSet& set, int rank,
                                            uint64_t* untimed = nullptr);
std::vector<RunMeasures> runMeasures(const ProfileSet& set);

} // namespace ocelot::report
