#include "runtime/instrumentation/ProfileHub.h"

#include "ocelot/Json.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace ocelot::runtime::instrumentation {

namespace {

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// When the process started, in ns since the Unix epoch (the kernel's record: boot time plus the
/// process's start in clock ticks, so 10 ms resolution), else `fallback`.
int64_t processStartNs(int64_t fallback) {
  std::ifstream stat("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  size_t afterName = text.rfind(')'); // the command name may hold spaces and parentheses
  if (afterName == std::string::npos)
    return fallback;
  std::istringstream fields(text.substr(afterName + 2));
  std::string field;
  // After "pid (comm) ": state is field 3, starttime field 22.
  for (int i = 3; i < 22 && fields >> field; ++i) {
  }
  unsigned long long startTicks = 0;
  if (!(fields >> startTicks))
    return fallback;
  std::ifstream system("/proc/stat");
  std::string line;
  long long bootSeconds = -1;
  while (std::getline(system, line))
    if (line.rfind("btime ", 0) == 0)
      bootSeconds = std::atoll(line.c_str() + 6);
  long ticks = sysconf(_SC_CLK_TCK);
  if (bootSeconds < 0 || ticks <= 0)
    return fallback;
  return bootSeconds * 1000000000LL + static_cast<int64_t>(startTicks) * (1000000000LL / ticks);
}

} // namespace

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
  fileOpenedNs_ = nowNs();
  if (file_.is_open())
    file_ << "{\"schema\":" << kProfileSchemaVersion << ",\"profiles\":[";
  return file_.is_open();
}

void ProfileHub::closeFile() {
  std::lock_guard lock(fileMutex_);
  if (!file_.is_open())
    return;
  // The application's wall clock (GLB's denominator, docs/report.md): from the process's start to
  // now, its exit.
  int64_t end = nowNs();
  int64_t start = std::min(processStartNs(fileOpenedNs_), end);
  file_ << "\n],\"operations\":[";
  for (size_t i = 0; i < operations_.size(); ++i) {
    const DeviceOperation& o = operations_[i];
    Json entry = Json::object();
    entry["kind"] = DeviceOperation::kindName(o.kind);
    entry["name"] = o.name;
    entry["device"] = o.device;
    entry["stream"] = o.stream;
    entry["bytes"] = o.bytes;
    entry["enqueued_ns"] = o.enqueuedNs;
    entry["gpu_ns"] = o.gpuNs >= 0 ? Json(o.gpuNs) : Json();
    file_ << (i == 0 ? "\n" : ",\n") << dumpJson(entry);
  }
  operations_.clear();
  if (apiCalls_ != nullptr) {
    uint64_t dropped = 0;
    std::vector<std::string> calls = apiCalls_->jsonLines(&dropped);
    if (!calls.empty() || dropped > 0) {
      file_ << "\n],\"api_calls_dropped\":" << dropped << ",\"api_calls\":[";
      for (size_t i = 0; i < calls.size(); ++i)
        file_ << (i == 0 ? "\n" : ",\n") << calls[i];
    }
  }
  if (nvtx_ != nullptr && nvtx_->attached()) {
    std::vector<std::string> ranges = nvtx_->jsonLines();
    file_ << "\n],\"nvtx\":[";
    for (size_t i = 0; i < ranges.size(); ++i)
      file_ << (i == 0 ? "\n" : ",\n") << ranges[i];
  }
  file_ << "\n],\"wall\":{\"start_ns\":" << start << ",\"end_ns\":" << end << "}}\n";
  file_.close();
}

void ProfileHub::addOperation(DeviceOperation operation) {
  std::lock_guard lock(fileMutex_);
  if (file_.is_open())
    operations_.push_back(std::move(operation));
}

void ProfileHub::flushFile() {
  std::lock_guard lock(fileMutex_);
  if (file_.is_open())
    file_.flush();
}

} // namespace ocelot::runtime::instrumentation
