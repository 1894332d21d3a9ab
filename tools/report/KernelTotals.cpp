#include "tools/report/KernelTotals.h"

#include <algorithm>

namespace ocelot::report {

namespace {

template <class T> T value(const nlohmann::json& object, const char* name, T fallback) {
  auto it = object.find(name);
  if (it == object.end() || it->is_null())
    return fallback;
  try {
    return it->get<T>();
  } catch (const nlohmann::json::exception&) {
    return fallback;
  }
}

} // namespace

std::optional<double> launchInstructions(const Launch& launch) {
  if (launch.bbcount == nullptr)
    return std::nullopt;
  return static_cast<double>(value<uint64_t>(*launch.bbcount, "dynamic_instructions", 0));
}

std::optional<double> launchImbalance(const Launch& launch) {
  if (launch.ctaclock == nullptr)
    return std::nullopt;
  return value<double>(*launch.ctaclock, "imbalance", 0);
}

std::vector<KernelTotals> aggregateKernels(const ProfileSet& set) {
  std::map<std::string, KernelTotals> byName;
  std::vector<const Launch*> ordered;
  for (const Launch& l : set.launches())
    ordered.push_back(&l);
  std::stable_sort(ordered.begin(), ordered.end(), [](const Launch* a, const Launch* b) {
    return a->rank != b->rank ? a->rank < b->rank : a->launchId < b->launchId;
  });
  for (const Launch* l : ordered) {
    KernelTotals& k = byName[l->kernel];
    k.kernel = l->kernel;
    k.demangled = l->demangled;
    ++k.launches;
    RankTotal& rank = k.ranks[l->rank];
    ++rank.launches;
    k.launchList.push_back(l);
    if (l->gpuMs) {
      k.gpuMs += *l->gpuMs;
      rank.gpuMs += *l->gpuMs;
      ++k.timedLaunches;
    }
    if (!l->instrumented) {
      for (const auto& n : l->notes)
        ++k.reasons[n];
      if (l->notes.empty())
        ++k.reasons["not instrumented (no reason recorded)"];
      continue;
    }
    ++k.instrumented;
    for (const auto& n : l->notes)
      ++k.notes[n];
    if (l->bbcount != nullptr) {
      const auto& bb = *l->bbcount;
      uint64_t instructions = value<uint64_t>(bb, "dynamic_instructions", 0);
      k.instructions += instructions;
      rank.instructions += instructions;
      k.blockExecutions += value<uint64_t>(bb, "block_executions", 0);
      if (k.moduleId.empty())
        k.moduleId = value<std::string>(bb, "module", "");
      if (auto blocks = bb.find("blocks"); blocks != bb.end() && blocks->is_array()) {
        for (const auto& b : *blocks) {
          std::string function = value<std::string>(b, "function", "");
          uint32_t index = value<uint32_t>(b, "index", 0);
          BlockTotal& total = k.blocks[{function, index}];
          total.function = function;
          total.index = index;
          total.label = value<std::string>(b, "label", "");
          total.instructions = value<uint32_t>(b, "instructions", 0);
          total.location = value<std::string>(b, "location", "");
          total.count += value<uint64_t>(b, "count", 0);
          total.counted = value<bool>(b, "counted", true);
          total.derived = total.derived || value<bool>(b, "derived", false);
        }
      }
    }
    if (auto imbalance = launchImbalance(*l)) {
      ++k.clockLaunches;
      k.imbalanceSum += *imbalance;
      k.imbalanceMax = std::max(k.imbalanceMax, *imbalance);
    }
  }
  std::vector<KernelTotals> out;
  for (auto& [name, k] : byName)
    out.push_back(std::move(k));
  std::stable_sort(out.begin(), out.end(), [](const KernelTotals& a, const KernelTotals& b) {
    if (a.gpuMs != b.gpuMs)
      return a.gpuMs > b.gpuMs;
    if (a.instructions != b.instructions)
      return a.instructions > b.instructions;
    return a.demangled < b.demangled;
  });
  return out;
}

RankSpread spreadAcrossRanks(const KernelTotals& kernel, const std::vector<int>& ranks,
                             const std::function<double(const RankTotal&)>& value) {
  RankSpread s;
  if (ranks.empty())
    return s;
  bool first = true;
  double sum = 0;
  for (int r : ranks) {
    auto it = kernel.ranks.find(r);
    double v = it == kernel.ranks.end() ? 0 : value(it->second);
    sum += v;
    if (first || v < s.min) {
      s.min = v;
      s.minRank = r;
    }
    if (first || v > s.max) {
      s.max = v;
      s.maxRank = r;
    }
    first = false;
  }
  s.mean = sum / static_cast<double>(ranks.size());
  s.imbalance = s.mean > 0 ? s.max / s.mean : 0;
  return s;
}

} // namespace ocelot::report
