#include "runtime/instrumentation/ProfileHub.h"

#include <vector>

namespace ocelot::runtime::instrumentation {

void ProfileHub::publish(std::shared_ptr<const KernelProfile> profile) {
  if (!profile)
    return;
  std::vector<std::pair<uint64_t, std::shared_ptr<Callback>>> callbacks;
  {
    std::lock_guard lock(mutex_);
    latest_ = profile;
    for (auto& [id, subscriber] : subscribers_) {
      if (subscriber.removed)
        continue;
      ++subscriber.running;
      subscriber.runningOn = std::this_thread::get_id();
      callbacks.emplace_back(id, subscriber.callback);
    }
  }
  {
    std::lock_guard lock(fileMutex_);
    if (file_.is_open()) {
      file_ << (fileProfiles_++ == 0 ? "\n" : ",\n") << profile->toJson();
    }
  }
  for (auto& [id, callback] : callbacks) {
    try {
      (*callback)(profile);
    } catch (...) {
      // A client's exception must not end Ocelot's profile thread (or the application).
    }
    std::lock_guard lock(mutex_);
    auto it = subscribers_.find(id);
    if (it != subscribers_.end() && --it->second.running == 0 && it->second.removed)
      subscribers_.erase(it);
    idle_.notify_all();
  }
}

std::shared_ptr<const KernelProfile> ProfileHub::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

uint64_t ProfileHub::subscribe(Callback callback) {
  std::lock_guard lock(mutex_);
  uint64_t id = nextId_++;
  subscribers_[id].callback = std::make_shared<Callback>(std::move(callback));
  return id;
}

bool ProfileHub::unsubscribe(uint64_t id) {
  std::unique_lock lock(mutex_);
  auto it = subscribers_.find(id);
  if (it == subscribers_.end() || it->second.removed)
    return false;
  it->second.removed = true;
  if (it->second.running == 0) {
    subscribers_.erase(it);
    return true;
  }
  // Called from inside its own callback: the call in progress finishes after we return.
  if (it->second.runningOn == std::this_thread::get_id())
    return true;
  idle_.wait(lock, [&] { return !subscribers_.contains(id); });
  return true;
}

bool ProfileHub::openFile(const std::string& path) {
  std::lock_guard lock(fileMutex_);
  file_.close();
  file_.clear();
  file_.open(path, std::ios::out | std::ios::trunc);
  fileProfiles_ = 0;
  if (file_.is_open())
    file_ << "{\"schema\":" << kProfileSchemaVersion << ",\"profiles\":[";
  return file_.is_open();
}

void ProfileHub::closeFile() {
  std::lock_guard lock(fileMutex_);
  if (!file_.is_open())
    return;
  file_ << "\n]}\n";
  file_.close();
}

void ProfileHub::flushFile() {
  std::lock_guard lock(fileMutex_);
  if (file_.is_open())
    file_.flush();
}

} // namespace ocelot::runtime::instrumentation
