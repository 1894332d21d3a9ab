#include "runtime/core/NvtxRanges.h"

#include "ocelot/Json.h"
#include "runtime/core/ApiCallLog.h"

#include <atomic>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unistd.h>

namespace ocelot::runtime::instrumentation {

namespace {

/// The calling thread's push/pop ranges (all domains, in push order) in one NvtxRanges.
struct ThreadStack {
  uint64_t owner = 0; ///< the NvtxRanges' serial
  uint32_t thread = 0;
  struct Entry {
    NvtxRanges::Domain domain;
    std::string name;
    int64_t beginNs;
  };
  std::vector<Entry> entries;
};
thread_local ThreadStack tStack;

ThreadStack& stackOf(uint64_t serial) {
  if (tStack.owner != serial) {
    tStack = ThreadStack{};
    tStack.owner = serial;
    tStack.thread = static_cast<uint32_t>(gettid());
  }
  return tStack;
}

} // namespace

// --- State -----------------------------------------------------------------------------------

uint64_t NvtxRanges::nextSerial() {
  static std::atomic<uint64_t> serial{0};
  return serial.fetch_add(1, std::memory_order_relaxed) + 1;
}

NvtxRanges::Domain NvtxRanges::createDomain(const char* name) {
  auto text = std::make_unique<std::string>(name != nullptr ? name : "");
  Domain handle = text.get();
  std::lock_guard lock(mutex_);
  domains_.emplace(handle, std::move(text));
  return handle;
}

void NvtxRanges::destroyDomain(Domain /*domain*/) {
  // Kept: ranges recorded in it still name it, and a late pop may still use the handle.
}

const void* NvtxRanges::registerString(Domain /*domain*/, const char* text) {
  auto copy = std::make_unique<std::string>(text != nullptr ? text : "");
  const void* handle = copy.get();
  std::lock_guard lock(mutex_);
  strings_.insert(std::move(copy));
  return handle;
}

std::string NvtxRanges::registeredString(const void* handle) const {
  std::lock_guard lock(mutex_);
  for (const auto& s : strings_)
    if (s.get() == handle)
      return *s;
  return "(unknown registered string)";
}

std::string NvtxRanges::domainName(Domain domain) const {
  if (domain == nullptr)
    return "";
  std::lock_guard lock(mutex_);
  auto it = domains_.find(domain);
  return it == domains_.end() ? "(unknown domain)" : *it->second;
}

void NvtxRanges::keep(Record record) {
  std::lock_guard lock(mutex_);
  records_.push_back(std::move(record));
}

int NvtxRanges::push(Domain domain, std::string name) {
  ThreadStack& stack = stackOf(serial_);
  int depth = 0;
  for (const auto& e : stack.entries)
    depth += e.domain == domain ? 1 : 0;
  stack.entries.push_back({domain, std::move(name), ApiCallLog::nowNs()});
  return depth;
}

int NvtxRanges::pop(Domain domain) {
  ThreadStack& stack = stackOf(serial_);
  for (size_t i = stack.entries.size(); i-- > 0;) {
    if (stack.entries[i].domain != domain)
      continue;
    int depth = 0;
    for (const auto& e : stack.entries)
      depth += e.domain == domain ? 1 : 0;
    ThreadStack::Entry entry = std::move(stack.entries[i]);
    stack.entries.erase(stack.entries.begin() + static_cast<std::ptrdiff_t>(i));
    keep({"push", domainName(domain), std::move(entry.name), stack.thread, entry.beginNs,
          ApiCallLog::nowNs()});
    return depth - 1;
  }
  return -1;
}

uint64_t NvtxRanges::start(Domain domain, std::string name) {
  const uint32_t thread = stackOf(serial_).thread;
  Open open{domain, std::move(name), ApiCallLog::nowNs()};
  std::lock_guard lock(mutex_);
  uint64_t id = nextId_++;
  started_.emplace(id, std::make_pair(std::move(open), thread));
  return id;
}

void NvtxRanges::end(uint64_t id) {
  const int64_t now = ApiCallLog::nowNs();
  std::pair<Open, uint32_t> range;
  {
    std::lock_guard lock(mutex_);
    auto it = started_.find(id);
    if (it == started_.end())
      return;
    range = std::move(it->second);
    started_.erase(it);
  }
  keep({"start", domainName(range.first.domain), std::move(range.first.name), range.second,
        range.first.beginNs, now});
}

void NvtxRanges::mark(Domain domain, std::string name) {
  const int64_t now = ApiCallLog::nowNs();
  keep({"mark", domainName(domain), std::move(name), stackOf(serial_).thread, now, now});
}

std::vector<std::string> NvtxRanges::launchStack() const {
  std::vector<std::string> out;
  if (tStack.owner != serial_)
    return out;
  for (const auto& e : tStack.entries) {
    std::string domain = domainName(e.domain);
    out.push_back(domain.empty() ? e.name : domain + "@" + e.name);
  }
  return out;
}

bool NvtxRanges::matches(const std::vector<ocelot::NvtxRule>& rules) const {
  if (rules.empty())
    return true;
  for (const ocelot::NvtxRule& rule : rules) {
    if (rule.pushPop) {
      std::vector<std::string> stack;
      if (tStack.owner == serial_)
        for (const auto& e : tStack.entries)
          if (domainName(e.domain) == rule.domain)
            stack.push_back(e.name);
      if (rule.matchesStack(stack))
        return true;
      continue;
    }
    std::vector<std::pair<Domain, std::string>> open;
    {
      std::lock_guard lock(mutex_);
      for (const auto& [id, range] : started_)
        open.emplace_back(range.first.domain, range.first.name);
    }
    for (const auto& [domain, name] : open)
      if (name == rule.path[0] && domainName(domain) == rule.domain)
        return true;
  }
  return false;
}

std::vector<std::string> NvtxRanges::jsonLines() const {
  std::vector<std::string> lines;
  auto line = [&](const Record& r) {
    Json entry = Json::object();
    entry["kind"] = r.kind;
    entry["domain"] = r.domain;
    entry["name"] = r.name;
    entry["thread"] = r.thread;
    entry["begin_ns"] = r.beginNs;
    entry["end_ns"] = r.endNs >= 0 ? Json(r.endNs) : Json();
    lines.push_back(dumpJson(entry));
  };
  std::vector<Record> records;
  std::vector<std::pair<Open, uint32_t>> open;
  {
    std::lock_guard lock(mutex_);
    records = records_;
    for (const auto& [id, range] : started_)
      open.push_back(range);
  }
  for (const Record& r : records)
    line(r);
  for (const auto& [range, thread] : open) // started, never ended: no end
    line({"start", domainName(range.domain), range.name, thread, range.beginNs, -1});
  return lines;
}

} // namespace ocelot::runtime::instrumentation
