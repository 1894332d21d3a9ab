#pragma once

#include <atomic>

namespace ocelot::runtime {

/// How many forks separate this process from the one that started: a process-wide fact, kept by a
/// pthread_atfork child handler. A runtime remembers the count when it starts its platform; a
/// different count later means the calling process is a fork of the one that owns the platform.
/// Its stream and worker threads do not exist in the child (fork copies only the calling thread),
/// so the child must not use them: like NVIDIA's runtime, every call there then fails with
/// cudaErrorInitializationError instead of waiting forever for work no thread will run.
class ForkGuard {
public:
  /// Installs the handler once per process (the first runtime that starts a platform).
  static void watch();
  /// The current count: one relaxed load, cheap enough for the launch path.
  static unsigned forks() { return forks_.load(std::memory_order_relaxed); }

private:
  static void onChild();
  static inline std::atomic<unsigned> forks_{0};
};

} // namespace ocelot::runtime
