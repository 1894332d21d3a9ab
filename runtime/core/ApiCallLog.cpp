#include "runtime/core/ApiCallLog.h"

#include "ocelot/Json.h"

#include <atomic>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>
#include <string_view>
#include <unistd.h>

namespace ocelot::runtime::instrumentation {

namespace {

/// The calling thread's buffer in each log (a process has one runtime; tests make more).
struct ThreadBuffers {
  uint64_t log = 0; ///< the log's serial
  ApiCallLog::Thread* thread = nullptr;
};
thread_local ThreadBuffers tBuffer;

} // namespace

uint64_t ApiCallLog::nextSerial() {
  static std::atomic<uint64_t> serial{0};
  return serial.fetch_add(1, std::memory_order_relaxed) + 1;
}

int64_t ApiCallLog::nowNs() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now); // the clock of enqueued_ns and wall (system_clock)
  return static_cast<int64_t>(now.tv_sec) * 1000000000LL + now.tv_nsec;
}

ApiCallLog::Thread& ApiCallLog::thisThread() {
  if (tBuffer.log == serial_) [[likely]]
    return *tBuffer.thread;
  std::lock_guard lock(threadsMutex_);
  threads_.push_back(std::make_unique<Thread>());
  threads_.back()->id = static_cast<uint32_t>(gettid());
  threads_.back()->calls.reserve(1024);
  tBuffer = {serial_, threads_.back().get()};
  return *threads_.back();
}

void ApiCallLog::record(const char* function, int64_t beginNs, int64_t endNs) noexcept {
  try {
    Thread& thread = thisThread();
    std::lock_guard lock(thread.mutex);
    if (thread.calls.size() >= kMaxCallsPerThread) {
      ++thread.dropped;
      return;
    }
    try {
      thread.calls.push_back({function, beginNs, endNs});
    } catch (...) {
      ++thread.dropped;
    }
  } catch (...) {
    // No buffer for this thread (out of memory): the call goes unrecorded.
  }
}

std::string ApiCallLog::shortName(const char* function) {
  if (function == nullptr)
    return "?";
  std::string_view text(function);
  // "cudaError_t ns::name(args)" or "name(args)" (a lambda's own name never reaches here: the
  // location is taken where the boundary is called).
  size_t open = text.find('(');
  std::string_view head = text.substr(0, open);
  size_t space = head.rfind(' ');
  if (space != std::string_view::npos)
    head = head.substr(space + 1);
  size_t colon = head.rfind("::");
  if (colon != std::string_view::npos)
    head = head.substr(colon + 2);
  return head.empty() ? std::string(text) : std::string(head);
}

ApiCallLog::Totals ApiCallLog::totals(const std::function<bool(std::string_view)>& waits) const {
  Totals totals;
  std::map<const char*, bool> waiting; // functions are static strings: parse each once
  std::lock_guard lock(threadsMutex_);
  for (const auto& thread : threads_) {
    std::lock_guard threadLock(thread->mutex);
    totals.dropped += thread->dropped;
    if (!thread->calls.empty())
      ++totals.threads;
    for (const Call& c : thread->calls) {
      auto [it, added] = waiting.try_emplace(c.function, false);
      if (added)
        it->second = waits(shortName(c.function));
      ++totals.calls;
      totals.ns += c.endNs - c.beginNs;
      if (it->second)
        totals.waitingNs += c.endNs - c.beginNs;
    }
  }
  return totals;
}

std::vector<std::string> ApiCallLog::jsonLines(uint64_t* dropped) const {
  std::vector<std::string> lines;
  uint64_t lost = 0;
  std::lock_guard lock(threadsMutex_);
  for (const auto& thread : threads_) {
    std::lock_guard threadLock(thread->mutex);
    lost += thread->dropped;
    for (const Call& c : thread->calls) {
      Json entry = Json::object();
      entry["name"] = shortName(c.function);
      entry["thread"] = thread->id;
      entry["begin_ns"] = c.beginNs;
      entry["end_ns"] = c.endNs;
      lines.push_back(dumpJson(entry));
    }
  }
  if (dropped != nullptr)
    *dropped = lost;
  return lines;
}

} // namespace ocelot::runtime::instrumentation
