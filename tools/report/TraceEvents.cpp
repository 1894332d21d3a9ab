#include "tools/report/TraceEvents.h"

#include <algorithm>

namespace ocelot::report {

uint32_t TraceEvents::process(const std::string& name, int sortIndex) {
  auto [it, added] = processes_.emplace(name, static_cast<uint32_t>(processes_.size() + 1));
  if (added) {
    metadata_.push_back(Json{
        {"name", "process_name"}, {"ph", "M"}, {"pid", it->second}, {"args", {{"name", name}}}});
    metadata_.push_back(Json{{"name", "process_sort_index"},
                             {"ph", "M"},
                             {"pid", it->second},
                             {"args", {{"sort_index", sortIndex}}}});
  }
  return it->second;
}

uint32_t TraceEvents::thread(uint32_t pid, const std::string& name, int sortIndex) {
  auto key = std::make_pair(pid, name);
  auto it = threads_.find(key);
  if (it != threads_.end())
    return it->second;
  uint32_t tid = ++threadCount_[pid];
  threads_.emplace(key, tid);
  metadata_.push_back(Json{{"name", "thread_name"},
                           {"ph", "M"},
                           {"pid", pid},
                           {"tid", tid},
                           {"args", {{"name", name}}}});
  metadata_.push_back(Json{{"name", "thread_sort_index"},
                           {"ph", "M"},
                           {"pid", pid},
                           {"tid", tid},
                           {"args", {{"sort_index", sortIndex}}}});
  return tid;
}

void TraceEvents::slice(uint32_t pid, uint32_t tid, const std::string& name,
                        const std::string& category, double ts, double dur, Json args) {
  dur = std::max(dur, 0.0);
  Json event{{"name", name}, {"cat", category}, {"ph", "X"}, {"ts", ts},
             {"dur", dur},   {"pid", pid},      {"tid", tid}};
  if (!args.empty())
    event["args"] = std::move(args);
  events_.push_back({std::move(event), ts, dur, events_.size(), 0});
  ++slices_;
}

void TraceEvents::flow(const std::string& name, const std::string& category, uint32_t fromPid,
                       uint32_t fromTid, double fromTs, uint32_t toPid, uint32_t toTid,
                       double toTs) {
  uint64_t id = nextFlow_++;
  events_.push_back({Json{{"name", name},
                          {"cat", category},
                          {"ph", "s"},
                          {"id", id},
                          {"ts", fromTs},
                          {"pid", fromPid},
                          {"tid", fromTid}},
                     fromTs, 0, events_.size(), 1});
  events_.push_back({Json{{"name", name},
                          {"cat", category},
                          {"ph", "f"},
                          {"bp", "e"},
                          {"id", id},
                          {"ts", toTs},
                          {"pid", toPid},
                          {"tid", toTid}},
                     toTs, 0, events_.size(), 1});
}

TraceEvents::Json TraceEvents::json(Json otherData) const {
  std::vector<const Event*> ordered;
  for (const Event& e : events_)
    ordered.push_back(&e);
  // By time; at one time, enclosing (longer) slices before the ones they enclose, and flow
  // events after the slices they bind to.
  std::stable_sort(ordered.begin(), ordered.end(), [](const Event* a, const Event* b) {
    if (a->ts != b->ts)
      return a->ts < b->ts;
    if (a->rank != b->rank)
      return a->rank < b->rank;
    if (a->dur != b->dur)
      return a->dur > b->dur;
    return a->order < b->order;
  });
  Json events = Json::array();
  for (const Json& m : metadata_)
    events.push_back(m);
  for (const Event* e : ordered)
    events.push_back(e->json);
  Json out = Json::object();
  out["traceEvents"] = std::move(events);
  out["displayTimeUnit"] = "ns";
  out["otherData"] = std::move(otherData);
  return out;
}

} // namespace ocelot::report
