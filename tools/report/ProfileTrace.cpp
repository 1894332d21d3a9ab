#include "tools/report/ProfileTrace.h"

#include "tools/report/RunMeasures.h"
#include "tools/report/SmTimeline.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <tuple>

namespace ocelot::report {

size_t addProfilesToTrace(const ProfileSet& set, TraceEvents& trace, size_t maxCtasPerLaunch) {
  if (set.empty() && set.operations().empty())
    return 0;
  const int64_t origin = workOrigin(set);
  auto micros = [&](int64_t ns) { return static_cast<double>(ns - origin) / 1000.0; };
  auto microsAt = [](double nsFromOrigin) { return nsFromOrigin / 1000.0; };

  // Host threads: each Runtime API call a slice on its thread's lane (host measures on).
  std::map<int, std::vector<std::tuple<int64_t, int64_t, uint32_t, uint32_t>>> launchApiCalls;
  for (const ApiCall& c : set.apiCalls()) {
    uint32_t host = trace.process("rank " + std::to_string(c.rank) + " host", c.rank * 1000);
    uint32_t lane = trace.thread(host, "thread " + std::to_string(c.thread) + " API calls",
                                 static_cast<int>(c.thread % 1000000) + 1);
    trace.slice(host, lane, c.name, "api", micros(c.beginNs),
                static_cast<double>(c.endNs - c.beginNs) / 1000.0,
                TraceEvents::Json{{"thread", c.thread}, {"blocking", c.blocking()}});
    if (c.name.find("aunch") != std::string::npos)
      launchApiCalls[c.rank].emplace_back(c.beginNs, c.endNs, host, lane);
  }
  for (auto& [rank, calls] : launchApiCalls)
    std::sort(calls.begin(), calls.end());
  // The API launch call a kernel was enqueued in: the flow arrow's start.
  auto launchCall = [&](int rank,
                        int64_t enqueuedNs) -> std::optional<std::pair<uint32_t, uint32_t>> {
    auto it = launchApiCalls.find(rank);
    if (it == launchApiCalls.end())
      return std::nullopt;
    const auto& calls = it->second;
    auto after = std::upper_bound(calls.begin(), calls.end(),
                                  std::make_tuple(enqueuedNs, INT64_MAX, UINT32_MAX, UINT32_MAX));
    for (int back = 0; back < 8 && after != calls.begin(); ++back) {
      --after;
      if (std::get<0>(*after) <= enqueuedNs && enqueuedNs <= std::get<1>(*after))
        return std::make_pair(std::get<2>(*after), std::get<3>(*after));
    }
    return std::nullopt;
  };

  // NVTX: push/pop ranges on a lane per thread and domain (they nest there), start/end ranges
  // (which may overlap) and marks on lanes of their own per domain; still open: to the last event.
  int64_t last = origin;
  for (const ApiCall& c : set.apiCalls())
    last = std::max(last, c.endNs);
  for (const NvtxRecord& r : set.nvtx())
    last = std::max(last, r.endNs.value_or(r.beginNs));
  std::map<std::tuple<int, std::string, std::string>, std::vector<double>> startEndSlots;
  for (const NvtxRecord& r : set.nvtx()) {
    uint32_t host = trace.process("rank " + std::to_string(r.rank) + " host", r.rank * 1000);
    std::string domain = r.domain.empty() ? "" : " " + r.domain;
    double begin = micros(r.beginNs), duration = (r.endNs.value_or(last) - r.beginNs) / 1000.0;
    TraceEvents::Json args{{"domain", r.domain}, {"thread", r.thread}};
    if (!r.endNs)
      args["open"] = "still open at exit";
    if (r.kind == "push") {
      uint32_t lane = trace.thread(host, "thread " + std::to_string(r.thread) + " NVTX" + domain,
                                   2000000 + static_cast<int>(r.thread % 1000000));
      trace.slice(host, lane, r.name, "nvtx", begin, duration, std::move(args));
      continue;
    }
    // Start/end ranges and marks: the first sub-lane free at the range's start.
    auto& slots = startEndSlots[{r.rank, r.domain, r.kind}];
    size_t slot = 0;
    while (slot < slots.size() && slots[slot] > begin)
      ++slot;
    if (slot == slots.size())
      slots.push_back(0);
    slots[slot] = begin + duration;
    std::string name = "NVTX" + domain + (r.kind == "mark" ? " marks" : " start/end") +
                       (slot == 0 ? "" : " #" + std::to_string(slot + 1));
    uint32_t lane = trace.thread(host, name, 3000000 + static_cast<int>(slot));
    trace.slice(host, lane, r.name, r.kind == "mark" ? "nvtx-mark" : "nvtx", begin, duration,
                std::move(args));
  }

  // Kernels, copies and memsets per (rank, device, stream), placed in call order
  // (RunMeasures.h).
  size_t added = 0;
  std::vector<std::tuple<double, const Launch*, uint32_t, uint32_t, double>> launchCalls;
  for (const PlacedWork& w : placeWork(set)) {
    std::string prefix = "rank " + std::to_string(w.rank) + " GPU " + std::to_string(w.device);
    uint32_t gpu = trace.process(prefix + " streams", w.rank * 1000 + w.device * 10 + 1);
    char streamName[64];
    std::snprintf(streamName, sizeof streamName, "stream 0x%llx",
                  static_cast<unsigned long long>(w.stream));
    uint32_t lane = trace.thread(gpu, w.stream == 0 ? "default stream" : streamName, 0);
    const double start = microsAt(w.startNs);
    const double durationUs = w.durationNs / 1000.0;
    const char* placement = "estimated: its call or the end of the stream's previous work";
    if (const Operation* o = w.operation) {
      TraceEvents::Json args{
          {"kind", o->kind}, {"duration_from", w.durationFrom}, {"start", placement}};
      if (o->kind != "kernel")
        args["bytes"] = o->bytes;
      std::string name =
          o->kind == "kernel" ? o->name : o->name + " " + std::to_string(o->bytes) + " B";
      trace.slice(gpu, lane, name, o->kind, start, durationUs, std::move(args));
      if (o->kind == "kernel")
        if (auto from = launchCall(w.rank, o->enqueuedNs))
          trace.flow("launch", "launch", from->first, from->second, micros(o->enqueuedNs), gpu,
                     lane, start);
      ++added;
      continue;
    }
    const Launch* l = w.launch;
    TraceEvents::Json args{{"kernel", l->kernel},
                           {"launch_id", l->launchId},
                           {"kernel_launch", l->kernelLaunch},
                           {"execution", l->instrumented ? "instrumented" : "original"},
                           {"ctas", l->ctas},
                           {"threads_per_cta", l->threadsPerCta},
                           {"duration_from", std::string(w.durationFrom) == "events"
                                                 ? "events around the kernel"
                                                 : w.durationFrom},
                           {"start", placement}};
    if (l->bbcount != nullptr)
      args["dynamic_ptx_instructions"] = l->bbcount->value("dynamic_instructions", uint64_t{0});
    if (l->ctaclock != nullptr)
      args["sm_imbalance"] = l->ctaclock->value("imbalance", 0.0);
    if (!l->notes.empty())
      args["notes"] = l->notes;
    if (!l->nvtx.empty())
      args["nvtx"] = l->nvtx;
    trace.slice(gpu, lane, l->demangled, "kernel", start, durationUs, std::move(args));
    launchCalls.emplace_back(micros(l->enqueuedNs), l, gpu, lane, start);
    ++added;

    if (l->ctaclock == nullptr)
      continue;
    std::vector<CtaSpan> spans = ctaSpans(*l->ctaclock);
    if (spans.empty())
      continue;
    uint64_t first = UINT64_MAX;
    for (const auto& s : spans)
      first = std::min(first, s.startNs);
    std::vector<uint32_t> slots = assignSlots(spans);
    uint32_t sms = trace.process(prefix + " SMs (ctaclock)", w.rank * 1000 + w.device * 10 + 2);
    for (size_t i = 0; i < spans.size() && i < maxCtasPerLaunch; ++i) {
      const CtaSpan& s = spans[i];
      std::string name =
          "SM " + std::to_string(s.sm) + (slots[i] == 0 ? "" : " #" + std::to_string(slots[i] + 1));
      uint32_t tid = trace.thread(sms, name, static_cast<int>(s.sm * 64 + slots[i]));
      trace.slice(
          sms, tid, "CTA " + std::to_string(s.cta), "cta",
          start + static_cast<double>(s.startNs - first) / 1000.0,
          static_cast<double>(s.endNs - s.startNs) / 1000.0,
          TraceEvents::Json{{"kernel", l->demangled}, {"launch_id", l->launchId}, {"sm", s.sm}});
    }
  }
  // Host lanes: one slice per launch call (the profile has its time, not its length: at most
  // 1 us, never overlapping the next call of the rank), with an arrow to the kernel.
  std::stable_sort(launchCalls.begin(), launchCalls.end(), [](const auto& a, const auto& b) {
    return std::get<1>(a)->rank != std::get<1>(b)->rank
               ? std::get<1>(a)->rank < std::get<1>(b)->rank
               : std::get<0>(a) < std::get<0>(b);
  });
  for (size_t i = 0; i < launchCalls.size(); ++i) {
    auto [ts, l, gpu, lane, kernelStart] = launchCalls[i];
    uint32_t host = trace.process("rank " + std::to_string(l->rank) + " host", l->rank * 1000);
    uint32_t calls = trace.thread(host, "kernel launches", 0);
    double next = 1e300;
    if (i + 1 < launchCalls.size() && std::get<1>(launchCalls[i + 1])->rank == l->rank)
      next = std::get<0>(launchCalls[i + 1]);
    double duration = std::min(1.0, std::max(0.0, next - ts));
    TraceEvents::Json args{{"launch_id", l->launchId}, {"stream", l->stream}};
    if (!l->callPath.empty()) {
      // The launch site (docs/instrumentation.md), outermost first as Perfetto lists call stacks.
      std::string path;
      for (auto frame = l->callPath.rbegin(); frame != l->callPath.rend(); ++frame)
        path += (path.empty() ? "" : " > ") + *frame;
      args["call_path"] = path;
    }
    trace.slice(host, calls, "launch " + l->demangled, "launch", ts, duration, std::move(args));
    // From the API call that enqueued it when API calls are recorded, else from this lane.
    if (auto from = launchCall(l->rank, l->enqueuedNs))
      trace.flow("launch", "launch", from->first, from->second, ts, gpu, lane, kernelStart);
    else
      trace.flow("launch", "launch", host, calls, ts, gpu, lane, kernelStart);
  }
  return added;
}

} // namespace ocelot::report
