#pragma once

#include "ocelot/HostMeasures.h"
#include "ocelot/KernelProfile.h"

#include <climits>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace ocelot {

/// What people read at the end of `ocelot run`: profiles folded per kernel (launches, instrumented
/// launches, block executions, dynamic instructions, GPU time, SM imbalance) and per basic block
/// (counts summed over launches, with source lines). Thread safe; add() is cheap enough to call
/// for every profile on the profile thread.
class ProfileSummary {
public:
  struct Kernel {
    std::string demangled;
    uint64_t launches = 0;
    uint64_t instrumented = 0;
    uint64_t failed =
        0; ///< instrumented launches whose results were dropped (see Execution::Failed)
    uint64_t blockExecutions = 0;
    uint64_t instructions = 0;
    double gpuMs = 0;
    uint64_t clockLaunches = 0;
    double imbalanceSum = 0, imbalanceMax = 0;
    uint64_t ctas = 0;
    uint32_t smsUsed = 0, sms = 0; ///< of the last CtaClock launch
    std::string lastNote;
  };
  struct Block {
    uint64_t count = 0;
    uint64_t instructions = 0; ///< count x the block's instructions
    std::string label, location;
  };
  /// (kernel, function, block index)
  using BlockKey = std::tuple<std::string, std::string, uint32_t>;
  /// One launch site (issue 16, like TAUcuda's): launches of a kernel from one host call path on
  /// one device and stream.
  struct Site {
    uint64_t launches = 0;
    double gpuMs = 0;
  };
  /// (kernel, call path outermost first as "main > f > g", device, stream)
  using SiteKey = std::tuple<std::string, std::string, int, uint64_t>;
  /// The call path of a launch as the summary and the report print it: outermost first.
  static std::string callPathText(const std::vector<std::string>& innermostFirst);

  void add(const KernelProfile& profile);
  /// Launches that never reach the instrumentation and so have no profile (graph launches), with
  /// why: counted in the coverage.
  void addUnprofiled(const std::string& reason, uint64_t launches = 1);
  /// Host measures (docs/report.md): a copy or memset (Transfer), or a kernel launch without a
  /// profile (Kernel), on `device`, called at `enqueuedNs` and `gpuNs` long on the device
  /// (negative: not measured). They go into the host-side measures' device times.
  void addDeviceWork(DeviceInterval::Kind kind, int device, int64_t enqueuedNs, double gpuNs);
  /// Host measures are on: transfers and unprofiled kernels reach addDeviceWork, so none is a
  /// value (0), not "not recorded".
  void setDeviceWorkRecorded();
  /// The host's Runtime API calls (host measures on): how many, on how many threads, their time
  /// and the time of those that wait for the device (apiCallWaitsForDevice).
  struct HostApi {
    uint64_t calls = 0, threads = 0;
    double callNs = 0, waitingNs = 0;
  };
  void setHostApi(const HostApi& api);
  bool empty() const;
  /// The report: top kernels by dynamic instructions (then launches), the hottest blocks, the
  /// per-SM imbalance of each kernel CtaClock measured, the launch sites (kernel, call path,
  /// device, stream; when launches carry call paths), and notes. Lines fit in `columns`
  /// (default: the terminal's width, terminalColumns()); names are cut only where they would not
  /// fit, and never with `columns` 0 (no limit: a file, a pipe).
  std::string format(size_t topKernels = 10, size_t topBlocks = 15,
                     size_t columns = defaultColumns()) const;
  static size_t defaultColumns();

private:
  mutable std::mutex mutex_;
  std::map<std::string, Kernel> kernels_;
  std::map<BlockKey, Block> blocks_;
  std::map<SiteKey, Site> sites_; ///< launches that carry a call path
  /// (kernel, instrumentor) -> the last launch's summary line, for results other than bbcount's
  /// and ctaclock's (plugins, probe tools), whose lines cannot be added up across launches.
  std::map<std::pair<std::string, std::string>, std::string> toolLines_;
  /// Per device: kernel device time for GCP and GLB (ocelot/HostMeasures.h), over the profiled
  /// span from the first launch call to the last delivery.
  std::map<int, DeviceTimes> devices_;
  int64_t firstEnqueuedNs_ = INT64_MAX, lastCompletedNs_ = INT64_MIN;
  bool deviceWorkRecorded_ = false;
  uint64_t unprofiledKernels_ = 0;
  double unprofiledKernelNs_ = 0;
  std::optional<HostApi> hostApi_;
  /// Coverage (issue 14): GPU time of instrumented launches and of the others, and why launches
  /// were not instrumented (the profile's last note; launches without a profile apart).
  double instrumentedMs_ = 0, otherMs_ = 0;
  std::map<std::string, uint64_t> reasons_, unprofiled_;
};

} // namespace ocelot
