#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace ocelot {

/// When a device ran something: a kernel or a data movement (copy, memset), in nanoseconds of
/// one clock.
struct DeviceInterval {
  enum class Kind { Kernel, Transfer };
  int device = 0;
  uint64_t stream = 0;
  Kind kind = Kind::Kernel;
  double startNs = 0, endNs = 0;
  double duration() const { return endNs > startNs ? endNs - startNs : 0; }
};

/// A stretch of time in which the host did its own work (not waiting for a device).
struct HostInterval {
  double startNs = 0, endNs = 0;
};

/// The host-side measures of seed 001 (the GPU Computation Percentage and GPU Load Balance
/// thesis, sections 3.2 and 3.3) for one device, or summed over all devices:
///   kernel device time    = the time kernels execute on the device (their durations, summed)
///   data movement time    = the time data movement functions execute on the device
///   device time           = kernel device time + data movement time
///   GCP = kernel device time / device time                                        (Equation 1)
///   GLB = device time / the application's wall clock time                         (Equation 2)
/// As the thesis defines them from per-operation device times (CudaProf's gputime), times are
/// sums: work that overlaps on several streams counts once per operation, so GLB may exceed 1
/// there; `busyNs` (the union of the intervals) says how much wall time the device had anything
/// running.
struct DeviceTimes {
  int device = -1; ///< -1: all devices together
  uint64_t kernels = 0, transfers = 0;
  double kernelNs = 0;
  double transferNs = 0;
  double busyNs = 0;
  double deviceNs() const { return kernelNs + transferNs; }
  /// Equation 1; nullopt without device time (nothing ran).
  std::optional<double> gcp() const;
  /// Equation 2 over `wallNs`; across `devices` devices each has the whole wall time, so the
  /// value across devices is the mean of the per-device values. nullopt without wall time.
  std::optional<double> glb(double wallNs, size_t devices = 1) const;
};

/// The measures of a run: per device (ascending ordinals), across devices, and the overlap of
/// host and device work.
struct HostMeasures {
  double wallNs = 0;
  std::vector<DeviceTimes> devices;
  DeviceTimes all;
  double gpuBusyNs = 0;  ///< the union of every device's intervals
  double hostBusyNs = 0; ///< the union of the host intervals
  /// Host work and device work at the same time: |host busy ∩ GPU busy|.
  double overlapNs = 0;
  std::optional<double> glbAcrossDevices() const {
    return all.glb(wallNs, devices.empty() ? 1 : devices.size());
  }
};

/// Computes the measures of `intervals` in the wall clock window [wallStartNs, wallEndNs], with
/// the host's own work `host` (empty: unknown, overlap 0).
HostMeasures computeHostMeasures(std::span<const DeviceInterval> intervals, double wallStartNs,
                                 double wallEndNs, std::span<const HostInterval> host = {});

/// Whether the host waits for the device in the Runtime API call `name` (cudaMemcpyAsync,
/// cudaDeviceSynchronize, ...): a synchronization, or a copy that is not Async (cudaMemcpy,
/// cudaMemcpy2D, cudaMemcpyToSymbol, ... return when the copy is done). The host's own work is the
/// time outside such calls.
bool apiCallWaitsForDevice(std::string_view name);

/// The total length of the union of [start, end) intervals.
double unionLength(std::vector<std::pair<double, double>> intervals);

} // namespace ocelot
