#include "runtime/instrumentation/ProfileWorker.h"

namespace ocelot::runtime::instrumentation {

ProfileWorker::~ProfileWorker() {
  // The thread waits on this object's members: it must end before they do. Launches still queued
  // are dropped (their owner is going away; the process's runtime never is destroyed).
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  if (!thread_.joinable())
    return;
  if (thread_.get_id() == std::this_thread::get_id())
    thread_.detach(); // destroyed from a completion on the worker itself
  else
    thread_.join();
}

void ProfileWorker::begin() {
  std::lock_guard lock(mutex_);
  ++begun_;
  if (!thread_.joinable())
    thread_ = std::thread([this] { run(); });
}

void ProfileWorker::push(std::unique_ptr<PendingLaunch> launch) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(launch));
  }
  work_.notify_one();
}

void ProfileWorker::completeHere(std::unique_ptr<PendingLaunch> launch) {
  complete_(std::move(launch));
  finished();
}

void ProfileWorker::finished() {
  {
    std::lock_guard lock(mutex_);
    ++completed_;
  }
  done_.notify_all();
}

bool ProfileWorker::flush(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  uint64_t target = begun_;
  auto reached = [&] { return completed_ >= target; };
  if (timeout == std::chrono::milliseconds::max()) {
    done_.wait(lock, reached);
    return true;
  }
  return done_.wait_for(lock, timeout, reached);
}

uint64_t ProfileWorker::pending() const {
  std::lock_guard lock(mutex_);
  return begun_ - completed_;
}

void ProfileWorker::run() {
  while (true) {
    std::unique_ptr<PendingLaunch> launch;
    {
      std::unique_lock lock(mutex_);
      work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_)
        return;
      launch = std::move(queue_.front());
      queue_.pop_front();
    }
    complete_(std::move(launch));
    finished();
  }
}

} // namespace ocelot::runtime::instrumentation
