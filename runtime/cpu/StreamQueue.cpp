#include "runtime/cpu/StreamQueue.h"

#include <driver_types.h>
#include <exception>

namespace ocelot::runtime::cpu {
namespace {

/// How long a stream's thread waits for more work before it ends.
constexpr auto kIdleTime = std::chrono::milliseconds(200);

thread_local StreamQueue* currentQueue = nullptr;

} // namespace

void Completion::complete() {
  if (done())
    return;
  signal_.notify([this] {
    time_ = std::chrono::steady_clock::now();
    done_.store(true, std::memory_order_release);
  });
}

StreamQueue::StreamQueue(ProgressSignal& signal, Kind kind, unsigned int flags, int priority,
                         unsigned long long id)
    : signal_(signal), kind_(kind), flags_(flags), priority_(priority), id_(id) {}

StreamQueue::~StreamQueue() {
  drain();
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable())
    thread_.join();
}

bool StreamQueue::blocking() const {
  return kind_ != Kind::Legacy && (flags_ & cudaStreamNonBlocking) == 0;
}

StreamQueue* StreamQueue::current() {
  return currentQueue;
}

void StreamQueue::push(StreamOperation operation) {
  std::exception_ptr refused;
  {
    std::lock_guard lock(mutex_);
    if (!running_) {
      // A thread that ended on its own has nothing left to do once it cleared running_.
      if (thread_.joinable())
        thread_.join();
      // Started before the operation is queued, and running_ set only once it exists: when the
      // system refuses a thread (std::system_error), nothing is left queued that no thread would
      // ever run. Before, running_ stayed set without a thread, every later operation of the
      // stream was queued for nobody, and cudaDeviceSynchronize waited for them forever (one
      // candidate for the runtime API fuzzer's hang on long inputs, which leave many streams
      // behind). The new thread waits for mutex_, held here, before it looks at the queue.
      try {
        thread_ = HostThread([this] { loop(); });
      } catch (...) {
        refused = std::current_exception();
      }
      if (!refused) {
        running_ = true;
        tail_ = operation.done;
        pending_.push_back(std::move(operation));
        return;
      }
    } else {
      tail_ = operation.done;
      pending_.push_back(std::move(operation));
    }
  }
  if (refused) {
    // The operation never runs: whoever holds its completion (an event recorded here) must not
    // wait for it forever. The caller's call fails; the next push tries a thread again.
    if (operation.done)
      operation.done->complete();
    std::rethrow_exception(refused);
  }
  wake_.notify_one();
}

CompletionPtr StreamQueue::tail() const {
  std::lock_guard lock(mutex_);
  return tail_;
}

bool StreamQueue::idle() const {
  CompletionPtr last = tail();
  return last == nullptr || last->done();
}

void StreamQueue::drain() const {
  if (CompletionPtr last = tail())
    last->wait();
}

void StreamQueue::loop() {
  currentQueue = this;
  for (;;) {
    StreamOperation operation;
    {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, kIdleTime, [this] { return stopping_ || !pending_.empty(); });
      if (pending_.empty()) {
        running_ = false;
        return;
      }
      operation = std::move(pending_.front());
      pending_.pop_front();
    }
    signal_.wait([&] {
      for (const CompletionPtr& before : operation.after)
        if (!before->done())
          return false;
      return true;
    });
    if (operation.run)
      operation.run();
    operation.done->complete();
  }
}

} // namespace ocelot::runtime::cpu
