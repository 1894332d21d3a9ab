#pragma once

#include <cstddef>
#include <functional>
#include <pthread.h>

namespace ocelot::runtime::cpu {

/// The stack of every thread that runs kernels (stream queues, launch workers): room for native
/// code with large frames (LLVM's fast register allocator gave the oracle-instrumented
/// while_switch kernel a 38 MB one; such kernels now run in the interpreter, see
/// kLargestNativeKernel), far more than the 8 MB a std::thread gets. Only the pages a kernel
/// touches are committed.
inline constexpr size_t kHostThreadStackBytes = size_t{512} << 20;

/// The largest stack frame native code may have; larger kernels run in the interpreter. What is
/// left of the stack is for the interpreter handlers and C library calls native code makes.
inline constexpr size_t kNativeFrameLimitBytes = kHostThreadStackBytes - (size_t{16} << 20);

/// A joinable thread with a kHostThreadStackBytes stack; the subset of std::thread the CPU device
/// uses. The constructor throws std::system_error when the system refuses a thread.
class HostThread {
public:
  HostThread() = default;
  explicit HostThread(std::function<void()> body);
  ~HostThread(); ///< joins a thread not joined yet (std::thread would terminate instead)
  HostThread(HostThread&& other) noexcept;
  HostThread& operator=(HostThread&& other) noexcept;
  HostThread(const HostThread&) = delete;
  HostThread& operator=(const HostThread&) = delete;

  bool joinable() const { return started_; }
  void join();

private:
  pthread_t thread_{};
  bool started_ = false;
};

} // namespace ocelot::runtime::cpu
