#pragma once

#include "runtime/core/HandleTable.h"
#include "runtime/core/Registry.h"

#include <cstddef>
#include <driver_types.h>
#include <vector>
#include <vector_types.h>

namespace ocelot::runtime {

/// What `kernel<<<grid, block, sharedMem, stream>>>` pushed before the launch stub runs.
struct CallConfiguration {
  dim3 grid;
  dim3 block;
  size_t sharedMem = 0;
  cudaStream_t stream = nullptr;
};

/// <<<...>>> pushes a configuration and the launch stub pops it. A stack because the arguments of
/// a launch may themselves launch kernels (`k<<<g, b>>>(f())` where f launches). The first levels
/// live inline, so that push and pop on the launch path neither allocate nor follow a pointer.
class CallConfigurationStack {
public:
  void push(const CallConfiguration& configuration) {
    if (size_ < kInline) [[likely]]
      inline_[size_] = configuration;
    else
      deeper_.push_back(configuration);
    ++size_;
  }
  /// The configuration pushed last, removed; false when there is none.
  bool pop(CallConfiguration* configuration) {
    if (size_ == 0)
      return false;
    --size_;
    if (size_ < kInline) [[likely]] {
      *configuration = inline_[size_];
    } else {
      *configuration = deeper_.back();
      deeper_.pop_back();
    }
    return true;
  }
  size_t size() const { return size_; }

private:
  static constexpr size_t kInline = 4;
  size_t size_ = 0;
  CallConfiguration inline_[kInline];
  std::vector<CallConfiguration> deeper_;
};

/// The Runtime API state that belongs to one host thread. NVIDIA's runtime keeps the last error and
/// the current device per thread, and so does Ocelot.
struct ThreadState {
  /// What cudaGetLastError returns (and resets) and cudaPeekAtLastError returns.
  cudaError_t lastError = cudaSuccess;
  /// The device cudaSetDevice selected for this thread.
  int currentDevice = 0;
  CallConfigurationStack callConfigurations;
  /// The launch path's kernel lookups (Registry::findLaunchable).
  Registry::LaunchCache launchCache;
  /// The launch path's last stream lookup (Streams::find).
  HandleCache streamCache;

  /// Records a failed call. Success leaves the last error alone, and so does cudaErrorNotReady,
  /// which cudaStreamQuery and cudaEventQuery return as a status, not as an error (both as in
  /// NVIDIA's runtime).
  void record(cudaError_t error) {
    if (error != cudaSuccess && error != cudaErrorNotReady)
      lastError = error;
  }
};

/// The calling thread's ThreadState once Runtime::thread() has created it. A pointer needs no
/// construction guard, so API calls reach their per-thread state with one thread-local access
/// (a guarded thread_local object takes two).
inline constinit thread_local ThreadState* tThreadState = nullptr;

} // namespace ocelot::runtime
