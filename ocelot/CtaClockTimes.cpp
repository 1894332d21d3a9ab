#include "ocelot/CtaClockTimes.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

namespace ocelot {

uint64_t unionLength(std::vector<std::pair<uint64_t, uint64_t>> intervals) {
  std::sort(intervals.begin(), intervals.end());
  uint64_t total = 0;
  bool open = false;
  uint64_t start = 0, end = 0;
  for (auto [first, second] : intervals) {
    if (second < first)
      continue; // a clock that went backwards: nothing to add
    if (open && first <= end) {
      end = std::max(end, second);
      continue;
    }
    if (open)
      total += end - start;
    start = first;
    end = second;
    open = true;
  }
  if (open)
    total += end - start;
  return total;
}

double loadImbalance(const std::vector<uint64_t>& busy) {
  if (busy.empty())
    return 0;
  long double sum = 0;
  uint64_t peak = 0;
  for (uint64_t b : busy) {
    sum += b;
    peak = std::max(peak, b);
  }
  if (sum == 0)
    return 0;
  long double mean = sum / static_cast<long double>(busy.size());
  return static_cast<double>(static_cast<long double>(peak) / mean);
}

CtaClockTimes::CtaClockTimes(const LaunchInfo& launch, const DeviceFacts& device,
                             std::vector<Cta> ctas)
    : ctas_(std::move(ctas)) {
  // An SM id the device does not have would make the per-SM table lie; it is a problem instead.
  uint32_t smCount = device.multiprocessors > 0 ? static_cast<uint32_t>(device.multiprocessors) : 0;
  uint32_t highest = 0;
  for (const Cta& c : ctas_)
    if (c.recorded())
      highest = std::max(highest, c.sm + 1);
  uint32_t tableSize = smCount > 0 ? smCount : highest;
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> cycles(tableSize), nanoseconds(tableSize);
  sms_.resize(tableSize);
  for (uint32_t s = 0; s < tableSize; ++s)
    sms_[s].sm = s;

  uint64_t missing = 0, badWarps = 0, badThreads = 0, badSm = 0;
  uint64_t firstNs = UINT64_MAX, lastNs = 0;
  const uint64_t warps = launch.warpsPerCta(), threads = launch.threadsPerCta();
  for (const Cta& c : ctas_) {
    if (!c.recorded()) {
      ++missing;
      continue;
    }
    if (c.warpsStarted != warps)
      ++badWarps;
    if (c.threadsExited != threads)
      ++badThreads;
    if (c.sm >= tableSize) {
      ++badSm;
      continue;
    }
    Sm& sm = sms_[c.sm];
    ++sm.ctas;
    cycles[c.sm].emplace_back(c.startCycle, c.endCycle);
    nanoseconds[c.sm].emplace_back(c.startNs, c.endNs);
    firstNs = std::min(firstNs, c.startNs);
    lastNs = std::max(lastNs, c.endNs);
  }
  std::vector<uint64_t> busy;
  for (uint32_t s = 0; s < tableSize; ++s) {
    sms_[s].busyCycles = unionLength(std::move(cycles[s]));
    sms_[s].busyNs = unionLength(std::move(nanoseconds[s]));
    busy.push_back(sms_[s].busyCycles);
  }
  imbalance_ = loadImbalance(busy);
  kernelNs_ = lastNs > firstNs ? lastNs - firstNs : 0;

  auto problem = [&](uint64_t n, const char* what) {
    if (n != 0)
      problems_.push_back(std::to_string(n) + " CTA" + (n == 1 ? " " : "s ") + what);
  };
  if (ctas_.size() != launch.ctas())
    problems_.push_back("recorded " + std::to_string(ctas_.size()) + " CTA slots for a grid of " +
                        std::to_string(launch.ctas()));
  problem(missing, "never recorded a start");
  problem(badWarps,
          ("recorded a number of warp starts other than " + std::to_string(warps)).c_str());
  problem(badThreads,
          ("recorded a number of thread exits other than " + std::to_string(threads)).c_str());
  problem(badSm, ("ran on an SM id at or above the device's " + std::to_string(tableSize)).c_str());
}

Json CtaClockTimes::json() const {
  Json out = Json::object();
  out["kernel_ns"] = kernelNs_;
  out["imbalance"] = imbalance_;
  out["complete"] = complete();
  out["problems"] = problems_;
  Json sms = Json::array();
  for (const Sm& s : sms_)
    sms.push_back(
        Json{{"sm", s.sm}, {"ctas", s.ctas}, {"busy_cycles", s.busyCycles}, {"busy_ns", s.busyNs}});
  out["sms"] = std::move(sms);
  // Per CTA as parallel arrays: compact for large grids.
  Json ctas = Json::object();
  auto column = [&](const char* name, auto field) {
    Json values = Json::array();
    for (const Cta& c : ctas_)
      values.push_back(static_cast<uint64_t>(field(c)));
    ctas[name] = std::move(values);
  };
  column("sm", [](const Cta& c) { return c.sm; });
  column("start_cycle", [](const Cta& c) { return c.startCycle; });
  column("end_cycle", [](const Cta& c) { return c.endCycle; });
  column("start_ns", [](const Cta& c) { return c.startNs; });
  column("end_ns", [](const Cta& c) { return c.endNs; });
  column("warps_started", [](const Cta& c) { return c.warpsStarted; });
  column("threads_exited", [](const Cta& c) { return c.threadsExited; });
  out["ctas"] = std::move(ctas);
  return out;
}

std::string CtaClockTimes::summary() const {
  uint32_t used = 0;
  for (const Sm& s : sms_)
    used += s.ctas > 0 ? 1 : 0;
  char text[200];
  std::snprintf(text, sizeof text, "%zu CTAs on %u of %zu SMs, %.3f ms, SM imbalance %.2f%s",
                ctas_.size(), used, sms_.size(), static_cast<double>(kernelNs_) / 1e6, imbalance_,
                complete() ? "" : " (incomplete)");
  return text;
}

} // namespace ocelot
