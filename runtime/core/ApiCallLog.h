#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace ocelot::runtime::instrumentation {

/// The Runtime API calls of every host thread, for the trace's host lanes and the overlap of host
/// and device work (docs/report.md): the API boundary records each call's function, thread, begin
/// and end when host measures are on. Each thread appends to a buffer of its own (an uncontended
/// lock, no allocation once the buffer has grown), so recording costs two clock reads and a store.
class ApiCallLog {
public:
  struct Call {
    /// The function as std::source_location names it (a static string; parsed when written).
    const char* function = nullptr;
    int64_t beginNs = 0, endNs = 0; ///< host clock, ns since the Unix epoch
  };
  struct Thread {
    uint32_t id = 0; ///< the kernel's thread id
    std::mutex mutex;
    std::vector<Call> calls;
    uint64_t dropped = 0; ///< calls beyond kMaxCallsPerThread
  };
  /// A bound on memory: 4 Mi calls (128 MiB) per thread; later calls are counted, not kept.
  static constexpr size_t kMaxCallsPerThread = size_t{1} << 22;

  ApiCallLog() = default;
  ApiCallLog(const ApiCallLog&) = delete;
  ApiCallLog& operator=(const ApiCallLog&) = delete;

  static int64_t nowNs();
  /// Never throws (it runs in a destructor): a call that cannot be stored is counted as dropped.
  void record(const char* function, int64_t beginNs, int64_t endNs) noexcept;

  /// The name of a call as the trace shows it: `cudaMemcpyAsync` of
  /// "cudaError_t cudaMemcpyAsync(void*, ...)"; bodies shared by several exported functions are
  /// named by the body ("copy", "fill").
  static std::string shortName(const char* function);

  /// Every thread's calls so far, as JSON lines of the profile file's `api_calls`
  /// (`{"name","thread","begin_ns","end_ns"}`), with `dropped` set to the calls not kept.
  std::vector<std::string> jsonLines(uint64_t* dropped) const;

  /// What the calls so far add up to, for the summary at exit: their number, the threads that
  /// made them, their time, and the time of those in which the host waited for the device
  /// (`waits`, given each call's shortName).
  struct Totals {
    uint64_t calls = 0, threads = 0, dropped = 0;
    int64_t ns = 0, waitingNs = 0;
  };
  Totals totals(const std::function<bool(std::string_view)>& waits) const;

private:
  Thread& thisThread();

  /// Tells logs apart in the threads' buffer pointers (a later log may reuse a freed address).
  const uint64_t serial_ = nextSerial();
  static uint64_t nextSerial();
  mutable std::mutex threadsMutex_;
  std::vector<std::unique_ptr<Thread>> threads_;
};

/// Records one call from construction to destruction.
class ApiCallScope {
public:
  ApiCallScope(ApiCallLog& log, const char* function)
      : log_(log), function_(function), beginNs_(ApiCallLog::nowNs()) {}
  ~ApiCallScope() { log_.record(function_, beginNs_, ApiCallLog::nowNs()); }
  ApiCallScope(const ApiCallScope&) = delete;
  ApiCallScope& operator=(const ApiCallScope&) = delete;

private:
  ApiCallLog& log_;
  const char* function_;
  int64_t beginNs_;
};

} // namespace ocelot::runtime::instrumentation
