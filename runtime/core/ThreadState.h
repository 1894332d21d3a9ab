#pragma once

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

/// The Runtime API state that belongs to one host thread. NVIDIA's runtime keeps the last error and
/// the current device per thread, and so does Ocelot.
struct ThreadState {
  /// What cudaGetLastError returns (and resets) and cudaPeekAtLastError returns.
  cudaError_t lastError = cudaSuccess;
  /// The device cudaSetDevice selected for this thread.
  int currentDevice = 0;
  /// <<<...>>> pushes a configuration and the launch stub pops it. It is a stack because the
  /// arguments of a launch may themselves contain launches.
  std::vector<CallConfiguration> callConfigurations;

  /// Records a failed call. Success leaves the last error alone, and so does cudaErrorNotReady,
  /// which cudaStreamQuery and cudaEventQuery return as a status, not as an error (both as in
  /// NVIDIA's runtime).
  void record(cudaError_t error) {
    if (error != cudaSuccess && error != cudaErrorNotReady)
      lastError = error;
  }
};

} // namespace ocelot::runtime
