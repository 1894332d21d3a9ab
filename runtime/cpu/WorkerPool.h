#pragma once

#include "runtime/cpu/HostThread.h"

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace ocelot::runtime::cpu {

/// Host threads that run the CTAs of a launch. They live as long as the device, so a launch costs
/// two condition-variable round trips, not thread creation. `run` calls job(worker) once on every
/// worker (worker 0 is the calling thread) and returns when all are done.
class WorkerPool {
public:
  explicit WorkerPool(uint32_t workers);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  uint32_t size() const { return static_cast<uint32_t>(threads_.size()) + 1; }
  void run(const std::function<void(uint32_t worker)>& job);

private:
  void loop(uint32_t worker);

  std::mutex mutex_;
  std::condition_variable start_, done_;
  const std::function<void(uint32_t)>* job_ = nullptr;
  uint64_t generation_ = 0;
  uint32_t pending_ = 0;
  bool stop_ = false;
  std::vector<HostThread> threads_;
};

} // namespace ocelot::runtime::cpu
