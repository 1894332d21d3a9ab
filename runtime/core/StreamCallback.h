#pragma once

#include <cuda_runtime_api.h>

#include <driver_types.h>

namespace ocelot::runtime {

/// cudaStreamAddCallback on top of a device's host functions: the callback, its data and the stream
/// the application named travel to the host function, which calls the callback once (with
/// cudaSuccess: work that failed never reaches it, as the context is then unusable) and frees the
/// record.
struct StreamCallback {
  cudaStreamCallback_t callback = nullptr;
  void* userData = nullptr;
  cudaStream_t stream = nullptr;

  /// The host function handed to the device; `record` is a StreamCallback from new.
  static void CUDART_CB run(void* record);
};

} // namespace ocelot::runtime
