#include "tools/report/RunMeasures.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace ocelot::report {

std::vector<DeviceInterval> kernelIntervals(const ProfileSet& set, int rank, uint64_t* untimed) {
  std::map<std::pair<int, uint64_t>, std::vector<const Launch*>> streams;
  for (const Launch& l : set.launches())
    if (l.rank == rank)
      streams[{l.device, l.stream}].push_back(&l);
  std::vector<DeviceInterval> intervals;
  for (auto& [key, launches] : streams) {
    std::stable_sort(launches.begin(), launches.end(), [](const Launch* a, const Launch* b) {
      return a->enqueuedNs != b->enqueuedNs ? a->enqueuedNs < b->enqueuedNs
                                            : a->launchId < b->launchId;
    });
    double streamFree = -1e300;
    for (const Launch* l : launches) {
      double durationNs = 0;
      if (l->gpuMs)
        durationNs = *l->gpuMs * 1e6;
      else if (l->ctaclock != nullptr)
        durationNs = static_cast<double>(l->ctaclock->value("kernel_ns", uint64_t{0}));
      else if (untimed != nullptr)
        ++*untimed;
      double start = std::max(static_cast<double>(l->enqueuedNs), streamFree);
      streamFree = start + durationNs;
      intervals.push_back(
          {key.first, key.second, DeviceInterval::Kind::Kernel, start, start + durationNs});
    }
  }
  return intervals;
}

std::vector<RunMeasures> runMeasures(const ProfileSet& set) {
  std::vector<RunMeasures> out;
  for (int rank : set.ranks()) {
    RunMeasures run;
    run.rank = rank;
    std::vector<DeviceInterval> intervals = kernelIntervals(set, rank, &run.untimedKernels);
    double start = 1e300, end = -1e300;
    for (const DeviceInterval& i : intervals) {
      start = std::min(start, i.startNs);
      end = std::max(end, i.endNs);
    }
    if (auto wall = set.wall(rank); wall && wall->second > wall->first) {
      start = static_cast<double>(wall->first);
      end = static_cast<double>(wall->second);
      run.wallFromFile = true;
    }
    run.measures = computeHostMeasures(intervals, start, end);
    out.push_back(std::move(run));
  }
  return out;
}

} // namespace ocelot::report
