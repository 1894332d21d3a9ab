#include "ocelot/HostMeasures.h"

#include <algorithm>
#include <map>

namespace ocelot {

namespace {

using Spans = std::vector<std::pair<double, double>>;

/// Sorted, merged, without empty spans.
Spans merged(Spans spans) {
  std::erase_if(spans, [](const auto& s) { return !(s.second > s.first); });
  std::sort(spans.begin(), spans.end());
  Spans out;
  for (const auto& s : spans) {
    if (!out.empty() && s.first <= out.back().second)
      out.back().second = std::max(out.back().second, s.second);
    else
      out.push_back(s);
  }
  return out;
}

double length(const Spans& mergedSpans) {
  double total = 0;
  for (const auto& [start, end] : mergedSpans)
    total += end - start;
  return total;
}

/// |a ∩ b| of two merged span lists.
double intersection(const Spans& a, const Spans& b) {
  double total = 0;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    double start = std::max(a[i].first, b[j].first);
    double end = std::min(a[i].second, b[j].second);
    if (end > start)
      total += end - start;
    (a[i].second < b[j].second ? i : j)++;
  }
  return total;
}

void add(DeviceTimes& times, const DeviceInterval& interval) {
  if (interval.kind == DeviceInterval::Kind::Kernel) {
    ++times.kernels;
    times.kernelNs += interval.duration();
  } else {
    ++times.transfers;
    times.transferNs += interval.duration();
  }
}

} // namespace

bool apiCallWaitsForDevice(std::string_view name) {
  if (name.find("Synchronize") != std::string_view::npos)
    return true;
  return name.starts_with("cudaMemcpy") && name.find("Async") == std::string_view::npos;
}

std::optional<double> DeviceTimes::gcp() const {
  if (deviceNs() <= 0)
    return std::nullopt;
  return kernelNs / deviceNs();
}

std::optional<double> DeviceTimes::glb(double wallNs, size_t devices) const {
  if (wallNs <= 0 || devices == 0)
    return std::nullopt;
  return deviceNs() / (wallNs * static_cast<double>(devices));
}

double unionLength(std::vector<std::pair<double, double>> intervals) {
  return length(merged(std::move(intervals)));
}

HostMeasures computeHostMeasures(std::span<const DeviceInterval> intervals, double wallStartNs,
                                 double wallEndNs, std::span<const HostInterval> host) {
  HostMeasures out;
  out.wallNs = std::max(0.0, wallEndNs - wallStartNs);
  std::map<int, std::pair<DeviceTimes, Spans>> perDevice;
  Spans gpu;
  for (const DeviceInterval& interval : intervals) {
    auto& [times, spans] = perDevice[interval.device];
    times.device = interval.device;
    add(times, interval);
    add(out.all, interval);
    spans.emplace_back(interval.startNs, interval.endNs);
    gpu.emplace_back(interval.startNs, interval.endNs);
  }
  for (auto& [device, entry] : perDevice) {
    entry.first.busyNs = unionLength(entry.second);
    out.devices.push_back(entry.first);
  }
  Spans gpuBusy = merged(std::move(gpu));
  out.gpuBusyNs = length(gpuBusy);
  out.all.busyNs = out.gpuBusyNs;
  Spans hostSpans;
  for (const HostInterval& h : host)
    hostSpans.emplace_back(h.startNs, h.endNs);
  Spans hostBusy = merged(std::move(hostSpans));
  out.hostBusyNs = length(hostBusy);
  out.overlapNs = intersection(hostBusy, gpuBusy);
  return out;
}

} // namespace ocelot
