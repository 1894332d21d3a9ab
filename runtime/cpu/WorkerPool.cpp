#include "runtime/cpu/WorkerPool.h"

namespace ocelot::runtime::cpu {

WorkerPool::WorkerPool(uint32_t workers) {
  for (uint32_t i = 1; i < std::max<uint32_t>(workers, 1); ++i)
    threads_.emplace_back([this, i] { loop(i); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (HostThread& thread : threads_)
    thread.join();
}

void WorkerPool::run(const std::function<void(uint32_t)>& job) {
  {
    std::lock_guard lock(mutex_);
    job_ = &job;
    pending_ = static_cast<uint32_t>(threads_.size());
    ++generation_;
  }
  start_.notify_all();
  job(0);
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return pending_ == 0; });
  job_ = nullptr;
}

void WorkerPool::loop(uint32_t worker) {
  uint64_t seen = 0;
  for (;;) {
    const std::function<void(uint32_t)>* job = nullptr;
    {
      std::unique_lock lock(mutex_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_)
        return;
      seen = generation_;
      job = job_;
    }
    (*job)(worker);
    {
      std::lock_guard lock(mutex_);
      if (--pending_ == 0)
        done_.notify_all();
    }
  }
}

} // namespace ocelot::runtime::cpu
