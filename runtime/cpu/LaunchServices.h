#pragma once

#include "runtime/cpu/DecodedKernel.h"
#include "runtime/cpu/Fault.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>
#include <vector_types.h>

namespace ocelot::runtime::cpu {

class DeviceMemory;
class ExecutionTracer;
class NativeCompiler;
struct NativeKernel;
struct TextureObject;

/// The device malloc() heap: allocations from device memory, bounded by cudaLimitMallocHeapSize.
class DeviceHeap {
public:
  DeviceHeap(DeviceMemory& memory, size_t limit) : memory_(memory), limit_(limit) {}
  uint64_t allocate(uint64_t bytes);
  void release(uint64_t address);
  void setLimit(size_t limit) { limit_ = limit; }
  size_t limit() const { return limit_; }

private:
  DeviceMemory& memory_;
  std::mutex mutex_;
  size_t limit_;
  size_t used_ = 0;
  std::vector<std::pair<uint64_t, size_t>> live_;
};

/// Where cudaGraphSetConditional (a device-runtime call in kernels of conditional graphs) writes:
/// the conditional values of the graph launch the kernel runs in.
class ConditionalValues {
public:
  virtual ~ConditionalValues() = default;
  virtual void set(uint64_t handle, uint32_t value) = 0;
};

/// The watchdog when OCELOT_CPU_WATCHDOG_MS is not set: a kernel that loops forever fails after
/// ten minutes instead of hanging the application; the CPU device runs kernels that take seconds
/// on a GPU for minutes, so the limit is generous.
constexpr uint32_t kDefaultWatchdogMs = 600'000;
/// What one printf takes of the printf FIFO: an H200 (CUDA 13.0) printed 2,048 two-argument
/// lines through a 512 KiB FIFO and 4,096 through 1 MiB.
constexpr size_t kPrintfRecordBytes = 256;
/// The smallest printf FIFO: smaller cudaLimitPrintfFifoSize values give this one (as measured).
constexpr size_t kMinPrintfFifoBytes = 512 << 10;
/// The largest cudaLimitStackSize NVIDIA's runtime accepts (measured on an H200, CUDA 13.0).
constexpr size_t kMaxStackBytes = 523'712;
/// A launch still running after this long is reported once (kernel, CTA, the limit).
constexpr uint32_t kLongLaunchReportMs = 30'000;

/// Options of the CPU device that change how launches run (read from the environment by the
/// device, settable by tests).
struct ExecutionOptions {
  bool memcheck = false; ///< OCELOT_MEMCHECK=1: exact allocation bounds on every access
  /// OCELOT_CPU_WATCHDOG_MS: a launch running longer fails with cudaErrorLaunchTimeout; 0 = no
  /// watchdog (and no report of long launches).
  uint32_t watchdogMs = kDefaultWatchdogMs;
  /// A launch running this long is reported once (with the watchdog on).
  uint32_t longLaunchReportMs = kLongLaunchReportMs;
  uint32_t workers = 0;       ///< OCELOT_CPU_WORKERS: 0 = one per core
  bool deterministic = false; ///< OCELOT_CPU_DETERMINISTIC=1: one worker, CTAs in order
  uint32_t stackBytes = 1024; ///< cudaLimitStackSize: local memory per thread beyond frames
  /// OCELOT_CPU_EXECUTOR: the LLVM executor (runtime/cpu/llvm), or null to interpret everything.
  std::shared_ptr<NativeCompiler> compiler;
};

/// A grid launched from device code (dynamic parallelism), run after the grid that launched it.
struct DeviceLaunch {
  std::shared_ptr<const DecodedKernel> kernel;
  dim3 grid, block;
  uint32_t dynamicShared = 0;
  uintptr_t parameters = 0; ///< the parameter buffer the launching thread filled
  uint64_t stream = 0;      ///< 0x3: cudaStreamTailLaunch (runs after the others)
  bool launched = false;    ///< false: a buffer taken but never launched (released unused)
};

/// One launch as every worker sees it: the kernel, its geometry and parameters, and what the
/// launch produces besides memory writes (printf output, the first fault).
struct LaunchState {
  const DecodedKernel* kernel = nullptr;
  /// The kernel's native code when the LLVM executor runs it (set by LaunchRunner).
  const NativeKernel* native = nullptr;
  dim3 grid, block;
  uint32_t dynamicShared = 0;
  uintptr_t parameters = 0; ///< the parameter buffer in device memory
  uint64_t gridId = 0;
  uint64_t gridWorkspace = 0; ///< cooperative launches: zeroed device memory for grid.sync()
  bool cooperative = false;   ///< every CTA resident at once (interleaved on one worker)
  uint32_t smCount = 1;
  DeviceMemory* memory = nullptr;
  DeviceHeap* heap = nullptr;
  ExecutionTracer* tracer = nullptr;
  /// Texture and surface objects by handle - 1 (see TextureObjects.h).
  TextureObject* const* textures = nullptr;
  uint32_t textureCount = 0;
  /// Kernels of graph launches: the launch's conditional values (null outside graphs, where
  /// cudaGraphSetConditional has nothing to set).
  ConditionalValues* conditionals = nullptr;
  ExecutionOptions options;
  std::chrono::steady_clock::time_point deadline;
  /// When a still-running launch is reported (once: longLaunchReported).
  std::chrono::steady_clock::time_point reportAt;
  std::atomic<bool> longLaunchReported{false};

  /// Set when a CTA faults: the other workers stop taking CTAs.
  std::atomic<bool> abort{false};
  std::mutex faultMutex;
  std::string faultMessage;
  FaultKind faultKind = FaultKind::None;

  /// printf records the launch may still print: the printf FIFO (cudaLimitPrintfFifoSize) holds
  /// this many, and what does not fit is dropped, as on a GPU.
  std::atomic<uint64_t> printfRecordsLeft{UINT64_MAX};
  bool takePrintfRecord() {
    uint64_t left = printfRecordsLeft.load(std::memory_order_relaxed);
    while (left != 0)
      if (printfRecordsLeft.compare_exchange_weak(left, left - 1, std::memory_order_relaxed))
        return true;
    return false;
  }

  /// printf output by CTA (merged in CTA order when the launch ends, so that output does not
  /// depend on how CTAs were spread over workers).
  std::mutex outputMutex;
  std::vector<std::pair<uint64_t, std::string>> output;

  /// Grids its threads launched (cudaLaunchDevice), in the order they were launched, and the
  /// device runtime's last error.
  std::mutex deviceLaunchMutex;
  std::vector<DeviceLaunch> deviceLaunches;
  std::atomic<uint32_t> deviceError{0};
  uint32_t nestingDepth = 0; ///< 0 for host launches; children are one deeper

  uint64_t ctaCount() const { return uint64_t{grid.x} * grid.y * grid.z; }
  uint32_t threadsPerCta() const { return block.x * block.y * block.z; }
  /// Records the first fault (later ones are dropped, as a GPU reports one error).
  void recordFault(FaultKind kind, std::string message);
};

/// What a builtin function call (vprintf, malloc, free, __assertfail) reaches besides the warp.
struct LaunchServices {
  LaunchState* launch = nullptr;
  std::string* ctaOutput = nullptr; ///< this CTA's printf output
  uint64_t ctaIndex = 0;
};

} // namespace ocelot::runtime::cpu
