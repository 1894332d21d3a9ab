#pragma once

#include "ocelot/NvtxRule.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ocelot::runtime::instrumentation {

/// Ocelot as an NVTX injection library (runtime/api/NvtxInjection.cpp forwards the callbacks
/// here): per thread and domain the push/pop stack, the open start/end ranges of the process,
/// domains and registered strings, and a record of every range and mark for the profile file
/// (`nvtx`), the trace's NVTX lanes and each launch's range stack. Thread safe.
class NvtxRanges {
public:
  using Domain = const void*; ///< nullptr: the default domain

  NvtxRanges() = default;
  NvtxRanges(const NvtxRanges&) = delete;
  NvtxRanges& operator=(const NvtxRanges&) = delete;

  /// Whether NVTX ever called in (the injection was initialized).
  bool attached() const { return attached_; }
  void attach() { attached_ = true; }

  Domain createDomain(const char* name);
  void destroyDomain(Domain domain);
  /// A registered string's handle (a pointer to the kept copy), and its text.
  const void* registerString(Domain domain, const char* text);
  std::string registeredString(const void* handle) const;

  /// Push/pop ranges of the calling thread; pop returns the depth before, or -1 when empty.
  int push(Domain domain, std::string name);
  int pop(Domain domain);
  /// Start/end ranges (any thread may end them); ids from 1.
  uint64_t start(Domain domain, std::string name);
  void end(uint64_t id);
  void mark(Domain domain, std::string name);

  /// The calling thread's push/pop ranges of every domain, outermost first: `name` for the
  /// default domain, `domain@name` for others (what a launch's profile carries).
  std::vector<std::string> launchStack() const;
  /// Whether the calling thread's state satisfies any of `rules` (none: true).
  bool matches(const std::vector<ocelot::NvtxRule>& rules) const;

  /// Every finished range and mark, and the ranges still open, as JSON lines of the profile
  /// file's `nvtx` (`{"kind","domain","name","thread","begin_ns","end_ns"}`).
  std::vector<std::string> jsonLines() const;

private:
  struct Open {
    Domain domain = nullptr;
    std::string name;
    int64_t beginNs = 0;
  };
  struct Record {
    std::string kind; ///< "push", "start", "mark"
    std::string domain, name;
    uint32_t thread = 0;
    int64_t beginNs = 0, endNs = -1; ///< endNs -1: still open at exit
  };
  std::string domainName(Domain domain) const;
  void keep(Record record);

  bool attached_ = false;
  const uint64_t serial_ = nextSerial();
  static uint64_t nextSerial();

  mutable std::mutex mutex_;
  std::map<Domain, std::unique_ptr<std::string>> domains_;
  std::set<std::unique_ptr<std::string>> strings_;
  std::map<uint64_t, std::pair<Open, uint32_t>> started_; ///< id -> range, starting thread
  uint64_t nextId_ = 1;
  std::vector<Record> records_;
};

} // namespace ocelot::runtime::instrumentation
