#pragma once

#include "ocelot/KernelProfile.h"
#include "runtime/core/ApiCallLog.h"
#include "runtime/core/DeviceOperation.h"
#include "runtime/core/NvtxRanges.h"

#include <condition_variable>
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ocelot::runtime::instrumentation {

/// Where finished profiles go: the latest one (ocelot::kernelProfile()), every subscriber's
/// callback, and the profile file (OCELOT_PROFILE_OUTPUT: one JSON document
/// `{"schema":1,"profiles":[...]}` with one profile per line, completed by closeFile()). Thread
/// safe. Callbacks run on the thread that publishes (Ocelot's profile worker) without any of the
/// hub's locks held, so they may subscribe, unsubscribe or publish themselves.
class ProfileHub {
public:
  using Callback = std::function<void(const std::shared_ptr<const KernelProfile>&)>;

  ProfileHub() = default;
  ProfileHub(const ProfileHub&) = delete;
  ProfileHub& operator=(const ProfileHub&) = delete;

  void publish(std::shared_ptr<const KernelProfile> profile);
  std::shared_ptr<const KernelProfile> latest() const;

  uint64_t subscribe(Callback callback);
  /// After it returns the callback is neither running (unless on this very thread) nor called
  /// again. False for an unknown id.
  bool unsubscribe(uint64_t id);

  /// Appends profiles to `path` from now on (truncating it). Returns false when it cannot be
  /// opened.
  bool openFile(const std::string& path);
  void flushFile();
  /// Keeps a timed copy, memset or unprofiled kernel for the file's `operations` (host measures);
  /// nothing without a file.
  void addOperation(DeviceOperation operation);
  /// The API calls closeFile() writes (`api_calls`), when host measures record them.
  void setApiCalls(const ApiCallLog* calls) { apiCalls_ = calls; }
  /// The NVTX ranges and marks closeFile() writes (`nvtx`).
  void setNvtx(const NvtxRanges* nvtx) { nvtx_ = nvtx; }
  /// Ends the JSON document with the device operations and the process's wall clock (`wall`: its
  /// start and now, the exit) and closes the file (at exit).
  void closeFile();

private:
  struct Subscriber {
    std::shared_ptr<Callback> callback;
    int running = 0;           ///< calls in progress
    std::thread::id runningOn; ///< the thread of the call in progress
    bool removed = false;
  };

  mutable std::mutex mutex_;
  std::condition_variable idle_;
  std::shared_ptr<const KernelProfile> latest_;
  std::map<uint64_t, Subscriber> subscribers_;
  uint64_t nextId_ = 1;

  std::mutex fileMutex_;
  std::ofstream file_;
  uint64_t fileProfiles_ = 0;
  std::vector<DeviceOperation> operations_; ///< written at closeFile()
  const ApiCallLog* apiCalls_ = nullptr;
  const NvtxRanges* nvtx_ = nullptr;
  int64_t fileOpenedNs_ = 0;
};

} // namespace ocelot::runtime::instrumentation
