#include "tools/report/ProfileSet.h"

#include "ocelot/HostMeasures.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ocelot::report {

std::optional<int> rankFromFileName(const std::string& path) {
  static const std::regex pattern(R"(\.rank([0-9]{1,9})(\.|$))");
  std::smatch match;
  std::string name = std::filesystem::path(path).filename().string();
  if (std::regex_search(name, match, pattern))
    return std::stoi(match[1].str());
  return std::nullopt;
}

ProfileSet ProfileSet::load(const std::vector<std::string>& paths) {
  ProfileSet set;
  std::set<int> taken;
  for (size_t i = 0; i < paths.size(); ++i) {
    std::ifstream in(paths[i], std::ios::binary);
    if (!in)
      throw std::runtime_error(paths[i] + ": cannot open");
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json document = nlohmann::json::parse(text.str(), nullptr, false);
    if (document.is_discarded())
      throw std::runtime_error(paths[i] +
                               ": not JSON (a profile file is written completely at exit; was the "
                               "application killed?)");
    int rank = rankFromFileName(paths[i]).value_or(static_cast<int>(i));
    if (!taken.insert(rank).second)
      throw std::runtime_error(paths[i] + ": a second file of rank " + std::to_string(rank));
    set.add(paths[i], rank, std::move(document));
  }
  return set;
}

namespace {

template <class T> T field(const nlohmann::json& object, const char* name, T fallback) {
  auto it = object.find(name);
  if (it == object.end() || it->is_null())
    return fallback;
  try {
    return it->get<T>();
  } catch (const nlohmann::json::exception&) {
    return fallback;
  }
}

uint64_t volume(const nlohmann::json& profile, const char* name) {
  auto it = profile.find(name);
  if (it == profile.end() || !it->is_array())
    return 0;
  uint64_t v = 1;
  for (const auto& d : *it)
    v *= (d.is_number_unsigned() || (d.is_number_integer() && d.get<int64_t>() >= 0))
             ? d.get<uint64_t>()
             : 0;
  return v;
}

} // namespace

void ProfileSet::add(const std::string& source, int rank, nlohmann::json document) {
  if (!document.is_object() || !document.contains("profiles") || !document["profiles"].is_array())
    throw std::runtime_error(source + ": not an Ocelot profile file (no \"profiles\" array)");
  if (field<int>(document, "schema", 0) != 1)
    throw std::runtime_error(source + ": profile schema " +
                             std::to_string(field<int>(document, "schema", 0)) +
                             ", this Ocelot reads schema 1");
  if (auto wall = document.find("wall"); wall != document.end() && wall->is_object())
    walls_[rank] = {field<int64_t>(*wall, "start_ns", 0), field<int64_t>(*wall, "end_ns", 0)};
  if (auto operations = document.find("operations");
      operations != document.end() && operations->is_array()) {
    operationRanks_.insert(rank);
    for (const nlohmann::json& o : *operations) {
      if (!o.is_object())
        continue;
      Operation op;
      op.rank = rank;
      op.kind = field<std::string>(o, "kind", "copy");
      op.name = field<std::string>(o, "name", op.kind);
      op.device = field<int>(o, "device", 0);
      op.stream = field<uint64_t>(o, "stream", 0);
      op.bytes = field<uint64_t>(o, "bytes", 0);
      op.enqueuedNs = field<int64_t>(o, "enqueued_ns", 0);
      if (o.contains("gpu_ns") && o["gpu_ns"].is_number())
        op.gpuNs = o["gpu_ns"].get<double>();
      operations_.push_back(std::move(op));
    }
  }
  if (auto ranges = document.find("nvtx"); ranges != document.end() && ranges->is_array()) {
    for (const nlohmann::json& r : *ranges) {
      if (!r.is_object())
        continue;
      NvtxRecord record;
      record.rank = rank;
      record.kind = field<std::string>(r, "kind", "push");
      record.domain = field<std::string>(r, "domain", "");
      record.name = field<std::string>(r, "name", "");
      record.thread = field<uint32_t>(r, "thread", 0);
      record.beginNs = field<int64_t>(r, "begin_ns", 0);
      if (r.contains("end_ns") && r["end_ns"].is_number_integer())
        record.endNs = std::max(record.beginNs, r["end_ns"].get<int64_t>());
      nvtx_.push_back(std::move(record));
    }
  }
  if (auto calls = document.find("api_calls"); calls != document.end() && calls->is_array()) {
    for (const nlohmann::json& c : *calls) {
      if (!c.is_object())
        continue;
      ApiCall call;
      call.rank = rank;
      call.name = field<std::string>(c, "name", "?");
      call.thread = field<uint32_t>(c, "thread", 0);
      call.beginNs = field<int64_t>(c, "begin_ns", 0);
      call.endNs = std::max(call.beginNs, field<int64_t>(c, "end_ns", 0));
      apiCalls_.push_back(std::move(call));
    }
  }
  documents_.push_back(std::make_unique<nlohmann::json>(std::move(document)));
  sources_.push_back(source);
  const nlohmann::json& profiles = (*documents_.back())["profiles"];
  for (const nlohmann::json& p : profiles) {
    if (!p.is_object() || !p.contains("kernel"))
      throw std::runtime_error(source + ": a profile without a kernel name");
    Launch l;
    l.rank = rank;
    l.kernel = field<std::string>(p, "kernel", "");
    l.demangled = field<std::string>(p, "demangled", "");
    if (l.demangled.empty())
      l.demangled = l.kernel;
    l.launchId = field<uint64_t>(p, "launch_id", 0);
    l.kernelLaunch = field<uint64_t>(p, "kernel_launch", 0);
    l.device = field<int>(p, "device", 0);
    l.stream = field<uint64_t>(p, "stream", 0);
    l.ctas = volume(p, "grid");
    l.threadsPerCta = volume(p, "block");
    l.enqueuedNs = field<int64_t>(p, "enqueued_ns", 0);
    l.completedNs = field<int64_t>(p, "completed_ns", 0);
    if (p.contains("gpu_ms") && p["gpu_ms"].is_number())
      l.gpuMs = p["gpu_ms"].get<double>();
    l.instrumented = field<std::string>(p, "execution", "") == "instrumented";
    l.notes = field<std::vector<std::string>>(p, "notes", {});
    l.callPath = field<std::vector<std::string>>(p, "call_path", {});
    l.nvtx = field<std::vector<std::string>>(p, "nvtx", {});
    if (auto results = p.find("results"); results != p.end() && results->is_object()) {
      for (auto it = results->begin(); it != results->end(); ++it) {
        if (!it->is_object())
          continue;
        if (it.key() == "bbcount")
          l.bbcount = &*it;
        else if (it.key() == "ctaclock")
          l.ctaclock = &*it;
        else
          l.otherResults[it.key()] = &*it;
      }
    }
    if (l.bbcount != nullptr) {
      if (auto cfg = l.bbcount->find("cfg"); cfg != l.bbcount->end() && cfg->is_object())
        structures_.emplace(field<std::string>(*cfg, "id", ""), &*cfg);
    }
    launches_.push_back(std::move(l));
  }
}

bool ApiCall::blocking() const {
  return apiCallWaitsForDevice(name);
}

const nlohmann::json* ProfileSet::structure(const std::string& id) const {
  auto it = structures_.find(id);
  return it == structures_.end() ? nullptr : it->second;
}

std::optional<std::pair<int64_t, int64_t>> ProfileSet::wall(int rank) const {
  auto it = walls_.find(rank);
  if (it == walls_.end())
    return std::nullopt;
  return it->second;
}

std::vector<int> ProfileSet::ranks() const {
  std::set<int> ranks;
  for (const Launch& l : launches_)
    ranks.insert(l.rank);
  for (const Operation& o : operations_)
    ranks.insert(o.rank);
  return {ranks.begin(), ranks.end()};
}

} // namespace ocelot::report
