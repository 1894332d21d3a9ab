#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <driver_types.h>
#include <vector_types.h>

namespace ocelot::runtime {

class Stream;

/// A module a device loaded, and the kernels and globals in it. Opaque to the runtime; each device
/// implementation gives them its own meaning (a CUmodule / CUfunction for the NVIDIA driver).
using DeviceModule = void*;
using DeviceFunction = void*;

/// One kernel launch, after the runtime resolved the kernel and the stream.
struct LaunchParams {
  DeviceFunction function = nullptr;
  dim3 grid;
  dim3 block;
  size_t sharedMem = 0;
  Stream* stream = nullptr; ///< one of the launching device's streams
  void** args = nullptr;    ///< one pointer per kernel parameter
  /// cudaLaunchKernelExC's launch attributes (cluster dimensions, priority, programmatic stream
  /// serialization, cooperative, ...), validated by the runtime; null for a plain launch.
  const cudaLaunchAttribute* attributes = nullptr;
  unsigned int attributeCount = 0;
  /// cudaLaunchCooperativeKernel: every block must be resident at once (grid.sync()).
  bool cooperative = false;
};

} // namespace ocelot::runtime
