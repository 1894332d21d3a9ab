#pragma once

#include "runtime/cpu/HostThread.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ocelot::runtime::cpu {

/// Where the host and stream threads wait for device work: one mutex and condition variable per
/// device, signalled whenever an operation completes. Completions are rare next to the work they
/// end, so one signal for all waiters costs little and cannot miss a wake-up.
class ProgressSignal {
public:
  /// Blocks until `done()` holds (checked under the signal's mutex).
  template <class Predicate> void wait(Predicate done) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, done);
  }
  /// Runs `change` under the mutex, then wakes every waiter.
  template <class Change> void notify(Change change) {
    {
      std::lock_guard lock(mutex_);
      change();
    }
    changed_.notify_all();
  }

private:
  std::mutex mutex_;
  std::condition_variable changed_;
};

/// The completion of one stream operation (or of one event-record node of a graph launch): what
/// events, stream queries, synchronization and cross-stream dependencies look at.
class Completion {
public:
  explicit Completion(ProgressSignal& signal) : signal_(signal) {}
  bool done() const { return done_.load(std::memory_order_acquire); }
  /// Marks it done now (the time events report) and wakes the waiters. Idempotent.
  void complete();
  /// When it completed; meaningful once done().
  std::chrono::steady_clock::time_point time() const { return time_; }
  void wait() {
    signal_.wait([this] { return done(); });
  }

private:
  ProgressSignal& signal_;
  std::atomic<bool> done_{false};
  std::chrono::steady_clock::time_point time_;
};
using CompletionPtr = std::shared_ptr<Completion>;

/// One stream-ordered operation: it runs after every completion in `after` (other streams'
/// work it must follow: events, the legacy stream's implicit synchronization) and after the
/// operations queued before it in its own stream; `done` completes once it ran.
struct StreamOperation {
  std::function<void()> run; ///< empty for pure ordering points (event record, event wait)
  std::vector<CompletionPtr> after;
  CompletionPtr done;
};

/// A stream of the CPU device: a FIFO of operations executed in order by a host thread of its own.
/// The thread starts with the first operation and ends after a short idle time, so idle streams
/// (and the per-thread default streams of finished host threads) hold no thread, while a busy
/// stream pays for thread creation once. A kernel spinning on one stream blocks only that thread.
class StreamQueue {
public:
  enum class Kind { Created, Legacy, PerThread };
  StreamQueue(ProgressSignal& signal, Kind kind, unsigned int flags, int priority,
              unsigned long long id);
  /// Waits for the queued work and ends the thread.
  ~StreamQueue();
  StreamQueue(const StreamQueue&) = delete;
  StreamQueue& operator=(const StreamQueue&) = delete;

  Kind kind() const { return kind_; }
  unsigned int flags() const { return flags_; }
  int priority() const { return priority_.load(); }
  void setPriority(int priority) { priority_.store(priority); }
  unsigned long long id() const { return id_; }
  /// Blocking streams synchronize with the legacy default stream; non-blocking ones do not.
  bool blocking() const;

  /// Appends `operation`; starts the stream's thread when it has none.
  void push(StreamOperation operation);
  /// The completion of the last operation pushed (null when none ever was).
  CompletionPtr tail() const;
  /// No operation pending.
  bool idle() const;
  /// Blocks until every operation pushed so far has run.
  void drain() const;

  /// The queue whose thread the caller is (null on application threads).
  static StreamQueue* current();

private:
  void loop();

  ProgressSignal& signal_;
  const Kind kind_;
  const unsigned int flags_;
  std::atomic<int> priority_;
  const unsigned long long id_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<StreamOperation> pending_;
  CompletionPtr tail_;
  HostThread thread_;
  bool running_ = false;
  bool stopping_ = false;
};

} // namespace ocelot::runtime::cpu
