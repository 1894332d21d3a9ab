#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ocelot {

/// Grid or block dimensions.
struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t volume() const { return uint64_t{x} * y * z; }
  friend bool operator==(const Dim3&, const Dim3&) = default;
};

/// Which kernel node of which CUDA graph launch a launch is.
struct GraphNodeLaunch {
  uint64_t graph = 0; ///< the executable graph (cudaGraphExec_t) as an integer
  /// The node's id: that of the node the application added or capture made (unique in the
  /// process; nodes of child graphs and conditional bodies have their own).
  uint64_t node = 0;
  uint64_t graphLaunch = 0; ///< 1, 2, ...: the how-manieth launch of this executable graph
};

/// One kernel launch as the application made it (the configuration Ocelot never changes).
struct LaunchInfo {
  std::string kernelName;    ///< as in the PTX (mangled for C++ kernels)
  std::string demangledName; ///< `add(int*, int*)`; equal to kernelName for extern "C" kernels
  /// 1, 2, ... over the whole process: every launch Ocelot sees gets the next number, whether it
  /// is instrumented or not.
  uint64_t launchId = 0;
  /// 1, 2, ...: the how-manieth launch of this kernel (by name) this is.
  uint64_t kernelLaunchIndex = 0;
  int device = 0;
  Dim3 grid;
  Dim3 block;
  size_t dynamicSharedMemory = 0;
  uint64_t stream = 0; ///< the cudaStream_t handle as an integer (0: the legacy default stream)
  /// The host functions that made the launch, innermost first (the kernel's host stub, its
  /// caller, ... up to main): named when the profile is completed; empty when call stacks are off
  /// (OCELOT_CALL_STACKS=0) or not yet named.
  std::vector<std::string> callPath;
  /// The launching thread's NVTX push/pop ranges when Ocelot is the NVTX injection library,
  /// outermost first: `name` in the default domain, `domain@name` in others; empty without NVTX.
  std::vector<std::string> nvtxRanges;
  /// Set when the launch is a kernel node of a graph launch (cudaGraphLaunch).
  std::optional<GraphNodeLaunch> graphNode;

  uint64_t ctas() const { return grid.volume(); }
  uint64_t threadsPerCta() const { return block.volume(); }
  uint64_t threads() const { return ctas() * threadsPerCta(); }
  /// Warps per CTA (a partial warp counts as one).
  uint64_t warpsPerCta() const { return (threadsPerCta() + 31) / 32; }
};

/// What finalize() may need to know about the device a launch ran on, and how long it ran there.
struct DeviceFacts {
  int multiprocessors = 0;   ///< SM count
  int clockRateKHz = 0;      ///< the SMs' peak clock; 0 when unknown
  int computeCapability = 0; ///< 90 for sm_90
  /// The launch's GPU time, between events recorded around the kernel; 0 when unknown.
  double kernelMilliseconds = 0;
};

} // namespace ocelot
