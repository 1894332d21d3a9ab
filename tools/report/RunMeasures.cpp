#include "tools/report/RunMeasures.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace ocelot::report {

int64_t workOrigin(const ProfileSet& set) {
  int64_t origin = INT64_MAX;
  for (const Launch& l : set.launches())
    origin = std::min(origin, l.enqueuedNs);
  for (const Operation& o : set.operations())
    origin = std::min(origin, o.enqueuedNs);
  for (const ApiCall& c : set.apiCalls())
    origin = std::min(origin, c.beginNs);
  for (const NvtxRecord& r : set.nvtx())
    origin = std::min(origin, r.beginNs);
  return origin == INT64_MAX ? 0 : origin;
}

std::vector<PlacedWork> placeWork(const ProfileSet& set, std::optional<int> rank) {
  const int64_t origin = workOrigin(set);
  std::map<std::tuple<int, int, uint64_t>, std::vector<PlacedWork>> streams;
  for (const Launch& l : set.launches()) {
    if (rank && l.rank != *rank)
      continue;
    PlacedWork w;
    w.rank = l.rank;
    w.device = l.device;
    w.stream = l.stream;
    w.launch = &l;
    w.startNs = static_cast<double>(l.enqueuedNs - origin);
    if (l.gpuMs) {
      w.durationNs = *l.gpuMs * 1e6;
    } else if (l.ctaclock != nullptr) {
      w.durationNs = static_cast<double>(l.ctaclock->value("kernel_ns", uint64_t{0}));
      w.durationFrom = "ctaclock span";
    } else {
      w.durationFrom = "not measured";
    }
    streams[{w.rank, w.device, w.stream}].push_back(w);
  }
  for (const Operation& o : set.operations()) {
    if (rank && o.rank != *rank)
      continue;
    PlacedWork w;
    w.rank = o.rank;
    w.device = o.device;
    w.stream = o.stream;
    w.operation = &o;
    w.startNs = static_cast<double>(o.enqueuedNs - origin);
    w.durationNs = o.gpuNs.value_or(0);
    if (!o.gpuNs)
      w.durationFrom = "not measured";
    streams[{w.rank, w.device, w.stream}].push_back(w);
  }
  std::vector<PlacedWork> out;
  for (auto& [key, work] : streams) {
    // Call order; launches of one call time in launch order (operations follow launches).
    std::stable_sort(work.begin(), work.end(), [](const PlacedWork& a, const PlacedWork& b) {
      if (a.startNs != b.startNs)
        return a.startNs < b.startNs;
      if (a.launch != nullptr && b.launch != nullptr)
        return a.launch->launchId < b.launch->launchId;
      return a.launch != nullptr && b.launch == nullptr;
    });
    double streamFree = -1e300;
    for (PlacedWork& w : work) {
      w.startNs = std::max(w.startNs, streamFree);
      streamFree = w.startNs + w.durationNs;
      out.push_back(w);
    }
  }
  return out;
}

std::vector<DeviceInterval> deviceIntervals(const ProfileSet& set, int rank, uint64_t* untimed) {
  std::vector<DeviceInterval> intervals;
  for (const PlacedWork& w : placeWork(set, rank)) {
    if (w.launch != nullptr && untimed != nullptr && w.durationNs == 0 &&
        std::string_view(w.durationFrom) == "not measured")
      ++*untimed;
    intervals.push_back({w.device, w.stream,
                         w.kernel() ? DeviceInterval::Kind::Kernel : DeviceInterval::Kind::Transfer,
                         w.startNs, w.startNs + w.durationNs});
  }
  return intervals;
}

std::vector<RunMeasures> runMeasures(const ProfileSet& set) {
  std::vector<RunMeasures> out;
  for (int rank : set.ranks()) {
    RunMeasures run;
    run.rank = rank;
    run.transfersRecorded = set.operationsRecorded(rank);
    std::vector<DeviceInterval> intervals = deviceIntervals(set, rank, &run.untimedKernels);
    double start = 1e300, end = -1e300;
    for (const DeviceInterval& i : intervals) {
      start = std::min(start, i.startNs);
      end = std::max(end, i.endNs);
    }
    if (auto wall = set.wall(rank); wall && wall->second > wall->first) {
      const int64_t origin = workOrigin(set);
      start = static_cast<double>(wall->first - origin);
      end = static_cast<double>(wall->second - origin);
      run.wallFromFile = true;
    }
    // The host works when no thread waits for the device: the wall clock minus the blocking API
    // calls (synchronizations, synchronous copies), when the file records API calls.
    std::vector<HostInterval> host;
    std::vector<std::pair<double, double>> blocked;
    const int64_t origin = workOrigin(set);
    for (const ApiCall& c : set.apiCalls()) {
      if (c.rank != rank)
        continue;
      run.hostRecorded = true;
      if (c.blocking())
        blocked.emplace_back(static_cast<double>(c.beginNs - origin),
                             static_cast<double>(c.endNs - origin));
    }
    if (run.hostRecorded) {
      std::sort(blocked.begin(), blocked.end());
      double from = start;
      for (const auto& [b, e] : blocked) {
        if (b > from)
          host.push_back({from, std::min(b, end)});
        from = std::max(from, e);
      }
      if (end > from)
        host.push_back({from, end});
    }
    run.measures = computeHostMeasures(intervals, start, end, host);
    out.push_back(std::move(run));
  }
  return out;
}

} // namespace ocelot::report
