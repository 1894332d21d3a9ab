#pragma once

#include "runtime/instrumentation/PendingLaunch.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ocelot::runtime::instrumentation {

/// Ocelot's profile thread: instrumented launches are pushed here when they are enqueued, with an
/// event recorded after their result copies (`PendingLaunch::done`), which this thread polls; or,
/// without an event, by a host-function callback once they finished (that callback must not call
/// CUDA itself). This thread finalizes them (reads the results, builds the KernelProfile, calls
/// subscribers), in batches: every launch found finished in one pass over those waiting, so that
/// reading their results back costs one synchronization of Ocelot's stream per batch. Launches are
/// counted from `begin()` so that flush() can wait for all launches made so far.
class ProfileWorker {
public:
  using Batch = std::vector<std::unique_ptr<PendingLaunch>>;
  using Complete = std::function<void(Batch&)>;

  explicit ProfileWorker(Complete complete) : complete_(std::move(complete)) {
    // The launching threads push while the worker sleeps through its pause (2 ms): room for the
    // launches of a pause at ~1 us each, so that a burst allocates nothing on the launching thread
    // (32 KiB; beyond it the queue grows, once).
    queue_.reserve(kQueueReserve);
  }
  ProfileWorker(const ProfileWorker&) = delete;
  ProfileWorker& operator=(const ProfileWorker&) = delete;
  /// The thread is detached at process exit, never joined: the runtime is never destroyed.
  ~ProfileWorker();

  /// A launch will be pushed later (call before enqueueing the host function).
  void begin();
  /// A launch that began is complete: queue it (any thread, no CUDA).
  void push(std::unique_ptr<PendingLaunch> launch) { queue(std::move(launch), false); }
  /// begin() and push() under one lock: a launch the worker polls for (a completion word or
  /// event), queued at once.
  void beginAndPush(std::unique_ptr<PendingLaunch> launch) { queue(std::move(launch), true); }
  /// Completes a launch that began on the calling thread, right away (no host functions).
  void completeHere(std::unique_ptr<PendingLaunch> launch);
  /// Waits until every launch that began before the call is complete, or `timeout` passed.
  /// Returns false on timeout.
  bool flush(std::chrono::milliseconds timeout = std::chrono::milliseconds::max());
  /// Launches begun and not yet completed.
  uint64_t pending() const;

private:
  void beginLocked(); ///< begin()'s count and thread start; mutex_ held
  void queue(std::unique_ptr<PendingLaunch> launch, bool begins);
  void run();
  void finished(uint64_t count);
  /// Moves into `batch` the waiting launches with a completion word that will never come, or
  /// need not: faulted, destroyed by a device reset, or ended without writing it.
  void unsignalled(std::deque<std::unique_ptr<PendingLaunch>>& waiting, Batch& batch);

  Complete complete_;
  mutable std::mutex mutex_;
  std::condition_variable work_;
  std::condition_variable done_;
  /// A vector, not a deque: a deque allocates a block every few pushes on the launching thread.
  std::vector<std::unique_ptr<PendingLaunch>> queue_;
  static constexpr size_t kQueueReserve = 4096;
  uint64_t begun_ = 0, completed_ = 0;
  bool stopping_ = false; ///< set by the destructor: the thread returns
  /// The thread waits for work with nothing in flight (push() must wake it); while launches are in
  /// flight it polls, and push() need not.
  bool sleeping_ = false;
  /// flush() calls waiting: the worker polls now instead of at its next pause's end.
  uint64_t flushing_ = 0;
  std::thread thread_;
};

/// Ocelot's own threads (the profile worker) query events, copy results and synchronize their
/// stream while an application thread may be capturing a graph in cudaStreamCaptureModeGlobal,
/// which forbids "potentially unsafe" calls on every other thread of that mode and invalidates the
/// capture. The calling thread opts out of those rules (cudaStreamCaptureModeRelaxed), as CUDA
/// lets a library's background thread do; instrumentation must never end an application's capture.
void relaxStreamCaptureRules(Device& device);

} // namespace ocelot::runtime::instrumentation
