#include "runtime/cpu/HostThread.h"

#include <memory>
#include <system_error>
#include <utility>

namespace ocelot::runtime::cpu {
namespace {

void* start(void* argument) {
  std::unique_ptr<std::function<void()>> body(static_cast<std::function<void()>*>(argument));
  (*body)();
  return nullptr;
}

} // namespace

HostThread::HostThread(std::function<void()> body) {
  auto owned = std::make_unique<std::function<void()>>(std::move(body));
  pthread_attr_t attributes;
  int failure = pthread_attr_init(&attributes);
  if (failure == 0) {
    failure = pthread_attr_setstacksize(&attributes, kHostThreadStackBytes);
    if (failure == 0)
      failure = pthread_create(&thread_, &attributes, start, owned.get());
    pthread_attr_destroy(&attributes);
  }
  if (failure != 0)
    throw std::system_error(failure, std::generic_category(), "cannot start a CPU device thread");
  owned.release(); // the thread owns it now
  started_ = true;
}

HostThread::~HostThread() {
  if (started_)
    join();
}

HostThread::HostThread(HostThread&& other) noexcept
    : thread_(other.thread_), started_(std::exchange(other.started_, false)) {}

HostThread& HostThread::operator=(HostThread&& other) noexcept {
  if (this != &other) {
    if (started_)
      join();
    thread_ = other.thread_;
    started_ = std::exchange(other.started_, false);
  }
  return *this;
}

void HostThread::join() {
  if (!started_)
    return;
  pthread_join(thread_, nullptr);
  started_ = false;
}

} // namespace ocelot::runtime::cpu
