#include "ocelot/KernelProfile.h"

#include <nlohmann/json.hpp>

namespace ocelot {

KernelProfile::KernelProfile(LaunchInfo launch, Timing timing, Execution execution,
                             std::vector<std::string> instrumentors, std::vector<std::string> notes,
                             std::vector<std::shared_ptr<const InstrumentorResult>> results)
    : launch_(std::move(launch)), timing_(timing), execution_(execution),
      instrumentors_(std::move(instrumentors)), notes_(std::move(notes)),
      results_(std::move(results)) {}

const InstrumentorResult* KernelProfile::result(std::string_view name) const {
  for (const auto& r : results_)
    if (r->instrumentor() == name)
      return r.get();
  return nullptr;
}

namespace {

Json dim(const Dim3& d) {
  return Json::array({d.x, d.y, d.z});
}

} // namespace

Json KernelProfile::json() const {
  Json out = Json::object();
  out["schema"] = kProfileSchemaVersion;
  out["kernel"] = launch_.kernelName;
  out["demangled"] = launch_.demangledName;
  out["launch_id"] = launch_.launchId;
  out["kernel_launch"] = launch_.kernelLaunchIndex;
  out["device"] = launch_.device;
  out["grid"] = dim(launch_.grid);
  out["block"] = dim(launch_.block);
  out["dynamic_shared_memory"] = static_cast<uint64_t>(launch_.dynamicSharedMemory);
  out["stream"] = launch_.stream;
  if (launch_.graphNode)
    out["graph"] = Json{{"graph", launch_.graphNode->graph},
                        {"node", launch_.graphNode->node},
                        {"graph_launch", launch_.graphNode->graphLaunch}};
  if (!launch_.callPath.empty())
    out["call_path"] = launch_.callPath;
  if (!launch_.nvtxRanges.empty())
    out["nvtx"] = launch_.nvtxRanges;
  out["enqueued_ns"] = timing_.enqueuedNs;
  out["completed_ns"] = timing_.completedNs;
  out["gpu_ms"] = timing_.gpuMilliseconds ? Json(*timing_.gpuMilliseconds) : Json();
  out["execution"] = execution_ == Execution::Instrumented ? "instrumented"
                     : execution_ == Execution::Failed     ? "failed"
                                                           : "original";
  out["instrumentors"] = instrumentors_;
  out["notes"] = notes_;
  Json results = Json::object();
  for (const auto& r : results_)
    results[std::string(r->instrumentor())] = r->json();
  out["results"] = std::move(results);
  return out;
}

std::string KernelProfile::toJson() const {
  return dumpJson(json());
}

} // namespace ocelot
