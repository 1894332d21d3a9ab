#include "runtime/core/ForkGuard.h"

#include <mutex>
#include <pthread.h>

namespace ocelot::runtime {

void ForkGuard::watch() {
  static std::once_flag installed;
  std::call_once(installed, [] { pthread_atfork(nullptr, nullptr, &ForkGuard::onChild); });
}

// Runs in the child right after fork(): async-signal-safe work only.
void ForkGuard::onChild() {
  forks_.fetch_add(1, std::memory_order_relaxed);
}

} // namespace ocelot::runtime
