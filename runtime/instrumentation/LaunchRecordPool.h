#pragma once

#include "runtime/instrumentation/PendingLaunch.h"

#include <memory>
#include <mutex>
#include <vector>

namespace ocelot::runtime::instrumentation {

/// PendingLaunch records for reuse (issue 14: no allocation per instrumented launch on the
/// launching thread). A record the profile worker is done with comes back with its strings' and
/// vectors' capacity kept, so the next launch of a kernel fills it without allocating. The pool
/// grows to the number of launches in flight, up to kKept records.
class LaunchRecordPool {
public:
  static constexpr size_t kKept = 8192;

  LaunchRecordPool() = default;
  LaunchRecordPool(const LaunchRecordPool&) = delete;
  LaunchRecordPool& operator=(const LaunchRecordPool&) = delete;

  /// A record as a new PendingLaunch is, but possibly with capacity.
  std::unique_ptr<PendingLaunch> acquire();
  /// Takes `record` back (clearing it first); null is ignored.
  void recycle(std::unique_ptr<PendingLaunch> record);

private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<PendingLaunch>> free_;
};

} // namespace ocelot::runtime::instrumentation
