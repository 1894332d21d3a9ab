#include "tools/report/ProfileTrace.h"

#include "tools/report/SmTimeline.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

namespace ocelot::report {

size_t addProfilesToTrace(const ProfileSet& set, TraceEvents& trace, size_t maxCtasPerLaunch) {
  if (set.empty())
    return 0;
  int64_t origin = INT64_MAX;
  for (const Launch& l : set.launches())
    origin = std::min(origin, l.enqueuedNs);
  auto micros = [&](int64_t ns) { return static_cast<double>(ns - origin) / 1000.0; };

  // Launches by (rank, device, stream), in launch order.
  std::map<std::tuple<int, int, uint64_t>, std::vector<const Launch*>> streams;
  for (const Launch& l : set.launches())
    streams[{l.rank, l.device, l.stream}].push_back(&l);
  size_t added = 0;
  std::vector<std::tuple<double, const Launch*, uint32_t, uint32_t, double>> launchCalls;
  for (auto& [key, launches] : streams) {
    auto [rank, device, stream] = key;
    std::stable_sort(launches.begin(), launches.end(), [](const Launch* a, const Launch* b) {
      return a->enqueuedNs != b->enqueuedNs ? a->enqueuedNs < b->enqueuedNs
                                            : a->launchId < b->launchId;
    });
    std::string prefix = "rank " + std::to_string(rank) + " GPU " + std::to_string(device);
    uint32_t gpu = trace.process(prefix + " streams", rank * 1000 + device * 10 + 1);
    char streamName[64];
    std::snprintf(streamName, sizeof streamName, "stream 0x%llx",
                  static_cast<unsigned long long>(stream));
    uint32_t lane = trace.thread(gpu, stream == 0 ? "default stream" : streamName, 0);
    double streamFree = -1e300;
    for (const Launch* l : launches) {
      double start = std::max(micros(l->enqueuedNs), streamFree);
      double durationUs = 0;
      std::string timing = "events around the kernel";
      if (l->gpuMs) {
        durationUs = *l->gpuMs * 1000.0;
      } else if (l->ctaclock != nullptr) {
        durationUs = static_cast<double>(l->ctaclock->value("kernel_ns", uint64_t{0})) / 1000.0;
        timing = "ctaclock span";
      } else {
        timing = "not measured";
      }
      streamFree = start + durationUs;
      TraceEvents::Json args{{"kernel", l->kernel},
                             {"launch_id", l->launchId},
                             {"kernel_launch", l->kernelLaunch},
                             {"execution", l->instrumented ? "instrumented" : "original"},
                             {"ctas", l->ctas},
                             {"threads_per_cta", l->threadsPerCta},
                             {"duration_from", timing},
                             {"start", "estimated: launch call or end of the stream's previous "
                                       "kernel"}};
      if (l->bbcount != nullptr)
        args["dynamic_ptx_instructions"] = l->bbcount->value("dynamic_instructions", uint64_t{0});
      if (l->ctaclock != nullptr)
        args["sm_imbalance"] = l->ctaclock->value("imbalance", 0.0);
      if (!l->notes.empty())
        args["notes"] = l->notes;
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
      uint32_t sms = trace.process(prefix + " SMs (ctaclock)", rank * 1000 + device * 10 + 2);
      for (size_t i = 0; i < spans.size() && i < maxCtasPerLaunch; ++i) {
        const CtaSpan& s = spans[i];
        std::string name = "SM " + std::to_string(s.sm) +
                           (slots[i] == 0 ? "" : " #" + std::to_string(slots[i] + 1));
        uint32_t tid = trace.thread(sms, name, static_cast<int>(s.sm * 64 + slots[i]));
        trace.slice(
            sms, tid, "CTA " + std::to_string(s.cta), "cta",
            start + static_cast<double>(s.startNs - first) / 1000.0,
            static_cast<double>(s.endNs - s.startNs) / 1000.0,
            TraceEvents::Json{{"kernel", l->demangled}, {"launch_id", l->launchId}, {"sm", s.sm}});
      }
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
    trace.slice(host, calls, "launch " + l->demangled, "launch", ts, duration,
                TraceEvents::Json{{"launch_id", l->launchId}, {"stream", l->stream}});
    trace.flow("launch", "launch", host, calls, ts, gpu, lane, kernelStart);
  }
  return added;
}

} // namespace ocelot::report
