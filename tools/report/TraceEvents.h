#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace ocelot::report {

/// A trace in the Trace Event Format (its JSON object form: {"traceEvents": [...]}) that
/// ui.perfetto.dev and chrome://tracing open. Processes and threads are lanes named by metadata
/// events; slices are complete events ("X", microseconds); flow arrows are "s"/"f" pairs, the
/// finish bound to the slice that encloses it. Events come out in timestamp order, a slice before
/// the slices it encloses. Sources add what they know: ProfileTrace adds kernels and CTAs; host
/// API calls, NVTX ranges and launch-site stacks are further lanes and slices of the same kind.
class TraceEvents {
public:
  using Json = nlohmann::ordered_json;

  /// The pid of the process lane named `name` (created at the first call).
  uint32_t process(const std::string& name, int sortIndex);
  /// The tid of thread lane `name` in process `pid` (created at the first call).
  uint32_t thread(uint32_t pid, const std::string& name, int sortIndex);

  /// A slice from `ts` for `dur` microseconds (dur < 0 is taken as 0).
  void slice(uint32_t pid, uint32_t tid, const std::string& name, const std::string& category,
             double ts, double dur, Json args = Json::object());
  /// An arrow from time `fromTs` in lane (fromPid, fromTid) to time `toTs` in (toPid, toTid); each
  /// end must lie in a slice of its lane.
  void flow(const std::string& name, const std::string& category, uint32_t fromPid,
            uint32_t fromTid, double fromTs, uint32_t toPid, uint32_t toTid, double toTs);

  size_t slices() const { return slices_; }

  /// The document: lane names first, then events in timestamp order; `otherData` as given.
  Json json(Json otherData = Json::object()) const;

private:
  struct Event {
    Json json;
    double ts = 0, dur = 0;
    uint64_t order = 0;
    int rank = 0; ///< ties at one ts: slices (longest first), then flow ends
  };
  std::vector<Event> events_;
  std::vector<Json> metadata_;
  std::map<std::string, uint32_t> processes_;
  std::map<std::pair<uint32_t, std::string>, uint32_t> threads_;
  std::map<uint32_t, uint32_t> threadCount_;
  uint64_t nextFlow_ = 1;
  size_t slices_ = 0;
};

} // namespace ocelot::report
