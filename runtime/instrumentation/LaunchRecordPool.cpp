#include "runtime/instrumentation/LaunchRecordPool.h"

namespace ocelot::runtime::instrumentation {

void PendingLaunch::clearForReuse() {
  PendingLaunch fresh;
  // What the next launch fills again keeps its capacity; everything else is as in a new record
  // (references to modules, rings, events and instrumentors are dropped here).
  auto keep = [](auto& from, auto& to) {
    to.swap(from);
    to.clear();
  };
  keep(info.kernelName, fresh.info.kernelName);
  keep(info.demangledName, fresh.info.demangledName);
  keep(notes, fresh.notes);
  keep(slots, fresh.slots);
  keep(parameter, fresh.parameter);
  keep(choices, fresh.choices);
  // The strings themselves are overwritten in place (assign reuses their buffers).
  fresh.instrumentors.swap(instrumentors);
  *this = std::move(fresh);
}

std::unique_ptr<PendingLaunch> LaunchRecordPool::acquire() {
  {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      std::unique_ptr<PendingLaunch> record = std::move(free_.back());
      free_.pop_back();
      return record;
    }
  }
  return std::make_unique<PendingLaunch>();
}

void LaunchRecordPool::recycle(std::unique_ptr<PendingLaunch> record) {
  if (!record)
    return;
  record->clearForReuse();
  std::lock_guard lock(mutex_);
  if (free_.size() < kKept)
    free_.push_back(std::move(record));
}

} // namespace ocelot::runtime::instrumentation
