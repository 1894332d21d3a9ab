#include "ocelot/KernelProfile.h"

#include "ocelot/JsonWriter.h"

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

void writeDim(JsonWriter& out, const Dim3& d) {
  out.beginArray().value(d.x).value(d.y).value(d.z).endArray();
}

} // namespace

void KernelProfile::writeJson(JsonWriter& out) const {
  out.beginObject();
  out.key("schema").value(kProfileSchemaVersion);
  out.key("kernel").value(launch_.kernelName);
  out.key("demangled").value(launch_.demangledName);
  out.key("launch_id").value(launch_.launchId);
  out.key("kernel_launch").value(launch_.kernelLaunchIndex);
  out.key("device").value(launch_.device);
  out.key("grid");
  writeDim(out, launch_.grid);
  out.key("block");
  writeDim(out, launch_.block);
  out.key("dynamic_shared_memory").value(static_cast<uint64_t>(launch_.dynamicSharedMemory));
  out.key("stream").value(launch_.stream);
  out.key("enqueued_ns").value(timing_.enqueuedNs);
  out.key("completed_ns").value(timing_.completedNs);
  out.key("gpu_ms");
  if (timing_.gpuMilliseconds)
    out.value(*timing_.gpuMilliseconds);
  else
    out.null();
  out.key("execution")
      .value(execution_ == Execution::Instrumented ? "instrumented"
             : execution_ == Execution::Failed     ? "failed"
                                                   : "original");
  out.key("instrumentors").beginArray();
  for (const auto& name : instrumentors_)
    out.value(name);
  out.endArray();
  out.key("notes").beginArray();
  for (const auto& note : notes_)
    out.value(note);
  out.endArray();
  out.key("results").beginObject();
  for (const auto& r : results_) {
    out.key(r->instrumentor());
    r->writeJson(out);
  }
  out.endObject();
  out.endObject();
}

std::string KernelProfile::toJson() const {
  JsonWriter out;
  writeJson(out);
  return out.take();
}

} // namespace ocelot
